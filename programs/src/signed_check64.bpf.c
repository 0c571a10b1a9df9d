/* signed_check64 — an index computed as x - 4 with x in [0, 8], then used
 * after a signed 32-bit check (`if ((int)i < 0)`), as compilers emit for
 * int-typed conditions on 64-bit values. The baseline: both trackers
 * accept, by different routes.
 *
 *   x = prandom (u32), if x > 8 return       x in [0, 8]
 *   i = x - 4                                [-4, 4]
 *   if (s32)i s< 0 return                    32-bit: [0, 4]
 *   load slots.v[i]                          needs the 64-bit i in [0, 8]
 *
 * old (Linux 6.18 bounds): the 64-bit bounds stay [-4, 4] after the
 *   32-bit check; the mixed 32->64 deduction (2023) sees s32 >= 0 with
 *   the s64 range inside [S32_MIN, S32_MAX] and copies the 32-bit range
 *   into 64 bits: [0, 4]: ACCEPTED.
 * cnum: cnum64_cnum32_intersect({-4, 8}, [0, 4]) trims the 64-bit arc
 *   to [0, 4]: ACCEPTED.
 * Linux 6.18.44 (this machine; programs/recipe/kverdict.c, log level 6):
 *   ACCEPTED, processed 21 insns, total_states 2. After `if w1 s< 0x0`:
 *   R1=scalar(smin=smin32=0,smax=umax=smax32=umax32=4,var_off=(0x0; 0x7)). */
#include "common.h"

SEC("tc")
int signed_check64(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u64 x = bpf_get_prandom_u32();
	if (x > 8)
		return 0;
	__s64 i = (__s64)x - 4;
	OPAQUE(i);
	/* clang would test bit 31 with an AND instead; force the jmp32 compare
	 * on the index register's own subregister */
	asm goto("if %[lo] s< 0 goto %l[out]" : : [lo] "w"((__s32)i) : : out);
	return s->v[i] & 1;
out:
	return 0;
}
