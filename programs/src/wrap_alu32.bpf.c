/* wrap_alu32 — the same rotation on a 32-bit subregister: 32-bit ALU
 * results wrap modulo 2^32 and are zero-extended into the 64-bit register.
 *
 *   w  = prandom, if w > 8 return            w in [0, 8]
 *   w -= 4                                   [-4, 4] as s32: wraps past 0 (u32)
 *   w += 0x80000000                          [0x7ffffffc, 0x80000004]: crosses S32_MAX/S32_MIN
 *   w -= 0x7ffffffc                          [0, 8], zero-extended to 64 bits
 *   load slots.v[w]
 *
 * old (Linux 6.18 bounds): the 32-bit bounds lose u32 after the first sub
 *   and s32 after the add (signed overflow on one end, partial unsigned
 *   wrap); w becomes [0, 0xffffffff] after zero-extension: REJECTED.
 * cnum: cnum32 follows the arc exactly ({0xfffffffc,8} -> {0x7ffffffc,8}
 *   -> {0,8}); zero-extension gives cnum64 [0, 8]: ACCEPTED.
 * Linux 6.18.44 (this machine; programs/recipe/kverdict.c, log level 6):
 *   REJECTED, processed 16 insns, total_states 1: "R7 unbounded memory
 *   access". States: after `w0 -= 4` smin32=-4,smax32=4 (u32 lost); after
 *   `w0 += -2147483648` nothing but var_off=(0x0; 0xffffffff). */
#include "common.h"

SEC("tc")
int wrap_alu32(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u32 w = bpf_get_prandom_u32();
	if (w > 8)
		return 0;
	asm volatile("%[w] -= 4\n\t"
		     "%[w] += -2147483648\n\t"
		     "%[w] -= 2147483644"
		     : [w] "+w"(w));
	return s->v[w] & 1;
}
