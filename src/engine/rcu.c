/* rcu.c — RCU read sections, as Linux 6.18.44 and 7.2.13 check them
 * (check_kfunc_call's bpf_rcu_read_lock / bpf_rcu_read_unlock, in_rcu_cs,
 * invalidate_rcu_protected_refs, check_resource_leak): a non-sleepable
 * program always runs in one; a sleepable one inside a held lock or
 * between bpf_rcu_read_lock and bpf_rcu_read_unlock. The unlock that ends
 * the section makes every RCU pointer (MEM_RCU: registers, spilled and
 * iterator slots) untrusted, and not NULL-checked any longer; no sleepable
 * helper or kfunc may be called inside, nor a global subprogram that might
 * sleep (there, or anywhere in a non-sleepable program: check_func_call),
 * and the main program may not exit, tail-call or use LD_ABS with one open
 * (the same holds inside an IRQ-disabled or a preemption-disabled region,
 * irq_flags.c: the checks here cover them too). 7.2 counts nested sections
 * (profile.h rcu_nested), 6.18 refuses a second lock. The state keeps the
 * count (rb_vstate.active_rcu), compared for equality when pruning. */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

#include "engine/btf_names.h"
#include "engine/helper_table.h"
#include "engine/irq_flags.h"
#include "engine/kfunc_table.h"
#include "engine/kfunc_table72.h"
#include "engine/locks.h"
#include "engine/profile.h"
#include "engine/rcu.h"

bool rb_in_rcu_cs(struct rb_env *env)
{
	return env->cur->active_rcu || rb_lock_held(env) || !(env->prog->prog_flags & BPF_F_SLEEPABLE);
}

/* invalidate_rcu_protected_refs (6.18: inline in check_kfunc_call) */
static void invalidate_rcu(struct rb_env *env)
{
	int fr = 0, i = 0;
	for (struct rb_reg *r; (r = rb_vstate_next_reg(env->cur, 1u << SLOT_SPILL | 1u << SLOT_ITER, &fr, &i));)
		if (r->flags & RF_RCU)
			r->flags = (uint8_t)((r->flags & ~(RF_RCU | RF_MAYBE_NULL)) | RF_UNTRUSTED);
}

int rb_kfunc_rcu(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	struct rb_vstate *st = env->cur;
	if (!strcmp(call->name, "bpf_rcu_read_lock")) {
		if (st->active_rcu && !env->prof->rcu_nested)
			return rb_reject(env, "nested rcu read lock (kernel function %s)", call->name);
		st->active_rcu++;
	} else {
		if (!st->active_rcu)
			return rb_reject(env, "unmatched rcu read unlock (kernel function %s)", call->name);
		if (--st->active_rcu == 0)
			invalidate_rcu(env);
	}
	rb_clobber_caller_saved(env);
	return 0;
}

int rb_rcu_check_leak(struct rb_env *env, const char *prefix)
{
	/* check_resource_leak after the references: IRQ flags, RCU,
	 * preemption (6.18.44 and 7.2.13) */
	if (rb_irq_active_id(env->cur))
		return rb_reject(env, "%s cannot be used inside bpf_local_irq_save-ed region", prefix);
	if (env->cur->active_rcu)
		return rb_reject(env, "%s cannot be used inside bpf_rcu_read_lock-ed region", prefix);
	if (env->cur->active_preempt)
		return rb_reject(env, "%s cannot be used inside bpf_preempt_disable-ed region", prefix);
	return 0;
}

/* 7.2.13 non_sleepable_context_description of a region sleeping is
 * refused in, NULL outside one (6.18.44 checks the same regions in the
 * same order, each with this text) */
static const char *region(const struct rb_vstate *st)
{
	if (st->active_rcu)
		return "rcu_read_lock region";
	if (st->active_preempt)
		return "non-preemptible region";
	if (rb_irq_active_id(st))
		return "IRQ-disabled region";
	return NULL;
}

int rb_rcu_check_sleepable(struct rb_env *env, const char *name, int id, bool is_helper)
{
	const char *r = region(env->cur);
	if (!r)
		return 0;
	if (is_helper)
		return rb_reject(env, "sleepable helper %s#%d in %s", name, id, r);
	return rb_reject(env, "kernel func %s is sleepable within %s", name, r);
}

/* check_cfg's mark_subprog_might_sleep and merge_callee_effects (6.18.44
 * and 7.2.13): a subprogram might sleep when it, or a subprogram it calls,
 * calls a sleepable helper or kfunc */
static bool might_sleep(struct rb_env *env, int sub, int depth)
{
	const struct rb_subprog *sp = &env->subprogs[sub];
	for (int k = sp->start; k < sp->end && k < env->insn_cnt; k++) {
		const struct bpf_insn *in = &env->insns[k];
		if (in->code != (BPF_JMP | BPF_CALL))
			continue;
		if (in->src_reg == 0) {
			bool variant = false;
			const struct rb_helper *h = rb_helper_proto_for(in->imm, env->prog->prog_type,
								       env->prog->expected_attach_type, &variant);
			if (h && (h->flags & HF_MIGHT_SLEEP))
				return true;
		} else if (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off && in->imm > 0) {
			const struct btf *b = rb_need_vmlinux(env);
			const struct btf_type *ft = b ? btf__type_by_id(b, (uint32_t)in->imm) : NULL;
			const char *n = ft && btf_is_func(ft) ? btf__name_by_offset(b, ft->name_off) : NULL;
			const struct rb_kfunc72 *r72 = n ? rb_kfunc72_row_in(n, env->prof) : NULL;
			const struct rb_kfunc *row = r72 ? &r72->k : n ? rb_kfunc_row(n) : NULL;
			if (row && (row->flags & KF_SLEEPABLE))
				return true;
		} else if (in->src_reg == BPF_PSEUDO_CALL && depth < 64) {
			for (int s = 0; s < env->nsubprogs; s++)
				if (env->subprogs[s].start == k + in->imm + 1 && might_sleep(env, s, depth + 1))
					return true;
		}
	}
	return false;
}

bool rb_global_sleep_refused(struct rb_env *env, int sub, char *m, size_t len)
{
	bool sleepable = (env->prog->prog_flags & BPF_F_SLEEPABLE) != 0;
	const char *r = region(env->cur);
	if ((sleepable && !r) || !might_sleep(env, sub, 0))
		return false;
	/* 7.2.13: one line naming the function and the context */
	if (env->prof->rcu_nested) {
		snprintf(m, len, "sleepable global function %s() called in %s", env->subprogs[sub].name,
			 r ? r : "non-sleepable prog");
		return true;
	}
	rb_log(env, "global functions that may sleep are not allowed in non-sleepable context,\n"
		    "i.e., in a RCU/IRQ/preempt-disabled section, or in\n");
	snprintf(m, len, "a non-sleepable BPF program context");
	return true;
}
