/* engine.c — rb_engine_verify(): set up, run the main loop (Linux 6.18
 * do_check: depth-first, fall-through first, pushed branches popped in
 * LIFO order), report the kernel's statistics. */
#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/state.h"

#define KERNEL_INSN_LIMIT 1000000
#define BRANCH_LIMIT 8192 /* BPF_COMPLEXITY_LIMIT_JMP_SEQ */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void mem_add(struct rb_env *env, const struct rb_vstate *st, int sign)
{
	size_t b = rb_state_bytes(st, env->t->val_size);
	if (sign > 0) {
		env->cur_state_mem += b;
		if (env->cur_state_mem > env->peak_state_mem)
			env->peak_state_mem = env->cur_state_mem;
	} else {
		env->cur_state_mem -= b <= env->cur_state_mem ? b : env->cur_state_mem;
	}
}

/* push_stack: the other branch continues later from insn_idx */
static struct rb_vstate *push_branch(struct rb_env *env, int insn_idx, int prev_idx)
{
	if (env->nstack >= BRANCH_LIMIT) {
		rb_reject(env, "The sequence of %d jumps is too complex.", env->nstack);
		return NULL;
	}
	if (env->nstack == env->cap_stack) {
		int cap = env->cap_stack ? env->cap_stack * 2 : 32;
		struct rb_branch *s = realloc(env->stack, sizeof(*s) * (size_t)cap);
		if (!s)
			return NULL;
		env->stack = s;
		env->cap_stack = cap;
	}
	struct rb_vstate *st = rb_state_copy(env->cur);
	if (!st)
		return NULL;
	st->insn_idx = insn_idx;
	st->branches = 1;
	/* the parent checkpoint now has one more path to finish */
	for (struct rb_vstate *p = st->parent; p; p = p->parent) {
		p->branches++;
		break;
	}
	env->stack[env->nstack++] = (struct rb_branch){st, insn_idx, prev_idx};
	mem_add(env, st, +1);
	return st;
}

struct rb_vstate *rb_push_branch(struct rb_env *env, int insn_idx, int prev_idx);
struct rb_vstate *rb_push_branch(struct rb_env *env, int insn_idx, int prev_idx)
{
	return push_branch(env, insn_idx, prev_idx);
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
		int err = rb_maybe_exit_scc(env, st);
		if (err)
			return err;
		if (st->in_free_list) {
			st->in_free_list = false;
			env->free_list_size--;
		}
		st = st->parent;
	}
	return 0;
}

static void init_state(struct rb_env *env)
{
	struct rb_func *f = env->cur->frame[0];
	for (int i = 0; i < RB_MAX_REG; i++)
		rb_reg_not_init(env, &f->regs[i]);
	rb_reg_ptr(env, &f->regs[RB_REG_FP], RT_STACK);
	f->regs[RB_REG_FP].frameno = 0;
	rb_reg_ptr(env, &f->regs[1], RT_CTX);
	f->frameno = 0;
	f->subprog = 0;
	f->callsite = -1;
}

static int do_check(struct rb_env *env, int start)
{
	bool print_state = false;
	uint64_t limit = env->opts && env->opts->insn_limit ? env->opts->insn_limit : KERNEL_INSN_LIMIT;
	double tlimit = env->opts ? env->opts->time_limit_s : 0;
	int prev_insn_idx = -1;
	env->insn_idx = start;
	rb_scratch_all(env);
	for (;;) {
		int err;
		bool exit_path = false;
		env->cur_hist_ent = NULL;
		env->prev_insn_idx = prev_insn_idx;
		if (env->insn_idx < 0 || env->insn_idx >= env->insn_cnt)
			return rb_reject(env, "invalid insn idx %d insn_cnt %d", env->insn_idx, env->insn_cnt);
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
		if (tlimit > 0 && (env->insn_processed & 1023) == 0 && now_s() - env->t_start > tlimit) {
			env->res->verdict = RB_LIMIT;
			snprintf(env->res->msg, sizeof(env->res->msg), "time budget %.1fs exhausted at insn %d", tlimit,
				 env->insn_idx);
			env->done = true;
			return RB_E_LIMIT;
		}
		env->cur->last_insn_idx = env->prev_insn_idx;
		env->cur->insn_idx = env->insn_idx;
		if (env->aux[env->insn_idx].prune_point) {
			err = rb_is_state_visited(env, env->insn_idx);
			if (err < 0)
				return err;
			if (err == 1) {
				if (env->log) {
					if (print_state)
						rb_log(env, "\nfrom %d to %d: safe\n", env->prev_insn_idx, env->insn_idx);
					else
						rb_log(env, "%d: safe\n", env->insn_idx);
				}
				goto process_exit;
			}
		}
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
		prev_insn_idx = env->insn_idx;
		err = rb_do_insn(env, &exit_path);
		if (err < 0)
			return err;
		if (err == 2) /* returned from a subprogram */
			print_state = true;
		if (!exit_path)
			continue;
	process_exit:
		rb_scratch_all(env);
		int uerr = update_branch_counts(env, env->cur);
		if (uerr)
			return uerr;
		mem_add(env, env->cur, -1);
		rb_state_free(env->cur);
		env->cur = NULL;
		if (!env->nstack)
			break;
		struct rb_branch b = env->stack[--env->nstack];
		env->cur = b.st;
		env->insn_idx = b.insn_idx;
		prev_insn_idx = b.prev_insn_idx;
		print_state = true;
	}
	return 0;
}

/* do_check_subprogs: every global subprogram called so far is verified on
 * its own, with arguments from its BTF prototype; the counters go on */
static int verify_globals(struct rb_env *env)
{
	bool again = true;
	while (again) {
		again = false;
		for (int s = 1; s < env->nsubprogs; s++) {
			struct rb_subprog *sp = &env->subprogs[s];
			if (!sp->global || !sp->called || sp->verified)
				continue;
			sp->verified = again = true;
			rb_log(env, "Validating %s() func#%d...\n", sp->name, s);
			env->cur = rb_state_new();
			if (!env->cur)
				return RB_E_NOMEM;
			struct rb_func *f = env->cur->frame[0];
			for (int i = 0; i < RB_MAX_REG; i++)
				rb_reg_not_init(env, &f->regs[i]);
			rb_reg_ptr(env, &f->regs[RB_REG_FP], RT_STACK);
			f->subprog = s;
			f->callsite = -1;
			for (int a = 0; a < sp->nargs; a++) {
				struct rb_reg *r = &f->regs[a + 1];
				if (sp->arg_kind[a] == GARG_SCALAR) {
					rb_reg_unknown(env, r);
				} else if (sp->arg_kind[a] == GARG_CTX) {
					rb_reg_ptr(env, r, RT_CTX);
				} else {
					rb_reg_ptr(env, r, RT_MEM);
					r->flags = RF_MAYBE_NULL;
					r->range = (int32_t)sp->arg_size[a];
					r->id = ++env->id_gen;
				}
			}
			mem_add(env, env->cur, +1);
			int rc = do_check(env, sp->start);
			if (rc)
				return rc;
			memset(env->explored, 0, sizeof(struct rb_vstate *) * (size_t)env->insn_cnt);
			rb_log(env, "Func#%d ('%s') is safe for any args that match its prototype\n", s, sp->name);
		}
	}
	return 0;
}

/* check_max_stack_depth: call chains of at most 8 frames (E2BIG) */
static int call_depth(struct rb_env *env, int sub, int depth)
{
	if (depth > RB_MAX_FRAMES)
		return depth;
	int worst = depth;
	for (int i = env->subprogs[sub].start; i < env->subprogs[sub].end; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
			continue;
		int t = i + 1 + in->imm;
		for (int s = 0; s < env->nsubprogs; s++) {
			if (env->subprogs[s].start != t)
				continue;
			int d = call_depth(env, s, depth + 1);
			if (d > worst)
				worst = d;
		}
		if (worst > RB_MAX_FRAMES)
			break;
	}
	return worst;
}

static void free_env(struct rb_env *env)
{
	rb_state_free(env->cur);
	for (int i = 0; i < env->nstack; i++)
		rb_state_free(env->stack[i].st);
	free(env->stack);
	for (int i = 0; i < env->nall; i++)
		rb_state_free(env->all_states[i]);
	free(env->all_states);
	free(env->explored);
	free(env->aux);
	free(env->subprogs);
	rb_free_chains(env);
	btf__free(env->vmlinux);
	rb_free_visits(env);
}

int rb_engine_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
		     const struct rb_engine_opts *opts, struct rb_result *res, struct rb_err *err)
{
	if (!obj || !t || !res)
		return rb_errf(err, "engine: missing object, tracker or result");
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu (object has %zu)", obj->path, prog_idx, obj->prog_cnt);
	memset(res, 0, sizeof(*res));
	res->err_insn = -1;
	/* sizes at the tracker's representation size (see rb_state_bytes);
	 * the engine itself keeps every value in a fixed rb_val */
	res->reg_state_bytes = rb_reg_bytes(t->val_size);
	res->state_bytes = sizeof(struct rb_vstate) + rb_func_bytes(t->val_size, 0);

	struct rb_env env = {0};
	env.obj = obj;
	env.prog = &obj->progs[prog_idx];
	env.t = t;
	env.opts = opts;
	env.log = opts ? opts->log : NULL;
	env.insns = env.prog->insns;
	env.insn_cnt = (int)env.prog->insn_cnt;
	env.res = res;
	env.t_start = now_s();
	env.insn_idx = 0;

	int rc = 0;
	if (env.insn_cnt <= 0 || !env.insns) {
		res->verdict = RB_LOAD_ERROR;
		snprintf(res->msg, sizeof(res->msg), "program has no instructions");
		env.done = true;
		goto out;
	}
	if (!rb_prog_type_supported(env.prog->prog_type)) {
		rb_unsupported(&env, "program type %u", env.prog->prog_type);
		goto out;
	}
	if (!rb_attach_type_supported(env.prog->prog_type, env.prog->expected_attach_type)) {
		rb_unsupported(&env, "program type %u attach type %u", env.prog->prog_type,
			       env.prog->expected_attach_type);
		goto out;
	}
	env.aux = calloc((size_t)env.insn_cnt, sizeof(struct rb_aux));
	env.explored = calloc((size_t)env.insn_cnt, sizeof(struct rb_vstate *));
	env.cur = rb_state_new();
	if (!env.aux || !env.explored || !env.cur) {
		rc = RB_E_NOMEM;
		goto out;
	}
	rc = rb_check_cfg(&env);
	if (rc)
		goto out;
	if (env.prog->prog_type == BPF_PROG_TYPE_TRACING && (rc = rb_btf_init(&env)))
		goto out;
	init_state(&env);
	mem_add(&env, env.cur, +1);
	rc = do_check(&env, 0);
	if (!rc && env.nsubprogs > 1) {
		/* free_states: each pass starts with no explored states to match
		 * (6.18 keeps counting them in peak_states) */
		memset(env.explored, 0, sizeof(struct rb_vstate *) * (size_t)env.insn_cnt);
		rc = verify_globals(&env);
		if (!rc) {
			int d = call_depth(&env, 0, 1);
			if (d > RB_MAX_FRAMES) {
				rb_reject(&env, "the call stack of %d frames is too deep !", d - 1);
				res->verdict = RB_LIMIT;
				rc = RB_E_LIMIT;
			}
		}
	}
out:
	if (rc == RB_E_NOMEM && !env.done) {
		res->verdict = RB_LIMIT;
		snprintf(res->msg, sizeof(res->msg), "out of memory");
	} else if (rc == RB_E_INTERNAL && !env.done) {
		res->verdict = RB_UNSUPPORTED;
		snprintf(res->msg, sizeof(res->msg), "engine internal error at insn %d", env.insn_idx);
	} else if (!env.done && rc == 0) {
		res->verdict = RB_ACCEPT;
	}
	res->insns_processed = env.insn_processed;
	res->total_states = env.total_states;
	res->peak_states = env.peak_states;
	res->max_states_per_insn = env.max_states_per_insn;
	res->mark_read = 0; /* 6.18 no longer propagates read marks */
	res->peak_state_mem = env.peak_state_mem;
	res->verify_us = (now_s() - env.t_start) * 1e6;
	if (env.log) {
		if (res->verdict == RB_ACCEPT || res->verdict == RB_REJECT)
			rb_log(&env,
			       "processed %llu insns (limit 1000000) max_states_per_insn %llu total_states %llu "
			       "peak_states %llu mark_read 0\n",
			       (unsigned long long)env.insn_processed, (unsigned long long)env.max_states_per_insn,
			       (unsigned long long)env.total_states, (unsigned long long)env.peak_states);
	}
	free_env(&env);
	return 0;
}
