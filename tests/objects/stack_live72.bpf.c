/* stack_live72.bpf.c — the 7.2 profile's static_stack_liveness
 * (src/engine/stack_live72.c): 7.2 cleans the current state at every
 * prune point with its static stack liveness, so a slot half nothing
 * reads any more is poisoned while the path goes on. tests/cli/stack_live72.sh
 * holds both kernels' counts. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

/* key_half_dead: an 8-byte zero stored at fp-8 is the 4-byte key of two
 * lookups. At the null check (a prune point) 7.2 finds fp-4..fp-1 dead
 * (the lookups read 4 bytes) and poisons them, so the second lookup's key
 * is a 4-byte spill of 0 and its result is not NULL
 * (get_constant_map_key, can_elide_value_nullness): its null check is
 * decided. 6.18 keeps the 8-byte spill, whose size is not the key's. */
SEC("socket")
__attribute__((naked)) int key_half_dead(void)
{
	asm volatile("r6 = %[arr] ll;"
		     "r1 = 0;"
		     "*(u64 *)(r10 -8) = r1;"
		     "r1 = r6;"
		     "r2 = r10;"
		     "r2 += -8;"
		     "call %[lookup];"
		     "if r0 != 0 goto 1f;"
		     "exit;"
		     "1:"
		     "r7 = r0;"
		     "r1 = r6;"
		     "r2 = r10;"
		     "r2 += -8;"
		     "call %[lookup];"
		     "if r0 != 0 goto 2f;"
		     "r0 = 0;"
		     "exit;"
		     "2:"
		     "r0 = *(u64 *)(r0 +0);"
		     "r1 = *(u64 *)(r7 +0);"
		     "r0 += r1;"
		     "exit;"
		     :
		     : [arr] "i"(&arr), [lookup] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

/* key_in_callee: the same through a static subprogram that receives the
 * key's address: 7.2 analyses it per call site ((callsite, depth)
 * instances), so the key's dead half is known in the caller's frame too. */
static __attribute__((noinline)) int lookup_twice(__u32 *key)
{
	__u64 *a = bpf_map_lookup_elem(&arr, key), *b;
	if (!a)
		return 0;
	b = bpf_map_lookup_elem(&arr, key);
	if (!b)
		return 1;
	return *a + *b;
}

SEC("socket")
int key_in_callee(void *ctx)
{
	__u64 k = 0;
	return lookup_twice((__u32 *)&k);
}
