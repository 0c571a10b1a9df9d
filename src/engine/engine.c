/* engine.c — rb_engine_verify(): set up (Linux 6.18 bpf_check), run the
 * explorer over the main program and every called global subprogram
 * (do_check_main, do_check_subprogs), report the kernel's statistics. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/cfg.h"
#include "engine/prog_types.h"
#include "engine/engine.h"
#include "engine/profile.h"
#include "loader/prog_arrays.h"
#include "engine/explore.h"
#include "engine/iter.h"
#include "engine/kfuncs.h"
#include "engine/kptrs.h"
#include "engine/locks.h"
#include "engine/liveness.h"
#include "engine/scc.h"
#include "engine/stack_depth.h"
#include "engine/stack_live72.h"
#include "engine/states.h"
#include "engine/struct_ops.h"
#include "loader/prog_type.h"
#include "util/pool.h"

/* wall and thread CPU time of the exploration alone (result/metrics.h
 * explore_us): what the running kernel's do_check_common() calls cover,
 * the set-up passes before them and the checks after them left out on both
 * sides; stopped once */
struct explore_clock {
	struct timespec wall, cpu;
	bool stopped;
};

static struct explore_clock explore_clock_start(void)
{
	struct explore_clock c = {.stopped = false};
	clock_gettime(CLOCK_MONOTONIC, &c.wall);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c.cpu);
	return c;
}

static double since_us(clockid_t id, const struct timespec *a)
{
	struct timespec b;
	clock_gettime(id, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e6 + (double)(b.tv_nsec - a->tv_nsec) / 1e3;
}

static void explore_clock_stop(struct explore_clock *c, struct rb_result *res)
{
	if (c->stopped)
		return;
	c->stopped = true;
	res->explore_cpu_us = since_us(CLOCK_THREAD_CPUTIME_ID, &c->cpu);
	res->explore_us = since_us(CLOCK_MONOTONIC, &c->wall);
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
			env->cur = rb_state_new(env->pool, env->prof->max_call_frames);
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
			rb_states_mem_add(env, env->cur);
			int rc = rb_explore(env, sp->start);
			if (rc)
				return rc;
			rb_states_forget(env);
			rb_log(env, "Func#%d ('%s') is safe for any args that match its prototype\n", s, sp->name);
		}
	}
	return 0;
}

/* check_max_stack_depth: call chains of at most max_call_frames frames
 * (E2BIG); depth counts the frames of the chain ending in sub. 7.2
 * (global_call_resets_frames) starts the count again at a global callee;
 * calls bounds the walk of a chain (a cycle through global subprograms,
 * which recursion_static refuses first) */
static int call_depth(struct rb_env *env, int sub, int depth, int calls)
{
	int max = env->prof->max_call_frames;
	if (depth > max)
		return depth;
	if (calls > RB_MAX_FRAMES * (env->nsubprogs + 1))
		return max + 1;
	int worst = depth;
	for (int i = env->subprogs[sub].start; i < env->subprogs[sub].end; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
			continue;
		int t = i + 1 + in->imm;
		for (int s = 0; s < env->nsubprogs; s++) {
			if (env->subprogs[s].start != t)
				continue;
			bool reset = env->prof->global_call_resets_frames && env->subprogs[s].global;
			int d = call_depth(env, s, reset ? 1 : depth + 1, calls + 1);
			if (d > worst)
				worst = d;
		}
		if (worst > max)
			break;
	}
	return worst;
}

/* btf_prepare_func_args on the main program (6.18): a global main function
 * that does not return a scalar gets this line, and nothing else happens */
static void log_main_return(struct rb_env *env)
{
	const struct rb_prog *p = env->prog;
	if (!env->log || !env->obj->btf || !p->func_info || p->func_info_rec_size < sizeof(struct bpf_func_info) ||
	    !p->func_info_cnt)
		return;
	const struct bpf_func_info *fi = p->func_info;
	struct btf *btf = btf__new(env->obj->btf, (uint32_t)env->obj->btf_size);
	if (!btf)
		return;
	const struct btf_type *t = btf__type_by_id(btf, fi->type_id);
	if (!fi->insn_off && t && btf_is_func(t) && BTF_INFO_VLEN(t->info) == BTF_FUNC_GLOBAL) {
		const struct btf_type *proto = btf__type_by_id(btf, t->type);
		const struct btf_type *rt = proto && btf_is_func_proto(proto) ? btf__type_by_id(btf, proto->type) : NULL;
		while (rt && (btf_is_mod(rt) || btf_is_typedef(rt)))
			rt = btf__type_by_id(btf, rt->type);
		bool void72 = env->prof->global_void_return && proto && !proto->type;
		if (proto && btf_is_func_proto(proto) && !void72 && !(rt && (btf_is_int(rt) || btf_is_any_enum(rt))))
			rb_log(env, env->prof->global_void_return
					    ? "Global function %s() return value not void or scalar. Only those are supported.\n"
					    : "Global function %s() doesn't return scalar. Only those are supported.\n",
			       btf__name_by_offset(btf, t->name_off));
	}
	btf__free(btf);
}

/* the program type and attach type: modelled (else unsupported), and the
 * sleepable flag allowed for them (6.18 check_attach_btf_id); true when
 * verification ends here (env->res says why) */
static bool check_prog_kind(struct rb_env *env)
{
	const struct rb_prog *p = env->prog;
	env->ptype = rb_prog_type(p->prog_type);
	if (!env->ptype) {
		rb_unsupported(env, "program type %u", p->prog_type);
		return true;
	}
	if (!rb_prog_attach_type_valid(p->prog_type, p->expected_attach_type)) {
		/* 6.18 bpf_prog_load: bpf_prog_load_check_attach refuses it
		 * with EINVAL before the verifier runs (nothing logged) */
		env->res->verdict = RB_REFUSED;
		env->res->sys_errno = EINVAL;
		env->res->err_insn = -1;
		snprintf(env->res->msg, sizeof(env->res->msg),
			 "expected attach type %u not valid for program type %u: BPF_PROG_LOAD failed: "
			 "Invalid argument (empty log)",
			 p->expected_attach_type, p->prog_type);
		env->done = true;
		return true;
	}
	if ((p->prog_type == BPF_PROG_TYPE_TRACING || p->prog_type == BPF_PROG_TYPE_LSM) && !p->attach_btf_id) {
		/* 6.18 check_attach_btf_id: the sleepable checks, then
		 * bpf_check_attach_target's first, before any instruction */
		const char *serr = rb_prog_sleepable_error(p->prog_type, p->expected_attach_type,
							   (p->prog_flags & BPF_F_SLEEPABLE) != 0);
		rb_reject(env, "%s", serr ? serr : "Tracing programs must provide btf_id");
		env->res->err_insn = -1;
		return true;
	}
	if (!rb_attach_type_supported(env->ptype, p->expected_attach_type)) {
		rb_unsupported(env, "program type %u attach type %u", p->prog_type, p->expected_attach_type);
		return true;
	}
	const char *serr = rb_prog_sleepable_error(p->prog_type, p->expected_attach_type,
						   (p->prog_flags & BPF_F_SLEEPABLE) != 0);
	if (serr) {
		rb_reject(env, "%s", serr);
		env->res->err_insn = -1; /* before any instruction, as the kernel's log has it */
		return true;
	}
	return false;
}

static void free_env(struct rb_env *env)
{
	rb_state_free(env->cur);
	rb_free_branches(env);
	rb_states_free(env);
	free(env->aux);
	free(env->own_insns);
	free(env->bt_desc);
	free(env->bt_memo);
	free(env->subprogs);
	rb_free_chains(env);
	rb_live72_free(env);
	free(env->const_regs);
	free(env->subprog_topo);
	rb_vmlinux_free(env->own_vmlinux);
	rb_locks_free(env);
	rb_kptrs_free(env);
	rb_scc_free_visits(env);
	/* after every state */
	if (env->opts && env->opts->pool == env->pool)
		rb_pool_reset(env->pool);
	else
		rb_pool_delete(env->pool);
}

#ifndef RB_ENGINE_SLOT_VARIANT
/* The engine built again with 40-byte value slots (Makefile ENGINE_SLOTS:
 * every src/engine/ file with -DRB_VAL_WORDS=5, its symbols prefixed
 * rb_e40_): a tracker whose representation fits (cnum: 40 bytes) runs
 * there, so its registers, spilled slots and stored states are allocated
 * at its own size, as a kernel built with that bpf_reg_state would. The
 * recorder (execcheck) reads states with this build's layout, so a run
 * with one stays here. */
int rb_e40_rb_engine_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
			    const struct rb_engine_opts *opts, struct rb_result *res, struct rb_err *err);
#define RB_E40_SLOT_BYTES 40
#endif

int rb_engine_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
		     const struct rb_engine_opts *opts, struct rb_result *res, struct rb_err *err)
{
	if (!obj || !t || !res)
		return rb_errf(err, "engine: missing object, tracker or result");
#ifndef RB_ENGINE_SLOT_VARIANT
	if (t->val_size <= RB_E40_SLOT_BYTES && sizeof(rb_val) > RB_E40_SLOT_BYTES && !(opts && opts->rec))
		return rb_e40_rb_engine_verify(obj, prog_idx, t, opts, res, err);
#endif
	if (t->val_size > sizeof(rb_val))
		return rb_errf(err, "engine: tracker %s needs %zu-byte values, this build holds %zu", t->name,
			       t->val_size, sizeof(rb_val));
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu (object has %zu)", obj->path, prog_idx, obj->prog_cnt);
	memset(res, 0, sizeof(*res));
	res->err_insn = -1;
	/* the sizes this build allocates (rb_state_bytes): one register, and a
	 * state of one frame without stack slots */
	res->reg_state_bytes = rb_reg_bytes();
	const struct rb_profile *prof = opts && opts->profile ? opts->profile : rb_profile_default();
	res->state_bytes = rb_vstate_bytes(prof->max_call_frames) + rb_func_bytes(0);

	struct rb_env env = {0};
	env.obj = obj;
	env.prog = &obj->progs[prog_idx];
	env.t = t;
	env.opts = opts;
	env.prof = prof;
	env.log = opts ? opts->log : NULL;
	env.insns = env.prog->insns;
	env.insn_cnt = (int)env.prog->insn_cnt;
	env.res = res;
	env.t_start = rb_now_s();
	env.insn_idx = 0;
	env.vmlinux_src = opts ? opts->vmlinux : NULL;

	int rc = 0;
	if (env.insn_cnt <= 0 || !env.insns) {
		res->verdict = RB_LOAD_ERROR;
		snprintf(res->msg, sizeof(res->msg), "program has no instructions");
		env.done = true;
		goto out;
	}
	if (!env.prog->type_known && env.prog->prog_type == BPF_PROG_TYPE_UNSPEC) {
		char why[256];
		rb_prog_type_unknown_msg(env.prog, why, sizeof(why));
		rb_unsupported(&env, "%s", why);
		goto out;
	}
	/* the kernel verifies with the attach type fixed up (cgroup_sock: 0 is
	 * inet_sock_create); a copy of the program carries it */
	struct rb_prog fixed;
	uint32_t at = rb_prog_fixup_attach_type(env.prog->prog_type, env.prog->expected_attach_type);
	if (at != env.prog->expected_attach_type) {
		fixed = *env.prog;
		fixed.expected_attach_type = at;
		env.prog = &fixed;
	}
	if (check_prog_kind(&env))
		goto out;
	env.aux = calloc((size_t)env.insn_cnt, sizeof(struct rb_aux));
	env.pool = opts && opts->pool ? opts->pool : rb_pool_new();
	env.cur = env.pool ? rb_state_new(env.pool, env.prof->max_call_frames) : NULL;
	if (!env.aux || !env.cur || rb_states_init(&env)) {
		rc = RB_E_NOMEM;
		goto out;
	}
	/* vmlinux BTF (parsed on first need) before the static pass: kfunc
	 * calls read their prototypes there */
	if (!env.vmlinux_src && !(env.vmlinux_src = env.own_vmlinux = rb_vmlinux_new())) {
		rc = RB_E_NOMEM;
		goto out;
	}
	/* check_cfg, then compute_postorder before the exploration, as 6.18
	 * and 7.2.13 bpf_check do (not at the first path end inside it) */
	if ((rc = rb_check_cfg(&env)) || (rc = rb_live_postorder(&env)))
		goto out;
	rb_iter_mark_next_calls(&env);
	if ((rc = rb_kfunc_precheck(&env)) || (rc = rb_locks_precheck(&env)))
		goto out;
	if ((env.ptype->flags & PT_BTF_CTX) &&
	    (rc = env.prog->prog_type == BPF_PROG_TYPE_STRUCT_OPS ? rb_struct_ops_init(&env) : rb_btf_init(&env)))
		goto out;
	log_main_return(&env);
	struct explore_clock ec = explore_clock_start();
	init_state(&env);
	rb_states_mem_add(&env, env.cur);
	rc = rb_explore(&env, 0);
	/* (one subprogram: only a global main calling itself makes a chain) */
	if (!rc && (env.nsubprogs > 1 || env.subprogs[0].called)) {
		/* free_states: each pass starts with no explored states to match
		 * (6.18 keeps counting them in peak_states) */
		rb_states_forget(&env);
		rc = verify_globals(&env);
		explore_clock_stop(&ec, res);
		if (!rc) {
			int d = call_depth(&env, 0, 1, 0);
			if (d > env.prof->max_call_frames) {
				/* a rejection (6.18 answers E2BIG, which the oracle
				 * counts as a limit only for the instruction budget) */
				rb_reject(&env, "the call stack of %d frames is too deep !", d - 1);
				rc = RB_E_LIMIT;
			} else {
				rc = rb_check_max_stack_depth(&env);
			}
		}
	}
	explore_clock_stop(&ec, res);
	if (!rc && !env.done)
		rc = rb_kfunc_fixup(&env);
	size_t pa;
	if (!rc && !env.done && !rb_prog_arrays_compatible(obj, env.prog, &pa)) {
		/* 6.18 bpf_check_tail_call after verification: EINVAL with no
		 * message; the oracle words that "rejected (Invalid argument)" */
		res->verdict = RB_REJECT;
		snprintf(res->msg, sizeof(res->msg), "rejected (Invalid argument)");
		env.done = true;
	}
out:
	if (rc == RB_E_NOMEM && !env.done) {
		res->verdict = RB_LIMIT;
		snprintf(res->msg, sizeof(res->msg), "out of memory");
	} else if (rc == RB_E_INTERNAL && !env.done) {
		/* the engine's own inconsistency (verifier_bug()): an outcome of
		 * its own, never a verdict on the program */
		res->verdict = RB_ENGINE_BUG;
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
	res->verify_us = (rb_now_s() - env.t_start) * 1e6;
	if (opts && opts->rec && opts->rec->done)
		opts->rec->done(opts->rec->ctx);
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
