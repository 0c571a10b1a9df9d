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
#include <stdio.h>

#include "tracker/bounds.h"
#include "tracker/branch_taken.h"
#include "tracker/old/repr.h"

static bool is_const(const struct old_reg *r, bool is32)
{
	return tnum_is_const(is32 ? tnum_subreg(r->var_off) : r->var_off);
}

static uint64_t const_val(const struct old_reg *r, bool is32)
{
	return is32 ? tnum_subreg(r->var_off).value : r->var_off.value;
}

/* is_scalar_branch_taken() of 6.18 decides from the bounds and var_off
 * alone: the shared tests of branch_taken.h */
int old_branch_taken(const struct old_reg *r1, const struct old_reg *r2, uint8_t jop, bool is32)
{
	struct rb_bounds b1, b2;
	old_to_bounds(r1, &b1);
	old_to_bounds(r2, &b2);
	return rb_bounds_branch_taken(&b1, &b2, BPF_OP(jop), is32);
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
	uint64_t val;

	/* GT/GE/SGT/SGE are LT/LE/SLT/SLE with the operands swapped */
	if (rb_jmp_to_lower(&op))
		swap_regs(&r1, &r2);

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
		} else {
			r1->umin = umax64(r1->umin, r2->umin);
			r1->umax = umin64(r1->umax, r2->umax);
			r1->smin = smax64(r1->smin, r2->smin);
			r1->smax = smin64(r1->smax, r2->smax);
			r2->umin = r1->umin;
			r2->umax = r1->umax;
			r2->smin = r1->smin;
			r2->smax = r1->smax;
		}
		rb_tnum_refine_eq(&r1->var_off, &r2->var_off, is32);
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
		r1->var_off = rb_tnum_refine_jset(r1->var_off, const_val(r2, is32), is32);
		break;
	case RB_JSET_FALSE:
		if (!is_const(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const(r2, is32))
			break;
		/* ranges are forgotten before the tnum is narrowed, so that a
		 * dead branch cannot produce an invariant violation */
		old_mark_unbounded(r1);
		r1->var_off = rb_tnum_refine_jset_false(r1->var_off, const_val(r2, is32), is32);
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

/* 6.18's report: "<msg> u64=[..] s64=[..] u32=[..] s32=[..] var_off=(v, m)",
 * numbers as the kernel's %#llx / %#x print them (0 is "0x0") */
static void describe(const struct old_reg *r, const char *msg, char *buf)
{
	snprintf(buf, RB_VIOLATION_LEN,
		 "%s u64=[0x%llx, 0x%llx] s64=[0x%llx, 0x%llx] u32=[0x%x, 0x%x] s32=[0x%x, 0x%x] var_off=(0x%llx, 0x%llx)",
		 msg, (unsigned long long)r->umin, (unsigned long long)r->umax, (unsigned long long)r->smin,
		 (unsigned long long)r->smax, (unsigned)r->u32_min, (unsigned)r->u32_max, (unsigned)r->s32_min,
		 (unsigned)r->s32_max, (unsigned long long)r->var_off.value, (unsigned long long)r->var_off.mask);
}

bool old_sanity_report(struct old_reg *r, char *why)
{
	const char *msg = old_sanity_msg(r);
	if (!msg)
		return false;
	describe(r, msg, why);
	old_mark_unbounded(r);
	return true;
}

bool old_branch_refine(struct old_reg *a, struct old_reg *b, uint8_t jop, bool is32)
{
	return old_branch_refine_report(a, b, jop, is32, NULL);
}

bool old_branch_refine_report(struct old_reg *a, struct old_reg *b, uint8_t jop, bool is32,
			      char why[2][RB_VIOLATION_LEN])
{
	if (why)
		why[0][0] = why[1][0] = 0;
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
	const char *msg = old_sanity_msg(a);
	if (msg) {
		if (why)
			describe(a, msg, why[0]);
		old_mark_unbounded(a);
	}
	msg = old_sanity_msg(b);
	if (msg) {
		if (why)
			describe(b, msg, why[1]);
		old_mark_unbounded(b);
	}
	return true;
}
