/* call.c — BPF-to-BPF calls and exits (Linux 6.18 check_func_call,
 * prepare_func_exit, check_reference_leak, check_return_code). */
#include <stdlib.h>
#include <string.h>

#include "engine/profile.h"
#include "engine/backtrack.h"
#include "engine/call.h"
#include "engine/liveness.h"
#include "engine/locks.h"
#include "engine/callbacks.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/prog_types.h"
#include "engine/refs.h"
#include "engine/rcu.h"
#include "util/pool.h"

static int find_subprog(struct rb_env *env, int start)
{
	for (int i = 0; i < env->nsubprogs; i++)
		if (env->subprogs[i].start == start)
			return i;
	return -1;
}


/* btf_check_subprog_call + the global branch of check_func_call (6.18):
 * arguments checked against the BTF prototype, the callee verified later
 * on its own, R0 an unknown scalar */
static int global_call(struct rb_env *env, int sub, int *insn_idx)
{
	struct rb_subprog *sp = &env->subprogs[sub];
	struct rb_reg *regs = rb_cur_regs(env);
	int err = 0;
	if (sp->unreliable) /* btf_check_subprog_call: -EINVAL, nothing logged */
		return rb_reject(env, "Caller passes invalid args into func#%d ('%s')", sub, sp->name);
	if (sp->bad_arg >= 0) {
		rb_log(env, "arg#%d reference type('FWD %s') size cannot be determined: -22\n", sp->bad_arg, sp->bad_type);
		return rb_reject(env, "Caller passes invalid args into func#%d ('%s')", sub, sp->name);
	}
	if (sp->ret_not_scalar) {
		rb_log(env, env->prof->global_void_return ? "Global function %s() return value not void or scalar. Only those are supported.\n"
							  : "Global function %s() doesn't return scalar. Only those are supported.\n",
		       sp->name);
		return rb_reject(env, "Caller passes invalid args into func#%d ('%s')", sub, sp->name);
	}
	for (int a = 0; a < sp->nargs && !err; a++) {
		int regno = a + 1;
		struct rb_reg *r = &regs[regno];
		rb_scratch_reg(env, regno);
		if (r->type == RT_NOT_INIT) {
			err = rb_reject(env, "R%d !read_ok", regno);
			break;
		}
		switch (sp->arg_kind[a]) {
		case GARG_SCALAR:
			if (r->type != RT_SCALAR)
				err = rb_reject(env, "R%d is not a scalar", regno);
			break;
		case GARG_CTX:
			if (r->type != RT_CTX)
				err = rb_reject(env, "arg#%d expects pointer to ctx", a);
			else if (r->off || !env->t->is_const(&r->val) || rb_reg_const_val(env, r))
				err = rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno, r->off);
			break;
		case GARG_MEM:
			if (r->type == RT_SCALAR && rb_reg_is_const(env, r) && rb_reg_const_val(env, r) == 0)
				break;
			err = rb_check_mem_range(env, regno, -1, sp->arg_size[a], true, RB_MEM_READ);
			if (!err)
				err = rb_check_mem_range(env, regno, -1, sp->arg_size[a], true, RB_MEM_WRITE);
			break;
		}
	}
	char m[256];
	if (err) {
		if (env->done && env->res->verdict == RB_REJECT) {
			/* the arguments' message logged, then the sleep check (rcu.c) */
			if (!rb_global_sleep_refused(env, sub, m, sizeof(m)))
				snprintf(m, sizeof(m), "Caller passes invalid args into func#%d ('%s')", sub, sp->name);
			rb_log(env, "%s\n", m);
			snprintf(env->res->msg, sizeof(env->res->msg), "%s", m);
		}
		return err;
	}
	if (rb_global_sleep_refused(env, sub, m, sizeof(m)))
		return rb_reject(env, "%s", m);
	rb_log(env, "Func#%d ('%s') is global and assumed valid.\n", sub, sp->name);
	if (sp->changes_pkt)
		rb_clear_pkt_pointers(env);
	sp->called = true;
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
	/* 7.2: "All non-void global functions return a 64-bit SCALAR_VALUE" */
	if (!sp->ret_void)
		rb_reg_unknown(env, &regs[0]);
	*insn_idx += 1;
	return 0;
}

int rb_check_func_call(struct rb_env *env, const struct bpf_insn *insn, int *insn_idx)
{
	struct rb_vstate *st = env->cur;
	int target = *insn_idx + insn->imm + 1;
	int sub = find_subprog(env, target);
	if (sub < 0)
		return rb_reject(env, "verifier bug. No program starts at insn %d", target);
	struct rb_func *caller = st->frame[st->curframe];
	/* 7.2 btf_check_func_arg_match -> check_outgoing_stack_args
	 * (profile.h subprog_stack_args): a prototype of more than 5
	 * parameters takes the rest as stack arguments the caller must have
	 * written; the engine models no stack-argument stores, so none has */
	if (env->prof->subprog_stack_args && !env->subprogs[sub].global && env->subprogs[sub].btf_nargs > 5)
		return rb_reject(env, "callee expects %d args, stack arg1 is not initialized", env->subprogs[sub].btf_nargs);
	if (env->subprogs[sub].global)
		return global_call(env, sub, insn_idx);
	/* setup_func_entry: only a static call adds a frame */
	if (st->curframe + 1 >= env->prof->max_call_frames)
		return rb_reject(env, "the call stack of %d frames is too deep", st->curframe + 2);
	for (int i = 1; i <= 5; i++)
		rb_scratch_reg(env, i);
	struct rb_func *callee = rb_pool_calloc(rb_pool_of(st), sizeof(*callee));
	if (!callee)
		return RB_E_NOMEM;
	callee->callsite = *insn_idx;
	callee->frameno = st->curframe + 1;
	callee->subprog = sub;
	for (int i = 0; i < RB_MAX_REG; i++)
		rb_reg_not_init(env, &callee->regs[i]);
	rb_reg_ptr(env, &callee->regs[RB_REG_FP], RT_STACK);
	callee->regs[RB_REG_FP].frameno = (uint8_t)callee->frameno;
	for (int i = 1; i <= 5; i++)
		callee->regs[i] = caller->regs[i];
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &caller->regs[i]);
		rb_scratch_reg(env, i);
	}
	rb_scratch_reg(env, RB_REG_FP); /* 6.18 prints the callee's R10 after the call */
	st->frame[st->curframe + 1] = callee;
	st->curframe++;
	/* 6.18 check_func_call: bpf_reset_live_stack_callchain (the call
	 * insn's writes are not merged) */
	rb_live_reset_callchain(env);
	if (env->log) {
		rb_log(env, "caller:\n");
		rb_log_state(env, st, st->curframe - 1, true);
		rb_log(env, "callee:\n");
		rb_log_state(env, st, st->curframe, true);
	}
	*insn_idx = target;
	return 0;
}

static int check_return_code(struct rb_env *env)
{
	/* 6.18: a struct_ops (or LSM) attach target returning void reads no R0 */
	if (env->ret_void)
		return 0;
	int err = rb_check_reg_read(env, 0);
	if (err)
		return err;
	struct rb_reg *r0 = &rb_cur_regs(env)[0];
	char tn[48];
	struct rb_ret_range range = rb_prog_ret_range(env->ptype, env->prog->expected_attach_type);
	if (!range.checked && !env->ret_set)
		return 0;
	int64_t lo = env->ret_set ? env->ret_lo : range.lo, hi = env->ret_set ? env->ret_hi : range.hi;
	if (r0->type != RT_SCALAR)
		return rb_reject(env, "At program exit the register R0 is not a known value (%s)",
				 rb_rtype_name(r0, tn, sizeof(tn)));
	if ((err = rb_mark_chain_precision(env, 0)))
		return err;
	struct rb_bounds b;
	rb_reg_bounds(env, r0, &b);
	bool out = env->ret32 ? b.s32_min < lo || b.s32_max > hi : b.smin < lo || b.smax > hi;
	if (out) {
		char msg[160];
		int n = snprintf(msg, sizeof(msg), "At program exit the register R0 has");
		if (b.smin > INT64_MIN)
			n += snprintf(msg + n, sizeof(msg) - (size_t)n, " smin=%lld", (long long)b.smin);
		if (b.smax < INT64_MAX)
			n += snprintf(msg + n, sizeof(msg) - (size_t)n, " smax=%lld", (long long)b.smax);
		if (b.smin == INT64_MIN && b.smax == INT64_MAX)
			n += snprintf(msg + n, sizeof(msg) - (size_t)n, " unknown scalar value");
		snprintf(msg + n, sizeof(msg) - (size_t)n, " should have been in [%lld, %lld]", (long long)lo,
			 (long long)hi);
		return rb_reject(env, "%s", msg);
	}
	return 0;
}

/* prepare_func_exit: back to the caller with the callee's R0 */
int rb_subprog_return(struct rb_env *env, int *insn_idx)
{
	struct rb_vstate *st = env->cur;
	struct rb_func *callee = st->frame[st->curframe];
	struct rb_func *caller = st->frame[st->curframe - 1];
	if (callee->regs[0].type == RT_STACK)
		return rb_reject(env, "cannot return stack pointer to the caller");
	/* a callback returns to the helper call that runs it, which may run it
	 * again (callbacks.c); R0 is the callback's, not the helper's result */
	bool in_callback = callee->in_callback_fn;
	if (in_callback) {
		int err = rb_callback_exit_check(env, callee);
		if (err)
			return err;
	} else {
		caller->regs[0] = callee->regs[0];
	}
	*insn_idx = in_callback ? callee->callsite : callee->callsite + 1;
	if (env->log) {
		rb_log(env, "returning from callee:\n");
		rb_log_state(env, st, st->curframe, true);
		rb_log(env, "to caller at %d:\n", *insn_idx);
		rb_log_state(env, st, st->curframe - 1, true);
	}
	rb_func_free(callee);
	st->frame[st->curframe] = NULL;
	st->curframe--;
	if (in_callback) {
		int err = rb_callback_widen(env, *insn_idx);
		if (err)
			return err;
	}
	return 2; /* print the full state before the next insn */
}

int rb_check_exit(struct rb_env *env, int *insn_idx, bool *exit_path)
{
	struct rb_vstate *st = env->cur;
	int err;
	if (!st->curframe && rb_lock_held(env))
		return rb_reject(env, "BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region");
	if (!st->curframe && rb_ptr_refs(st)) {
		/* check_resource_leak: each leaked reference, then the verdict */
		for (int i = 0; i < st->nrefs; i++)
			if (st->ref_insns[i] >= 0)
				rb_log(env, "Unreleased reference id=%u alloc_insn=%d\n", st->refs[i], st->ref_insns[i]);
		return rb_reject(env, "BPF_EXIT instruction in main prog would lead to reference leak");
	}
	if (!st->curframe && (err = rb_rcu_check_leak(env, "BPF_EXIT instruction in main prog")))
		return err;
	if (st->curframe) {
		/* 6.18 process_bpf_exit_full: bpf_update_live_stack before
		 * prepare_func_exit */
		if ((err = rb_live_update(env)))
			return err;
		return rb_subprog_return(env, insn_idx);
	}
	if (st->frame[0]->in_async_callback_fn) {
		if ((err = rb_async_callback_return(env)))
			return err;
		*exit_path = true;
		return 0;
	}
	if (st->frame[0]->subprog) {
		/* a global subprogram verified on its own returns a scalar
		 * (7.2 check_global_subprog_return_code: nothing when its
		 * prototype returns void, profile.h global_void_return) */
		if (env->subprogs[st->frame[0]->subprog].ret_void) {
			*exit_path = true;
			return 0;
		}
		if ((err = rb_check_reg_read(env, 0)))
			return err;
		struct rb_reg *r0 = &rb_cur_regs(env)[0];
		if (r0->type != RT_SCALAR) {
			char tn[48];
			return rb_reject(env, "At subprogram exit the register R0 is not a scalar value (%s)",
					 rb_rtype_name(r0, tn, sizeof(tn)));
		}
		*exit_path = true;
		return 0;
	}
	if ((err = check_return_code(env)))
		return err;
	*exit_path = true;
	return 0;
}
