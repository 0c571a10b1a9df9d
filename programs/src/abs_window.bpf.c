/* abs_window — mixed signed and unsigned comparisons that leave a set of
 * two pieces: 5 <= |x| <= 10, i.e. x in [-10, -5] or [5, 10]. Here the
 * OLD tracker is the more precise one, on one side.
 *
 *   x = (s32)prandom                          sign-extended: [-2^31, 2^31-1]
 *   if x s< -10 or x s> 10 return             signed   [-10, 10]
 *   if x u< 5 or x u> -5 (2^64-5) return      unsigned [5, 2^64-5]
 * abs_window_neg:  if x s>= 0 return; load slots.v[x + 10]    true index set [0, 5]
 * abs_window_pos:  if x s< 0 return;  load slots.v[x - 5]     true index set [0, 5]
 *
 * old (Linux 6.18 bounds): keeps both intervals, smin/smax = [-10, 10] and
 *   umin/umax = [5, 2^64-5].
 *   _neg: x s< 0 makes the signed range all negative, so the unsigned one
 *     intersects to [-10, -5]; x + 10 in [0, 5]: ACCEPTED.
 *   _pos: x s>= 0 should give [5, 10], but 6.18's mixed 32->64 deduction
 *     (__reg_deduce_mixed_bounds, the s32 >= 0 special case) ASSIGNS the
 *     32-bit range [0, 10] to umin/umax instead of intersecting, so umin=5
 *     is lost: x in [0, 10], x - 5 in [-5, 5]: REJECTED (an imprecision of
 *     the 6.18 code, not of its domain).
 * cnum: one arc cannot hold two pieces; cnum64_intersect of [-10, 10] with
 *   [5, U64_MAX] and then with [0, 2^64-5] returns the smaller input each
 *   time, [-10, 10].
 *   _neg: [-10, -1] + 10 = [0, 9]; 9 is one past the end: REJECTED.
 *   _pos: [0, 10] - 5 = [-5, 5]: REJECTED.
 * Linux 6.18.44 (this machine; programs/recipe/kverdict.c, log level 6):
 *   abs_window_neg ACCEPTED, processed 29 insns, total_states 2;
 *   abs_window_pos REJECTED, processed 22 insns, total_states 2: "math
 *   between map_value pointer and register with unbounded min value is not
 *   allowed" (the branch x s>= 0 prints smin=0,smax=umax=10: umin=5 lost). */
#include "common.h"

static __always_inline __s64 window(void)
{
	__s64 x = (__s32)bpf_get_prandom_u32();
	if (x < -10)
		return 0;
	OPAQUE(x);
	if (x > 10)
		return 0;
	OPAQUE(x);
	if ((__u64)x < 5)
		return 0;
	OPAQUE(x);
	if ((__u64)x > (__u64)-5)
		return 0;
	OPAQUE(x);
	return x;
}

SEC("socket")
int abs_window_neg(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__s64 x = window();
	if (x >= 0)
		return 0;
	x += 10;
	OPAQUE(x);
	return s->v[x] & 1;
}

SEC("socket")
int abs_window_pos(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__s64 x = window();
	if (x < 0)
		return 0;
	x -= 5;
	OPAQUE(x);
	return s->v[x] & 1;
}
