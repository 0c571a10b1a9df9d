/* kptrs.h — the destination argument of bpf_kptr_xchg (Linux 6.18
 * process_kptr_func). See kptrs.c. */
#ifndef RB_ENGINE_KPTRS_H
#define RB_ENGINE_KPTRS_H

#include "engine/state.h"

struct rb_call_args;
/* ARG_KPTR_XCHG_DEST in register regno: the kptr's type into ca */
int rb_check_kptr_xchg_dest(struct rb_env *env, int regno, struct rb_call_args *ca);
/* bpf_kptr_xchg's second argument (ARG_PTR_TO_BTF_ID_OR_NULL |
 * OBJ_RELEASE against the kptr's type): its reference into ca->release_id */
int rb_check_kptr_xchg_src(struct rb_env *env, int regno, struct rb_call_args *ca);
/* R0 of bpf_kptr_xchg: the old kptr, maybe NULL, acquired */
int rb_kptr_xchg_return(struct rb_env *env, const struct rb_call_args *ca, struct rb_reg *r0);
/* a per-CPU object stored by bpf_kptr_xchg (reference ref): 0, or
 * unsupported where a register or slot that survives the call still
 * holds it in an RCU critical section (ref_convert_alloc_rcu_protected
 * would make it an RCU pointer of the program's type, not modelled) */
int rb_kptr_percpu_stored(struct rb_env *env, uint32_t ref);

#endif
