// SPDX-License-Identifier: GPL-2.0
/* rcu_lock.bpf.c — RCU read sections (issue 25, class 2; the engine's
 * rcu.c): bpf_rcu_read_lock / bpf_rcu_read_unlock in sleepable (syscall)
 * and non-sleepable (tracepoint) programs, nested, unmatched, left open at
 * exit, around sleepable helpers and kfuncs. Each program must give what
 * the running kernel (Linux 6.18.44) gives, and in the 7.2 profile what
 * 7.2.13 gives (tests/cli/rcu_lock.sh). Before, both kfuncs were
 * unsupported. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz, const void *unsafe_ptr__ign, __u64 flags) __ksym;

/* a section in a sleepable program: accepted */
SEC("syscall")
int rcu_pair(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

/* ... in a non-sleepable one: accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int rcu_pair_tp(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

/* two sections, one inside the other: 6.18 refuses, 7.2 counts them */
SEC("syscall")
int rcu_nested(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return 0;
}

/* an unlock without a lock: rejected */
SEC("syscall")
int rcu_unmatched(void *ctx)
{
	bpf_rcu_read_unlock();
	return 0;
}

/* the section left open at exit: rejected */
SEC("syscall")
int rcu_missing_unlock(void *ctx)
{
	bpf_rcu_read_lock();
	return 0;
}

/* ... on one path only: rejected */
SEC("syscall")
int rcu_cond_unlock(int *ctx)
{
	bpf_rcu_read_lock();
	if (*ctx)
		bpf_rcu_read_unlock();
	return 0;
}

/* a sleepable helper inside: rejected */
SEC("syscall")
int rcu_sleepable_helper(void *ctx)
{
	char buf[8];

	bpf_rcu_read_lock();
	bpf_copy_from_user(buf, sizeof(buf), ctx);
	bpf_rcu_read_unlock();
	return buf[0];
}

/* ... after the section: accepted */
SEC("syscall")
int rcu_sleepable_after(void *ctx)
{
	char buf[8];

	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_copy_from_user(buf, sizeof(buf), ctx);
	return buf[0];
}

/* a sleepable kfunc inside: rejected */
SEC("syscall")
int rcu_sleepable_kfunc(void *ctx)
{
	char buf[8];

	bpf_rcu_read_lock();
	bpf_copy_from_user_str(buf, sizeof(buf), ctx, 0);
	bpf_rcu_read_unlock();
	return buf[0];
}

/* sections on both paths of a branch, joined: accepted */
SEC("syscall")
int rcu_branches(int *ctx)
{
	int r = 0;

	if (*ctx) {
		bpf_rcu_read_lock();
		r = 1;
		bpf_rcu_read_unlock();
	} else {
		bpf_rcu_read_lock();
		bpf_rcu_read_unlock();
	}
	return r;
}

/* global subprograms that might sleep (a sleepable helper or kfunc in them
 * or their callees): refused inside a section and in a non-sleepable
 * program, allowed after the section */
__noinline int sleepy(long p)
{
	char buf[8];

	if (!p)
		return 0;
	bpf_copy_from_user(buf, sizeof(buf), (void *)p);
	return buf[0];
}

__noinline int sleepy_kf(long p)
{
	char buf[8];

	if (!p)
		return 0;
	bpf_copy_from_user_str(buf, sizeof(buf), (void *)p, 0);
	return buf[0];
}

__noinline int indirect(long p)
{
	return sleepy(p) + 1;
}

SEC("syscall")
int gs_helper(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = sleepy(bpf_get_prandom_u32());
	bpf_rcu_read_unlock();
	return r;
}

SEC("syscall")
int gs_kfunc(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = sleepy_kf(bpf_get_prandom_u32());
	bpf_rcu_read_unlock();
	return r;
}

SEC("syscall")
int gs_indirect(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = indirect(bpf_get_prandom_u32());
	bpf_rcu_read_unlock();
	return r;
}

/* ... with a bad argument too: the argument's message, then the refusal */
SEC("syscall")
int gs_badarg(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = sleepy((long)ctx);
	bpf_rcu_read_unlock();
	return r;
}

SEC("syscall")
int gs_after(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return sleepy(bpf_get_prandom_u32());
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int gs_tp(void *ctx)
{
	return sleepy(bpf_get_prandom_u32());
}
