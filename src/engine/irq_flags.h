/* irq_flags.h — IRQ-disabled regions and preemption-disabled regions
 * (Linux 6.18.44 and 7.2.13: bpf_local_irq_save / bpf_local_irq_restore,
 * the flag of bpf_res_spin_lock_irqsave / _unlock_irqrestore,
 * bpf_preempt_disable / bpf_preempt_enable). See irq_flags.c. */
#ifndef RB_ENGINE_IRQ_FLAGS_H
#define RB_ENGINE_IRQ_FLAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

/* A saved IRQ flag is one stack slot of type SLOT_IRQ_FLAG in every byte;
 * its `spilled` register (the kernel's spilled_ptr) is a known stack
 * pointer with the flag's reference id in `id` and, in `range`, the kind
 * of kfunc that saved it (the kernel's irq.kfunc_class): */
#define RB_IRQ_CLASS(r) ((r)->range)
enum { RB_IRQ_NATIVE = 0, RB_IRQ_LOCK = 1 };

struct bpf_insn;
struct rb_kfunc_call;

/* active_irq_id: the id of the last IRQ flag saved and not restored, 0 when none */
uint32_t rb_irq_active_id(const struct rb_vstate *st);
/* KF_ARG_PTR_TO_IRQ_FLAG in register regno (process_irq_flag): save
 * (bpf_local_irq_save, bpf_res_spin_lock_irqsave) or restore a flag of
 * kfunc class cls */
int rb_irq_flag_arg(struct rb_env *env, int regno, bool save, int cls);
/* the `special` checkers of bpf_local_irq_save / bpf_local_irq_restore and
 * bpf_preempt_disable / bpf_preempt_enable (kfunc_table.c) */
int rb_kfunc_irq_flag(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
int rb_kfunc_preempt(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);

#endif
