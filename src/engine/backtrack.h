/* backtrack.h — precision tracking (see backtrack.c). */
#ifndef RB_ENGINE_BACKTRACK_H
#define RB_ENGINE_BACKTRACK_H

#include "engine/state.h"

/* mark_chain_precision: the scalar in register regno of the current frame must be exact */
int rb_mark_chain_precision(struct rb_env *env, int regno);
/* the same for the scalar spilled in stack slot spi of frame frameno */
int rb_mark_stack_precision(struct rb_env *env, int frameno, int spi);
/* what is precise in old must be precise in cur's parent checkpoints too */
int rb_propagate_precision(struct rb_env *env, const struct rb_vstate *old, struct rb_vstate *cur);
/* a new checkpoint starts with every scalar imprecise */
void rb_mark_all_imprecise(struct rb_vstate *st);
/* the fallback when backtracking cannot follow: every scalar of every parent */
void rb_mark_all_scalars_precise(struct rb_env *env, struct rb_vstate *st);

#endif
