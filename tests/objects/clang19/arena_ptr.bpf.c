// SPDX-License-Identifier: GPL-2.0
/* arena_ptr.bpf.c — arena memory as the kernel verifies it (Linux 6.18 and
 * 7.2.13: src/engine/arena.c): addr_space_cast makes a PTR_TO_ARENA, ALU
 * on it keeps the type, loads from it read unknown scalars, stores are
 * unchecked, bpf_arena_alloc_pages returns a scalar (void *) and may be
 * called while holding a bpf_spin_lock in 7.2 (profile.h arena_kfuncs).
 * The running 6.18.44 cannot create the arena map here (EPERM), so the
 * figures are 7.2.13's, measured in its guest (tests/cli/sched_ext.sh).
 * Compiled with clang-19 (address_space(1) needs clang >= 18). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define RB_MAP_TYPE_ARENA 33
#define __arena __attribute__((address_space(1)))
/* map_extra as libbpf >= 1.4's __ulong() spells it (an enum member's value) */

struct {
	__uint(type, RB_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 4); /* pages */
	/* the user address (else 7.2.13: "arena's user address must be set"), above
	 * ASan's shadow memory (1 << 44 is inside it: the test build's loader crashed) */
	enum { rb_arena_base = 1ull << 45 } map_extra;
} arena SEC(".maps");

extern void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt, int node_id,
					   __u64 flags) __ksym __weak;

long __arena slots[8];
long __arena *__arena head;

/* arena globals: a cast, a variable index into arena memory, a stored pointer */
SEC("syscall")
int arena_index(void *ctx)
{
	__u32 i = bpf_get_prandom_u32();
	long sum = 0;
	slots[i & 7] += 3;
	head = &slots[1];
	for (int k = 0; k < 4; k++)
		sum += slots[k];
	return sum > 100;
}

struct bpf_spin_lock glock __attribute__((section(".data.glock")));

/* a page from the kernel, used after a NULL test, allocated under a lock */
SEC("syscall")
int arena_alloc(void *ctx)
{
	bpf_spin_lock(&glock);
	long __arena *p = bpf_arena_alloc_pages(&arena, (void __arena *)0, 1, -1, 0);
	bpf_spin_unlock(&glock);
	if (!p)
		return 1;
	p[2] = 7;
	return p[1] == 0;
}

char LICENSE[] SEC("license") = "GPL";
