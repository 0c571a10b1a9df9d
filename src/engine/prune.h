/* prune.h — state pruning at prune points (see prune.c). */
#ifndef RB_ENGINE_PRUNE_H
#define RB_ENGINE_PRUNE_H

#include "engine/state.h"

/* 1: the current state is covered by a checkpoint at insn_idx (prune);
 * 0: go on (a checkpoint may have been stored); <0: error */
int rb_is_state_visited(struct rb_env *env, int insn_idx);

#endif
