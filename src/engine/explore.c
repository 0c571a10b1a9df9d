/* explore.c — the explorer (Linux 6.18 do_check, update_branch_counts):
 * depth-first, fall-through first, pushed branches (branches.c) popped in
 * LIFO order; states are checked for pruning at prune points. */
#include <stdlib.h>
#include <time.h>

#include "engine/branches.h"
#include "engine/explore.h"
#include "engine/liveness.h"
#include "engine/insn.h"
#include "engine/log.h"
#include "engine/prune.h"
#include "engine/scc.h"
#include "engine/states.h"

#define KERNEL_INSN_LIMIT 1000000

double rb_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* update_branch_counts: a path ended; parents with no pending path left
 * become complete (and may be used for pruning) */
static int update_branch_counts(struct rb_env *env, struct rb_vstate *st)
{
	while (st) {
		if (st->branches)
			st->branches--;
		if (st->branches)
			break;
		int err = rb_scc_maybe_exit(env, st);
		if (err)
			return err;
		/* maybe_free_verifier_state: not while its loop's precision
		 * marks are incomplete (it stays on the free list); an evicted
		 * checkpoint is freed here */
		struct rb_vstate *parent = st->parent;
		if (!rb_scc_incomplete_marks(env, st))
			rb_states_leave_free_list(env, st);
		st = parent;
	}
	return 0;
}

/* the instruction and time budgets: 0 to go on, RB_E_LIMIT with res filled */
static int check_budgets(struct rb_env *env)
{
	uint64_t limit = env->opts && env->opts->insn_limit ? env->opts->insn_limit : KERNEL_INSN_LIMIT;
	double tlimit = env->opts ? env->opts->time_limit_s : 0;
	if (++env->insn_processed > limit) {
		/* the kernel answers E2BIG: a limit, as the oracle classifies it */
		if (limit == KERNEL_INSN_LIMIT) {
			rb_reject(env, "BPF program is too large. Processed %d insn", (int)env->insn_processed);
			env->res->verdict = RB_LIMIT;
			return RB_E_LIMIT;
		}
		env->res->verdict = RB_LIMIT;
		snprintf(env->res->msg, sizeof(env->res->msg), "instruction budget %llu exhausted",
			 (unsigned long long)limit);
		env->done = true;
		return RB_E_LIMIT;
	}
	if (tlimit > 0 && (env->insn_processed & 1023) == 0 && rb_now_s() - env->t_start > tlimit) {
		env->res->verdict = RB_LIMIT;
		snprintf(env->res->msg, sizeof(env->res->msg), "time budget %.1fs exhausted at insn %d", tlimit,
			 env->insn_idx);
		env->done = true;
		return RB_E_LIMIT;
	}
	return 0;
}

/* the path ended (exit or pruned): pop the next pushed branch; 1 when none is left */
static int end_path(struct rb_env *env, int *prev_insn_idx)
{
	rb_scratch_all(env);
	int err = update_branch_counts(env, env->cur);
	if (err)
		return err;
	/* 6.18 process_bpf_exit: bpf_update_live_stack before pop_stack */
	if ((err = rb_live_update(env)))
		return err;
	rb_states_mem_sub(env, env->cur);
	rb_state_free(env->cur);
	env->cur = NULL;
	struct rb_branch b;
	if (!rb_pop_branch(env, &b))
		return 1;
	env->cur = b.st;
	env->insn_idx = b.insn_idx;
	*prev_insn_idx = b.prev_insn_idx;
	return 0;
}

int rb_explore(struct rb_env *env, int start)
{
	bool print_state = false;
	const struct rb_engine_recorder *rec = env->opts ? env->opts->rec : NULL;
	int prev_insn_idx = -1, last_done = -1;
	env->insn_idx = start;
	rb_scratch_all(env);
	for (;;) {
		int err;
		bool exit_path = false;
		env->cur_hist_ent = NULL;
		env->prev_insn_idx = prev_insn_idx;
		if (env->insn_idx < 0 || env->insn_idx >= env->insn_cnt)
			return rb_reject(env, "invalid insn idx %d insn_cnt %d", env->insn_idx, env->insn_cnt);
		if ((err = check_budgets(env))) {
			/* the kernel stops before printing this insn (do_check
			 * counts it, then answers E2BIG): the insn its log and
			 * ours show last is the one processed last */
			if (env->res->verdict == RB_LIMIT && env->res->err_insn == env->insn_idx && last_done >= 0)
				env->res->err_insn = last_done;
			return err;
		}
		env->cur->last_insn_idx = env->prev_insn_idx;
		env->cur->insn_idx = env->insn_idx;
		struct rb_vstate *ckpt = NULL;
		if (env->aux[env->insn_idx].prune_point) {
			struct rb_vstate *parent = env->cur->parent;
			err = rb_is_state_visited(env, env->insn_idx);
			if (err < 0) {
				/* the kernel rejects here before printing this insn:
				 * its log's last instruction is the one processed last */
				if (env->res->verdict == RB_REJECT && last_done >= 0)
					env->res->err_insn = last_done;
				return err;
			}
			if (err == 0 && env->cur->parent != parent)
				ckpt = env->cur->parent; /* a new checkpoint of this very state */
			if (err == 1 && rec && rec->prune &&
			    rec->prune(rec->ctx, env->insn_idx, env->cur, env->prune_hit,
				       env->aux[env->insn_idx].live_regs))
				return RB_E_NOMEM;
			if (err == 1) {
				if (env->log) {
					if (print_state)
						rb_log(env, "\nfrom %d to %d: safe\n", env->prev_insn_idx, env->insn_idx);
					else
						rb_log(env, "%d: safe\n", env->insn_idx);
				}
				exit_path = true;
			}
		}
		if (!exit_path) {
			if (env->aux[env->insn_idx].jmp_point) {
				err = rb_push_hist(env, env->cur, 0);
				if (err)
					return err;
			}
			if (env->log && print_state) {
				rb_log(env, "\nfrom %d to %d:", env->prev_insn_idx, env->insn_idx);
				rb_log_state(env, env->cur, env->cur->curframe, true);
				print_state = false;
			}
			if (env->log) {
				if (env->scratched_regs || env->scratched_stack)
					rb_log_insn_state(env);
				rb_log_insn(env, env->insn_idx);
			}
			env->aux[env->insn_idx].seen = true;
			int rr = rec && rec->insn ? rec->insn(rec->ctx, env->insn_idx, env->cur, ckpt) : 0;
			if (rr && rr != RB_REC_END_PATH)
				return RB_E_NOMEM;
			exit_path = rr == RB_REC_END_PATH;
		}
		if (!exit_path) {
			prev_insn_idx = last_done = env->insn_idx;
			rb_live_insn_begin(env);
			err = rb_do_insn(env, &exit_path);
			if (err < 0)
				return err;
			rb_live_insn_commit(env);
			if (err == 2) /* returned from a subprogram */
				print_state = true;
			if (!exit_path)
				continue;
		}
		err = end_path(env, &prev_insn_idx);
		if (err < 0)
			return err;
		if (err == 1)
			break;
		print_state = true;
	}
	return 0;
}
