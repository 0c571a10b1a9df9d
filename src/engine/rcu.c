/* rcu.c — RCU read sections, as Linux 6.18.44 and 7.2.13 check them
 * (check_kfunc_call's bpf_rcu_read_lock / bpf_rcu_read_unlock, in_rcu_cs,
 * invalidate_rcu_protected_refs, check_resource_leak): a non-sleepable
 * program always runs in one; a sleepable one inside a held lock or
 * between bpf_rcu_read_lock and bpf_rcu_read_unlock. The unlock that ends
 * the section makes every RCU pointer (MEM_RCU: registers, spilled and
 * iterator slots) untrusted, and not NULL-checked any longer; no sleepable
 * helper or kfunc may be called inside, and the main program may not exit,
 * tail-call or use LD_ABS with one open. 7.2 counts nested sections
 * (profile.h rcu_nested), 6.18 refuses a second lock. The state keeps the
 * count (rb_vstate.active_rcu), compared for equality when pruning. */
#include <linux/bpf.h>
#include <string.h>

#include "engine/kfunc_table.h"
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
	struct rb_vstate *st = env->cur;
	for (int fi = 0; fi <= st->curframe; fi++) {
		struct rb_func *f = st->frame[fi];
		for (int i = 0; i < RB_MAX_REG + f->nslots; i++) {
			struct rb_reg *r;
			if (i < RB_MAX_REG) {
				r = &f->regs[i];
			} else {
				struct rb_slot *s = &f->stack[i - RB_MAX_REG];
				if (s->type[7] != SLOT_SPILL && s->type[7] != SLOT_ITER)
					continue;
				r = &s->spilled;
			}
			if (r->flags & RF_RCU)
				r->flags = (uint8_t)((r->flags & ~(RF_RCU | RF_MAYBE_NULL)) | RF_UNTRUSTED);
		}
	}
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
	if (!env->cur->active_rcu)
		return 0;
	return rb_reject(env, "%s cannot be used inside bpf_rcu_read_lock-ed region", prefix);
}

int rb_rcu_check_sleepable(struct rb_env *env, const char *name, int id, bool is_helper)
{
	if (!env->cur->active_rcu)
		return 0;
	if (is_helper)
		return rb_reject(env, "sleepable helper %s#%d in rcu_read_lock region", name, id);
	return rb_reject(env, "kernel func %s is sleepable within rcu_read_lock region", name);
}
