/* common.h — shared by the worked examples in programs/src/.
 *
 * Each example reads an unknown number from bpf_get_prandom_u32(), bounds
 * it with ordinary checks, transforms it, and uses the result as an index
 * into `slots`, the value of a one-entry array map (9 u64 = 72 bytes).
 * Whether the verifier accepts the access depends only on how precisely
 * its scalar tracker follows the index.
 *
 * OPAQUE(v) makes clang forget what it knows about v (it emits no
 * instruction), so the compiler cannot fold the steps the example is
 * about; the arithmetic under test is written as inline assembly where
 * clang would otherwise rewrite it (e.g. add of 2^63 into xor). */
#ifndef RB_OWN_COMMON_H
#define RB_OWN_COMMON_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define OPAQUE(v) asm volatile("" : "+r"(v))

struct slots {
	__u64 v[9];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct slots);
} table SEC(".maps");

static __always_inline struct slots *get_slots(void)
{
	__u32 key = 0;
	return bpf_map_lookup_elem(&table, &key);
}

char LICENSE[] SEC("license") = "GPL";

#endif
