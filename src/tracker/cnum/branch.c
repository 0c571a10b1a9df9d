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

#include "tracker/bounds.h"
#include "tracker/branch_taken.h"
#include "tracker/concrete_jmp.h"
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
	uint64_t val;

	/* GT/GE/SGT/SGE are LT/LE/SLT/SLE with the operands swapped */
	if (rb_jmp_to_lower(&op))
		swap_regs(&r1, &r2);

	switch (op) {
	case BPF_JEQ:
		if (is32) {
			struct cnum x = cnum_intersect(r1->r32, r2->r32, RH);
			r1->r32 = x;
			r2->r32 = x;
		} else {
			struct cnum x = cnum_intersect(r1->r64, r2->r64, RW);
			r1->r64 = x;
			r2->r64 = x;
		}
		rb_tnum_refine_eq(&r1->var_off, &r2->var_off, is32);
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
		r1->var_off = rb_tnum_refine_jset(r1->var_off, const_value(r2, is32), is32);
		break;
	case RB_JSET_FALSE: /* mainline: BPF_JSET | BPF_X */
		if (!is_const_reg(r2, is32))
			swap_regs(&r1, &r2);
		if (!is_const_reg(r2, is32))
			break;
		/* forget the ranges before narrowing the tnum (mainline does
		 * so to avoid invariant violations on dead branches) */
		r1->r64 = cnum_full(RW);
		r1->r32 = cnum_full(RH);
		r1->var_off = rb_tnum_refine_jset_false(r1->var_off, const_value(r2, is32), is32);
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

#ifdef RB_CNUM_MAINLINE_ALGOS
/* x is a value of r (the tracker's contains(), inline: tnum_contains is
 * (x & ~mask) == value) */
static inline bool creg_has(const struct creg *r, uint64_t x)
{
	return (x & ~r->var_off.mask) == r->var_off.value && cnum_contains(r->r64, x, RW) &&
	       cnum_contains(r->r32, x & H_MASK, RH);
}

/* A fast path before the simulation, not in the kernel, that gives the
 * same answers: concrete values x, y of a and b for which the jump is taken
 * and others for which it is not. Refining a register pair by a jump
 * outcome keeps every pair of values that takes it (the refinements are
 * sound: test_cnum's test_tracker_branch8 and the census check it), so
 * with both witnesses neither refinement can empty an arc and
 * simulate_both_branches_taken() would return "unknown". The candidates
 * are each register's bounds and tnum extremes, tried on both registers;
 * without both witnesses the simulation decides. test_cnum's
 * test_mainline_taken_witness8 compares the two on every pair of its
 * inputs. Measured with bench/rounds.sh (branch_taken).
 *
 * The candidates are tried one at a time, the bounds first, alternating
 * between the registers; each new member of a (of b) is tried against the
 * members of b (of a) found so far, and the search stops once both
 * outcomes are seen: the pairs tried are those of trying every pair, the
 * answer the same, and a typical undecided pair is settled after three or
 * four candidates instead of 24 membership tests and up to 144 jumps.
 * Each candidate is computed when it is tried (the signed bounds' and
 * the tnums' only when the unsigned bounds did not settle it). */
static inline uint64_t candidate(const struct creg *a, const struct creg *b, unsigned i)
{
	switch (i) {
	case 0: return reg_umin(a);
	case 1: return reg_umax(b);
	case 2: return reg_umax(a);
	case 3: return reg_umin(b);
	case 4: return (uint64_t)reg_smin(a);
	case 5: return (uint64_t)reg_smax(b);
	case 6: return (uint64_t)reg_smax(a);
	case 7: return (uint64_t)reg_smin(b);
	case 8: return a->var_off.value;
	case 9: return b->var_off.value | b->var_off.mask;
	case 10: return a->var_off.value | a->var_off.mask;
	default: return b->var_off.value;
	}
}

static bool both_outcomes_seen(const struct creg *a, const struct creg *b, uint8_t jop, bool is32)
{
	uint64_t xs[12], ys[12];
	unsigned nx = 0, ny = 0;
	bool t = false, f = false;
	for (unsigned i = 0; i < 12; i++) {
		uint64_t v = wtrunc(candidate(a, b, i));
		if (creg_has(a, v)) {
			for (unsigned j = 0; j < ny; j++) {
				if (rb_jmp_holds(v, ys[j], jop, is32))
					t = true;
				else
					f = true;
			}
			if (t && f)
				return true;
			xs[nx++] = v;
		}
		if (creg_has(b, v)) {
			for (unsigned j = 0; j < nx; j++) {
				if (rb_jmp_holds(xs[j], v, jop, is32))
					t = true;
				else
					f = true;
			}
			if (t && f)
				return true;
			ys[ny++] = v;
		}
	}
	return false;
}

/* A first, cheaper search for the witnesses of both_outcomes_seen, on
 * the values a jump is likeliest to split: each register's smallest value
 * against the other's largest and its largest against the other's
 * smallest, at the compared width and signedness, found from the bounds
 * of non-empty arcs (each bound a value of its arc):
 *   member_up/down: v, a value of r64, or when r32 does not hold its low
 *     half the next value above (below) v whose low half is r32's first
 *     (last) value; a member of r or not;
 *   member_low: the first value of r64 (clockwise from its base) whose low
 *     half is l, a value of r32; a member of r or not.
 * Each is a concrete value tested for membership, so a pair of outcomes
 * found here is one both_outcomes_seen would accept; when none is found
 * the general search runs, so the answers are those of the simulation.
 * test_cnum's test_mainline_taken_witness8 checks every "unknown" against
 * both refinements at 8 bits. */
static inline bool tnum_has(const struct creg *r, uint64_t x)
{
	return (x & ~r->var_off.mask) == r->var_off.value;
}

static inline bool member_up(const struct creg *r, uint64_t v, uint64_t *out)
{
	uint64_t d = (v - r->r32.base) & H_MASK;
	if (d <= r->r32.size) {
		*out = v;
		return tnum_has(r, v);
	}
	*out = wtrunc(v + (H_MASK - d) + 1);
	return creg_has(r, *out);
}

static inline bool member_down(const struct creg *r, uint64_t v, uint64_t *out)
{
	uint64_t d = (cnum_end(r->r32, RH) - v) & H_MASK;
	if (d <= r->r32.size) {
		*out = v;
		return tnum_has(r, v);
	}
	*out = wtrunc(v - (H_MASK - d) - 1);
	return creg_has(r, *out);
}

static inline uint64_t with_low_val(const struct creg *r, uint64_t l)
{
	return wtrunc(r->r64.base + ((l - r->r64.base) & H_MASK));
}

static inline bool member_low(const struct creg *r, uint64_t l, uint64_t *out)
{
	*out = with_low_val(r, l);
	return ((*out - r->r64.base) & W_MASK) <= r->r64.size && tnum_has(r, *out);
}

/* the ordering jumps */
static bool ordered_witnesses(const struct creg *a, const struct creg *b, uint8_t jop, bool is32)
{
	bool sgn;
	switch (jop) {
	case BPF_JGT:
	case BPF_JGE:
	case BPF_JLT:
	case BPF_JLE:
		sgn = false;
		break;
	case BPF_JSGT:
	case BPF_JSGE:
	case BPF_JSLT:
	case BPF_JSLE:
		sgn = true;
		break;
	default:
		return false;
	}
	uint64_t alo, ahi, blo, bhi;
	if (!is32) {
		if (sgn) {
			if (!member_up(a, wbits(reg_smin(a)), &alo) || !member_down(b, wbits(reg_smax(b)), &bhi) ||
			    !member_down(a, wbits(reg_smax(a)), &ahi) || !member_up(b, wbits(reg_smin(b)), &blo))
				return false;
		} else {
			if (!member_up(a, reg_umin(a), &alo) || !member_down(b, reg_umax(b), &bhi) ||
			    !member_down(a, reg_umax(a), &ahi) || !member_up(b, reg_umin(b), &blo))
				return false;
		}
	} else {
		if (sgn) {
			if (!member_low(a, hbits(reg_s32_min(a)), &alo) ||
			    !member_low(b, hbits(reg_s32_max(b)), &bhi) ||
			    !member_low(a, hbits(reg_s32_max(a)), &ahi) ||
			    !member_low(b, hbits(reg_s32_min(b)), &blo))
				return false;
		} else {
			if (!member_low(a, reg_u32_min(a), &alo) || !member_low(b, reg_u32_max(b), &bhi) ||
			    !member_low(a, reg_u32_max(a), &ahi) || !member_low(b, reg_u32_min(b), &blo))
				return false;
		}
	}
	return rb_jmp_holds(alo, bhi, jop, is32) != rb_jmp_holds(ahi, blo, jop, is32);
}

/* JEQ and JNE: a value both registers hold (the constant when one is
 * constant, else the larger of the two smallest values) and a value of
 * the other, non-constant register that differs from it (its smallest or
 * its largest), at the compared width (for is32 the low halves). Both
 * constant is decided before the simulation. */
static bool eq_witnesses(const struct creg *a, const struct creg *b, bool is32)
{
	const struct creg *r = a;
	uint64_t x, lo, hi;
	bool aconst = is_const_reg(a, is32), bconst = is_const_reg(b, is32);
	if (aconst)
		r = b;
	if (!is32) {
		if (bconst)
			x = b->var_off.value;
		else if (aconst)
			x = a->var_off.value;
		else
			x = reg_umin(a) > reg_umin(b) ? reg_umin(a) : reg_umin(b);
		if (!creg_has(a, x) || !creg_has(b, x))
			return false;
		return (member_up(r, reg_umin(r), &lo) && lo != x) ||
		       (member_down(r, reg_umax(r), &hi) && hi != x);
	}
	uint64_t l, xa, xb;
	if (bconst)
		l = b->var_off.value & H_MASK;
	else if (aconst)
		l = a->var_off.value & H_MASK;
	else
		l = reg_u32_min(a) > reg_u32_min(b) ? reg_u32_min(a) : reg_u32_min(b);
	xa = with_low_val(a, l);
	xb = with_low_val(b, l);
	if (!creg_has(a, xa) || !creg_has(b, xb))
		return false;
	return (member_low(r, reg_u32_min(r), &lo) && (lo & H_MASK) != l) ||
	       (member_low(r, reg_u32_max(r), &hi) && (hi & H_MASK) != l);
}

/* both pre-searches, on non-empty arcs (the bounds are then values) */
static bool quick_witnesses(const struct creg *a, const struct creg *b, uint8_t jop, bool is32)
{
	if (creg_violation(a) || creg_violation(b))
		return false;
	if (jop == BPF_JEQ || jop == BPF_JNE)
		return eq_witnesses(a, b, is32);
	return ordered_witnesses(a, b, jop, is32);
}

/* mainline simulate_both_branches_taken */
static int simulate(const struct creg *a, const struct creg *b, uint8_t jop, bool is32)
{
	if (quick_witnesses(a, b, jop, is32) || both_outcomes_seen(a, b, jop, is32))
		return RB_BR_UNKNOWN;
	struct creg f1, f2, t1, t2;
	creg_copy(&f1, a);
	creg_copy(&f2, b);
	creg_copy(&t1, a);
	creg_copy(&t2, b);

	if (!creg_refine(&f1, &f2, rb_jmp_negate(jop), is32))
		return RB_BR_ALWAYS;
	if (!creg_refine(&t1, &t2, jop, is32))
		return RB_BR_NEVER;
	return RB_BR_UNKNOWN;
}
/* simulate() on stored values, out of line: the tests before it then
 * keep nothing across a call (no registers to save on their path) */
static __attribute__((noinline)) int simulate_val(const rb_val *av, const rb_val *bv, uint8_t jop, bool is32)
{
	struct creg ca = creg_load(av), cb = creg_load(bv);
	return simulate(&ca, &cb, jop, is32);
}
#endif

/* The arcs and tnums of stored values, read where the tests use them
 * (rb_val layout: reg.h) */
static inline struct cnum arc64_of(const rb_val *v) { return (struct cnum){v->w[2], v->w[3]}; }
static inline struct cnum arc32_of(const rb_val *v)
{
	return (struct cnum){v->w[4] & 0xffffffffu, v->w[4] >> 32};
}

/* does one width's pair of arcs exclude equality, read through the
 * conversions (mainline reg_umin() etc.) as rb_eq_excluded reads bounds?
 * Not when two non-empty arcs meet (one holds the other's base): a value
 * of both lies in both unsigned and both signed ranges; this is tested
 * first, as it is cheaper than the eight conversions */
static inline bool arcs_exclude_eq(struct cnum x, struct cnum y, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	if (!cnum_is_empty(x, bits) && !cnum_is_empty(y, bits) &&
	    (((y.base - x.base) & m) <= x.size || ((x.base - y.base) & m) <= y.size))
		return false;
	return rb_eq_excluded(cnum_umin(x, bits), cnum_umax(x, bits), cnum_smin(x, bits),
			      cnum_smax(x, bits), cnum_umin(y, bits), cnum_umax(y, bits),
			      cnum_smin(y, bits), cnum_smax(y, bits));
}

/* Linux 6.18's is_scalar_branch_taken() tests (rb_bounds_branch_taken,
 * branch_taken.h, in the same order) on stored values, each bound
 * converted from its arc where a test reads it: the ordering jumps two
 * per register at the compared width, JSET the tnums only, JEQ/JNE the
 * full-width conversions and then (64-bit only) the subregister's */
static inline __attribute__((always_inline)) int taken_tests(const rb_val *a, const rb_val *b, uint8_t jop,
							 bool is32)
{
	struct tnum t1 = TNUM_C(a->w[0], a->w[1]), t2 = TNUM_C(b->w[0], b->w[1]);
	if (is32) {
		t1 = TNUM_C(t1.value & H_MASK, t1.mask & H_MASK);
		t2 = TNUM_C(t2.value & H_MASK, t2.mask & H_MASK);
	}
	switch (jop) {
	case BPF_JGT:
	case BPF_JGE:
	case BPF_JLT:
	case BPF_JLE:
		if (is32) {
			struct cnum x = arc32_of(a), y = arc32_of(b);
			return rb_utaken(jop, cnum_umin(x, RH), cnum_umax(x, RH), cnum_umin(y, RH),
					 cnum_umax(y, RH));
		} else {
			struct cnum x = arc64_of(a), y = arc64_of(b);
			return rb_utaken(jop, cnum_umin(x, RW), cnum_umax(x, RW), cnum_umin(y, RW),
					 cnum_umax(y, RW));
		}
	case BPF_JSGT:
	case BPF_JSGE:
	case BPF_JSLT:
	case BPF_JSLE:
		if (is32) {
			struct cnum x = arc32_of(a), y = arc32_of(b);
			return rb_staken(jop, cnum_smin(x, RH), cnum_smax(x, RH), cnum_smin(y, RH),
					 cnum_smax(y, RH));
		} else {
			struct cnum x = arc64_of(a), y = arc64_of(b);
			return rb_staken(jop, cnum_smin(x, RW), cnum_smax(x, RW), cnum_smin(y, RW),
					 cnum_smax(y, RW));
		}
	case BPF_JSET:
	case RB_JSET_FALSE:
		return rb_jset_taken(t1, t2, jop);
	case BPF_JEQ:
	case BPF_JNE: {
		int eq_never = jop == BPF_JEQ ? RB_BR_NEVER : RB_BR_ALWAYS;
		if (tnum_is_const(t1) && tnum_is_const(t2))
			return (t1.value == t2.value) == (jop == BPF_JEQ);
		if (!is32 && arcs_exclude_eq(arc64_of(a), arc64_of(b), RW))
			return eq_never;
		if (arcs_exclude_eq(arc32_of(a), arc32_of(b), RH))
			return eq_never;
		if (!tnum_overlap(t1, t2))
			return eq_never;
		return RB_BR_UNKNOWN;
	}
	default:
		return RB_BR_UNKNOWN;
	}
}

#ifndef RB_CNUM_MAINLINE_ALGOS
/* 6.18's is_scalar_branch_taken(): the tests alone (mainline's
 * simulate_both_branches_taken() is newer than 6.18, see alu.c) */
static inline __attribute__((always_inline)) int taken_at(const rb_val *a, const rb_val *b, uint8_t jop,
							bool is32)
{
	return taken_tests(a, b, jop, is32);
}
#else
/* The ordering jumps of mainline is_scalar_branch_taken: Linux 6.18's
 * tests on the bounds at the compared width and signedness (as
 * taken_tests), then, before the simulation, a witness check on the same
 * four bounds. When the tests leave the jump open, the bounds themselves
 * split it: for JLT, umin(a) < umax(b) and umax(a) >= umin(b) (each
 * ordering jump alike), so if the four bounds are values of their
 * registers, both outcomes have a witness and the simulation would say
 * "unknown" (see both_outcomes_seen). A bound of a non-empty arc is a value
 * of it; at the full width the bound must also have its low half in r32
 * and agree with the tnum; a subregister bound l is tried as the first
 * value of r64 whose low half is l (member_low). */
static inline bool val_tnum_has(const rb_val *r, uint64_t x)
{
	return (x & ~r->w[1]) == r->w[0];
}

static inline __attribute__((always_inline)) int ordered_at(const rb_val *av, const rb_val *bv, uint8_t jop,
							  bool is32)
{
	struct cnum a64 = arc64_of(av), b64 = arc64_of(bv), a32 = arc32_of(av), b32 = arc32_of(bv);
	struct cnum x = is32 ? a32 : a64, y = is32 ? b32 : b64;
	unsigned bits = is32 ? RH : RW;
	uint64_t alo, ahi, blo, bhi;
	int r;
	if (jop == BPF_JSGT || jop == BPF_JSGE || jop == BPF_JSLT || jop == BPF_JSLE) {
		int64_t smin1 = cnum_smin(x, bits), smax1 = cnum_smax(x, bits);
		int64_t smin2 = cnum_smin(y, bits), smax2 = cnum_smax(y, bits);
		r = rb_staken(jop, smin1, smax1, smin2, smax2);
		alo = (uint64_t)smin1 & cn_mask(bits);
		ahi = (uint64_t)smax1 & cn_mask(bits);
		blo = (uint64_t)smin2 & cn_mask(bits);
		bhi = (uint64_t)smax2 & cn_mask(bits);
	} else {
		alo = cnum_umin(x, bits);
		ahi = cnum_umax(x, bits);
		blo = cnum_umin(y, bits);
		bhi = cnum_umax(y, bits);
		r = rb_utaken(jop, alo, ahi, blo, bhi);
	}
	if (r != RB_BR_UNKNOWN)
		return r;
	if (!cnum_is_empty(a64, RW) && !cnum_is_empty(b64, RW) && !cnum_is_empty(a32, RH) &&
	    !cnum_is_empty(b32, RH)) {
		if (is32) {
			/* the first value of r64 whose low half is l (member_low) */
			uint64_t oa = (alo - a64.base) & H_MASK, oA = (ahi - a64.base) & H_MASK;
			uint64_t ob = (blo - b64.base) & H_MASK, oB = (bhi - b64.base) & H_MASK;
			if (oa <= a64.size && oA <= a64.size && ob <= b64.size && oB <= b64.size &&
			    val_tnum_has(av, wtrunc(a64.base + oa)) && val_tnum_has(av, wtrunc(a64.base + oA)) &&
			    val_tnum_has(bv, wtrunc(b64.base + ob)) && val_tnum_has(bv, wtrunc(b64.base + oB)))
				return RB_BR_UNKNOWN;
		} else if (cnum_contains(a32, alo & H_MASK, RH) && cnum_contains(a32, ahi & H_MASK, RH) &&
			   cnum_contains(b32, blo & H_MASK, RH) && cnum_contains(b32, bhi & H_MASK, RH) &&
			   val_tnum_has(av, alo) && val_tnum_has(av, ahi) && val_tnum_has(bv, blo) &&
			   val_tnum_has(bv, bhi)) {
			return RB_BR_UNKNOWN;
		}
	}
	return simulate_val(av, bv, jop, is32);
}

/* JEQ, JNE and JSET: the 6.18 tests, then the simulation (out of line) */
static inline __attribute__((always_inline)) int other_at(const rb_val *a, const rb_val *b, uint8_t jop,
							bool is32)
{
	int r = taken_tests(a, b, jop, is32);
	if (r != RB_BR_UNKNOWN)
		return r;
	switch (jop) {
	case BPF_JSET: {
		/* without a constant mask mainline gives up at once */
		struct creg x = creg_load(a), y = creg_load(b);
		if (!is_const_reg(&x, is32) && !is_const_reg(&y, is32))
			return r;
		return simulate_val(a, b, jop, is32);
	}
	case BPF_JEQ:
	case BPF_JNE:
		return simulate_val(a, b, jop, is32);
	default: /* not a conditional jump */
		return r;
	}
}

/* mainline is_scalar_branch_taken (for two distinct registers): the
 * tests on the converted bounds and var_off are Linux 6.18's; what they
 * leave undecided mainline then refines both ways
 * (simulate_both_branches_taken) */
static inline __attribute__((always_inline)) int taken_at(const rb_val *a, const rb_val *b, uint8_t jop,
							bool is32)
{
	switch (jop) {
	case BPF_JGT:
	case BPF_JGE:
	case BPF_JLT:
	case BPF_JLE:
	case BPF_JSGT:
	case BPF_JSGE:
	case BPF_JSLT:
	case BPF_JSLE:
		return ordered_at(a, b, jop, is32);
	case RB_JSET_FALSE: {
		int r = other_at(a, b, BPF_JSET, is32);
		return r == RB_BR_UNKNOWN ? r : !r;
	}
	default:
		return other_at(a, b, jop, is32);
	}
}
#endif

/* taken_at() for each jump and width in a function of its own (the jump
 * and width constant in it: no switch left), reached through a table
 * indexed by the operation code's high nibble, as one indirect jump.
 * Measured (bench/insns.sh branch_taken, --branch-sim), "cnum": a switch
 * over the kinds of jump compiled to a tree of compares whose branches the
 * jumps' mix mispredicts (168k mispredicts per 65,536 calls against old's
 * 140k) and ran 1.02x old's time for 0.87x its instructions.
 * "cnum-mainline" alike: see the commit that gave it the table. */
#define TAKEN_FN(name, jop)                                                                 \
	static int name##_64(const rb_val *a, const rb_val *b)                             \
	{                                                                                  \
		return taken_at(a, b, jop, false);                                         \
	}                                                                                  \
	static int name##_32(const rb_val *a, const rb_val *b)                             \
	{                                                                                  \
		return taken_at(a, b, jop, true);                                          \
	}
TAKEN_FN(taken_jeq, BPF_JEQ)
TAKEN_FN(taken_jne, BPF_JNE)
TAKEN_FN(taken_jset, BPF_JSET)
TAKEN_FN(taken_jset_false, RB_JSET_FALSE)
TAKEN_FN(taken_jgt, BPF_JGT)
TAKEN_FN(taken_jge, BPF_JGE)
TAKEN_FN(taken_jlt, BPF_JLT)
TAKEN_FN(taken_jle, BPF_JLE)
TAKEN_FN(taken_jsgt, BPF_JSGT)
TAKEN_FN(taken_jsge, BPF_JSGE)
TAKEN_FN(taken_jslt, BPF_JSLT)
TAKEN_FN(taken_jsle, BPF_JSLE)

static int taken_none(const rb_val *a, const rb_val *b)
{
	(void)a;
	(void)b;
	return RB_BR_UNKNOWN;
}

/* [jop >> 4][is32] */
static int (*const taken_table[16][2])(const rb_val *, const rb_val *) = {
	[BPF_JEQ >> 4] = {taken_jeq_64, taken_jeq_32},
	[BPF_JNE >> 4] = {taken_jne_64, taken_jne_32},
	[BPF_JSET >> 4] = {taken_jset_64, taken_jset_32},
	[RB_JSET_FALSE >> 4] = {taken_jset_false_64, taken_jset_false_32},
	[BPF_JGT >> 4] = {taken_jgt_64, taken_jgt_32},
	[BPF_JGE >> 4] = {taken_jge_64, taken_jge_32},
	[BPF_JLT >> 4] = {taken_jlt_64, taken_jlt_32},
	[BPF_JLE >> 4] = {taken_jle_64, taken_jle_32},
	[BPF_JSGT >> 4] = {taken_jsgt_64, taken_jsgt_32},
	[BPF_JSGE >> 4] = {taken_jsge_64, taken_jsge_32},
	[BPF_JSLT >> 4] = {taken_jslt_64, taken_jslt_32},
	[BPF_JSLE >> 4] = {taken_jsle_64, taken_jsle_32},
	[BPF_JA >> 4] = {taken_none, taken_none},
	[BPF_CALL >> 4] = {taken_none, taken_none},
	[BPF_EXIT >> 4] = {taken_none, taken_none},
	[0xe] = {taken_none, taken_none},
};

int creg_branch_taken_val(const rb_val *a, const rb_val *b, uint8_t jop, bool is32)
{
	if (jop & 0xf)
		return RB_BR_UNKNOWN;
	return taken_table[jop >> 4][is32](a, b);
}

#ifdef RB_CNUM_MAINLINE_ALGOS
/* Linux 7.2.13 is_scalar_branch_taken() for reg1 == reg2 (one register
 * compared with itself): the orderings that include equality always hold,
 * the strict ones and JNE never; JSET holds unless the value may be 0
 * (a constant decides, else the signed bounds at the compared width must
 * hold 0); anything undecided is left unrefined (see tracker.h) */
int creg_branch_taken_same_val(const rb_val *a, uint8_t jop, bool is32)
{
	switch (jop) {
	case BPF_JGE:
	case BPF_JLE:
	case BPF_JSGE:
	case BPF_JSLE:
	case BPF_JEQ:
		return RB_BR_ALWAYS;
	case BPF_JGT:
	case BPF_JLT:
	case BPF_JSGT:
	case BPF_JSLT:
	case BPF_JNE:
		return RB_BR_NEVER;
	case BPF_JSET:
	case RB_JSET_FALSE: {
		struct creg r = creg_load(a);
		struct tnum t = is32 ? tnum_subreg(r.var_off) : r.var_off;
		int64_t smin = is32 ? reg_s32_min(&r) : reg_smin(&r);
		int64_t smax = is32 ? reg_s32_max(&r) : reg_smax(&r);
		int set;
		if (tnum_is_const(t))
			set = t.value != 0;
		else
			set = smin <= 0 && smax >= 0 ? RB_BR_UNKNOWN : RB_BR_ALWAYS;
		if (jop == RB_JSET_FALSE && set != RB_BR_UNKNOWN)
			set = !set;
		return set;
	}
	default:
		return RB_BR_UNKNOWN;
	}
}
#endif
