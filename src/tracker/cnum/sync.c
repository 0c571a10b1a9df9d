/* sync.c — keeping tnum, 64-bit arc and 32-bit arc in step.
 *
 * Six directions only, as mainline Linux (2026) kernel/bpf/verifier.c
 * does after replacing the min/max fields with cnums:
 *   tnum -> r64, tnum -> r32   __update_reg64_bounds / __update_reg32_bounds
 *   r64 -> r32                  deduce_bounds_32_from_64 (cnum32_from_cnum64)
 *   r32 -> r64                  deduce_bounds_64_from_32 (cnum64_cnum32_intersect)
 *   r64 -> tnum, r32 -> tnum    __reg_bound_offset (through umin/umax)
 * "64" is the full register (W_BITS), "32" the subregister (H_BITS).
 * Also the register-narrowing helpers of mainline verifier.c that work on
 * the same state (zext_32_to_64, coerce_reg_to_size[_sx],
 * coerce_subreg_to_size_sx).
 */
#include "tracker/bounds.h"
#include "tracker/cnum/reg.h"

void creg_known(struct creg *r, uint64_t c)
{
	r->var_off = tnum_const(c);
	r->r64 = cnum_const(c, RW);
	r->r32 = cnum_const(c, RH);
}

/* mainline cnum64_from_tnum / cnum32_from_tnum: if the sign bit may be
 * set, the signed range of the tnum (an arc through 0), else its
 * unsigned range */
static inline __attribute__((always_inline)) struct cnum cnum_from_tnum(struct tnum t, unsigned bits)
{
	uint64_t sbit = cn_smin_bits(bits), m = cn_mask(bits);
	t.value &= m;
	t.mask &= m;
	if ((t.mask | t.value) & sbit)
		return cnum_from_srange(sext_bits(t.value | (t.mask & sbit), bits),
					sext_bits(t.value | (t.mask & ~sbit), bits), bits);
	return cnum_from_urange(t.value, t.value | t.mask, bits);
}

/* mainline __update_reg32_bounds */
static inline void update_bounds32(struct creg *r)
{
	r->r32 = cnum_intersect(r->r32, cnum_from_tnum(tnum_subreg(r->var_off), RH), RH);
}

void creg_update_bounds32(struct creg *r)
{
	update_bounds32(r);
}

/* how many members of t lie in [lo, hi] (0, 1, or 2 meaning "more");
 * the first one in *first */
static inline unsigned tnum_members_in(struct tnum t, uint64_t lo, uint64_t hi, uint64_t *first)
{
	uint64_t x = lo;
	if (!tnum_contains(t, lo)) {
		x = tnum_step(t, lo);
		if (x <= lo)
			return 0; /* no member above lo */
	}
	if (x > hi)
		return 0;
	*first = x;
	uint64_t y = tnum_step(t, x);
	return y > x && y <= hi ? 2 : 1;
}

/* The single-value collapse on an arc: does the arc meet the tnum in
 * exactly one value? The 6.18.44 test (rb_tnum_single_in_urange) asks it
 * of the register's value set, which old holds as the unsigned range
 * intersected with the signed one; cnum holds it as one arc, which may
 * cross the unsigned pole (e.g. [-1, 4]), so the same question is asked
 * of the arc's one or two unsigned pieces. */
static inline bool tnum_single_in_arc(struct tnum t, struct cnum a, uint64_t *c)
{
	/* shortcuts, same answers: a constant tnum has one member, in the
	 * arc or not; a tnum whose smallest and largest members are both in
	 * the arc has two members there */
	if (!t.mask) {
		*c = t.value;
		return cnum_contains(a, t.value, RW);
	}
	if (cnum_contains(a, tnum_umin(t), RW) && cnum_contains(a, tnum_umax(t), RW))
		return false;
	uint64_t end = cnum_end(a, RW), f1 = 0, f2 = 0;
	if (a.base <= end)
		return tnum_members_in(t, a.base, end, c) == 1;
	unsigned n = tnum_members_in(t, a.base, W_MASK, &f1);
	if (n > 1)
		return false;
	unsigned m = tnum_members_in(t, 0, end, &f2);
	if (n + m != 1)
		return false;
	*c = n ? f1 : f2;
	return true;
}

/* mainline __update_reg64_bounds: intersect with the tnum's range, then
 * (tnum_step) collapse to a constant when the range and the tnum share a
 * single value. Linux 6.18.44 has the collapse too (old/sync.c), so both
 * cnum builds apply it: "cnum" on the arc itself (tnum_single_in_arc: the
 * value set old tests), "cnum-mainline" on the unsigned bounds the arc
 * converts to, as mainline does (an arc crossing the unsigned pole then
 * reads as [0, U64_MAX] and does not collapse).
 * An arc that became empty: mainline runs the same test on it, and its
 * empty sentinel reads as [0, U64_MAX] too, so a constant tnum c != 0
 * (the only tnum whose one member is not 0 and whose step from 0 is its
 * maximum) turns the dead register back into the constant c, alive;
 * cnum-mainline does the same. "cnum" keeps it empty (dead), as old's
 * empty-range check would see it. Both are sound: the path is dead. */
static inline void collapse64(struct creg *r);

static inline void update_bounds64(struct creg *r)
{
	r->r64 = cnum_intersect(r->r64, cnum_from_tnum(r->var_off, RW), RW);
	collapse64(r);
}

/* the single-value collapse of __update_reg64_bounds (reads var_off and
 * r64 only) */
static inline void collapse64(struct creg *r)
{
	uint64_t c;
#ifdef RB_CNUM_MAINLINE_ALGOS
	/* reg_umin()/reg_umax() of the empty arc are 0 and the maximum, as
	 * mainline's cnum64_umin()/umax() of CNUM64_EMPTY */
	if (rb_tnum_single_in_urange(r->var_off, reg_umin(r), reg_umax(r), &c))
		creg_known(r, c);
#else
	if (cnum_is_empty(r->r64, RW))
		return;
	if (tnum_single_in_arc(r->var_off, r->r64, &c))
		creg_known(r, c);
#endif
}

void creg_update_bounds64(struct creg *r)
{
	update_bounds64(r);
}

/* mainline __update_reg_bounds */
static inline void update_bounds(struct creg *r)
{
	update_bounds32(r);
	update_bounds64(r);
}

void creg_update_bounds(struct creg *r)
{
	update_bounds(r);
}

/* mainline __reg_deduce_bounds: r64 -> r32, then r32 -> r64; true if
 * either arc changed */
static inline __attribute__((always_inline)) bool deduce_bounds(struct creg *r)
{
	struct cnum r32 = cnum_intersect(r->r32, cnum_narrow(r->r64, RW, RH), RH);
	struct cnum r64 = cnum_widen_intersect(r->r64, RW, r32, RH);
	bool changed = !cnum_equal(r32, r->r32) || !cnum_equal(r64, r->r64);
	r->r32 = r32;
	r->r64 = r64;
	return changed;
}

bool creg_deduce_bounds(struct creg *r)
{
	return deduce_bounds(r);
}

/* mainline __reg_bound_offset: the tnum learns from the unsigned bounds
 * of each arc */
static void bound_offset(struct creg *r)
{
	struct tnum v64 = tnum_intersect(r->var_off, tnum_range(reg_umin(r), reg_umax(r)));
	struct tnum v32 = tnum_intersect(tnum_subreg(v64),
					 tnum_range(reg_u32_min(r), reg_u32_max(r)));
	r->var_off = tnum_or(tnum_clear_subreg(v64), v32);
}

/* mainline reg_bounds_sync, step by step (mainline runs the deduction
 * twice); a state with an empty arc is left as it is */
void creg_sync_ref(struct creg *r)
{
	if (creg_violation(r))
		return;
	update_bounds(r);
	deduce_bounds(r);
	deduce_bounds(r);
	bound_offset(r);
	update_bounds(r);
}

/* a constant whose arcs are that constant: every step leaves it as it is
 * (the single-value collapse makes it the same constant again) */
static inline bool creg_is_known_const(const struct creg *r)
{
	return !r->var_off.mask && !r->r64.size && !r->r32.size && r->r64.base == r->var_off.value &&
	       r->r32.base == (r->var_off.value & H_MASK);
}

/* every value: tnum unknown, both arcs full; every step leaves it so */
static inline bool creg_is_unknown(const struct creg *r)
{
	return r->var_off.mask == W_MASK && !r->var_off.value && cnum_is_full(r->r64, RW) &&
	       cnum_is_full(r->r32, RH);
}

/* update_bounds() in fewer steps where the tnum is unknown: its arc is
 * then the full circle, which leaves an arc as it is, and the collapse
 * finds a single common value only in an arc of one value (in
 * cnum-mainline not in the one value W_MASK: rb_tnum_single_in_urange()
 * finds no step above it, as mainline's tnum_step) */
static inline void update_bounds_fast(struct creg *r)
{
	if (r->var_off.mask == W_MASK && !r->var_off.value) {
		if (!r->r64.size) {
#ifdef RB_CNUM_MAINLINE_ALGOS
			uint64_t c;
			if (rb_tnum_single_in_urange(r->var_off, r->r64.base, r->r64.base, &c))
				creg_known(r, c);
#else
			creg_known(r, r->r64.base);
#endif
		}
		return;
	}
	/* an arc within the tnum's arc is its own intersection with it: a
	 * subset test is cheaper than the intersection */
	if ((r->var_off.mask & H_MASK) != H_MASK || (r->var_off.value & H_MASK)) {
		struct cnum t32 = cnum_from_tnum(tnum_subreg(r->var_off), RH);
		if (!cnum_is_subset(t32, r->r32, RH))
			r->r32 = cnum_intersect(r->r32, t32, RH);
	}
	struct cnum t64 = cnum_from_tnum(r->var_off, RW);
	if (!cnum_is_subset(t64, r->r64, RW))
		r->r64 = cnum_intersect(r->r64, t64, RW);
	collapse64(r);
}

/* deduce_bounds() in fewer steps: when the 64-bit arc is not empty and
 * has 2^H_BITS values or more, its narrowing is the full circle, which
 * leaves r32 as it is, and a full r32 leaves r64 as it is */
static inline bool deduce_bounds_fast(struct creg *r)
{
	if (r->r64.size < H_MASK) {
		/* a shorter arc narrows to its low halves, the same length:
		 * when that is r32, r32 stays and every value of r64 has its
		 * low half in r32, so r64 stays too */
		if (r->r32.size == r->r64.size && r->r32.base == (r->r64.base & H_MASK))
			return false;
		return deduce_bounds(r);
	}
	if (cnum_is_empty(r->r64, RW))
		return deduce_bounds(r);
	if (cnum_is_full(r->r32, RH))
		return false;
	struct cnum r64 = cnum_widen_intersect(r->r64, RW, r->r32, RH);
	bool changed = !cnum_equal(r64, r->r64);
	r->r64 = r64;
	return changed;
}

/* bound_offset() where an arc crosses the unsigned pole (the full arc
 * too): its unsigned range is then every value, whose tnum is unknown, and
 * intersecting with it keeps the tnum (with value & ~mask, as
 * tnum_intersect() returns it) */
static inline void bound_offset_fast(struct creg *r)
{
	struct tnum v64;
	if (crosses_umax(r->r64, RW))
		v64 = TNUM_C(r->var_off.value & ~r->var_off.mask, r->var_off.mask);
	else
		v64 = tnum_intersect(r->var_off, tnum_range(r->r64.base, r->r64.base + r->r64.size));
	if (crosses_umax(r->r32, RH)) {
		r->var_off = v64;
		return;
	}
	struct tnum v32 = tnum_intersect(tnum_subreg(v64), tnum_range(r->r32.base, r->r32.base + r->r32.size));
	r->var_off = tnum_or(tnum_clear_subreg(v64), v32);
}

/* creg_sync_ref() with the same results and less work
 * (test_cnum_fast.c compares the two at 8 bits):
 *   - a known constant and the unknown value return at once;
 *   - an unknown tnum (or an unknown low half) is not intersected with
 *     the arcs, and an arc within the tnum's arc is kept without an
 *     intersection (update_bounds_fast());
 *   - a short r64 whose low halves are r32 changes neither arc, and a
 *     long r64 is not narrowed (deduce_bounds_fast());
 *   - the tnum is not intersected with the unsigned range of an arc
 *     crossing the unsigned pole (bound_offset_fast());
 *   - one deduction, not two: on its own output the deduction changes
 *     nothing (test_cnum_fast checks this on every pair of arcs at 8
 *     bits);
 *   - the last __update_reg_bounds is skipped when neither the
 *     deduction nor __reg_bound_offset changed anything since the first:
 *     it would repeat the first on its own output, which changes nothing
 *     (an arc intersected with the tnum's arc again is the same arc, and
 *     the collapse test has the same answer). */
static inline __attribute__((always_inline)) void sync_fast(struct creg *r, bool updated)
{
	if (creg_violation(r) || creg_is_known_const(r) || creg_is_unknown(r))
		return;
	if (!updated)
		update_bounds_fast(r);
	bool changed = deduce_bounds_fast(r);
	struct tnum before = r->var_off;
	bound_offset_fast(r);
	if (!changed && tnum_equal(before, r->var_off))
		return;
	update_bounds_fast(r);
}

void creg_sync(struct creg *r)
{
	sync_fast(r, false);
}

/* creg_sync() of a register creg_update_bounds() has just left: its first
 * __update_reg_bounds would change nothing (the arcs intersected again
 * with the same arcs of the tnum stay, the collapse has the same answer),
 * and is skipped (test_cnum_fast compares it with creg_sync_ref()) */
void creg_sync_updated(struct creg *r)
{
	sync_fast(r, true);
}

/* mainline zext_32_to_64 */
void creg_zext(struct creg *r)
{
	r->var_off = tnum_subreg(r->var_off);
	reg_set_urange64(r, reg_u32_min(r), reg_u32_max(r));
}

static inline __attribute__((always_inline)) bool sync_low(struct creg *r);

/* creg_zext() then creg_sync(): through sync_low() when the 32-bit arc
 * neither wraps nor is empty and the tnum's bit H_BITS-1 is known (the
 * 64-bit arc is then the 32-bit one, read unsigned) */
void creg_zext_sync(struct creg *r)
{
	r->var_off = tnum_subreg(r->var_off);
	if (!(r->var_off.mask & cn_smin_bits(RH)) && !crosses_umax(r->r32, RH)) {
		r->r64 = r->r32;
		sync_low(r);
		return;
	}
	reg_set_urange64(r, reg_u32_min(r), reg_u32_max(r));
	creg_sync(r);
}

/* mainline coerce_reg_to_size: keep the low n bits, step by step (the
 * reference of creg_coerce()) */
static inline __attribute__((always_inline)) void coerce_ref(struct creg *r, unsigned size_bits)
{
	unsigned n = W_SCALE(size_bits);
	if (n >= W_BITS)
		return;
	uint64_t m = (UINT64_C(1) << n) - 1;

	r->var_off = tnum_cast_bits(r->var_off, n);
	if ((reg_umin(r) & ~m) == (reg_umax(r) & ~m))
		reg_set_urange64(r, reg_umin(r) & m, reg_umax(r) & m);
	else
		reg_set_urange64(r, 0, m);
	/* narrower than the subregister: the 32-bit arc is relearned from
	 * the 64-bit one */
	if (n < H_BITS)
		r->r32 = cnum_full(RH);
	creg_sync(r);
}

void creg_coerce_ref(struct creg *r, unsigned size_bits)
{
	coerce_ref(r, size_bits);
}

/* creg_sync() worked out for a register whose values are one interval
 * below 2^H_BITS: the tnum t has no bit at or above H_BITS and a known
 * bit H_BITS-1, the 64-bit arc is [lo, hi] within [0, H_MASK] (no wrap)
 * and the 32-bit arc full or the same interval. Such a register is what
 * coerce_reg_to_size leaves below the subregister, and what zext_32_to_64
 * leaves when the 32-bit arc does not wrap and t's bit H_BITS-1 is known.
 * Both arcs and both of the tnum's arcs (t's sign bit at H_BITS known:
 * its 32-bit arc is its unsigned range too) are then the same unsigned
 * interval, and mainline's reg_bounds_sync() comes to:
 *   1. r32 := r32 ∩ t's range [t.value, t.value | t.mask]; r64 := [a, b]
 *      = [lo, hi] ∩ t's range (two intervals: exact); the collapse on
 *      (t, r64);
 *   2. the deductions make r32 = [a, b] and change nothing else (r64 is
 *      within r32's interval, shorter than 2^H_BITS: its low halves are
 *      itself);
 *   3. __reg_bound_offset: t1 = t ∩ tnum_range(a, b), the same from
 *      either arc;
 *   4. __update_reg_bounds: both arcs [a, b] ∩ t1's range, the collapse.
 * Step 4 repeats step 1's outcome when t1 = t and the interval stays.
 * An empty [a, b] at step 1 (no value left: not met on a synced state)
 * goes through creg_sync(). test_cnum_fast compares the two.
 * True if another sync would leave the result as it is: a constant, or
 * t1 = t with the interval kept (the sync then repeats steps 1 to 4 on
 * their own output: t ∩ tnum_range(a, b) is t again). */
static inline __attribute__((always_inline)) bool sync_low(struct creg *r)
{
	const struct tnum t = r->var_off;
	const uint64_t lo = r->r64.base, hi = r->r64.base + r->r64.size;
	const uint64_t tmax = t.value | t.mask;
	/* the common case at once: [lo, hi] holds t's range, t (well formed)
	 * is not a constant. [a, b] is then t's range, with t's two ends in
	 * it (no collapse: both collapse tests say so first), and t1 = t */
	if (t.mask && !(t.value & t.mask) && lo <= t.value && tmax <= hi) {
		r->r64 = (struct cnum){t.value, t.mask};
		r->r32 = r->r64;
		return true;
	}
	/* a constant within [lo, hi]: [a, b] = [c, c], the register the
	 * constant c whether or not the collapse marks it so (as cheap as
	 * the sync's own test for a constant) */
	if (!t.mask && lo <= t.value && t.value <= hi) {
		r->r64 = (struct cnum){t.value, 0};
		r->r32 = r->r64;
		return true;
	}
	uint64_t a = lo > t.value ? lo : t.value, b = hi < tmax ? hi : tmax;
	if (a > b) {
		creg_sync(r);
		return false;
	}
	r->r64 = (struct cnum){a, b - a};
	r->r32 = r->r64;
	/* the collapse, through creg_update_bounds64() (its intersection
	 * keeps [a, b], which lies in t's range): a call of collapse64() here
	 * made GCC stop inlining it into the sync, +15 instructions per
	 * load32. The tnum known after it: the register became a constant
	 * (a constant t always does here: a = b = t.value), where the sync
	 * returns at once. */
	creg_update_bounds64(r);
	if (!r->var_off.mask)
		return true;
	const struct tnum t1 = tnum_intersect(t, tnum_range(a, b));
	const uint64_t a1 = a > t1.value ? a : t1.value, t1max = t1.value | t1.mask;
	const uint64_t b1 = b < t1max ? b : t1max;
	if (tnum_equal(t1, t) && a1 == a && b1 == b)
		return true;
	r->var_off = t1;
	if (a1 > b1) {
		r->r64 = cnum_empty(RW);
		r->r32 = cnum_empty(RH);
	} else {
		r->r64 = (struct cnum){a1, b1 - a1};
		r->r32 = r->r64;
	}
	creg_update_bounds64(r); /* the collapse, as above */
	return false;
}

/* creg_coerce_ref() narrower than the subregister: the tnum cast to n
 * bits, the 64-bit arc [lo, hi] within [0, 2^n - 1], the 32-bit arc full,
 * then sync_low() (every bit from n up is known 0) */
static __attribute__((noinline)) bool coerce_low(struct creg *r, unsigned n)
{
	const uint64_t m = (UINT64_C(1) << n) - 1;
	uint64_t lo = reg_umin(r), hi = reg_umax(r);
	if ((lo & ~m) != (hi & ~m)) {
		lo = 0;
		hi = m;
	} else {
		lo &= m;
		hi &= m;
	}
	r->var_off = tnum_cast_bits(r->var_off, n);
	r->r64 = (struct cnum){lo, hi - lo};
	r->r32 = cnum_full(RH);
	return sync_low(r);
}

bool creg_coerce_low(struct creg *r, unsigned size_bits)
{
	return coerce_low(r, W_SCALE(size_bits));
}

/* mainline coerce_reg_to_size: keep the low n bits (void: the sync of a
 * 32-bit load is a tail call) */
void creg_coerce(struct creg *r, unsigned size_bits)
{
	unsigned n = W_SCALE(size_bits);
	if (n < H_BITS) {
		coerce_low(r, n);
		return;
	}
	coerce_ref(r, size_bits);
}

/* mainline set_sext64_default_val */
static void sext64_default(struct creg *r, unsigned n)
{
	int64_t lo = -(INT64_C(1) << (n - 1)), hi = (INT64_C(1) << (n - 1)) - 1;
	reg_set_srange64(r, lo, hi);
	reg_set_srange32(r, lo, hi);
	r->var_off = TNUM_C(0, W_MASK); /* tnum_unknown(), inline */
}

/* mainline coerce_reg_to_size_sx: sign-extend the low n bits. The signed
 * range survives when the dropped high parts of smin and smax agree and
 * the extended ends have one sign. (Like mainline, no sync afterwards.) */
/* (always inline: in creg_coerce_sx_val() the register then stays in
 * machine registers from load to store; a load with sign extension and
 * MOVSX call it on every use) */
static inline __attribute__((always_inline)) void coerce_sx(struct creg *r, unsigned size_bits)
{
	unsigned n = W_SCALE(size_bits);
	if (n >= W_BITS)
		return;

	if (tnum_is_const(r->var_off)) {
		creg_known(r, wbits(sext_bits(r->var_off.value, n)));
		return;
	}
	/* As the old tracker does after Linux 6.18.44 (measured there): the
	 * result depends only on the low bits, so when the 32-bit arc does
	 * not cross the s32 boundary and fits the narrow signed type, sign
	 * extension leaves the subregister as it is and the 64-bit arc is
	 * the sign-extended 32-bit arc, of the same size. Keeping this in
	 * both trackers means old vs cnum measures the representation.
	 * Mainline's cnum does not do this: cnum-mainline skips it. */
#ifndef RB_CNUM_MAINLINE_ALGOS
	if (!cnum_is_empty(r->r32, RH)) {
		/* the arc does not cross the s32 boundary and lies in [nmin,
		 * nmax] iff its distance from nmin plus its size stays below
		 * 2^n (one test for the three) */
		uint64_t nmin_bits = (UINT64_C(0) - (UINT64_C(1) << (n - 1))) & H_MASK;
		if (n <= H_BITS &&
		    ((r->r32.base - nmin_bits) & H_MASK) + r->r32.size <= (UINT64_C(1) << n) - 1) {
			int64_t lo = hsext(r->r32.base), hi = hsext(r->r32.base + r->r32.size);
			r->r64 = cnum_from_srange(lo, hi, RW);
			r->var_off = TNUM_C(0, W_MASK); /* tnum_unknown(), inline */
			creg_sync(r);
			return;
		}
		/* from 32 bits the subregister never changes: keep its arc, the
		 * 64-bit values are the sign-extended 32-bit ones */
		if (n == H_BITS) {
			r->r64 = cnum_from_srange(H_SMIN, H_SMAX, RW);
			r->var_off = TNUM_C(0, W_MASK); /* tnum_unknown(), inline */
			creg_sync(r);
			return;
		}
	}
#endif

	uint64_t smax, smin;
	if (!cnum_is_empty(r->r64, RW)) {
		/* an arc crossing S_MAX -> S_MIN reads as the whole signed range,
		 * whose high parts differ; else base and end are smin and smax */
		smin = r->r64.base;
		smax = cnum_end(r->r64, RW);
		if (crosses_smax(r->r64, RW) || (smax >> n) != (smin >> n)) {
			sext64_default(r, n);
			return;
		}
	} else {
		smax = wbits(reg_smax(r));
		smin = wbits(reg_smin(r));
		if ((smax >> n) != (smin >> n)) {
			sext64_default(r, n);
			return;
		}
	}
	int64_t a = sext_bits(smax, n), b = sext_bits(smin, n);
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	if ((lo >= 0) == (hi >= 0)) {
		reg_set_srange64(r, lo, hi);
		reg_set_srange32(r, lo, hi);
		r->var_off = tnum_range(wbits(lo), wbits(hi));
		return;
	}
	sext64_default(r, n);
}

void creg_coerce_sx(struct creg *r, unsigned size_bits)
{
	coerce_sx(r, size_bits);
}

/* coerce_sx() on a stored value, unpacked and packed here (not inlined
 * into creg_coerce_sx_val(): its fast paths then need no saved registers) */
static __attribute__((noinline)) void coerce_sx_val(rb_val *dst, const rb_val *src, unsigned size_bits)
{
	struct creg r = creg_load(src);
	coerce_sx(&r, size_bits);
	creg_store(dst, &r);
}

/* coerce_sx() on a stored value, for one narrow width n = W_SCALE(size_bits)
 * < H_BITS (a constant at each call below). The outcome of most sign extensions, the
 * default range of the narrow type, is decided on the stored words
 * without unpacking: not a constant, the 32-bit arc not empty and not
 * within [nmin, nmax] (the test of coerce_sx()), and the 64-bit arc not
 * empty and running past the end of its aligned block of 2^n values (for
 * a non-empty arc this is coerce_sx()'s "crosses S_MAX -> S_MIN or the
 * high parts of its ends differ": an arc within one block has equal high
 * parts and cannot hold S_MAX and S_MIN, which lie in two blocks; one
 * leaving its block either ends in another block or, having gone round
 * the circle back into it, holds S_MAX and S_MIN). The default is then
 * stored as constants: r64 and r32 the arc [nmin, nmax], var_off
 * unknown (sext64_default()). A constant becomes the constant extended
 * (creg_known()). Everything else goes through coerce_sx(). */
static inline __attribute__((always_inline)) void coerce_sx_narrow_val(rb_val *dst, const rb_val *src,
									unsigned size_bits)
{
	const unsigned n = W_SCALE(size_bits);
	const uint64_t nm = (UINT64_C(1) << n) - 1;
	const uint64_t nmin_bits = (UINT64_C(0) - (UINT64_C(1) << (n - 1)));
	const uint64_t b64 = src->w[2], s64 = src->w[3], w4 = src->w[4];
	const uint64_t b32 = w4 & 0xffffffffu, s32 = w4 >> 32;
	if (src->w[1] == 0) { /* a constant: creg_known() of its extension */
		const uint64_t c = wbits(sext_bits(src->w[0], n));
		dst->w[0] = c;
		dst->w[1] = 0;
		dst->w[2] = c;
		dst->w[3] = 0;
		dst->w[4] = c & H_MASK;
		return;
	}
	if (!(b32 == H_MASK && s32 == H_MASK) &&
	    ((b32 - nmin_bits) & H_MASK) + s32 > nm && !(b64 == W_MASK && s64 == W_MASK) &&
	    s64 > nm - (b64 & nm)) {
		dst->w[0] = 0;
		dst->w[1] = W_MASK;
		dst->w[2] = nmin_bits & W_MASK;
		dst->w[3] = nm;
		dst->w[4] = (nmin_bits & H_MASK) | (nm << 32);
		return;
	}
	coerce_sx_val(dst, src, size_bits);
}

void creg_coerce_sx_val(rb_val *dst, const rb_val *src, unsigned size_bits)
{
	switch (size_bits) {
	case 8:
		coerce_sx_narrow_val(dst, src, 8);
		return;
	case 16:
		coerce_sx_narrow_val(dst, src, 16);
		return;
	default:
		coerce_sx_val(dst, src, size_bits);
		return;
	}
}

/* coerce_low() on a stored value, for one width n = W_SCALE(size_bits) <
 * H_BITS (a constant at each call below), where its outcome is decided on
 * the stored words without unpacking: t (the tnum cast to n bits) not a
 * constant, well formed, with its range within [lo, hi] (coerce_low()'s
 * first shortcut: var_off t, both arcs t's range), or t a constant c
 * within [lo, hi] ([a, b] = [c, c]: the register is the constant c,
 * whether or not the collapse marks it so). False, the value untouched,
 * otherwise. */
static inline __attribute__((always_inline)) bool coerce_low_val(rb_val *v, unsigned size_bits)
{
	const unsigned n = W_SCALE(size_bits);
	const uint64_t m = (UINT64_C(1) << n) - 1;
	const uint64_t tv = v->w[0] & m, tm = v->w[1] & m, base = v->w[2], size = v->w[3];
	const uint64_t end = (base + size) & W_MASK;
	/* [lo, hi] as coerce_low() has it: the arc's unsigned range (every
	 * value if it crosses 2^W_BITS-1 -> 0) cut to n bits. An arc
	 * crossing 2^W_BITS-1 -> 0 needs no test of its own: its base and end
	 * lie in different blocks of 2^n values (then [0, 2^n - 1], as for
	 * the unsigned range of every value) or in one block with the end
	 * below the base (then lo > hi, and the shortcut is not taken) */
	uint64_t lo = 0, hi = m;
	if ((base & ~m) == (end & ~m)) {
		lo = base & m;
		hi = end & m;
	}
	if (tv & tm || lo > tv || (tv | tm) > hi)
		return false;
	v->w[0] = tv;
	v->w[1] = tm;
	v->w[2] = tv;
	v->w[3] = tm;
	v->w[4] = tv | (tm << 32);
	return true;
}

void creg_coerce_val(rb_val *v, unsigned size_bits)
{
	switch (size_bits) {
	case 8:
		if (coerce_low_val(v, 8))
			return;
		break;
	case 16:
		if (coerce_low_val(v, 16))
			return;
		break;
	default:
		break;
	}
	struct creg r = creg_load(v);
	creg_coerce(&r, size_bits);
	creg_store(v, &r);
}

/* mainline set_sext32_default_val */
static void sext32_default(struct creg *r, unsigned n)
{
	reg_set_srange32(r, -(INT64_C(1) << (n - 1)), (INT64_C(1) << (n - 1)) - 1);
	r->var_off = TNUM_C(0, H_MASK); /* tnum_subreg(tnum_unknown()) */
}

/* mainline coerce_subreg_to_size_sx: the same on the subregister */
void creg_coerce_subreg_sx(struct creg *r, unsigned size_bits)
{
	unsigned n = W_SCALE(size_bits);
	if (n >= H_BITS)
		return;

	if (tnum_is_const(r->var_off)) {
		uint64_t c = wbits(sext_bits(r->var_off.value, n));
		r->var_off = tnum_const(c);
		r->r32 = cnum_const(c, RH);
		return;
	}
	uint64_t smax = hbits(reg_s32_max(r)), smin = hbits(reg_s32_min(r));
	if ((smax >> n) != (smin >> n)) {
		sext32_default(r, n);
		return;
	}
	int64_t a = sext_bits(smax, n), b = sext_bits(smin, n);
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	if ((lo >= 0) == (hi >= 0)) {
		reg_set_srange32(r, lo, hi);
		r->var_off = tnum_subreg(tnum_range(wbits(lo), wbits(hi)));
		return;
	}
	sext32_default(r, n);
}
