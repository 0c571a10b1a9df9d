/* helper_args.h — a helper call's argument registers against the
 * argument types of its helper_table.c row (Linux 6.18 check_func_arg). */
#ifndef RB_ENGINE_HELPER_ARGS_H
#define RB_ENGINE_HELPER_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/dynptr.h"
#include "engine/helper_table.h"
#include "engine/state.h"

/* what the argument checks learn for the return value */
struct rb_call_args {
	int map_idx;
	int32_t map_uid; /* meta->map.uid: the map_uid (RB_MAP_UID) of map_idx's pointer */
	int64_t const_key;
	uint64_t msize_max, alloc_size;
	uint32_t release_id;
	uint32_t ref_obj_id; /* the reference an argument holds (meta.ref_obj_id) */
	int subprog; /* A_FUNC: the callback (callbacks.c), -1 before */
	bool sockmap_refused; /* may_update_sockmap said no: refused after the arguments (rb_check_helper_map) */
	struct rb_dynptr_use dynptr; /* the dynptr argument (dynptr.c) */
	int32_t ret_btf_id; /* A_PERCPU_BTF: the per-CPU variable's type (meta.ret_btf_id) */
	bool ret_alloc_rcu;  /* ... an RCU per-CPU object of the program's type (returns_cpu_specific_alloc_ptr) */
	int32_t kptr_btf_id; /* A_KPTR_XCHG_DEST: the kptr's type (meta.kptr_field), vmlinux's or the program's */
	bool kptr_local;     /* ... a type of the program's own BTF (MEM_ALLOC objects) */
	bool kptr_percpu;    /* ... a percpu_kptr field (BPF_KPTR_PERCPU: MEM_PERCPU objects) */
};

/* argument a (0-based: register a + 1) against its declared type; what
 * it learns for the return value goes to ca (map_idx and const_key start
 * at -1, and subprog) */
int rb_check_helper_arg(struct rb_env *env, const struct rb_helper *p, int a, struct rb_call_args *ca);
/* after every argument (6.18 check_map_func_compatibility's place): 0, or
 * the refusal of a sockmap update from a program type that may not */
int rb_check_helper_map(struct rb_env *env, const struct rb_helper *p, const struct rb_call_args *ca);

#endif
