/* kfunc_table72.h — the kfuncs of the 7.2 profile the 6.18 table lacks
 * (sched_ext's, the arena's and those only 7.2.13's build registers,
 * Linux 7.2.13), with the kfunc id sets that list them and
 * sched_ext's per-op filter; see kfunc_table72.c. */
#ifndef RB_ENGINE_KFUNC_TABLE72_H
#define RB_ENGINE_KFUNC_TABLE72_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/kfunc_table.h"

struct rb_profile;
struct rb_st_ops;
struct rb_st_member;

/* sched_ext's kfunc id sets (7.2.13 scx_kfunc_ids_*) */
#define RB_SCX_SET_UNLOCKED (1u << 0)
#define RB_SCX_SET_INIT (1u << 1)
#define RB_SCX_SET_SELECT_CPU (1u << 2)
#define RB_SCX_SET_ENQUEUE_DISPATCH (1u << 3)
#define RB_SCX_SET_DISPATCH (1u << 4)
#define RB_SCX_SET_CPU_RELEASE (1u << 5)
#define RB_SCX_SET_IDLE (1u << 6)
#define RB_SCX_SET_ANY (1u << 7)
#define RB_SCX_SET_CPU_ONLY (1u << 8)
#define RB_SCX_SET_CID (1u << 9)

/* which switch of the profile (profile.h) brings a row in */
enum rb_kfunc72_gate {
	RB_K72_SCX,   /* sched_ext: sched_ext's kfuncs */
	RB_K72_ARENA, /* arena_kfuncs: kernel/bpf/arena.c's common set */
	RB_K72_BUILD, /* kfunc_sets_72: kfuncs Debian's 7.2.13 build registers, 6.18.44's here not */
	RB_K72_GRAPH, /* graph_kfuncs_72: 7.2.13's implicit-argument allocation and graph kfuncs */
};

struct rb_kfunc72 {
	struct rb_kfunc k; /* flags in 7.2's numbering (KF_IMPLICIT_ARGS ...) */
	uint32_t sets;     /* RB_SCX_SET_* */
	enum rb_kfunc72_gate gate;
};

/* the row of the kfunc called name, NULL when this table has none */
const struct rb_kfunc72 *rb_kfunc72_row(const char *name);
/* the row of the kfunc called name when profile p has it, NULL otherwise */
const struct rb_kfunc72 *rb_kfunc72_row_in(const char *name, const struct rb_profile *p);
/* rows in name order (for tests) */
const struct rb_kfunc72 *rb_kfunc72_rows(int *n);
/* 7.2.13 scx_kfunc_context_filter: may a program of prog_type (a
 * struct_ops program: of type st, member sm) call a kfunc of these sets? */
bool rb_kfunc72_filter(uint32_t sets, uint32_t prog_type, const struct rb_st_ops *st, const struct rb_st_member *sm);

#endif
