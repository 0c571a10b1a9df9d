/* signed_check32 — like signed_check64, but the 32-bit signed check keeps
 * the range across zero: `if ((int)i > 2)` on i = x - 4, x in [0, 8].
 *
 *   i = x - 4                                [-4, 4]
 *   if (s32)i s> 2 return                    32-bit: [-4, 2]
 *   load slots.v[i + 6]                      needs i + 6 in [0, 8]
 *
 * The trackers differ in the state after the check, not in the verdict:
 * old (Linux 6.18 bounds): the 32->64 deductions need the 32-bit range to
 *   be non-negative (s32) or the u32 range to be bounded; here u32 is
 *   [0, U32_MAX] and s32 crosses zero, so after the check the 64-bit range
 *   stays [-4, 4] (s32 [-4, 2]). One instruction later `i += 6` makes the
 *   32-bit range [2, 8], non-negative, and the mixed deduction copies it
 *   into 64 bits: [2, 8]: ACCEPTED, but only thanks to the add.
 * cnum: cnum64_cnum32_intersect({-4, 8}, {0xfffffffc, 6}) trims the end
 *   of the 64-bit arc at the check itself: [-4, 2]; i + 6 in [2, 8]:
 *   ACCEPTED.
 * Linux 6.18.44 (this machine; programs/recipe/kverdict.c, log level 6):
 *   ACCEPTED, processed 22 insns, total_states 2. After `if w1 s> 0x2`:
 *   R1=scalar(smin=smin32=-4,smax=4,smax32=2) (64-bit still [-4, 4]); after
 *   `r1 += 6`: smin=umin=2, smax=umax=8. */
#include "common.h"

SEC("tc")
int signed_check32(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u64 x = bpf_get_prandom_u32();
	if (x > 8)
		return 0;
	__s64 i = (__s64)x - 4;
	OPAQUE(i);
	if ((__s32)i > 2)
		return 0;
	i += 6; /* add before the shift by 3 that scales the index */
	OPAQUE(i);
	return s->v[i] & 1;
}
