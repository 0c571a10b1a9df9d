/* profile72_ids2.bpf.c — scalar ids in the 7.2 profile, beyond
 * clear_singular_ids (profile72_ids.bpf.s): a fill that links the slot
 * (profile.h fill_assigns_id) and the callback-loop widening that ignores
 * ids (widen_ignores_ids). Both programs need the two switches together
 * with clear_singular_ids, which drops the slot's id at a checkpoint in
 * 7.2: without the switch the engine's 7.2 profile rejects them, Linux
 * 7.2.13 accepts them. tests/cli/profile72_ids2.sh holds both kernels'
 * counts. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

/* fill_links_slot: an unknown 8-byte value spilled to fp-16 shares an id
 * with r1 only; r1 is overwritten and, at the next checkpoint, 7.2 drops
 * the slot's now singular id. The fill into r2 gives the slot a new id in
 * 7.2 (6.18 kept the spill's), so `if r2 > 7` bounds the slot too and
 * the second fill is a valid offset into the 8-byte value. */
SEC("socket")
__attribute__((naked)) int fill_links_slot(void)
{
	asm volatile("r6 = %[arr] ll;"
		     "r1 = 0;"
		     "*(u32 *)(r10 -4) = r1;"
		     "r1 = r6;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "call %[lookup];"
		     "if r0 != 0 goto 1f;"
		     "exit;"
		     "1:"
		     "r7 = r0;"
		     "r1 = *(u64 *)(r7 +0);"
		     "*(u64 *)(r10 -16) = r1;"
		     "r1 = 0;"
		     "r3 = *(u64 *)(r7 +0);"
		     "if r3 > 100 goto 2f;"
		     "r3 = 1;"
		     "2:"
		     "if r3 > 200 goto 3f;"
		     "r3 = 2;"
		     "3:"
		     "r2 = *(u64 *)(r10 -16);"
		     "if r2 > 7 goto 4f;"
		     "r4 = *(u64 *)(r10 -16);"
		     "r5 = r7;"
		     "r5 += r4;"
		     "r0 = *(u8 *)(r5 +0);"
		     "exit;"
		     "4:"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [arr] "i"(&arr), [lookup] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

/* the callback reads the caller's fp-16 (a 4-byte spill of 0 or 1) with
 * a 4-byte fill, which gives the slot an id (both kernels) */
static __attribute__((used, naked)) void read_ctx(void)
{
	asm volatile("r2 = *(u32 *)(r2 +0);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* loop_widen_ids: fp-16 holds 0 or 1 with an id that 7.2 drops at the
 * checkpoint of the bpf_loop call (r0, its other holder, is dead there);
 * the callback's fill gives it a new one. At the callback's return 7.2
 * compares the slot with the call's checkpoint ignoring ids
 * (scalars_exact_for_widen), keeps [0, 1], and the next visit of the
 * call is pruned; comparing ids too, as 6.18 did, widens the slot to
 * unknown, which is no longer within the checkpoint's [0, 1], and the
 * loop is walked again. Nothing reads the slot precisely, so it is
 * widened at all. */
SEC("socket")
__attribute__((naked)) int loop_widen_ids(void)
{
	asm volatile("call %[prandom];"
		     "r0 &= 1;"
		     "*(u32 *)(r10 -16) = r0;"
		     "r1 = 2;"
		     "r2 = read_ctx ll;"
		     "r3 = r10;"
		     "r3 += -16;"
		     "r4 = 0;"
		     "call %[loop];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [prandom] "i"(BPF_FUNC_get_prandom_u32), [loop] "i"(BPF_FUNC_loop)
		     : "memory");
}
