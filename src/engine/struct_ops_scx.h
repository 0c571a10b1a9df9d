/* struct_ops_scx.h — sched_ext's struct_ops types (sched_ext_ops and
 * sched_ext_ops_cid) in the 7.2 profile, following Linux 7.2.13
 * kernel/sched/ext/ext.c; see struct_ops_scx.c. */
#ifndef RB_ENGINE_STRUCT_OPS_SCX_H
#define RB_ENGINE_STRUCT_OPS_SCX_H

struct rb_st_ops;

/* 7.2.13 enum scx_kf_allow_flags: the context-sensitive kfunc groups an
 * op may call (scx_kf_allow_flags[]) */
#define RB_SCX_ALLOW_UNLOCKED (1u << 0)
#define RB_SCX_ALLOW_INIT (1u << 1)
#define RB_SCX_ALLOW_CPU_RELEASE (1u << 2)
#define RB_SCX_ALLOW_DISPATCH (1u << 3)
#define RB_SCX_ALLOW_ENQUEUE (1u << 4)
#define RB_SCX_ALLOW_SELECT_CPU (1u << 5)

/* the sched_ext struct_ops type called name, NULL when it is not one */
const struct rb_st_ops *rb_struct_ops_scx(const char *name);

#endif
