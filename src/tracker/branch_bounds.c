/* branch_bounds.c — conditional jumps over the bounds and var_off of two
 * scalars, and the tnum test of the bounds sync: shared by both trackers.
 *
 * Is a jump decided by the bounds and var_off alone?
 * These are the tests of Linux 6.18's is_scalar_branch_taken()
 * (kernel/bpf/verifier.c; 6.18.44 stable includes the tnum_overlap test
 * for JEQ/JNE taken from mainline), which mainline's cnum verifier keeps,
 * reading the same eight bounds through its conversions. What follows
 * differs per tracker and stays with it: the old tracker stops here
 * (old/branch.c), the cnum tracker can go on to mainline's
 * simulate_both_branches_taken() (cnum/branch.c).
 * What regs_refine_cond_op() does to var_off is the same in both kernels
 * too (the ranges each tracker refines its own way).
 *
 * Width-generic: "64" is W_BITS, "32" is H_BITS.
 */
#include <linux/bpf.h>

#include "tracker/bounds.h"
#include "tracker/tnum.h"

int rb_bounds_branch_taken(const struct rb_bounds *a, const struct rb_bounds *b, uint8_t jop,
			   bool is32)
{
	struct tnum t1 = TNUM_C(a->var_off.value, a->var_off.mask);
	struct tnum t2 = TNUM_C(b->var_off.value, b->var_off.mask);
	if (is32) {
		t1 = tnum_subreg(t1);
		t2 = tnum_subreg(t2);
	}
	uint64_t umin1 = is32 ? a->u32_min : a->umin, umax1 = is32 ? a->u32_max : a->umax;
	uint64_t umin2 = is32 ? b->u32_min : b->umin, umax2 = is32 ? b->u32_max : b->umax;
	int64_t smin1 = is32 ? a->s32_min : a->smin, smax1 = is32 ? a->s32_max : a->smax;
	int64_t smin2 = is32 ? b->s32_min : b->smin, smax2 = is32 ? b->s32_max : b->smax;

	switch (jop) {
	case BPF_JEQ:
	case BPF_JNE: {
		/* "equal is impossible" -> JEQ never, JNE always */
		int eq_never = jop == BPF_JEQ ? RB_BR_NEVER : RB_BR_ALWAYS;
		if (tnum_is_const(t1) && tnum_is_const(t2))
			return (t1.value == t2.value) == (jop == BPF_JEQ);
		/* known bits that disagree (in 6.18 stable, from mainline) */
		if (!tnum_overlap(t1, t2))
			return eq_never;
		if (umin1 > umax2 || umax1 < umin2)
			return eq_never;
		if (smin1 > smax2 || smax1 < smin2)
			return eq_never;
		if (!is32) {
			/* the subregister ranges may still exclude equality */
			if (a->u32_min > b->u32_max || a->u32_max < b->u32_min)
				return eq_never;
			if (a->s32_min > b->s32_max || a->s32_max < b->s32_min)
				return eq_never;
		}
		return RB_BR_UNKNOWN;
	}
	case BPF_JSET:
	case RB_JSET_FALSE: {
		/* decided only against a constant mask (either side) */
		int r = RB_BR_UNKNOWN;
		if (!tnum_is_const(t2)) {
			struct tnum t = t1;
			t1 = t2;
			t2 = t;
		}
		if (!tnum_is_const(t2))
			return RB_BR_UNKNOWN;
		if ((~t1.mask & t1.value) & t2.value)
			r = RB_BR_ALWAYS;
		else if (!((t1.mask | t1.value) & t2.value))
			r = RB_BR_NEVER;
		if (r != RB_BR_UNKNOWN && jop == RB_JSET_FALSE)
			r = !r;
		return r;
	}
	case BPF_JGT:
		if (umin1 > umax2)
			return RB_BR_ALWAYS;
		if (umax1 <= umin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSGT:
		if (smin1 > smax2)
			return RB_BR_ALWAYS;
		if (smax1 <= smin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JLT:
		if (umax1 < umin2)
			return RB_BR_ALWAYS;
		if (umin1 >= umax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSLT:
		if (smax1 < smin2)
			return RB_BR_ALWAYS;
		if (smin1 >= smax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JGE:
		if (umin1 >= umax2)
			return RB_BR_ALWAYS;
		if (umax1 < umin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSGE:
		if (smin1 >= smax2)
			return RB_BR_ALWAYS;
		if (smax1 < smin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JLE:
		if (umax1 <= umin2)
			return RB_BR_ALWAYS;
		if (umin1 > umax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSLE:
		if (smax1 <= smin2)
			return RB_BR_ALWAYS;
		if (smin1 > smax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	default:
		return RB_BR_UNKNOWN;
	}
}

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
