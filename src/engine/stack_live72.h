/* stack_live72.h — Linux 7.2.13's static stack liveness (profile.h
 * static_stack_liveness; see stack_live72.c). */
#ifndef RB_ENGINE_STACK_LIVE72_H
#define RB_ENGINE_STACK_LIVE72_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

/* 7.2 bpf_compute_subprog_arg_access: every subprogram's stack accesses
 * through frame-pointer-derived values, per (callsite, depth) instance,
 * and the half slots live before each instruction. Run once before
 * exploration, after the constant registers (const_fold.c) and the
 * subprogram order (subprog_topo.c): 0, RB_E_NOMEM, or a rejection (the
 * complexity limit) */
int rb_live72_compute(struct rb_env *env);
/* 7.2 states.c clean_verifier_state: st's dead registers become NOT_INIT
 * and its dead half slots invalid (STACK_POISON) */
void rb_live72_clean(struct rb_env *env, struct rb_vstate *st);
void rb_live72_free(struct rb_env *env);

#endif
