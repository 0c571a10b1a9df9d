/* branch.c — conditional jumps for the cnum tracker.
 *
 * Follows mainline Linux (2026) kernel/bpf/verifier.c after the cnum
 * conversion: is_scalar_branch_taken() (bounds through the conversions,
 * then simulate_both_branches_taken(): refine both outcomes and call an
 * outcome impossible when an arc becomes empty) and regs_refine_cond_op()
 * (arc intersections with unsigned/signed ranges built by
 * cnum_from_urange/srange; JSET works on the tnum), each refinement
 * followed by reg_bounds_sync() as check_cond_jmp_op() does.
 */
#include <linux/bpf.h>

#include "tracker/cnum/reg.h"

static bool is_const_reg(const struct creg *r, bool is32)
{
	return tnum_is_const(is32 ? tnum_subreg(r->var_off) : r->var_off);
}

static uint64_t const_value(const struct creg *r, bool is32)
{
	return (is32 ? tnum_subreg(r->var_off) : r->var_off).value;
}

/* wrapping +-1 on sign-extended values (mainline relies on s32/s64
 * wrap-around there) */
static int64_t sdec(int64_t x) { return (int64_t)((uint64_t)x - 1); }
static int64_t sinc(int64_t x) { return (int64_t)((uint64_t)x + 1); }

static void swap_regs(struct creg **a, struct creg **b)
{
	struct creg *t = *a;
	*a = *b;
	*b = t;
}

/* mainline regs_refine_cond_op */
static void refine_cond_op(struct creg *r1, struct creg *r2, uint8_t op, bool is32)
{
	struct tnum t;
	uint64_t val;

	/* GE/GT/SGE/SGT reuse LE/LT/SLE/SLT with the operands swapped */
	switch (op) {
	case BPF_JGE:
	case BPF_JGT:
	case BPF_JSGE:
	case BPF_JSGT:
		op = rb_jmp_swap(op);
		swap_regs(&r1, &r2);
		break;
	default:
		break;
	}

	switch (op) {
	case BPF_JEQ:
		if (is32) {
			r1->r32 = cnum_intersect(r1->r32, r2->r32, RH);
			r2->r32 = r1->r32;
			t = tnum_intersect(tnum_subreg(r1->var_off), tnum_subreg(r2->var_off));
			r1->var_off = tnum_with_subreg(r1->var_off, t);
			r2->var_off = tnum_with_subreg(r2->var_off, t);
		} else {
			r1->r64 = cnum_intersect(r1->r64, r2->r64, RW);
			r2->r64 = r1->r64;
			r1->var_off = tnum_intersect(r1->var_off, r2->var_off);
			r2->var_off = r1->var_off;
		}
		break;
	case BPF_JNE:
		if (!is_const_reg(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const_reg(r2, is32))
			break;
		/* intersect with the complement of {val}: the arc from val+1
		 * round to val-1 */
		val = const_value(r2, is32);
		if (is32)
			r1->r32 = cnum_intersect(r1->r32,
						 (struct cnum){(val + 1) & H_MASK, H_MASK - 1}, RH);
		else
			r1->r64 = cnum_intersect(r1->r64,
						 (struct cnum){wtrunc(val + 1), W_MASK - 1}, RW);
		break;
	case BPF_JSET:
		if (!is_const_reg(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const_reg(r2, is32))
			break;
		val = const_value(r2, is32);
		/* only a single tested bit says which bit is set */
		if (val == 0 || (val & (val - 1)))
			break;
		if (is32) {
			t = tnum_or(tnum_subreg(r1->var_off), tnum_const(val));
			r1->var_off = tnum_with_subreg(r1->var_off, t);
		} else {
			r1->var_off = tnum_or(r1->var_off, tnum_const(val));
		}
		break;
	case RB_JSET_FALSE: /* mainline: BPF_JSET | BPF_X */
		if (!is_const_reg(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const_reg(r2, is32))
			break;
		val = const_value(r2, is32);
		/* forget the ranges before narrowing the tnum (mainline does
		 * so to avoid invariant violations on dead branches) */
		r1->r64 = cnum_full(RW);
		r1->r32 = cnum_full(RH);
		if (is32) {
			t = tnum_and(tnum_subreg(r1->var_off), tnum_const(~val));
			r1->var_off = tnum_with_subreg(r1->var_off, t);
		} else {
			r1->var_off = tnum_and(r1->var_off, tnum_const(~val));
		}
		break;
	case BPF_JLE:
		if (is32) {
			r1->r32 = cnum_intersect(r1->r32, cnum_from_urange(0, reg_u32_max(r2), RH), RH);
			r2->r32 = cnum_intersect(r2->r32,
						 cnum_from_urange(reg_u32_min(r1), H_UMAX, RH), RH);
		} else {
			r1->r64 = cnum_intersect(r1->r64, cnum_from_urange(0, reg_umax(r2), RW), RW);
			r2->r64 = cnum_intersect(r2->r64,
						 cnum_from_urange(reg_umin(r1), W_UMAX, RW), RW);
		}
		break;
	case BPF_JLT:
		if (is32) {
			r1->r32 = cnum_intersect(r1->r32,
						 cnum_from_urange(0, reg_u32_max(r2) - 1, RH), RH);
			r2->r32 = cnum_intersect(r2->r32,
						 cnum_from_urange(reg_u32_min(r1) + 1, H_UMAX, RH), RH);
		} else {
			r1->r64 = cnum_intersect(r1->r64,
						 cnum_from_urange(0, reg_umax(r2) - 1, RW), RW);
			r2->r64 = cnum_intersect(r2->r64,
						 cnum_from_urange(reg_umin(r1) + 1, W_UMAX, RW), RW);
		}
		break;
	case BPF_JSLE:
		if (is32) {
			r1->r32 = cnum_intersect(r1->r32,
						 cnum_from_srange(H_SMIN, reg_s32_max(r2), RH), RH);
			r2->r32 = cnum_intersect(r2->r32,
						 cnum_from_srange(reg_s32_min(r1), H_SMAX, RH), RH);
		} else {
			r1->r64 = cnum_intersect(r1->r64,
						 cnum_from_srange(W_SMIN, reg_smax(r2), RW), RW);
			r2->r64 = cnum_intersect(r2->r64,
						 cnum_from_srange(reg_smin(r1), W_SMAX, RW), RW);
		}
		break;
	case BPF_JSLT:
		if (is32) {
			r1->r32 = cnum_intersect(
				r1->r32, cnum_from_srange(H_SMIN, sdec(reg_s32_max(r2)), RH), RH);
			r2->r32 = cnum_intersect(
				r2->r32, cnum_from_srange(sinc(reg_s32_min(r1)), H_SMAX, RH), RH);
		} else {
			r1->r64 = cnum_intersect(
				r1->r64, cnum_from_srange(W_SMIN, sdec(reg_smax(r2)), RW), RW);
			r2->r64 = cnum_intersect(
				r2->r64, cnum_from_srange(sinc(reg_smin(r1)), W_SMAX, RW), RW);
		}
		break;
	default:
		break;
	}
}

bool creg_refine(struct creg *a, struct creg *b, uint8_t jop, bool is32)
{
	refine_cond_op(a, b, jop, is32);
	creg_sync(a);
	creg_sync(b);
	return !creg_violation(a) && !creg_violation(b);
}

/* mainline simulate_both_branches_taken */
static int simulate(const struct creg *a, const struct creg *b, uint8_t jop, bool is32)
{
	struct creg f1 = *a, f2 = *b, t1 = *a, t2 = *b;

	if (!creg_refine(&f1, &f2, rb_jmp_negate(jop), is32))
		return RB_BR_ALWAYS;
	if (!creg_refine(&t1, &t2, jop, is32))
		return RB_BR_NEVER;
	return RB_BR_UNKNOWN;
}

/* mainline is_scalar_branch_taken (for two distinct registers) */
int creg_branch_taken(const struct creg *a, const struct creg *b, uint8_t jop, bool is32)
{
	if (jop == RB_JSET_FALSE) {
		int r = creg_branch_taken(a, b, BPF_JSET, is32);
		return r == RB_BR_UNKNOWN ? r : !r;
	}

	struct tnum t1 = is32 ? tnum_subreg(a->var_off) : a->var_off;
	struct tnum t2 = is32 ? tnum_subreg(b->var_off) : b->var_off;
	uint64_t umin1 = is32 ? reg_u32_min(a) : reg_umin(a);
	uint64_t umax1 = is32 ? reg_u32_max(a) : reg_umax(a);
	int64_t smin1 = is32 ? reg_s32_min(a) : reg_smin(a);
	int64_t smax1 = is32 ? reg_s32_max(a) : reg_smax(a);
	uint64_t umin2 = is32 ? reg_u32_min(b) : reg_umin(b);
	uint64_t umax2 = is32 ? reg_u32_max(b) : reg_umax(b);
	int64_t smin2 = is32 ? reg_s32_min(b) : reg_smin(b);
	int64_t smax2 = is32 ? reg_s32_max(b) : reg_smax(b);

	switch (jop) {
	case BPF_JEQ:
	case BPF_JNE: {
		/* "differ" is certain when the values cannot meet */
		int differ = -1;
		if (tnum_is_const(t1) && tnum_is_const(t2))
			differ = t1.value != t2.value;
		else if (!tnum_overlap(t1, t2))
			differ = 1;
		else if (umin1 > umax2 || umax1 < umin2)
			differ = 1;
		else if (smin1 > smax2 || smax1 < smin2)
			differ = 1;
		else if (!is32 && (reg_u32_min(a) > reg_u32_max(b) || reg_u32_max(a) < reg_u32_min(b)))
			differ = 1;
		else if (!is32 && (reg_s32_min(a) > reg_s32_max(b) || reg_s32_max(a) < reg_s32_min(b)))
			differ = 1;
		if (differ >= 0)
			return jop == BPF_JEQ ? !differ : differ;
		break;
	}
	case BPF_JSET:
		if (!is_const_reg(b, is32)) {
			struct tnum tt = t1;
			t1 = t2;
			t2 = tt;
			if (!is_const_reg(a, is32))
				return RB_BR_UNKNOWN;
		}
		if ((~t1.mask & t1.value) & t2.value)
			return RB_BR_ALWAYS;
		if (!((t1.mask | t1.value) & t2.value))
			return RB_BR_NEVER;
		break;
	case BPF_JGT:
		if (umin1 > umax2)
			return RB_BR_ALWAYS;
		if (umax1 <= umin2)
			return RB_BR_NEVER;
		break;
	case BPF_JSGT:
		if (smin1 > smax2)
			return RB_BR_ALWAYS;
		if (smax1 <= smin2)
			return RB_BR_NEVER;
		break;
	case BPF_JLT:
		if (umax1 < umin2)
			return RB_BR_ALWAYS;
		if (umin1 >= umax2)
			return RB_BR_NEVER;
		break;
	case BPF_JSLT:
		if (smax1 < smin2)
			return RB_BR_ALWAYS;
		if (smin1 >= smax2)
			return RB_BR_NEVER;
		break;
	case BPF_JGE:
		if (umin1 >= umax2)
			return RB_BR_ALWAYS;
		if (umax1 < umin2)
			return RB_BR_NEVER;
		break;
	case BPF_JSGE:
		if (smin1 >= smax2)
			return RB_BR_ALWAYS;
		if (smax1 < smin2)
			return RB_BR_NEVER;
		break;
	case BPF_JLE:
		if (umax1 <= umin2)
			return RB_BR_ALWAYS;
		if (umin1 > umax2)
			return RB_BR_NEVER;
		break;
	case BPF_JSLE:
		if (smax1 <= smin2)
			return RB_BR_ALWAYS;
		if (smin1 > smax2)
			return RB_BR_NEVER;
		break;
	default:
		return RB_BR_UNKNOWN;
	}
#ifndef RB_CNUM_MAINLINE_ALGOS
	(void)simulate; /* newer than 6.18 (see alu.c) */
	return RB_BR_UNKNOWN;
#else
	return simulate(a, b, jop, is32);
#endif
}
