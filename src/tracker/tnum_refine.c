/* tnum_refine.c — what the verifier's branch refinement and bounds sync
 * do to var_off, the same in Linux 6.18 (6.18.44 stable) and mainline's
 * cnum code, shared by both trackers (the ranges each refines its own
 * way): regs_refine_cond_op()'s JEQ/JSET/JSET-false cases, and
 * __update_reg64_bounds()'s "one common value" test. Declared in
 * tracker/bounds.h. Width-generic: "64" is W_BITS, "32" is H_BITS.
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

bool rb_tnum_single_in_urange(struct tnum t, uint64_t umin, uint64_t umax, uint64_t *c)
{
	uint64_t tmax = t.value | t.mask;
	uint64_t next = tnum_step(t, umin);
	bool umin_in = tnum_contains(t, umin);

	if (umin_in && next > umax)
		*c = umin; /* only umin is in both */
	else if (!umin_in && next == tmax)
		*c = tmax; /* only the tnum's maximum can be */
	else if (!umin_in && next <= umax && tnum_step(t, next) > umax)
		*c = next; /* exactly one member strictly inside */
	else
		return false;
	return true;
}
