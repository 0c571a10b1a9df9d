/* old/alu.c — ALU transfer functions of the old tracker, as Linux 6.18
 * computes them for scalars (kernel/bpf/verifier.c: check_alu_op,
 * adjust_scalar_min_max_vals, is_safe_to_compute_dst_reg_range, the
 * scalar{32,}_min_max_* helpers, coerce_reg_to_size{,_sx},
 * coerce_subreg_to_size_sx, zext_32_to_64).
 *
 * "6.18" here is the running 6.18.44 stable kernel, which carries several
 * 2026 mainline verifier changes; each is marked where it matters.
 * Per operation, 6.18 does:
 *   ADD, SUB, MUL, AND, OR, XOR  32- and 64-bit bounds plus tnum
 *                                 (AND/OR of a constant into s[-1, 0]:
 *                                 the kernel forks the path, see below);
 *   NEG                           0 - dst with the SUB rules;
 *   LSH, RSH, ARSH                only for a constant shift < bit width,
 *                                 otherwise the result is unknown;
 *   DIV, MOD (incl. signed)       result unknown (6.18 does not track them);
 *   END/BSWAP                     exact on var_off, bounds rebuilt (6.18
 *                                 stable has mainline's 2026 tracking);
 *   MOV                           copy (32-bit: zero-extend + sync);
 *   MOVSX                         coerce_reg_to_size_sx (from the s32
 *                                 range when it fits, else from the s64
 *                                 range) / coerce_subreg_to_size_sx.
 * ALU32 results are zero-extended and every result is synced.
 * Where the kernel marks a register unknown for a 32-bit operation it
 * does so for the full register (no zero-extension): reproduced here.
 *
 * Not reproduced: 6.18.44's maybe_fork_scalars(). For AND/OR with a
 * constant source (full var_off constant) and a destination whose s64
 * range is exactly [-1, 0] (else whose s32 range is), the kernel splits
 * the path: it continues with the destination -1 and pushes a path that
 * re-executes the instruction with it 0. That is a path split, the
 * engine's business; a single abstract value here computes the ordinary
 * AND/OR of the whole range (covering both paths' results).
 *
 * Width-generic: "64" is W_BITS, "32" is H_BITS.
 */
#include <linux/bpf.h>

#include "tracker/old/repr.h"

/* ---------- narrowing (loads, fills, MOVSX) ---------- */

void old_coerce_to_size(struct old_reg *r, unsigned nbytes)
{
	unsigned n = W_SCALE(nbytes * 8);
	if (n >= W_BITS)
		return;
	uint64_t mask = (UINT64_C(1) << n) - 1;

	r->var_off = tnum_cast_bits(r->var_off, n);
	if ((r->umin & ~mask) == (r->umax & ~mask)) {
		r->umin &= mask;
		r->umax &= mask;
	} else {
		r->umin = 0;
		r->umax = mask;
	}
	r->smin = (int64_t)r->umin;
	r->smax = (int64_t)r->umax;
	/* narrower than the subregister: its bounds were truncated too */
	if (n < H_BITS)
		old_mark_unbounded32(r);
	old_bounds_sync(r);
}

static int64_t sext_n(uint64_t x, unsigned n) { return sext_bits(x, n); }

void old_coerce_to_size_sx(struct old_reg *r, unsigned nbytes)
{
	unsigned n = W_SCALE(nbytes * 8);
	if (n >= W_BITS)
		return;

	if (tnum_is_const(r->var_off)) {
		uint64_t c = wbits(sext_n(r->var_off.value, n));
		r->var_off = tnum_const(c);
		r->smin = r->smax = wsext(c);
		r->umin = r->umax = c;
		set_s32(&r->s32_min, hsext(c));
		set_s32(&r->s32_max, hsext(c));
		set_u32(&r->u32_min, c);
		set_u32(&r->u32_max, c);
		return;
	}

	/* (6.18.44, as measured) The result depends only on the low 32
	 * bits: when the s32 range already fits the narrow signed type,
	 * sign extension changes nothing there, so the s64 range is the s32
	 * range and the subregister bounds stay; var_off and the unsigned
	 * range are rebuilt by a sync. Always the case from 32 bits. */
	int64_t nmin = -(INT64_C(1) << (n - 1)), nmax = (INT64_C(1) << (n - 1)) - 1;
	if (r->s32_min >= nmin && r->s32_max <= nmax) {
		r->smin = r->s32_min;
		r->smax = r->s32_max;
		r->umin = 0;
		r->umax = W_UMAX;
		r->var_off = tnum_unknown();
		old_bounds_sync(r);
		return;
	}

	/* the bits above the narrowed part must agree on the whole range */
	uint64_t top_max = (wbits(r->smax) >> n) << n;
	uint64_t top_min = (wbits(r->smin) >> n) << n;
	if (top_max == top_min) {
		int64_t a = sext_n(wbits(r->smax), n), b = sext_n(wbits(r->smin), n);
		int64_t hi = smax64(a, b), lo = smin64(a, b);
		if ((hi >= 0) == (lo >= 0)) {
			r->smin = lo;
			r->smax = hi;
			set_s32(&r->s32_min, lo);
			set_s32(&r->s32_max, hi);
			set_u32(&r->u32_min, wbits(lo));
			set_u32(&r->u32_max, wbits(hi));
			r->umin = wbits(lo);
			r->umax = wbits(hi);
			r->var_off = tnum_range(wbits(lo), wbits(hi));
			return;
		}
	}
	/* the whole range of the narrow signed type (n < H_BITS here) */
	r->smin = nmin;
	r->smax = nmax;
	set_s32(&r->s32_min, nmin);
	set_s32(&r->s32_max, nmax);
	r->umin = 0;
	r->u32_min = 0;
	r->umax = W_UMAX;
	r->u32_max = (uint32_t)H_UMAX;
	r->var_off = tnum_unknown();
}

void old_coerce_subreg_to_size_sx(struct old_reg *r, unsigned nbytes)
{
	unsigned n = W_SCALE(nbytes * 8);
	if (n >= H_BITS)
		return;

	if (tnum_is_const(r->var_off)) {
		/* (the kernel tests the full var_off, then sign-extends the
		 * low part into a full-width constant) */
		uint64_t c = wbits(sext_n(r->var_off.value, n));
		r->var_off = tnum_const(c);
		set_s32(&r->s32_min, hsext(c));
		set_s32(&r->s32_max, hsext(c));
		set_u32(&r->u32_min, c);
		set_u32(&r->u32_max, c);
		return;
	}

	uint64_t top_max = (hbits(r->s32_max) >> n) << n;
	uint64_t top_min = (hbits(r->s32_min) >> n) << n;
	if (top_max == top_min) {
		int64_t a = sext_n(hbits(r->s32_max), n), b = sext_n(hbits(r->s32_min), n);
		int64_t hi = smax64(a, b), lo = smin64(a, b);
		if ((hi >= 0) == (lo >= 0)) {
			set_s32(&r->s32_min, lo);
			set_s32(&r->s32_max, hi);
			set_u32(&r->u32_min, hbits(lo));
			set_u32(&r->u32_max, hbits(hi));
			r->var_off = tnum_subreg(tnum_range(wbits(lo), wbits(hi)));
			return;
		}
	}
	set_s32(&r->s32_min, -(INT64_C(1) << (n - 1)));
	set_s32(&r->s32_max, (INT64_C(1) << (n - 1)) - 1);
	r->u32_min = 0;
	r->u32_max = (uint32_t)H_UMAX;
	r->var_off = tnum_subreg(tnum_unknown());
}

/* ---------- per-operation bounds ---------- */

static void add32(struct old_reg *d, const struct old_reg *s)
{
	int64_t a, b;
	uint64_t lo, hi;
	if (h_sadd_ov(d->s32_min, s->s32_min, &a) || h_sadd_ov(d->s32_max, s->s32_max, &b)) {
		a = H_SMIN;
		b = H_SMAX;
	}
	set_s32(&d->s32_min, a);
	set_s32(&d->s32_max, b);
	/* all additions wrap or none do: the wrapped bounds stay valid */
	bool min_ov = h_uadd_ov(d->u32_min, s->u32_min, &lo);
	bool max_ov = h_uadd_ov(d->u32_max, s->u32_max, &hi);
	if (!min_ov && max_ov) {
		lo = 0;
		hi = H_UMAX;
	}
	set_u32(&d->u32_min, lo);
	set_u32(&d->u32_max, hi);
}

static void add64(struct old_reg *d, const struct old_reg *s)
{
	int64_t a, b;
	uint64_t lo, hi;
	if (w_sadd_ov(d->smin, s->smin, &a) || w_sadd_ov(d->smax, s->smax, &b)) {
		a = W_SMIN;
		b = W_SMAX;
	}
	d->smin = a;
	d->smax = b;
	bool min_ov = w_uadd_ov(d->umin, s->umin, &lo);
	bool max_ov = w_uadd_ov(d->umax, s->umax, &hi);
	if (!min_ov && max_ov) {
		lo = 0;
		hi = W_UMAX;
	}
	d->umin = lo;
	d->umax = hi;
}

static void sub32(struct old_reg *d, const struct old_reg *s)
{
	int64_t a, b;
	uint64_t lo, hi;
	if (h_ssub_ov(d->s32_min, s->s32_max, &a) || h_ssub_ov(d->s32_max, s->s32_min, &b)) {
		a = H_SMIN;
		b = H_SMAX;
	}
	set_s32(&d->s32_min, a);
	set_s32(&d->s32_max, b);
	/* all subtractions wrap or none do: the wrapped bounds stay valid */
	bool min_uf = h_usub_ov(d->u32_min, s->u32_max, &lo);
	bool max_uf = h_usub_ov(d->u32_max, s->u32_min, &hi);
	if (min_uf && !max_uf) {
		lo = 0;
		hi = H_UMAX;
	}
	set_u32(&d->u32_min, lo);
	set_u32(&d->u32_max, hi);
}

static void sub64(struct old_reg *d, const struct old_reg *s)
{
	int64_t a, b;
	uint64_t lo, hi;
	if (w_ssub_ov(d->smin, s->smax, &a) || w_ssub_ov(d->smax, s->smin, &b)) {
		a = W_SMIN;
		b = W_SMAX;
	}
	d->smin = a;
	d->smax = b;
	bool min_uf = w_usub_ov(d->umin, s->umax, &lo);
	bool max_uf = w_usub_ov(d->umax, s->umin, &hi);
	if (min_uf && !max_uf) {
		lo = 0;
		hi = W_UMAX;
	}
	d->umin = lo;
	d->umax = hi;
}

static int64_t min4(const int64_t p[4])
{
	return smin64(smin64(p[0], p[1]), smin64(p[2], p[3]));
}
static int64_t max4(const int64_t p[4])
{
	return smax64(smax64(p[0], p[1]), smax64(p[2], p[3]));
}

static void mul32(struct old_reg *d, const struct old_reg *s)
{
	uint64_t lo, hi;
	int64_t p[4];
	if (h_umul_ov(d->u32_max, s->u32_max, &hi) || h_umul_ov(d->u32_min, s->u32_min, &lo)) {
		lo = 0;
		hi = H_UMAX;
	}
	set_u32(&d->u32_min, lo);
	set_u32(&d->u32_max, hi);
	if (h_smul_ov(d->s32_min, s->s32_min, &p[0]) || h_smul_ov(d->s32_min, s->s32_max, &p[1]) ||
	    h_smul_ov(d->s32_max, s->s32_min, &p[2]) || h_smul_ov(d->s32_max, s->s32_max, &p[3])) {
		set_s32(&d->s32_min, H_SMIN);
		set_s32(&d->s32_max, H_SMAX);
	} else {
		set_s32(&d->s32_min, min4(p));
		set_s32(&d->s32_max, max4(p));
	}
}

static void mul64(struct old_reg *d, const struct old_reg *s)
{
	uint64_t lo, hi;
	int64_t p[4];
	if (w_umul_ov(d->umax, s->umax, &hi) || w_umul_ov(d->umin, s->umin, &lo)) {
		lo = 0;
		hi = W_UMAX;
	}
	d->umin = lo;
	d->umax = hi;
	if (w_smul_ov(d->smin, s->smin, &p[0]) || w_smul_ov(d->smin, s->smax, &p[1]) ||
	    w_smul_ov(d->smax, s->smin, &p[2]) || w_smul_ov(d->smax, s->smax, &p[3])) {
		d->smin = W_SMIN;
		d->smax = W_SMAX;
	} else {
		d->smin = min4(p);
		d->smax = max4(p);
	}
}

/* s32 bounds from u32 bounds when they do not cross the sign boundary */
static void s32_from_u32(struct old_reg *d)
{
	if (hsext(d->u32_min) <= hsext(d->u32_max)) {
		set_s32(&d->s32_min, hsext(d->u32_min));
		set_s32(&d->s32_max, hsext(d->u32_max));
	} else {
		set_s32(&d->s32_min, H_SMIN);
		set_s32(&d->s32_max, H_SMAX);
	}
}
static void s64_from_u64(struct old_reg *d)
{
	if (wsext(d->umin) <= wsext(d->umax)) {
		d->smin = wsext(d->umin);
		d->smax = wsext(d->umax);
	} else {
		d->smin = W_SMIN;
		d->smax = W_SMAX;
	}
}

/* AND/OR/XOR: var_off already holds the result tnum */
static void and32(struct old_reg *d, const struct old_reg *s)
{
	struct tnum t = tnum_subreg(d->var_off);
	if (tnum_is_const(tnum_subreg(s->var_off)) && tnum_is_const(t)) {
		old_mark_known32(d, t.value);
		return;
	}
	/* minimum from the bits, maximum the smaller operand maximum */
	set_u32(&d->u32_min, t.value);
	set_u32(&d->u32_max, umin64(d->u32_max, s->u32_max));
	s32_from_u32(d);
}

static void and64(struct old_reg *d, const struct old_reg *s)
{
	if (tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		old_mark_known(d, d->var_off.value);
		return;
	}
	d->umin = d->var_off.value;
	d->umax = umin64(d->umax, s->umax);
	s64_from_u64(d);
	old_update_bounds(d);
}

static void or32(struct old_reg *d, const struct old_reg *s)
{
	struct tnum t = tnum_subreg(d->var_off);
	if (tnum_is_const(tnum_subreg(s->var_off)) && tnum_is_const(t)) {
		old_mark_known32(d, t.value);
		return;
	}
	/* maximum from the bits, minimum the larger operand minimum */
	set_u32(&d->u32_min, umax64(d->u32_min, s->u32_min));
	set_u32(&d->u32_max, t.value | t.mask);
	s32_from_u32(d);
}

static void or64(struct old_reg *d, const struct old_reg *s)
{
	if (tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		old_mark_known(d, d->var_off.value);
		return;
	}
	d->umin = umax64(d->umin, s->umin);
	d->umax = d->var_off.value | d->var_off.mask;
	s64_from_u64(d);
	old_update_bounds(d);
}

static void xor32(struct old_reg *d, const struct old_reg *s)
{
	struct tnum t = tnum_subreg(d->var_off);
	if (tnum_is_const(tnum_subreg(s->var_off)) && tnum_is_const(t)) {
		old_mark_known32(d, t.value);
		return;
	}
	set_u32(&d->u32_min, t.value);
	set_u32(&d->u32_max, t.value | t.mask);
	s32_from_u32(d);
}

static void xor64(struct old_reg *d, const struct old_reg *s)
{
	if (tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		old_mark_known(d, d->var_off.value);
		return;
	}
	d->umin = d->var_off.value;
	d->umax = d->var_off.value | d->var_off.mask;
	s64_from_u64(d);
	old_update_bounds(d);
}

/* shifts: the amount is a known constant below the operation width */
static void lsh32_bounds(struct old_reg *d, uint64_t smin_amt, uint64_t smax_amt)
{
	/* sign information is lost (except what var_off tells) */
	set_s32(&d->s32_min, H_SMIN);
	set_s32(&d->s32_max, H_SMAX);
	/* if the top bit might be shifted out we know nothing */
	if (smax_amt > H_BITS - 1 || d->u32_max > (UINT64_C(1) << (H_BITS - 1 - smax_amt))) {
		d->u32_min = 0;
		d->u32_max = (uint32_t)H_UMAX;
	} else {
		set_u32(&d->u32_min, (uint64_t)d->u32_min << smin_amt);
		set_u32(&d->u32_max, (uint64_t)d->u32_max << smax_amt);
	}
}

static void lsh32(struct old_reg *d, const struct old_reg *s)
{
	struct tnum sub = tnum_subreg(d->var_off);
	lsh32_bounds(d, s->u32_min, s->u32_max);
	d->var_off = tnum_subreg(tnum_lshift(sub, s->u32_min));
	old_mark_unbounded64(d);
	old_update_bounds32(d);
}

static void lsh64(struct old_reg *d, const struct old_reg *s)
{
	uint64_t amin = s->umin, amax = s->umax;
	/* <<32 (then s>>32) is how compilers sign-extend a subregister:
	 * shifting by exactly 32 maps the s32 range monotonically onto the
	 * s64 range (6.18.44, measured: negative s32 bounds too) */
	if (amin == H_BITS && amax == H_BITS) {
		d->smax = wsext((uint64_t)(int64_t)d->s32_max << H_BITS);
		d->smin = wsext((uint64_t)(int64_t)d->s32_min << H_BITS);
	} else {
		d->smax = W_SMAX;
		d->smin = W_SMIN;
	}
	if (d->umax > (UINT64_C(1) << (W_BITS - 1 - amax))) {
		d->umin = 0;
		d->umax = W_UMAX;
	} else {
		d->umin = wtrunc(d->umin << amin);
		d->umax = wtrunc(d->umax << amax);
	}
	lsh32_bounds(d, amin, amax);
	d->var_off = tnum_lshift(d->var_off, (unsigned)amin);
	old_update_bounds(d);
}

static void rsh32(struct old_reg *d, const struct old_reg *s)
{
	struct tnum sub = tnum_subreg(d->var_off);
	uint64_t amin = s->u32_min, amax = s->u32_max;
	/* signed bounds are rebuilt from the unsigned ones and var_off */
	set_s32(&d->s32_min, H_SMIN);
	set_s32(&d->s32_max, H_SMAX);
	d->var_off = tnum_rshift(sub, (unsigned)amin);
	d->u32_min = (uint32_t)(d->u32_min >> amax);
	d->u32_max = (uint32_t)(d->u32_max >> amin);
	old_mark_unbounded64(d);
	old_update_bounds32(d);
}

static void rsh64(struct old_reg *d, const struct old_reg *s)
{
	uint64_t amin = s->umin, amax = s->umax;
	d->smin = W_SMIN;
	d->smax = W_SMAX;
	d->var_off = tnum_rshift(d->var_off, (unsigned)amin);
	d->umin >>= amax;
	d->umax >>= amin;
	/* subregister bounds depend on the bits shifted in: rebuilt from var_off */
	old_mark_unbounded32(d);
	old_update_bounds(d);
}

static void arsh32(struct old_reg *d, const struct old_reg *s)
{
	unsigned amt = (unsigned)s->u32_min;
	set_s32(&d->s32_min, (int64_t)d->s32_min >> amt);
	set_s32(&d->s32_max, (int64_t)d->s32_max >> amt);
	d->var_off = tnum_arshift(tnum_subreg(d->var_off), amt, H_BITS);
	/* unsigned bounds are rebuilt from var_off */
	d->u32_min = 0;
	d->u32_max = (uint32_t)H_UMAX;
	old_mark_unbounded64(d);
	old_update_bounds32(d);
}

static void arsh64(struct old_reg *d, const struct old_reg *s)
{
	unsigned amt = (unsigned)s->umin;
	d->smin >>= amt;
	d->smax >>= amt;
	d->var_off = tnum_arshift(d->var_off, amt, W_BITS);
	d->umin = 0;
	d->umax = W_UMAX;
	old_mark_unbounded32(d);
	old_update_bounds(d);
}

/* scalar_byte_swap() (in 6.18 stable, taken from mainline in 2026): the
 * swap is exact on var_off, the bounds are rebuilt from it; 16- and
 * 32-bit forms then narrow like a load of that size. ALU64|END always
 * swaps; ALU|END swaps for TO_BE only (this is a little-endian machine)
 * and is otherwise a plain narrowing (or nothing, for 64 bits). There is
 * no zero-extension afterwards, even for the ALU class. */
static void byte_swap(struct old_reg *d, const struct rb_alu *op)
{
	bool swap = BPF_CLASS(op->code) == BPF_ALU64 || BPF_SRC(op->code) == BPF_TO_BE;
	unsigned bits = (unsigned)op->imm;

	if (swap) {
		d->var_off = tnum_bswap(d->var_off, bits / 8);
		old_mark_unbounded(d);
	}
	if (bits == 16 || bits == 32)
		old_coerce_to_size(d, bits / 8);
}

/* ---------- dispatch ---------- */

/* is_safe_to_compute_dst_reg_range() of 6.18 */
static bool safe_to_compute(uint8_t op, const struct old_reg *s, bool alu32)
{
	bool src_const;
	unsigned bitness = alu32 ? H_BITS : W_BITS;

	if (alu32)
		src_const = tnum_is_const(tnum_subreg(s->var_off)) && s->s32_min == s->s32_max &&
			    s->u32_min == s->u32_max;
	else
		src_const = tnum_is_const(s->var_off) && s->smin == s->smax && s->umin == s->umax;

	switch (op) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_NEG:
	case BPF_AND:
	case BPF_XOR:
	case BPF_OR:
	case BPF_MUL:
		return true;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		/* (the amount's full-width umax, even for ALU32) */
		return src_const && s->umax < bitness;
	default:
		return false;
	}
}

/* adjust_scalar_min_max_vals() */
static void scalar_alu(struct old_reg *d, const struct old_reg *s, uint8_t op, bool alu32)
{
	if (!safe_to_compute(op, s, alu32)) {
		old_mark_unknown(d);
		return;
	}

	switch (op) {
	case BPF_ADD:
		add32(d, s);
		add64(d, s);
		d->var_off = tnum_add(d->var_off, s->var_off);
		break;
	case BPF_SUB:
		sub32(d, s);
		sub64(d, s);
		d->var_off = tnum_sub(d->var_off, s->var_off);
		break;
	case BPF_NEG: {
		/* 0 - dst with the subtraction rules */
		struct old_reg v = *d;
		old_mark_known(d, 0);
		sub32(d, &v);
		sub64(d, &v);
		d->var_off = tnum_neg(v.var_off);
		break;
	}
	case BPF_MUL:
		d->var_off = tnum_mul(d->var_off, s->var_off);
		mul32(d, s);
		mul64(d, s);
		break;
	case BPF_AND:
		d->var_off = tnum_and(d->var_off, s->var_off);
		and32(d, s);
		and64(d, s);
		break;
	case BPF_OR:
		d->var_off = tnum_or(d->var_off, s->var_off);
		or32(d, s);
		or64(d, s);
		break;
	case BPF_XOR:
		d->var_off = tnum_xor(d->var_off, s->var_off);
		xor32(d, s);
		xor64(d, s);
		break;
	case BPF_LSH:
		if (alu32)
			lsh32(d, s);
		else
			lsh64(d, s);
		break;
	case BPF_RSH:
		if (alu32)
			rsh32(d, s);
		else
			rsh64(d, s);
		break;
	case BPF_ARSH:
		if (alu32)
			arsh32(d, s);
		else
			arsh64(d, s);
		break;
	default:
		break;
	}

	if (alu32)
		old_zext_32_to_64(d);
	old_bounds_sync(d);
}

/* check_alu_op() for a scalar destination and a scalar source */
void old_alu(struct old_reg *dst, const struct old_reg *src_in, const struct rb_alu *op)
{
	const struct old_reg src = *src_in; /* dst and src may be the same register */
	const uint8_t code = BPF_OP(op->code);
	const bool alu32 = BPF_CLASS(op->code) != BPF_ALU64;

	switch (code) {
	case BPF_MOV:
		if (!alu32) {
			*dst = src;
			if (op->off == 8 || op->off == 16 || op->off == 32)
				old_coerce_to_size_sx(dst, (unsigned)op->off / 8);
			return;
		}
		*dst = src;
		if (op->off == 8 || op->off == 16)
			old_coerce_subreg_to_size_sx(dst, (unsigned)op->off / 8);
		old_zext_32_to_64(dst);
		old_bounds_sync(dst);
		return;
	case BPF_END:
		byte_swap(dst, op);
		old_bounds_sync(dst);
		return;
	default:
		scalar_alu(dst, &src, code, alu32);
		return;
	}
}
