// SPDX-License-Identifier: GPL-2.0
/* irq_flags.bpf.c — IRQ-disabled and preemption-disabled regions (issue
 * 25; the engine's irq_flags.c): bpf_local_irq_save / bpf_local_irq_restore,
 * the flag of bpf_res_spin_lock_irqsave / bpf_res_spin_unlock_irqrestore,
 * bpf_preempt_disable / bpf_preempt_enable. One program per rule: the
 * flag's stack slot (LIFO restores, saved twice, never saved, read,
 * overwritten, not on the stack, NULL), exits, tail calls and sleepable
 * helpers, kfuncs and global functions inside a region, the kind of kfunc
 * that saved a flag, and pruning over states holding flags. Each program
 * must give what the running kernel (Linux 6.18.44) gives, and in the 7.2
 * profile what 7.2.13 gives (tests/cli/irq_flags.sh). Before, every
 * program was unsupported. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* Debian 12's UAPI headers predate struct bpf_res_spin_lock */
struct bpf_res_spin_lock {
	__u32 val;
};

extern void bpf_local_irq_save(unsigned long *flags__irq_flag) __ksym;
extern void bpf_local_irq_restore(unsigned long *flags__irq_flag) __ksym;
extern int bpf_res_spin_lock_irqsave(struct bpf_res_spin_lock *lock, unsigned long *flags__irq_flag) __ksym;
extern void bpf_res_spin_unlock_irqrestore(struct bpf_res_spin_lock *lock, unsigned long *flags__irq_flag) __ksym;
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz, const void *unsafe_ptr__ign, __u64 flags) __ksym;

struct bpf_res_spin_lock lock_a SEC(".data.lock_a");
unsigned long global_flag;

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

/* saved, restored: accepted */
SEC("tc")
int irq_pair(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	return 0;
}

/* two flags restored in the reverse order: accepted */
SEC("tc")
int irq_lifo(struct __sk_buff *skb)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	bpf_local_irq_save(&f2);
	bpf_local_irq_restore(&f2);
	bpf_local_irq_restore(&f1);
	return 0;
}

/* ... in the order saved: rejected (out of order) */
SEC("tc")
int irq_ooo(struct __sk_buff *skb)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	bpf_local_irq_save(&f2);
	bpf_local_irq_restore(&f1);
	bpf_local_irq_restore(&f2);
	return 0;
}

/* exit with IRQs disabled: rejected */
SEC("tc")
int irq_missing(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	return 0;
}

/* ... on one path only: rejected */
SEC("tc")
int irq_cond(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	if (skb->len > 10)
		bpf_local_irq_restore(&f);
	return 0;
}

/* both paths of a branch with a flag saved meet again (pruned): accepted */
SEC("tc")
int irq_branches(struct __sk_buff *skb)
{
	unsigned long f;
	int r = 1;

	bpf_local_irq_save(&f);
	if (skb->len > 10)
		r = bpf_get_prandom_u32() & 3;
	else
		r = 2;
	bpf_local_irq_restore(&f);
	return r;
}

/* a flag saved on two paths by two instructions: accepted */
SEC("tc")
int irq_two_saves(struct __sk_buff *skb)
{
	unsigned long f;
	int r;

	if (skb->len > 10) {
		bpf_local_irq_save(&f);
		r = bpf_get_prandom_u32() & 3;
	} else {
		r = skb->len;
		bpf_local_irq_save(&f);
	}
	bpf_local_irq_restore(&f);
	return r;
}

/* restoring a flag never saved: rejected */
SEC("tc")
int irq_restore_unsaved(struct __sk_buff *skb)
{
	unsigned long f = 0;

	bpf_local_irq_restore(&f);
	return 0;
}

/* saving into a saved flag: rejected */
SEC("tc")
int irq_save_twice(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	return 0;
}

/* reading the flag: rejected */
SEC("tc")
int irq_read_flag(struct __sk_buff *skb)
{
	unsigned long f;
	int r;

	bpf_local_irq_save(&f);
	r = *(volatile unsigned char *)&f;
	bpf_local_irq_restore(&f);
	return r;
}

/* a store into the flag's slot makes it plain data: the restore is rejected */
SEC("tc")
int irq_overwrite(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	*(volatile unsigned int *)&f = 0;
	bpf_local_irq_restore(&f);
	return 0;
}

/* a flag outside the stack: rejected */
SEC("tc")
int irq_global_flag(struct __sk_buff *skb)
{
	bpf_local_irq_save(&global_flag);
	return 0;
}

/* a NULL flag: rejected */
SEC("tc")
int irq_null_flag(struct __sk_buff *skb)
{
	bpf_local_irq_save((unsigned long *)0);
	return 0;
}

/* saved and restored in static subprograms on the caller's stack: accepted */
static __noinline void save_in(unsigned long *f)
{
	bpf_local_irq_save(f);
}

static __noinline void restore_in(unsigned long *f)
{
	bpf_local_irq_restore(f);
}

SEC("tc")
int irq_subprogs(struct __sk_buff *skb)
{
	unsigned long f;

	save_in(&f);
	restore_in(&f);
	return 0;
}

/* a tail call with IRQs disabled: rejected */
SEC("tc")
int irq_tail_call(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_tail_call(skb, &jmp, 0);
	bpf_local_irq_restore(&f);
	return 0;
}

/* sleepable helper, kfunc, global function with IRQs disabled: rejected */
SEC("syscall")
int irq_sleepable_helper(void *ctx)
{
	unsigned long f;
	char buf[8];

	bpf_local_irq_save(&f);
	bpf_copy_from_user(buf, sizeof(buf), ctx);
	bpf_local_irq_restore(&f);
	return buf[0];
}

SEC("syscall")
int irq_sleepable_kfunc(void *ctx)
{
	unsigned long f;
	char buf[8];

	bpf_local_irq_save(&f);
	bpf_copy_from_user_str(buf, sizeof(buf), ctx, 0);
	bpf_local_irq_restore(&f);
	return buf[0];
}

__noinline int sleepy(long p)
{
	char buf[8];

	if (!p)
		return 0;
	bpf_copy_from_user(buf, sizeof(buf), (void *)p);
	return buf[0];
}

__noinline int awake(long p)
{
	return p + 1;
}

SEC("syscall")
int irq_global_sleepy(void *ctx)
{
	unsigned long f;
	int r;

	bpf_local_irq_save(&f);
	r = sleepy(bpf_get_prandom_u32());
	bpf_local_irq_restore(&f);
	return r;
}

/* a global function that does not sleep: accepted */
SEC("tc")
int irq_global_awake(struct __sk_buff *skb)
{
	unsigned long f;
	int r;

	bpf_local_irq_save(&f);
	r = awake(skb->len);
	bpf_local_irq_restore(&f);
	return r;
}

/* the lock kfuncs' flag: accepted */
SEC("tc")
int irq_lock_pair(struct __sk_buff *skb)
{
	unsigned long f;

	if (bpf_res_spin_lock_irqsave(&lock_a, &f))
		return 0;
	bpf_res_spin_unlock_irqrestore(&lock_a, &f);
	return 1;
}

/* a native flag restored by the lock kfunc: rejected */
SEC("tc")
int irq_lock_class(struct __sk_buff *skb)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	if (bpf_res_spin_lock_irqsave(&lock_a, &f2)) {
		bpf_local_irq_restore(&f1);
		return 0;
	}
	bpf_res_spin_unlock_irqrestore(&lock_a, &f1);
	bpf_local_irq_restore(&f2);
	return 1;
}

/* the lock's flag restored by bpf_local_irq_restore with the lock held:
 * rejected (no such call while holding a lock) */
SEC("tc")
int irq_lock_native(struct __sk_buff *skb)
{
	unsigned long f;

	if (bpf_res_spin_lock_irqsave(&lock_a, &f))
		return 0;
	bpf_local_irq_restore(&f);
	return 1;
}

/* preemption disabled and enabled, nested: accepted */
SEC("tc")
int preempt_pair(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

SEC("tc")
int preempt_nested(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_preempt_enable();
	return 0;
}

/* an enable without a disable: rejected */
SEC("tc")
int preempt_unmatched(struct __sk_buff *skb)
{
	bpf_preempt_enable();
	return 0;
}

/* exit with preemption disabled: rejected */
SEC("tc")
int preempt_missing(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

/* ... on one path only: rejected */
SEC("tc")
int preempt_cond(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	if (skb->len > 10)
		bpf_preempt_enable();
	return 0;
}

/* both paths meet again with preemption disabled: accepted */
SEC("tc")
int preempt_branches(struct __sk_buff *skb)
{
	int r;

	bpf_preempt_disable();
	if (skb->len > 10)
		r = bpf_get_prandom_u32() & 3;
	else
		r = 2;
	bpf_preempt_enable();
	return r;
}

/* a tail call with preemption disabled: rejected */
SEC("tc")
int preempt_tail_call(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_tail_call(skb, &jmp, 0);
	bpf_preempt_enable();
	return 0;
}

/* sleepable helper, kfunc, global function with preemption disabled: rejected */
SEC("syscall")
int preempt_sleepable_helper(void *ctx)
{
	char buf[8];

	bpf_preempt_disable();
	bpf_copy_from_user(buf, sizeof(buf), ctx);
	bpf_preempt_enable();
	return buf[0];
}

SEC("syscall")
int preempt_sleepable_kfunc(void *ctx)
{
	char buf[8];

	bpf_preempt_disable();
	bpf_copy_from_user_str(buf, sizeof(buf), ctx, 0);
	bpf_preempt_enable();
	return buf[0];
}

SEC("syscall")
int preempt_global_sleepy(void *ctx)
{
	int r;

	bpf_preempt_disable();
	r = sleepy(bpf_get_prandom_u32());
	bpf_preempt_enable();
	return r;
}

/* both regions, closed in turn: accepted */
SEC("tc")
int irq_preempt_both(struct __sk_buff *skb)
{
	unsigned long f;

	bpf_preempt_disable();
	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	bpf_preempt_enable();
	return 0;
}
