/* states_store.c — the explored-state lists (Linux 6.18 verifier.c
 * explored_state, free_list, maybe_free_verifier_state) and the counters
 * behind peak_states and peak_state_mem; their comparison is states.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/states.h"
#include "util/grow.h"

/* is a recorder attached (engine.h)? It reads the stored states when the
 * verification ends, so none is freed before (release()) */
static bool keeps_states(const struct rb_env *env)
{
	return env->opts && env->opts->rec;
}

int rb_states_init(struct rb_env *env)
{
	env->explored = calloc((size_t)env->insn_cnt, sizeof(struct rb_vstate *));
	return env->explored ? 0 : RB_E_NOMEM;
}

/* 6.18 free_states() between passes: every checkpoint (explored lists and
 * free list) is freed, no path of the pass being left */
void rb_states_forget(struct rb_env *env)
{
	for (int i = 0; i < env->nall; i++) {
		rb_states_mem_sub(env, env->all_states[i]);
		if (!keeps_states(env))
			rb_state_free(env->all_states[i]);
	}
	if (!keeps_states(env))
		env->nall = 0;
	memset(env->explored, 0, sizeof(struct rb_vstate *) * (size_t)env->insn_cnt);
}

void rb_states_free(struct rb_env *env)
{
	for (int i = 0; i < env->nall; i++)
		rb_state_free(env->all_states[i]);
	free(env->all_states);
	free(env->explored);
	env->all_states = NULL;
	env->explored = NULL;
	env->nall = env->cap_all = 0;
}

/* The bytes of verifier state alive at once (cur_state_mem) and their peak
 * (peak_state_mem): every state allocated (the current path's, pending
 * branches', checkpoints' and evicted checkpoints' still referenced, until
 * they are freed as 6.18 frees them: see release()) counted
 * at the size rb_state_bytes gives, which is what was allocated for it.
 * Each state remembers what it was counted at (acct_bytes), so a later
 * subtraction removes exactly that; the current path's state grows (stack
 * slots, frames, history) and is counted again before each new peak test
 * and when its path ends. */
static void account(struct rb_env *env, struct rb_vstate *st)
{
	size_t b = rb_state_bytes(st);
	env->cur_state_mem = env->cur_state_mem - st->acct_bytes + b;
	st->acct_bytes = b;
}

void rb_states_mem_add(struct rb_env *env, struct rb_vstate *st)
{
	account(env, st);
	if (env->cur && env->cur != st && env->cur->acct_bytes)
		account(env, env->cur);
	if (env->cur_state_mem > env->peak_state_mem)
		env->peak_state_mem = env->cur_state_mem;
}

void rb_states_mem_sub(struct rb_env *env, struct rb_vstate *st)
{
	/* the current path's state ends at its final size */
	if (st == env->cur && st->acct_bytes) {
		account(env, st);
		if (env->cur_state_mem > env->peak_state_mem)
			env->peak_state_mem = env->cur_state_mem;
	}
	env->cur_state_mem -= st->acct_bytes <= env->cur_state_mem ? st->acct_bytes : env->cur_state_mem;
	st->acct_bytes = 0;
}

void rb_update_peak(struct rb_env *env)
{
	uint64_t n = env->explored_size + env->free_list_size + env->num_backedges;
	if (n > env->peak_states)
		env->peak_states = n;
}

static int bucket(struct rb_env *env, int insn_idx, const struct rb_vstate *st)
{
	uint32_t cs = (uint32_t)st->frame[st->curframe]->callsite;
	return (int)(((uint32_t)insn_idx ^ cs) % (uint32_t)env->insn_cnt);
}

struct rb_vstate **rb_states_list(struct rb_env *env, int insn_idx, const struct rb_vstate *st)
{
	return &env->explored[bucket(env, insn_idx, st)];
}

/* 6.18 maybe_free_verifier_state(): a checkpoint no list holds and no
 * path needs any more is freed (out of all_states, its bytes no longer
 * counted) */
static void release(struct rb_env *env, struct rb_vstate *st)
{
	int32_t i = st->all_idx;
	rb_states_mem_sub(env, st);
	/* a recorder reads the final precision marks of the states paths
	 * were pruned against when the verification ends (exec/record.c):
	 * with one attached the state stays allocated until then, its bytes
	 * no longer counted */
	if (keeps_states(env))
		return;
	env->all_states[i] = env->all_states[--env->nall];
	env->all_states[i]->all_idx = i;
	rb_state_free(st);
}

void rb_states_evict(struct rb_env *env, struct rb_vstate **pp, bool keep_alive)
{
	struct rb_vstate *sl = *pp;
	*pp = sl->next;
	sl->in_list = false;
	env->explored_size--;
	/* kept alive (free list) while paths through it are pending, else
	 * freed now, as 6.18's is_state_visited() does on a miss */
	if (keep_alive) {
		sl->in_free_list = true;
		env->free_list_size++;
	} else {
		release(env, sl);
	}
}

void rb_states_leave_free_list(struct rb_env *env, struct rb_vstate *st)
{
	if (st->in_free_list) {
		st->in_free_list = false;
		env->free_list_size--;
		release(env, st);
	}
}

int rb_states_store(struct rb_env *env, const struct rb_vstate *cur, int insn_idx, struct rb_vstate **out)
{
	if (env->explored_size >= RB_STATE_BUDGET) {
		env->res->verdict = RB_LIMIT;
		snprintf(env->res->msg, sizeof(env->res->msg), "state budget of %d stored states exhausted at insn %d",
			 RB_STATE_BUDGET, insn_idx);
		env->done = true;
		return RB_E_LIMIT;
	}
	env->total_states++;
	env->explored_size++;
	rb_update_peak(env);

	struct rb_vstate *nw = rb_state_copy(env->pool, cur);
	if (!nw)
		return RB_E_NOMEM;
	if (RB_GROW(env->all_states, env->nall + 1, &env->cap_all, 64) < 0) {
		rb_state_free(nw);
		return RB_E_NOMEM;
	}
	nw->all_idx = env->nall;
	env->all_states[env->nall++] = nw;
	nw->insn_idx = insn_idx;
	nw->branches = 1;
	nw->in_list = true;
	struct rb_vstate **head = rb_states_list(env, insn_idx, cur);
	nw->next = *head;
	*head = nw;
	rb_states_mem_add(env, nw);
	*out = nw;
	return 0;
}
