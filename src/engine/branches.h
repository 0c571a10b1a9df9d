/* branches.h — the stack of pending branches (see branches.c). */
#ifndef RB_ENGINE_BRANCHES_H
#define RB_ENGINE_BRANCHES_H

#include <stdbool.h>

#include "engine/state.h"

/* push_stack: a copy of the current state continues later from insn_idx;
 * NULL on error (rejected past 8192 pending branches, or out of memory) */
struct rb_vstate *rb_push_branch(struct rb_env *env, int insn_idx, int prev_idx);
/* push_async_cb: st (owned by the stack from now on, unless this fails)
 * continues later from insn_idx; 0 or a negative error */
int rb_push_branch_state(struct rb_env *env, struct rb_vstate *st, int insn_idx, int prev_idx);
/* the branch st just pushed can never be taken: drop it */
void rb_drop_last_branch(struct rb_env *env, struct rb_vstate *st);
/* pop_stack: the most recently pushed branch; false when none is left */
bool rb_pop_branch(struct rb_env *env, struct rb_branch *out);
void rb_free_branches(struct rb_env *env);

#endif
