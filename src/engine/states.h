/* states.h — checkpoint storage and comparison (see states.c). The
 * explored-state lists, the counters behind peak_states and
 * peak_state_mem, and states_equal are reached only through here. */
#ifndef RB_ENGINE_STATES_H
#define RB_ENGINE_STATES_H

#include <stdbool.h>

#include "engine/state.h"

/* how states_equal compares scalars (the kernel's enum exact_level) */
enum { NOT_EXACT, EXACT, RANGE_WITHIN };

/* the instruction frame `fr` of st is at: its own insn for the innermost
 * frame, the callsite of the next frame for callers */
static inline int rb_frame_insn_idx(const struct rb_vstate *st, int fr)
{
	return fr == st->curframe ? st->insn_idx : st->frame[fr + 1]->callsite;
}

/* storage */
int rb_states_init(struct rb_env *env);
void rb_states_free(struct rb_env *env);
/* free_states between verification passes: nothing explored to match any more */
void rb_states_forget(struct rb_env *env);
/* the list head of the bucket holding checkpoints at (insn_idx, st's callsite) */
struct rb_vstate **rb_states_list(struct rb_env *env, int insn_idx, const struct rb_vstate *st);
/* store a copy of cur as a checkpoint at insn_idx (RB_E_LIMIT past RB_STATE_BUDGET) */
int rb_states_store(struct rb_env *env, const struct rb_vstate *cur, int insn_idx, struct rb_vstate **out);
/* unlink *pp from its list; keep_alive: on the free list while paths
 * through it are pending, else freed (6.18 maybe_free_verifier_state) */
void rb_states_evict(struct rb_env *env, struct rb_vstate **pp, bool keep_alive);
/* the last path through st ended: freed if it is on the free list */
void rb_states_leave_free_list(struct rb_env *env, struct rb_vstate *st);

/* counters: bytes of live states (peak_state_mem) and stored states (peak_states) */
void rb_states_mem_add(struct rb_env *env, struct rb_vstate *st);
void rb_states_mem_sub(struct rb_env *env, struct rb_vstate *st);
void rb_update_peak(struct rb_env *env);

/* comparison */
bool rb_states_equal(struct rb_env *env, const struct rb_vstate *o, const struct rb_vstate *c, int exact);
/* widen_imprecise_scalars: imprecise scalars of cur that differ from old's become unknown */
void rb_widen_imprecise_scalars(struct rb_env *env, const struct rb_vstate *old, struct rb_vstate *cur);
/* find_prev_entry: the most recent checkpoint at insn_idx on cur's path
 * (still being explored, same call chain, shallower), or NULL */
struct rb_vstate *rb_find_prev_entry(struct rb_env *env, const struct rb_vstate *cur, int insn_idx);
/* the same call chain: frames and each frame's callsite (6.18 same_callsites) */
bool rb_same_callsites(const struct rb_vstate *a, const struct rb_vstate *b);
bool rb_states_maybe_looping(struct rb_env *env, const struct rb_vstate *o, const struct rb_vstate *c);

#endif
