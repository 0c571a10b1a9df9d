/* old/branch.c — conditional jumps in the old tracker, as Linux 6.18 does
 * them for two scalars (kernel/bpf/verifier.c: is_scalar_branch_taken,
 * regs_refine_cond_op, reg_set_min_max with reg_bounds_sync on both
 * registers and the invariant check afterwards).
 *
 * As in check_cond_jmp_op(), an outcome that is_branch_taken() decides is
 * not refined: a certain outcome leaves both registers as they are, an
 * impossible one is reported (branch_refine() returns false). Otherwise
 * both registers are refined and synced; a register whose result fails
 * the kernel's reg_bounds_sanity_check() (some min > max, or a constant
 * var_off that disagrees with the bounds: the outcome is in fact
 * impossible) gets its bounds reset to unbounded, var_off kept, and the
 * outcome is still explored, exactly as 6.18.44 does after logging
 * "verifier bug: REG INVARIANTS VIOLATION" (measured).
 *
 * Width-generic: "64" is W_BITS, "32" is H_BITS.
 */
#include <linux/bpf.h>

#include "tracker/old/repr.h"

static bool is_const(const struct old_reg *r, bool is32)
{
	return tnum_is_const(is32 ? tnum_subreg(r->var_off) : r->var_off);
}

static uint64_t const_val(const struct old_reg *r, bool is32)
{
	return is32 ? tnum_subreg(r->var_off).value : r->var_off.value;
}

int old_branch_taken(const struct old_reg *r1, const struct old_reg *r2, uint8_t jop, bool is32)
{
	struct tnum t1 = is32 ? tnum_subreg(r1->var_off) : r1->var_off;
	struct tnum t2 = is32 ? tnum_subreg(r2->var_off) : r2->var_off;
	uint64_t umin1 = is32 ? r1->u32_min : r1->umin, umax1 = is32 ? r1->u32_max : r1->umax;
	uint64_t umin2 = is32 ? r2->u32_min : r2->umin, umax2 = is32 ? r2->u32_max : r2->umax;
	int64_t smin1 = is32 ? r1->s32_min : r1->smin, smax1 = is32 ? r1->s32_max : r1->smax;
	int64_t smin2 = is32 ? r2->s32_min : r2->smin, smax2 = is32 ? r2->s32_max : r2->smax;

	switch (BPF_OP(jop)) {
	case BPF_JEQ:
	case BPF_JNE: {
		/* "equal is impossible" -> JEQ never, JNE always */
		int eq_never = BPF_OP(jop) == BPF_JEQ ? RB_BR_NEVER : RB_BR_ALWAYS;
		if (tnum_is_const(t1) && tnum_is_const(t2))
			return (t1.value == t2.value) == (BPF_OP(jop) == BPF_JEQ);
		/* known bits that disagree (in 6.18 stable, from mainline) */
		if (!tnum_overlap(t1, t2))
			return eq_never;
		if (umin1 > umax2 || umax1 < umin2)
			return eq_never;
		if (smin1 > smax2 || smax1 < smin2)
			return eq_never;
		if (!is32) {
			/* the subregister ranges may still exclude equality */
			if (r1->u32_min > r2->u32_max || r1->u32_max < r2->u32_min)
				return eq_never;
			if (r1->s32_min > r2->s32_max || r1->s32_max < r2->s32_min)
				return eq_never;
		}
		return RB_BR_UNKNOWN;
	}
	case BPF_JSET:
	case RB_JSET_FALSE: {
		/* decided only against a constant mask (either side) */
		int r = RB_BR_UNKNOWN;
		if (!is_const(r2, is32)) {
			struct tnum t = t1;
			t1 = t2;
			t2 = t;
			const struct old_reg *x = r1;
			r1 = r2;
			r2 = x;
		}
		if (!is_const(r2, is32))
			return RB_BR_UNKNOWN;
		if ((~t1.mask & t1.value) & t2.value)
			r = RB_BR_ALWAYS;
		else if (!((t1.mask | t1.value) & t2.value))
			r = RB_BR_NEVER;
		if (r != RB_BR_UNKNOWN && BPF_OP(jop) == RB_JSET_FALSE)
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

static void swap_regs(struct old_reg **a, struct old_reg **b)
{
	struct old_reg *t = *a;
	*a = *b;
	*b = t;
}

/* regs_refine_cond_op(): assume "r1 op r2" holds */
static void refine(struct old_reg *r1, struct old_reg *r2, uint8_t op, bool is32)
{
	struct tnum t;
	uint64_t val;

	/* GT/GE/SGT/SGE are LT/LE/SLT/SLE with the operands swapped */
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
			set_u32(&r1->u32_min, umax64(r1->u32_min, r2->u32_min));
			set_u32(&r1->u32_max, umin64(r1->u32_max, r2->u32_max));
			set_s32(&r1->s32_min, smax64(r1->s32_min, r2->s32_min));
			set_s32(&r1->s32_max, smin64(r1->s32_max, r2->s32_max));
			r2->u32_min = r1->u32_min;
			r2->u32_max = r1->u32_max;
			r2->s32_min = r1->s32_min;
			r2->s32_max = r1->s32_max;
			t = tnum_intersect(tnum_subreg(r1->var_off), tnum_subreg(r2->var_off));
			r1->var_off = tnum_with_subreg(r1->var_off, t);
			r2->var_off = tnum_with_subreg(r2->var_off, t);
		} else {
			r1->umin = umax64(r1->umin, r2->umin);
			r1->umax = umin64(r1->umax, r2->umax);
			r1->smin = smax64(r1->smin, r2->smin);
			r1->smax = smin64(r1->smax, r2->smax);
			r2->umin = r1->umin;
			r2->umax = r1->umax;
			r2->smin = r1->smin;
			r2->smax = r1->smax;
			r1->var_off = tnum_intersect(r1->var_off, r2->var_off);
			r2->var_off = r1->var_off;
		}
		break;
	case BPF_JNE:
		if (!is_const(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const(r2, is32))
			break;
		/* a constant at the edge of the other range shaves it off */
		val = const_val(r2, is32);
		if (is32) {
			if (r1->u32_min == htrunc(val))
				set_u32(&r1->u32_min, (uint64_t)r1->u32_min + 1);
			if (r1->u32_max == htrunc(val))
				set_u32(&r1->u32_max, (uint64_t)r1->u32_max - 1);
			if (r1->s32_min == hsext(val))
				set_s32(&r1->s32_min, (int64_t)r1->s32_min + 1);
			if (r1->s32_max == hsext(val))
				set_s32(&r1->s32_max, (int64_t)r1->s32_max - 1);
		} else {
			if (r1->umin == val)
				r1->umin = wtrunc(r1->umin + 1);
			if (r1->umax == val)
				r1->umax = wtrunc(r1->umax - 1);
			if (r1->smin == wsext(val))
				r1->smin = wsext((uint64_t)r1->smin + 1);
			if (r1->smax == wsext(val))
				r1->smax = wsext((uint64_t)r1->smax - 1);
		}
		break;
	case BPF_JSET:
		if (!is_const(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const(r2, is32))
			break;
		val = const_val(r2, is32);
		/* only a single-bit mask says which bit is set */
		if (val == 0 || (val & (val - 1)) != 0)
			break;
		if (is32) {
			t = tnum_or(tnum_subreg(r1->var_off), tnum_const(val));
			r1->var_off = tnum_with_subreg(r1->var_off, t);
		} else {
			r1->var_off = tnum_or(r1->var_off, tnum_const(val));
		}
		break;
	case RB_JSET_FALSE:
		if (!is_const(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const(r2, is32))
			break;
		val = const_val(r2, is32);
		/* ranges are forgotten before the tnum is narrowed, so that a
		 * dead branch cannot produce an invariant violation */
		old_mark_unbounded(r1);
		if (is32) {
			t = tnum_and(tnum_subreg(r1->var_off), tnum_const(~val));
			r1->var_off = tnum_with_subreg(r1->var_off, t);
		} else {
			r1->var_off = tnum_and(r1->var_off, tnum_const(~val));
		}
		break;
	case BPF_JLE:
		if (is32) {
			set_u32(&r1->u32_max, umin64(r1->u32_max, r2->u32_max));
			set_u32(&r2->u32_min, umax64(r1->u32_min, r2->u32_min));
		} else {
			r1->umax = umin64(r1->umax, r2->umax);
			r2->umin = umax64(r1->umin, r2->umin);
		}
		break;
	case BPF_JLT:
		if (is32) {
			set_u32(&r1->u32_max, umin64(r1->u32_max, htrunc((uint64_t)r2->u32_max - 1)));
			set_u32(&r2->u32_min, umax64(htrunc((uint64_t)r1->u32_min + 1), r2->u32_min));
		} else {
			r1->umax = umin64(r1->umax, wtrunc(r2->umax - 1));
			r2->umin = umax64(wtrunc(r1->umin + 1), r2->umin);
		}
		break;
	case BPF_JSLE:
		if (is32) {
			set_s32(&r1->s32_max, smin64(r1->s32_max, r2->s32_max));
			set_s32(&r2->s32_min, smax64(r1->s32_min, r2->s32_min));
		} else {
			r1->smax = smin64(r1->smax, r2->smax);
			r2->smin = smax64(r1->smin, r2->smin);
		}
		break;
	case BPF_JSLT:
		if (is32) {
			set_s32(&r1->s32_max, smin64(r1->s32_max, hsext((uint64_t)r2->s32_max - 1)));
			set_s32(&r2->s32_min, smax64(hsext((uint64_t)r1->s32_min + 1), r2->s32_min));
		} else {
			r1->smax = smin64(r1->smax, wsext((uint64_t)r2->smax - 1));
			r2->smin = smax64(wsext((uint64_t)r1->smin + 1), r2->smin);
		}
		break;
	default:
		break;
	}
}

bool old_branch_refine(struct old_reg *a, struct old_reg *b, uint8_t jop, bool is32)
{
	/* check_cond_jmp_op(): a decided branch is followed (or dropped)
	 * without any refinement */
	int pred = old_branch_taken(a, b, jop, is32);
	if (pred == RB_BR_NEVER)
		return false;
	if (pred == RB_BR_ALWAYS)
		return true;
	refine(a, b, BPF_OP(jop), is32);
	old_bounds_sync(a);
	old_bounds_sync(b);
	/* reg_bounds_sanity_check() on each register: 6.18.44 logs
	 * "verifier bug: REG INVARIANTS VIOLATION", forgets that register's
	 * bounds (var_off stays) and goes on exploring the outcome */
	if (!old_sanity_ok(a))
		old_mark_unbounded(a);
	if (!old_sanity_ok(b))
		old_mark_unbounded(b);
	return true;
}
