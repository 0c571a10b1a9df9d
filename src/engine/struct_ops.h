/* struct_ops.h — struct_ops programs (Linux 6.18 check_struct_ops_btf_id and
 * the bpf_verifier_ops of the struct_ops types the running kernel has). */
#ifndef RB_ENGINE_STRUCT_OPS_H
#define RB_ENGINE_STRUCT_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

struct btf;

/* a member with a cfi stub (the kernel's bpf_struct_ops_supported); the
 * stub's parameter names carry the "__nullable"/"__ref" suffixes */
struct rb_st_member {
	const char *member, *stub;
	const uint64_t *helpers; /* this member's helper set, NULL: the type's */
	bool sleepable;          /* may be sleepable (check_member), when the type restricts it */
	uint32_t kf_allow;       /* sched_ext: the kfunc groups this op may call (RB_SCX_ALLOW_*) */
};

/* which kfunc filter a struct_ops type has (kfunc_table72.c) */
enum rb_st_kind { RB_ST_PLAIN, RB_ST_SCX, RB_ST_SCX_CID };

struct rb_st_ops {
	const char *name; /* the struct in vmlinux BTF */
	const struct rb_st_member *members;
	int nmembers;
	const uint64_t *helpers;   /* measured helper set (a bit per helper id) */
	bool sleepable_listed;     /* only members marked sleepable may be sleepable */
	/* is_valid_access: a context argument pointing to promote_from points to promote_to */
	const char *promote_from, *promote_to;
	/* btf_struct_access for writes; 0 or a rejection */
	int (*write)(struct rb_env *env, int regno, uint32_t struct_id, int off, int size);
	/* the helper set built into buf, in place of `helpers` (NULL: helpers) */
	const uint64_t *(*helper_set)(uint64_t buf[4]);
	enum rb_st_kind kind;
};

/* check_struct_ops_btf_id: the struct and member the program implements,
 * its context arguments (env->arg_type, env->nargs), 0 or the rejection */
int rb_struct_ops_init(struct rb_env *env);
/* is context argument `arg` NULL-able (its stub parameter ends in
 * "__nullable": the kernel's ctx_arg_info)? */
bool rb_struct_ops_arg_nullable(struct rb_env *env, int arg);
/* is_valid_access after btf_ctx_access: a pointer argument to
 * promote_from becomes one to promote_to */
void rb_struct_ops_promote(struct rb_env *env, struct rb_reg *r);
/* a store through a BTF pointer (btf_struct_access); 0 or a rejection */
int rb_struct_ops_write(struct rb_env *env, int regno, uint32_t struct_id, int off, int size);
/* offset and size of a member of vmlinux struct sname by a dotted path
 * (the BTF already loaded), false when absent */
bool rb_struct_ops_member_at(struct rb_env *env, const char *sname, const char *path, int *off, int *size);
/* the helper set of this program's member, NULL when not a struct_ops program */
const uint64_t *rb_struct_ops_helper_set(const struct rb_env *env);

#endif
