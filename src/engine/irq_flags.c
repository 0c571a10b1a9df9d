/* irq_flags.c — IRQ-disabled and preemption-disabled regions, as Linux
 * 6.18.44 and 7.2.13 check them (verifier.c: process_irq_flag,
 * irq_flag_get_spi, is_irq_flag_reg_valid_uninit / _init,
 * mark_stack_slot_irq_flag, unmark_stack_slot_irq_flag,
 * acquire_irq_state, release_irq_state; check_kfunc_call's
 * active_preempt_locks).
 *
 * bpf_local_irq_save(&flags) and bpf_res_spin_lock_irqsave(lock, &flags)
 * write the 8-byte stack slot the argument points to and make it an IRQ
 * flag (SLOT_IRQ_FLAG), holding a new reference of the state's refs
 * (marker RB_REF_IRQ(insn), the kernel's REF_TYPE_IRQ): the flag must be
 * restored, by the kfunc of the same kind, in the reverse order of the
 * saves (the last IRQ entry of refs is the kernel's active_irq_id). The
 * slot can be neither read nor saved into again; a store over it makes
 * it plain data. Exit, tail calls and LD_ABS are refused with a flag
 * saved or preemption disabled, and so are sleepable calls (rcu.c). The
 * two kernels agree here but for the argument's name in messages (7.2:
 * "R1", 6.18: "arg#0"; the engine prints 6.18's). */
#include <stdio.h>
#include <string.h>

#include "engine/irq_flags.h"
#include "engine/kfunc_table.h"
#include "engine/liveness.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/profile.h"
#include "engine/refs.h"
#include "engine/stack.h"

uint32_t rb_irq_active_id(const struct rb_vstate *st)
{
	for (int i = st->nrefs - 1; i >= 0; i--)
		if (RB_REF_IS_IRQ(st->ref_insns[i]))
			return st->refs[i];
	return 0;
}

/* irq_flag_get_spi (stack_slot_obj_get_spi with one slot): 0 and the
 * slot, -1 after logging why not, 1 when the slot is beyond the allocated
 * stack (-ERANGE, nothing logged) */
static int flag_spi(struct rb_env *env, const struct rb_reg *reg, int *spi)
{
	char msg[96];
	int off, rc = rb_stack_obj_spi(env, reg, "irq_flag", 1, spi, &off, msg, sizeof(msg));
	if (rc >= 0 && off >= 0) { /* one slot: an offset of 0 passes the slot count */
		snprintf(msg, sizeof(msg), "cannot pass in irq_flag at an offset=%d", off);
		rc = -1;
	}
	if (rc < 0)
		rb_log(env, "%s\n", msg);
	return rc;
}

static bool all_bytes(const struct rb_slot *s, uint8_t type)
{
	for (int i = 0; i < 8; i++)
		if (s->type[i] != type)
			return false;
	return true;
}

/* mark_stack_slot_irq_flag after check_mem_access's write of the slot */
static int save_flag(struct rb_env *env, const struct rb_reg *reg, int cls)
{
	int spi;
	if (flag_spi(env, reg, &spi))
		return rb_reject(env, "expected uninitialized irq flag as arg#0"); /* not reached: the write grew the stack */
	uint32_t id = rb_acquire_ref(env); /* acquire_irq_state */
	if (!id)
		return RB_E_NOMEM;
	env->cur->ref_insns[env->cur->nrefs - 1] = RB_REF_IRQ(env->insn_idx);
	struct rb_slot *s = &env->cur->frame[reg->frameno]->stack[spi];
	rb_reg_ptr(env, &s->spilled, RT_STACK); /* the kernel has no type of its own for it */
	s->spilled.id = id;
	RB_IRQ_CLASS(&s->spilled) = cls;
	memset(s->type, SLOT_IRQ_FLAG, sizeof(s->type));
	rb_scratch_slot(env, spi);
	return 0;
}

/* unmark_stack_slot_irq_flag: the class, then release_irq_state (LIFO) */
static int restore_flag(struct rb_env *env, struct rb_func *f, int spi, int cls)
{
	struct rb_slot *s = &f->stack[spi];
	static const char *const kind[] = {"native", "lock"};
	if (RB_IRQ_CLASS(&s->spilled) != cls)
		return rb_reject(env, "irq flag acquired by %s kfuncs cannot be restored with %s kfuncs",
				 kind[RB_IRQ_CLASS(&s->spilled) == RB_IRQ_LOCK], kind[cls == RB_IRQ_LOCK]);
	struct rb_vstate *st = env->cur;
	uint32_t active = rb_irq_active_id(st);
	int at = -1;
	for (int i = 0; i < st->nrefs; i++)
		if (RB_REF_IS_IRQ(st->ref_insns[i]) && st->refs[i] == active)
			at = i;
	if (s->spilled.id != active || at < 0)
		return rb_reject(env, "cannot restore irq state out of order, expected id=%u acquired at insn_idx=%d",
				 active, at < 0 ? 0 : RB_REF_IRQ_INSN(st->ref_insns[at]));
	rb_ref_remove(st, at);
	rb_reg_not_init(env, &s->spilled);
	memset(s->type, SLOT_INVALID, sizeof(s->type));
	rb_scratch_slot(env, spi);
	return 0;
}

int rb_irq_flag_arg(struct rb_env *env, int regno, bool save, int cls)
{
	int err = rb_check_reg_read(env, regno);
	if (err)
		return err;
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	int argi = regno - 1;
	/* check_kfunc_args before the argument's kind: no NULL */
	if ((reg->type == RT_SCALAR && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0) ||
	    (reg->type != RT_SCALAR && (reg->flags & RF_MAYBE_NULL)))
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg%d", argi);
	if (reg->type != RT_STACK)
		return rb_reject(env, "arg#%d doesn't point to an irq flag on stack", argi);
	struct rb_reg r = *reg;
	struct rb_func *f = env->cur->frame[r.frameno];
	int spi, where = flag_spi(env, &r, &spi);
	if (save) {
		/* is_irq_flag_reg_valid_uninit: beyond the stack is uninitialised */
		if (where < 0 || (where == 0 && memchr(f->stack[spi].type, SLOT_IRQ_FLAG, 8)))
			return rb_reject(env, "expected uninitialized irq flag as arg#%d", argi);
		if ((err = rb_check_mem_access(env, env->insn_idx, regno, 0, 8, true, -1, false, false)))
			return err;
		return save_flag(env, &r, cls);
	}
	/* is_irq_flag_reg_valid_init */
	if (where != 0 || !f->stack[spi].spilled.id || !all_bytes(&f->stack[spi], SLOT_IRQ_FLAG))
		return rb_reject(env, "expected an initialized irq flag as arg#%d", argi);
	/* 6.18 mark_irq_flag_read (7.2's liveness is static) */
	rb_live_stack_access(env, r.frameno, spi, false);
	rb_scratch_slot(env, spi);
	return restore_flag(env, f, spi, cls);
}

int rb_kfunc_irq_flag(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	int err = rb_irq_flag_arg(env, 1, !strcmp(call->name, "bpf_local_irq_save"), RB_IRQ_NATIVE);
	if (err)
		return err;
	rb_clobber_caller_saved(env); /* void */
	return 0;
}

int rb_kfunc_preempt(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	struct rb_vstate *st = env->cur;
	if (!strcmp(call->name, "bpf_preempt_disable")) {
		st->active_preempt++;
	} else {
		if (!st->active_preempt)
			return rb_reject(env, "unmatched attempt to enable preemption (kernel function %s)",
					 call->name);
		st->active_preempt--;
	}
	rb_clobber_caller_saved(env); /* void */
	return 0;
}
