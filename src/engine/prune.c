/* prune.c — state pruning at prune points (Linux 6.18 is_state_visited,
 * clean_live_states): the current state is compared with the checkpoints
 * stored at the same instruction; a match ends the path, a miss may store
 * a new checkpoint; checkpoints that keep missing are evicted. */
#include "engine/backtrack.h"
#include "engine/iter.h"
#include "engine/liveness.h"
#include "engine/log.h"
#include "engine/prune.h"
#include "engine/profile.h"
#include "engine/scc.h"
#include "engine/stack_live72.h"
#include "engine/states.h"

bool rb_same_callsites(const struct rb_vstate *a, const struct rb_vstate *b)
{
	if (a->curframe != b->curframe)
		return false;
	for (int fr = a->curframe; fr >= 0; fr--)
		if (a->frame[fr]->callsite != b->frame[fr]->callsite)
			return false;
	return true;
}

struct rb_vstate *rb_find_prev_entry(struct rb_env *env, const struct rb_vstate *cur, int insn_idx)
{
	for (struct rb_vstate *sl = *rb_states_list(env, insn_idx, cur); sl; sl = sl->next)
		if (sl->insn_idx == insn_idx && sl->branches && rb_same_callsites(sl, cur) && sl->dfs_depth < cur->dfs_depth)
			return sl;
	return NULL;
}

/* clean_live_states: complete checkpoints at insn_idx lose their dead slots */
static void clean_live_states(struct rb_env *env, int insn_idx, const struct rb_vstate *cur)
{
	for (struct rb_vstate *sl = *rb_states_list(env, insn_idx, cur); sl; sl = sl->next) {
		/* (6.18 tests cleaned last; first here, as it spares the
		 * frames' callsites of every checkpoint already cleaned) */
		if (sl->branches || sl->cleaned || sl->insn_idx != insn_idx || !rb_same_callsites(sl, cur))
			continue;
		/* 6.17+: a state whose loop marks are still incomplete keeps
		 * its dead registers and slots (they may be read around the
		 * loop once the backedges are propagated) */
		if (rb_scc_incomplete_marks(env, sl))
			continue;
		rb_clean_state(env, sl);
		sl->cleaned = true;
	}
}

/* one scalar (a register or a spilled one) of st after another; NULL at
 * the end (7.2.13 bpf_for_each_reg_in_vstate: registers, then the slots
 * whose last byte is a spill) */
static struct rb_reg *next_scalar(struct rb_vstate *st, int *fr, int *i)
{
	struct rb_reg *r;
	while ((r = rb_vstate_next_reg(st, 1u << SLOT_SPILL, fr, i)) && !(r->type == RT_SCALAR && (r->id & RB_ID_MASK)))
		;
	return r;
}

/* 7.2.13 verifier.c bpf_clear_singular_ids (profile.h
 * clear_singular_ids): a scalar whose id (the add-const flags aside) no
 * other scalar of the state shares loses it and its delta
 * (clear_scalar_id). Clearing a singular id changes no other id's count,
 * so one pass that counts each id's holders is enough. */
static void clear_singular_ids(struct rb_vstate *st)
{
	int fr = 0, i = 0;
	for (struct rb_reg *r; (r = next_scalar(st, &fr, &i));) {
		int fr2 = 0, i2 = 0, n = 0;
		for (struct rb_reg *q; n < 2 && (q = next_scalar(st, &fr2, &i2));)
			n += (q->id & RB_ID_MASK) == (r->id & RB_ID_MASK);
		if (n == 1) {
			r->id = 0;
			r->off = 0;
		}
	}
}

/* cur matched the checkpoint sl: the path ends here */
static int state_hit(struct rb_env *env, struct rb_vstate *sl, struct rb_vstate *cur, int insn_idx, bool loop)
{
	sl->hit_cnt++;
	if (env->aux[insn_idx].jmp_point) {
		int err = rb_push_hist(env, cur, 0);
		if (err)
			return err;
	}
	int err = rb_propagate_precision(env, sl, cur);
	if (err)
		return err;
	if (loop && (err = rb_scc_add_backedge(env, sl, cur, insn_idx)))
		return err;
	env->prune_hit = sl;
	env->res->states_pruned++; /* the metric "pruned" (result/metrics.h) */
	return 1;
}

/* returns 1 when cur is covered by a stored checkpoint (prune the path),
 * 0 to go on (a new checkpoint may have been stored), <0 on error */
int rb_is_state_visited(struct rb_env *env, int insn_idx)
{
	struct rb_vstate *cur = env->cur;
	bool force_new = env->aux[insn_idx].force_checkpoint || cur->nhist > 40 ||
			 (env->prog->prog_flags & BPF_F_TEST_STATE_FREQ);
	bool add_new = force_new;
	uint64_t states_cnt = 0;
	if (env->jmps_processed - env->prev_jmps_processed >= 2 && env->insn_processed - env->prev_insn_processed >= 8)
		add_new = true;

	/* 7.2 states.c is_state_visited: "keep cleaning the current state as
	 * registers/stack become dead" with the static liveness, so every
	 * checkpoint is stored clean; 6.18 cleaned complete checkpoints */
	if (env->prof->static_stack_liveness)
		rb_live72_clean(env, cur);
	else
		clean_live_states(env, insn_idx, cur);
	struct rb_vstate **pp = rb_states_list(env, insn_idx, cur);
	while (*pp) {
		struct rb_vstate *sl = *pp;
		states_cnt++;
		if (sl->insn_idx != insn_idx) {
			pp = &sl->next;
			continue;
		}
		if (sl->branches) {
			const struct rb_func *sf = sl->frame[sl->curframe];
			/* another entry into an async callback is no loop (6.18) */
			if (sf->in_async_callback_fn && sf->async_entry_cnt != cur->frame[cur->curframe]->async_entry_cnt)
				goto skip_inf_loop_check;
			/* an iterator's next(): within a checkpoint still being
			 * explored with the iterator active, the loop converged
			 * (iter.c); never an infinite loop */
			if (env->aux[insn_idx].is_iter_next) {
				if (rb_states_equal(env, sl, cur, RANGE_WITHIN) && rb_iter_next_converged(env, cur))
					return state_hit(env, sl, cur, insn_idx, true);
				goto skip_inf_loop_check;
			}
			/* a callback's next visit: within a visit still being
			 * explored, the callback loop converged (callbacks.c):
			 * a loop backedge, the call insn being an SCC of its
			 * own (6.18.44 has mainline's "scc-for-callbacks" fix:
			 * its log prints "SCC enter" at a bpf_loop call that is
			 * in no CFG loop) */
			/* may_goto: another depth of the same loop, within
			 * range of a state still being explored (6.18) */
			if (env->insns[insn_idx].code == (BPF_JMP | 0xe0) && sl->may_goto_depth != cur->may_goto_depth &&
			    rb_states_equal(env, sl, cur, RANGE_WITHIN))
				return state_hit(env, sl, cur, insn_idx, true);
			if (env->aux[insn_idx].calls_callback) {
				if (rb_states_equal(env, sl, cur, RANGE_WITHIN))
					return state_hit(env, sl, cur, insn_idx, true);
				goto skip_inf_loop_check;
			}
			if (rb_states_maybe_looping(env, sl, cur) && rb_states_equal(env, sl, cur, EXACT) &&
			    !rb_iter_active_depths_differ(sl, cur) && sl->may_goto_depth == cur->may_goto_depth &&
			    sl->callback_unroll_depth == cur->callback_unroll_depth) {
				/* 6.18.44 prints both states after the message */
				int err = rb_reject(env, "infinite loop detected at insn %d", insn_idx);
				if (env->log) {
					rb_log(env, "cur state:");
					rb_log_state(env, cur, cur->curframe, true);
					rb_log(env, "old state:");
					rb_log_state(env, sl, cur->curframe, true);
				}
				return err;
			}
skip_inf_loop_check:
			if (!force_new && env->jmps_processed - env->prev_jmps_processed < 20 &&
			    env->insn_processed - env->prev_insn_processed < 100)
				add_new = false;
		} else {
			bool loop = rb_scc_incomplete_marks(env, sl);
			if (rb_states_equal(env, sl, cur, loop ? RANGE_WITHIN : NOT_EXACT))
				return state_hit(env, sl, cur, insn_idx, loop);
		}
		/* a miss */
		if (add_new)
			sl->miss_cnt++;
		uint32_t n = (env->aux[insn_idx].force_checkpoint && sl->branches > 0) ? 64 : 3;
		if (sl->miss_cnt > sl->hit_cnt * n + n) {
			/* unlikely to be useful: evict (kept alive for its children) */
			rb_states_evict(env, pp, sl->branches || rb_scc_incomplete_marks(env, sl));
			continue;
		}
		pp = &sl->next;
	}
	if (env->max_states_per_insn < states_cnt)
		env->max_states_per_insn = states_cnt;
	if (!add_new)
		return 0;

	env->prev_jmps_processed = env->jmps_processed;
	env->prev_insn_processed = env->insn_processed;
	rb_mark_all_imprecise(cur);
	if (env->prof->clear_singular_ids)
		clear_singular_ids(cur);
	struct rb_vstate *nw;
	int err = rb_states_store(env, cur, insn_idx, &nw);
	if (err)
		return err;
	err = rb_scc_maybe_enter(env, nw);
	if (err)
		return err;
	cur->parent = nw;
	/* the checkpoint holds the history the walks remembered were of (bt_memo.c) */
	nw->bt_memo_id = cur->bt_memo_id;
	cur->bt_memo_id = 0;
	cur->first_insn_idx = insn_idx;
	cur->dfs_depth = nw->dfs_depth + 1;
	cur->nhist = 0;
	env->cur_hist_ent = NULL;
	return 0;
}
