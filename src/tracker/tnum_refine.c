/* tnum_refine.c — what the verifier's branch refinement does to var_off,
 * the same in Linux 6.18 (6.18.44 stable) and mainline's cnum code,
 * shared by both trackers (the ranges each refines its own way):
 * regs_refine_cond_op()'s JEQ/JSET/JSET-false cases. Declared in
 * tracker/bounds.h, beside __update_reg64_bounds()'s "one common value"
 * test (inline there). Width-generic: "64" is W_BITS, "32" is H_BITS.
 */
#include "tracker/bounds.h"
#include "tracker/tnum.h"

void rb_tnum_refine_eq(struct tnum *a, struct tnum *b, bool is32)
{
	if (is32) {
		struct tnum t = tnum_intersect(tnum_subreg(*a), tnum_subreg(*b));
		*a = tnum_with_subreg(*a, t);
		*b = tnum_with_subreg(*b, t);
	} else {
		*a = tnum_intersect(*a, *b);
		*b = *a;
	}
}

struct tnum rb_tnum_refine_jset(struct tnum t, uint64_t val, bool is32)
{
	/* only a single-bit mask says which bit is set */
	if (val == 0 || (val & (val - 1)) != 0)
		return t;
	if (is32)
		return tnum_with_subreg(t, tnum_or(tnum_subreg(t), tnum_const(val)));
	return tnum_or(t, tnum_const(val));
}

struct tnum rb_tnum_refine_jset_false(struct tnum t, uint64_t val, bool is32)
{
	if (is32)
		return tnum_with_subreg(t, tnum_and(tnum_subreg(t), tnum_const(~val)));
	return tnum_and(t, tnum_const(~val));
}
