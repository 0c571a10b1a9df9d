/* old/sync.c — keeping the old tracker's bounds in step: Linux 6.18's
 * reg_bounds_sync() and the helpers around it (kernel/bpf/verifier.c):
 *   __update_reg_bounds, with the single-common-value test (a u64 range
 *     and var_off sharing one value make a constant) that 6.18 stable
 *     took from mainline in 2026;
 *   __reg32_deduce_bounds and __reg64_deduce_bounds, each with the
 *     "signed range crosses the sign boundary" case (64-bit: 6.17;
 *     32-bit: 2026, in 6.18 stable);
 *   __reg_deduce_mixed_bounds (the 2023 32->64 deduction and its
 *     sign-extension special case);
 *   three deduction rounds per sync (6.17), __reg_bound_offset, the
 *     sanity check, __reg_assign_32_into_64 and zext_32_to_64.
 * Everything checked against the running 6.18.44 with `rangebench opdiff`.
 *
 * Written from the kernel's description, width-generic: "64" means
 * W_BITS, "32" means H_BITS throughout.
 */
#include "tracker/bounds.h"
#include "tracker/old/repr.h"

void old_mark_known(struct old_reg *r, uint64_t imm)
{
	imm = wtrunc(imm);
	r->var_off = tnum_const(imm);
	r->smin = r->smax = wsext(imm);
	r->umin = r->umax = imm;
	set_s32(&r->s32_min, hsext(imm));
	set_s32(&r->s32_max, hsext(imm));
	set_u32(&r->u32_min, imm);
	set_u32(&r->u32_max, imm);
}

void old_mark_known32(struct old_reg *r, uint64_t imm)
{
	r->var_off = tnum_const_subreg(r->var_off, imm);
	set_s32(&r->s32_min, hsext(imm));
	set_s32(&r->s32_max, hsext(imm));
	set_u32(&r->u32_min, imm);
	set_u32(&r->u32_max, imm);
}

void old_mark_unbounded64(struct old_reg *r)
{
	r->smin = W_SMIN;
	r->smax = W_SMAX;
	r->umin = 0;
	r->umax = W_UMAX;
}

void old_mark_unbounded32(struct old_reg *r)
{
	r->s32_min = (int32_t)H_SMIN;
	r->s32_max = (int32_t)H_SMAX;
	r->u32_min = 0;
	r->u32_max = (uint32_t)H_UMAX;
}

void old_mark_unbounded(struct old_reg *r)
{
	old_mark_unbounded64(r);
	old_mark_unbounded32(r);
}

void old_mark_unknown(struct old_reg *r)
{
	r->var_off = tnum_unknown();
	old_mark_unbounded(r);
}

static inline void update32(struct old_reg *r)
{
	struct tnum t = tnum_subreg(r->var_off);
	/* smallest signed member: sign bit set if it may be, other bits minimal */
	int64_t tsmin = hsext(t.value | (t.mask & H_SIGN));
	int64_t tsmax = hsext(t.value | (t.mask & (H_SIGN - 1)));

	set_s32(&r->s32_min, smax64(r->s32_min, tsmin));
	set_s32(&r->s32_max, smin64(r->s32_max, tsmax));
	set_u32(&r->u32_min, umax64(r->u32_min, t.value));
	set_u32(&r->u32_max, umin64(r->u32_max, t.value | t.mask));
}

static inline __attribute__((always_inline)) void update64(struct old_reg *r)
{
	struct tnum t = r->var_off;
	int64_t tsmin = wsext(t.value | (t.mask & W_SIGN));
	int64_t tsmax = wsext(t.value | (t.mask & (W_SIGN - 1)));

	r->smin = smax64(r->smin, tsmin);
	r->smax = smin64(r->smax, tsmax);
	r->umin = umax64(r->umin, t.value);
	r->umax = umin64(r->umax, t.value | t.mask);

	/* (6.18 stable, "Improve bounds when tnum has a single possible
	 * value") if the u64 range and var_off share exactly one value, the
	 * register is that constant (the shared rb_tnum_single_in_urange) */
	uint64_t c;
	if (rb_tnum_single_in_urange(t, r->umin, r->umax, &c))
		old_mark_known(r, c);
}

void old_update_bounds32(struct old_reg *r) { update32(r); }
void old_update_bounds64(struct old_reg *r) { update64(r); }

void old_update_bounds(struct old_reg *r)
{
	update32(r);
	update64(r);
}

/* tighten the subregister bounds by [lo, hi] (signed / unsigned) */
static void clamp_s32(struct old_reg *r, int64_t lo, int64_t hi)
{
	set_s32(&r->s32_min, smax64(r->s32_min, lo));
	set_s32(&r->s32_max, smin64(r->s32_max, hi));
}
static void clamp_u32(struct old_reg *r, uint64_t lo, uint64_t hi)
{
	set_u32(&r->u32_min, umax64(r->u32_min, lo));
	set_u32(&r->u32_max, umin64(r->u32_max, hi));
}

static void deduce32(struct old_reg *r)
{
	/* Full-width ranges whose bits above the subregister do not change
	 * give subregister ranges directly. */
	if ((r->umin >> H_BITS) == (r->umax >> H_BITS)) {
		clamp_u32(r, htrunc(r->umin), htrunc(r->umax));
		if (hsext(r->umin) <= hsext(r->umax))
			clamp_s32(r, hsext(r->umin), hsext(r->umax));
	}
	if ((r->smin >> H_BITS) == (r->smax >> H_BITS)) {
		if (htrunc((uint64_t)r->smin) <= htrunc((uint64_t)r->smax))
			clamp_u32(r, htrunc((uint64_t)r->smin), htrunc((uint64_t)r->smax));
		if (hsext((uint64_t)r->smin) <= hsext((uint64_t)r->smax))
			clamp_s32(r, hsext((uint64_t)r->smin), hsext((uint64_t)r->smax));
	}
	/* Upper parts two consecutive numbers (mod 2^H) while the low
	 * parts go from negative to non-negative: a valid s32 range. */
	if (htrunc((r->umin >> H_BITS) + 1) == htrunc(r->umax >> H_BITS) &&
	    hsext(r->umin) < 0 && hsext(r->umax) >= 0)
		clamp_s32(r, hsext(r->umin), hsext(r->umax));
	if (htrunc((uint64_t)(r->smin >> H_BITS) + 1) == htrunc((uint64_t)(r->smax >> H_BITS)) &&
	    hsext((uint64_t)r->smin) < 0 && hsext((uint64_t)r->smax) >= 0)
		clamp_s32(r, hsext((uint64_t)r->smin), hsext((uint64_t)r->smax));
	/* u32 range on one side of the sign boundary is also an s32 range */
	if (hsext(r->u32_min) <= hsext(r->u32_max))
		clamp_s32(r, hsext(r->u32_min), hsext(r->u32_max));
	/* and the other way round */
	if (hbits(r->s32_min) <= hbits(r->s32_max)) {
		clamp_u32(r, hbits(r->s32_min), hbits(r->s32_max));
	} else {
		/* the s32 range wraps through the sign boundary; a u32 range
		 * meeting only one of its pieces shrinks both (the 32-bit
		 * twin of deduce64's case, in 6.18 stable from 2026) */
		if (r->u32_max < hbits(r->s32_min)) {
			set_s32(&r->s32_min, hsext(r->u32_min));
			set_u32(&r->u32_max, umin64(r->u32_max, hbits(r->s32_max)));
		} else if (hbits(r->s32_max) < r->u32_min) {
			set_s32(&r->s32_max, hsext(r->u32_max));
			set_u32(&r->u32_min, umax64(r->u32_min, hbits(r->s32_min)));
		}
	}
}

static void deduce64(struct old_reg *r)
{
	/* u64 range on one side of the sign boundary is also an s64 range */
	if (wsext(r->umin) <= wsext(r->umax)) {
		r->smin = smax64(r->smin, wsext(r->umin));
		r->smax = smin64(r->smax, wsext(r->umax));
	}
	if (wbits(r->smin) <= wbits(r->smax)) {
		r->umin = umax64(wbits(r->smin), r->umin);
		r->umax = umin64(wbits(r->smax), r->umax);
	} else {
		/* The s64 range wraps through the sign boundary, i.e. it is
		 * two pieces in u64 order. If the u64 range meets only the
		 * non-negative piece, or only the negative one, both ranges
		 * shrink to that piece (6.17+). */
		if (r->umax < wbits(r->smin)) {
			r->smin = wsext(r->umin);
			r->umax = umin64(r->umax, wbits(r->smax));
		} else if (wbits(r->smax) < r->umin) {
			r->smax = wsext(r->umax);
			r->umin = umax64(r->umin, wbits(r->smin));
		}
	}
}

static void deduce_mixed(struct old_reg *r)
{
	const uint64_t hi = W_MASK & ~H_MASK;
	uint64_t nu_min, nu_max;
	int64_t ns_min, ns_max;

	/* Put the subregister bounds under the full-width bounds' upper
	 * parts: u32 -> u64 and u32 -> s64 are always well formed. */
	nu_min = (r->umin & hi) | r->u32_min;
	nu_max = (r->umax & hi) | r->u32_max;
	r->umin = umax64(r->umin, nu_min);
	r->umax = umin64(r->umax, nu_max);
	ns_min = (int64_t)(((uint64_t)r->smin & ~H_MASK) | r->u32_min);
	ns_max = (int64_t)(((uint64_t)r->smax & ~H_MASK) | r->u32_max);
	r->smin = smax64(r->smin, ns_min);
	r->smax = smin64(r->smax, ns_max);

	/* the same with the s32 range when it is also a u32 range */
	if (hbits(r->s32_min) <= hbits(r->s32_max)) {
		nu_min = (r->umin & hi) | hbits(r->s32_min);
		nu_max = (r->umax & hi) | hbits(r->s32_max);
		r->umin = umax64(r->umin, nu_min);
		r->umax = umin64(r->umax, nu_max);
		ns_min = (int64_t)(((uint64_t)r->smin & ~H_MASK) | hbits(r->s32_min));
		ns_max = (int64_t)(((uint64_t)r->smax & ~H_MASK) | hbits(r->s32_max));
		r->smin = smax64(r->smin, ns_min);
		r->smax = smin64(r->smax, ns_max);
	}

	/* After a sign-extending load: an s64 range inside
	 * [(s64)S32_MIN, S32_MAX] whose s32 range is non-negative cannot
	 * have all-ones upper bits, so it is the s32 range itself. */
	if (r->s32_min >= 0 && r->smin >= H_SMIN && r->smax <= H_SMAX) {
		r->smin = r->s32_min;
		r->smax = r->s32_max;
		r->umin = wbits(r->s32_min);
		r->umax = wbits(r->s32_max);
		r->var_off = tnum_intersect(r->var_off, tnum_range(wbits(r->smin), wbits(r->smax)));
	}
}

void old_deduce_bounds(struct old_reg *r)
{
	deduce32(r);
	deduce64(r);
	deduce_mixed(r);
}

static inline void bound_offset(struct old_reg *r)
{
	struct tnum t64 = tnum_intersect(r->var_off, tnum_range(r->umin, r->umax));
	struct tnum t32 = tnum_intersect(tnum_subreg(t64), tnum_range(r->u32_min, r->u32_max));

	r->var_off = tnum_or(tnum_clear_subreg(t64), t32);
}

void old_bound_offset(struct old_reg *r) { bound_offset(r); }

void old_bounds_sync_ref(struct old_reg *r)
{
	/* bounds from var_off, sign/unsigned and 32/64 deductions (three
	 * rounds, as the kernel does since 6.17), var_off from the bounds,
	 * bounds again */
	old_update_bounds(r);
	old_deduce_bounds(r);
	old_deduce_bounds(r);
	old_deduce_bounds(r);
	old_bound_offset(r);
	old_update_bounds(r);
}

static inline __attribute__((always_inline)) bool deduce_settled(const struct old_reg *r)
{
	uint64_t umin = r->umin, umax = r->umax;

	if (umin > umax)
		return false;
	if (umin == umax) /* one value, every range on it */
		return r->smin == wsext(umin) && r->smax == r->smin && r->u32_min == htrunc(umin) &&
		       r->u32_max == r->u32_min && r->s32_min == hsext(umin) && r->s32_max == r->s32_min;
	/* a zero-extended subregister (u32_max == umax: umax <= H_MASK): the
	 * same range four times, the s32 range unbounded where the u32 range
	 * crosses the sign bit */
	if (r->u32_min != umin || r->u32_max != umax || r->smin != (int64_t)umin ||
	    r->smax != (int64_t)umax)
		return false;
	int64_t lo = hsext(umin), hi = hsext(umax);
	if (lo <= hi)
		return r->s32_min == lo && r->s32_max == hi;
	return r->s32_min == H_SMIN && r->s32_max == H_SMAX;
}

bool old_deduce_settled(const struct old_reg *r)
{
	return deduce_settled(r);
}

static inline bool same_reg(const struct old_reg *a, const struct old_reg *b)
{
	return a->var_off.value == b->var_off.value && a->var_off.mask == b->var_off.mask &&
	       a->smin == b->smin && a->smax == b->smax && a->umin == b->umin && a->umax == b->umax &&
	       a->s32_min == b->s32_min && a->s32_max == b->s32_max && a->u32_min == b->u32_min &&
	       a->u32_max == b->u32_max;
}

/* the three deduction rounds, stopped at a fixed point (out of line: the
 * fast path needs no room for the copy) */
static __attribute__((noinline)) void deduce_rounds(struct old_reg *r)
{
	struct old_reg before = *r;
	old_deduce_bounds(r);
	if (!same_reg(&before, r)) {
		before = *r;
		old_deduce_bounds(r);
		if (!same_reg(&before, r))
			old_deduce_bounds(r);
	}
}

/* old_bounds_sync_ref()'s result, with less work (issue 26: the sync was
 * 40% of core_kern's and test_verif_scale1-3's exploration; 88% of
 * core_kern's 507k syncs change nothing, and the second and third
 * deduction rounds changed nothing in any):
 *   - the deduction rounds stop at a fixed point (a round that changes
 *     nothing would change nothing again);
 *   - a state old_deduce_settled() accepts skips them: there the rounds
 *     can only intersect var_off with tnum_range(umin, umax), which
 *     old_bound_offset() does next anyway (test_old's
 *     test_sync_fast_paths8 checks that on every 8-bit such state and its
 *     neighbours, and the whole sync against the reference);
 *   - there, when __reg_bound_offset leaves var_off as it was, the last
 *     __update_reg_bounds is skipped: it changes nothing a second time
 *     (test_old_sync checks that too);
 *   - the steps are inline, the tnum operations too (tnum.h). */
void old_bounds_sync(struct old_reg *r)
{
	update32(r);
	update64(r);
	if (deduce_settled(r)) {
		/* the bounds are __update_reg_bounds()'s, which changes
		 * nothing a second time on the same var_off */
		struct tnum t = r->var_off;
		bound_offset(r);
		if (tnum_equal(t, r->var_off))
			return;
	} else {
		deduce_rounds(r);
		bound_offset(r);
	}
	update32(r);
	update64(r);
}

bool old_range_violation(const struct old_reg *r)
{
	return r->umin > r->umax || r->smin > r->smax || r->u32_min > r->u32_max ||
	       r->s32_min > r->s32_max;
}

const char *old_sanity_msg(const struct old_reg *r)
{
	if (old_range_violation(r))
		return "range bounds violation";
	if (tnum_is_const(r->var_off)) {
		uint64_t u = r->var_off.value;
		if (r->umin != u || r->umax != u || r->smin != wsext(u) || r->smax != wsext(u))
			return "const tnum out of sync with range bounds";
	}
	struct tnum t = tnum_subreg(r->var_off);
	if (tnum_is_const(t)) {
		uint64_t u = t.value;
		if (r->u32_min != u || r->u32_max != u || r->s32_min != hsext(u) ||
		    r->s32_max != hsext(u))
			return "const subreg tnum out of sync with range bounds";
	}
	return NULL;
}

bool old_sanity_ok(const struct old_reg *r)
{
	return old_sanity_msg(r) == NULL;
}

void old_assign_32_into_64(struct old_reg *r)
{
	r->umin = r->u32_min;
	r->umax = r->u32_max;
	/* a non-negative s32 range carries over; otherwise [0, U32_MAX]
	 * for now, refined later from var_off */
	if (r->s32_min >= 0 && r->s32_max >= 0) {
		r->smin = r->s32_min;
		r->smax = r->s32_max;
	} else {
		r->smin = 0;
		r->smax = (int64_t)H_UMAX;
	}
}

void old_zext_32_to_64(struct old_reg *r)
{
	r->var_off = tnum_subreg(r->var_off);
	old_assign_32_into_64(r);
}
