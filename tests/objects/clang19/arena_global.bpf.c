// SPDX-License-Identifier: GPL-2.0
/* arena_global.bpf.c — an object with a BPF arena (issue 25, item 1).
 *
 * clang >= 18 puts a global declared in address space 1 into the section
 * .addr_space.1, and libbpf >= 1.4 relocates references to it against
 * the object's BPF_MAP_TYPE_ARENA map. libbpf 1.1 refuses the whole object
 * ("bad map relo against '.addr_space.1' in section '.addr_space.1'"), so
 * none of its programs could be verified. Compiled with clang-19 (Makefile:
 * build/test/objects/clang19/). Linux 6.18.44 verifies both programs. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define RB_MAP_TYPE_ARENA 33 /* BPF_MAP_TYPE_ARENA, after the 6.1 UAPI headers */
#define __arena __attribute__((address_space(1)))

struct {
	__uint(type, RB_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* pages */
} arena SEC(".maps");

int __arena hits;

/* reads and writes the arena global: addr_space_cast, then arena memory */
SEC("syscall")
int arena_count(void *ctx)
{
	hits++;
	return 0;
}

/* touches no arena memory: only the object's arena map kept it from opening */
SEC("syscall")
int arena_plain(void *ctx)
{
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
