/* branches.c — the stack of pending branches (Linux 6.18 push_stack,
 * pop_stack): the explorer's only storage besides the checkpoints; no
 * other file touches env->stack. */
#include <stdlib.h>

#include "engine/branches.h"
#include "engine/states.h"
#include "util/grow.h"

#define BRANCH_LIMIT 8192 /* BPF_COMPLEXITY_LIMIT_JMP_SEQ */

/* push_stack: the other branch continues later from insn_idx */
struct rb_vstate *rb_push_branch(struct rb_env *env, int insn_idx, int prev_idx)
{
	if (env->nstack >= BRANCH_LIMIT) {
		/* 6.18 push_stack() counts this push before the test */
		rb_reject(env, "The sequence of %d jumps is too complex.", env->nstack + 1);
		return NULL;
	}
	if (RB_GROW(env->stack, env->nstack + 1, &env->cap_stack, 32) < 0)
		return NULL;
	struct rb_vstate *st = rb_state_copy(env->pool, env->cur);
	if (!st)
		return NULL;
	st->insn_idx = insn_idx;
	st->branches = 1;
	/* the parent checkpoint now has one more path to finish */
	if (st->parent)
		st->parent->branches++;
	env->stack[env->nstack++] = (struct rb_branch){st, insn_idx, prev_idx, env->peak_state_mem};
	rb_states_mem_add(env, st);
	return st;
}

/* push_async_cb: a state of its own (no parent) continues later from insn_idx */
int rb_push_branch_state(struct rb_env *env, struct rb_vstate *st, int insn_idx, int prev_idx)
{
	if (env->nstack >= BRANCH_LIMIT)
		return rb_reject(env, "The sequence of %d jumps is too complex.", env->nstack);
	if (RB_GROW(env->stack, env->nstack + 1, &env->cap_stack, 32) < 0)
		return RB_E_NOMEM;
	st->insn_idx = insn_idx;
	st->branches = 1;
	env->stack[env->nstack++] = (struct rb_branch){st, insn_idx, prev_idx, env->peak_state_mem};
	rb_states_mem_add(env, st);
	return 0;
}

void rb_drop_last_branch(struct rb_env *env, struct rb_vstate *st)
{
	if (!env->nstack || env->stack[env->nstack - 1].st != st)
		return;
	uint64_t peak_before = env->stack[--env->nstack].peak_before;
	if (st->parent)
		st->parent->branches--;
	/* undone entirely, memory accounting included: the run counts as if
	 * the branch had never been pushed */
	rb_states_mem_sub(env, st);
	env->peak_state_mem = peak_before > env->cur_state_mem ? peak_before : env->cur_state_mem;
	rb_state_free(st);
}

bool rb_pop_branch(struct rb_env *env, struct rb_branch *out)
{
	if (!env->nstack)
		return false;
	*out = env->stack[--env->nstack];
	return true;
}

void rb_free_branches(struct rb_env *env)
{
	for (int i = 0; i < env->nstack; i++)
		rb_state_free(env->stack[i].st);
	free(env->stack);
	env->stack = NULL;
	env->nstack = env->cap_stack = 0;
}
