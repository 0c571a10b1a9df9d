/* profile72_ptr.bpf.c — pointer offsets, pinning the 7.2 profile's
 * ptr_off_in_var (src/engine/profile.h): 7.2 keeps a constant added to a
 * pointer in its value range (no fixed offset). tests/cli/profile72.sh
 * holds both kernels' counts. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[8]);
} arr SEC(".maps");

/* pkt_neg_after_var: pkt + x (x in [32, 63]) + 6, compared with
 * data_end, then a store at -8. 7.2 checks [38 - 8, 69 - 8 + 8) against
 * the range 69 (from the packet start) and accepts; 6.18 checks the fixed
 * offset 6 - 8 < 0 and refuses ("offset is outside of the packet"). */
SEC("xdp")
__attribute__((naked)) int pkt_neg_after_var(void)
{
	asm volatile("r6 = r1;"
		     "call %[rand];"
		     "r2 = r0;"
		     "r2 &= 31;"
		     "r2 += 32;"
		     "r5 = *(u32 *)(r6 +0);"
		     "r3 = *(u32 *)(r6 +4);"
		     "r5 += r2;"
		     "r5 += 6;"
		     "if r5 > r3 goto 1f;"
		     "r7 = 0;"
		     "*(u64 *)(r5 -8) = r7;"
		     "1:"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}

/* map_value_minus_one: a map value plus a register holding -1, then a
 * store at +6. 6.18 keeps -1 as the fixed offset (the access at 5 is in
 * the 64-byte value) and accepts; 7.2 adds -1 to the value range, whose
 * umax is then 2^64 - 1, and refuses ("unbounded memory access"). */
SEC("xdp")
__attribute__((naked)) int map_value_minus_one(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 -4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[arr] ll;"
		     "call %[lookup];"
		     "if r0 == 0 goto 1f;"
		     "r2 = -1;"
		     "r0 += r2;"
		     "*(u64 *)(r0 +6) = r2;"
		     "1:"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [lookup] "i"(BPF_FUNC_map_lookup_elem), [arr] "i"(&arr)
		     : "memory");
}

/* pkt_join_displaced: two paths reach a join with a packet pointer whose
 * whole offset is {4, 12} on both: pkt + (r & 8) + 4 on the first, pkt +
 * ((r & 8) + 4) on the second. 6.18 compares the fixed offsets (4 and 0)
 * and explores the join again; 7.2 compares the ranges (and their start,
 * the pointers' displacement) and prunes the second arrival. */
SEC("xdp")
__attribute__((naked)) int pkt_join_displaced(void)
{
	asm volatile("r6 = r1;"
		     "call %[rand];"
		     "r9 = r0;"
		     "r2 = *(u32 *)(r6 +0);"
		     "r3 = *(u32 *)(r6 +4);"
		     "r8 = *(u32 *)(r6 +12);"
		     "r7 = r9;"
		     "r7 &= 1;"
		     "if r7 != 0 goto 2f;"
		     "r4 = r9;"
		     "r4 &= 8;"
		     "r5 = r2;"
		     "r5 += r4;"
		     "r5 += 4;"
		     "goto 3f;"
		     "2:"
		     "r4 = r9;"
		     "r4 &= 8;"
		     "r4 += 4;"
		     "r5 = r2;"
		     "r5 += r4;"
		     "3:"
		     "if r8 == 7 goto 4f;"
		     "r8 = 1;"
		     "4:"
		     "r1 = r5;"
		     "r1 += 1;"
		     "if r1 > r3 goto 5f;"
		     "r0 = *(u8 *)(r5 +0);"
		     "5:"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}
