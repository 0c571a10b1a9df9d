/* shift_index — a shift used as an array index, fed by a range that
 * crossed both boundaries on its way.
 *
 *   x = prandom (u32), if x > 8 return       x in [0, 8]
 *   x -= 4; x += 2^63                        [2^63-4, 2^63+4] (see bias_add64)
 *   i = x >> 60                              true set {7, 8}
 *   load slots.v[i]                          needs i in [0, 8]
 *
 * old (Linux 6.18 bounds): x is unbounded before the shift, so the result
 *   comes from the tnum alone: i in [0, 15]; i*8 reaches 120 > 64:
 *   REJECTED (invalid access to map value).
 * cnum: the arc [2^63-4, 2^63+4] does not cross the unsigned boundary, so
 *   its unsigned bounds are exact and the shift gives [7, 8]: ACCEPTED.
 * Linux 6.18.44 (this machine; programs/recipe/kverdict.c, log level 6):
 *   REJECTED, processed 18 insns, total_states 1: "R7 max value is outside
 *   of the allowed memory range". After `r1 >>= 60`:
 *   R1=scalar(smin=smin32=0,smax=umax=smax32=umax32=15,var_off=(0x0; 0xf)). */
#include "common.h"

SEC("tc")
int shift_index(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u64 x = bpf_get_prandom_u32();
	if (x > 8)
		return 0;
	__u64 k = 1ULL << 63;
	asm volatile("%[x] -= 4\n\t"
		     "%[x] += %[k]"
		     : [x] "+r"(x)
		     : [k] "r"(k));
	__u64 i = x >> 60;
	OPAQUE(i); /* keep clang from merging >> 60 and the * 8 into >> 57 & 120 */
	return s->v[i] & 1;
}
