/* bias_add64 — a 64-bit range that crosses the unsigned boundary and is
 * then moved across the signed boundary (the "bias" idiom that maps signed
 * order onto unsigned order by adding 2^63).
 *
 *   x  = prandom (u32), if x > 8 return      x in [0, 8]
 *   x -= 4                                   [-4, 4]: wraps past 0 unsigned
 *   x += 2^63   (register holding 2^63)      [2^63-4, 2^63+4]: crosses S64_MAX/S64_MIN
 *   x -= 2^63-4 (register)                   [0, 8]
 *   load slots.v[x]                          needs x*8 in [0, 64]
 *
 * old (Linux 6.18 bounds): after `x -= 4` it keeps smin/smax = [-4, 4] but
 *   umin/umax = [0, U64_MAX]; the add of 2^63 overflows the signed bounds
 *   and wraps only part of the unsigned range, so both 64-bit ranges are
 *   lost (the 32-bit ones survive, but the pointer arithmetic needs the
 *   64-bit ones): the access is REJECTED.
 * cnum (wrapped ranges): the arc {base -4, size 8} is rotated by each
 *   constant add/sub (cnum64_add) without loss: [2^63-4, 2^63+4], then
 *   [0, 8]; the access is ACCEPTED.
 * Linux 6.18.44 (this machine; programs/recipe/kverdict.c, log level 6):
 *   REJECTED, processed 18 insns, total_states 1: "math between map_value
 *   pointer and register with unbounded min value is not allowed". After
 *   `r1 += r2` the kernel prints R1=scalar(smin32=-4,smax32=4): only the
 *   32-bit bounds survive (the low word of 2^63 is 0); 64-bit is lost. */
#include "common.h"

SEC("tc")
int bias_add64(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u64 x = bpf_get_prandom_u32();
	if (x > 8)
		return 0;
	__u64 k = 1ULL << 63, k4 = (1ULL << 63) - 4;
	asm volatile("%[x] -= 4\n\t"
		     "%[x] += %[k]\n\t"
		     "%[x] -= %[k4]"
		     : [x] "+r"(x)
		     : [k] "r"(k), [k4] "r"(k4));
	return s->v[x] & 1;
}
