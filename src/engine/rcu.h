/* rcu.h — RCU read sections (Linux 6.18 and 7.2.13 in_rcu_cs,
 * bpf_rcu_read_lock / bpf_rcu_read_unlock). See rcu.c. */
#ifndef RB_ENGINE_RCU_H
#define RB_ENGINE_RCU_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/state.h"

struct bpf_insn;
struct rb_kfunc_call;

/* in_rcu_cs: the program runs in an RCU read section here (it is not
 * sleepable, or it holds a lock, or it is inside bpf_rcu_read_lock) */
bool rb_in_rcu_cs(struct rb_env *env);
/* the `special` checker of bpf_rcu_read_lock and bpf_rcu_read_unlock (kfunc_table.c) */
int rb_kfunc_rcu(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
/* check_resource_leak after the references: "PREFIX cannot be used
 * inside bpf_local_irq_save-ed region" (an IRQ flag saved),
 * "...bpf_rcu_read_lock-ed region", "...bpf_preempt_disable-ed region",
 * else 0 */
int rb_rcu_check_leak(struct rb_env *env, const char *prefix);
/* a sleepable helper (is_helper) or kfunc called here: refused inside an
 * RCU section, a preemption-disabled or an IRQ-disabled region ("... in
 * rcu_read_lock region"), else 0 */
int rb_rcu_check_sleepable(struct rb_env *env, const char *name, int id, bool is_helper);
/* check_func_call's refusal of global subprogram sub that might sleep (a
 * sleepable helper or kfunc in it or its callees) in a non-sleepable
 * context (a non-sleepable program, an RCU read section, a preemption- or
 * IRQ-disabled region): true with the
 * message's last line in m (6.18.44's first two lines logged), else false */
bool rb_global_sleep_refused(struct rb_env *env, int sub, char *m, size_t len);

#endif
