/* profile72_msgs.bpf.c — what the 7.2 profile says about pointers whose
 * constant 7.2 keeps in the value (profile.h ptr_off_in_var): the stack
 * access messages (7.2.13 check_stack_access_within_bounds and
 * check_generic_ptr_alignment print the whole var_off and the
 * instruction's offset alone) and the log's pointers (log_ptr_whole:
 * "imm=N", no "off=N"). Found by progdiff against kernel-7.2 (families
 * stack and ptr, seed 1: 444 and 98 of 1,000 programs' messages differed).
 * tests/cli/profile72.sh holds both kernels' messages. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[8]);
} vals SEC(".maps");

/* stack_var_misaligned: fp-64 plus 0..7, an 8-byte load at +40 */
SEC("socket")
__attribute__((naked)) int stack_var_misaligned(void)
{
	asm volatile("call %[rand];"
		     "r0 &= 7;"
		     "r1 = r10;"
		     "r1 += -64;"
		     "r1 += r0;"
		     "r0 = *(u64 *)(r1 +40);"
		     "exit;"
		     :
		     : [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}

/* stack_var_oob: fp-64 plus 0..248 in steps of 8, an 8-byte store at +0:
 * up to 184 bytes above the frame */
SEC("socket")
__attribute__((naked)) int stack_var_oob(void)
{
	asm volatile("call %[rand];"
		     "r0 &= 248;"
		     "r1 = r10;"
		     "r1 += -64;"
		     "r1 += r0;"
		     "r2 = 0;"
		     "*(u64 *)(r1 +0) = r2;"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}

/* stack_const_misaligned: fp-48, a 8-byte load at -9 */
SEC("socket")
__attribute__((naked)) int stack_const_misaligned(void)
{
	asm volatile("r1 = r10;"
		     "r1 += -48;"
		     "r0 = *(u64 *)(r1 -9);"
		     "exit;"
		     :
		     :
		     : "memory");
}

/* map_value_imm: a map value plus 8, then plus 0..7: the log prints the
 * pointers as 7.2.13 does (imm=8, then the ranges of 8..15) */
SEC("socket")
__attribute__((naked)) int map_value_imm(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 -4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[vals] ll;"
		     "call %[lookup];"
		     "if r0 == 0 goto 1f;"
		     "r0 += 8;"
		     "r6 = r0;"
		     "call %[rand];"
		     "r0 &= 7;"
		     "r6 += r0;"
		     "r0 = *(u8 *)(r6 +0);"
		     "exit;"
		     "1:"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [vals] "i"(&vals), [lookup] "i"(BPF_FUNC_map_lookup_elem), [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}
