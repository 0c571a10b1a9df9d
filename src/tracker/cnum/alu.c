/* alu.c — ALU transfer functions of the cnum tracker.
 *
 * Follows mainline Linux (2026) kernel/bpf/verifier.c after the cnum
 * conversion: adjust_scalar_min_max_vals() and its scalar[32]_min_max_*()
 * helpers, scalar_byte_swap(), and check_alu_op()'s MOV/MOVSX cases.
 * ADD, SUB and NEG work on the arcs directly (cnum_add / cnum_neg); every
 * other operation goes through the unsigned/signed conversions or the
 * tnum, exactly where mainline does. Mainline's maybe_fork_scalars()
 * (AND/OR of a {-1, 0} register forks the verifier state) is engine-level
 * and not reproduced: a single abstract value cannot fork.
 *
 * Note: DIV/MOD by a constant (scalar*_min_max_[us]div/[us]mod) and the
 * refine-both-outcomes step of branch_taken (simulate_both_branches_taken)
 * are mainline algorithms newer than Linux 6.18 that are not specific to
 * cnums; 6.18 (the old tracker) marks DIV/MOD results unknown. They are
 * compiled only into the "cnum-mainline" build (RB_CNUM_MAINLINE_ALGOS,
 * see variant.h), so that the "cnum" tracker differs from the old one only
 * by its representation (the engine around both follows 6.18 too). The
 * single-value collapse (tnum_step) is in 6.18.44 and in both builds.
 */
#include <linux/bpf.h>

#include "tracker/cnum/reg.h"

#define H_SMIN_BITS cn_smin_bits(RH)

/* is the source a known constant at the operation's width? */
static inline bool src_is_const(const struct creg *src, bool alu32)
{
	if (alu32)
		return tnum_is_const(tnum_subreg(src->var_off)) && reg_s32_min(src) == reg_s32_max(src) &&
		       reg_u32_min(src) == reg_u32_max(src);
	return tnum_is_const(src->var_off) && reg_smin(src) == reg_smax(src) && reg_umin(src) == reg_umax(src);
}

/* mainline is_safe_to_compute_dst_reg_range (the source's constness is
 * computed only for the operations that ask) */
static bool safe_to_compute(const struct rb_alu *op, const struct creg *src, bool alu32)
{
	unsigned bitness = alu32 ? H_BITS : W_BITS;

	switch (BPF_OP(op->code)) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_NEG:
	case BPF_AND:
	case BPF_XOR:
	case BPF_OR:
	case BPF_MUL:
	case BPF_END:
		return true;
	case BPF_DIV:
	case BPF_MOD:
#ifdef RB_CNUM_MAINLINE_ALGOS
		return src_is_const(src, alu32);
#else
		return false;
#endif
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		return src_is_const(src, alu32) && reg_umax(src) < bitness;
	default:
		return false;
	}
}

/* mainline __mark_reg32_known */
static void mark32_known(struct creg *r, uint64_t c)
{
	r->var_off = tnum_const_subreg(r->var_off, c);
	r->r32 = cnum_const(c, RH);
}

/* ---- division and modulo by a non-zero constant (mainline
 * scalar[32]_min_max_{udiv,sdiv,umod,smod}); each resets what it does
 * not compute (mainline reset_reg{64,32}_and_tnum) */

static void reset64_and_tnum(struct creg *r)
{
	r->r64 = cnum_full(RW);
	r->var_off = tnum_unknown();
}

static void reset32_and_tnum(struct creg *r)
{
	r->r32 = cnum_full(RH);
	r->var_off = tnum_unknown();
}

static void udiv(struct creg *d, const struct creg *s, bool alu32)
{
	if (alu32) {
		uint64_t v = reg_u32_min(s);
		reg_set_urange32(d, reg_u32_min(d) / v, reg_u32_max(d) / v);
		reset64_and_tnum(d);
	} else {
		uint64_t v = reg_umin(s);
		reg_set_urange64(d, reg_umin(d) / v, reg_umax(d) / v);
		reset32_and_tnum(d);
	}
}

/* x / v is monotone in x for a fixed v, so the ends of the signed range
 * give the result's ends; MIN / -1 == MIN in BPF */
static void sdiv_range(int64_t *lo, int64_t *hi, int64_t v, int64_t smin, int64_t smax)
{
	if (*lo == smin && v == -1) {
		if (*hi != smin) {
			*lo = smin;
			*hi = smax;
		}
		return;
	}
	int64_t a = *lo / v, b = *hi / v;
	*lo = a < b ? a : b;
	*hi = a < b ? b : a;
}

static void sdiv(struct creg *d, const struct creg *s, bool alu32)
{
	if (alu32) {
		int64_t lo = reg_s32_min(d), hi = reg_s32_max(d);
		sdiv_range(&lo, &hi, reg_s32_min(s), H_SMIN, H_SMAX);
		reg_set_srange32(d, lo, hi);
		reset64_and_tnum(d);
	} else {
		int64_t lo = reg_smin(d), hi = reg_smax(d);
		sdiv_range(&lo, &hi, reg_smin(s), W_SMIN, W_SMAX);
		reg_set_srange64(d, lo, hi);
		reset32_and_tnum(d);
	}
}

static void umod(struct creg *d, const struct creg *s, bool alu32)
{
	if (alu32) {
		uint64_t res_max = reg_u32_min(s) - 1, umax = reg_u32_max(d);
		if (umax <= res_max)
			return; /* x % v == x */
		reg_set_urange32(d, 0, umax < res_max ? umax : res_max);
		reset64_and_tnum(d);
	} else {
		uint64_t res_max = reg_umin(s) - 1, umax = reg_umax(d);
		if (umax <= res_max)
			return;
		reg_set_urange64(d, 0, umax < res_max ? umax : res_max);
		reset32_and_tnum(d);
	}
}

/* the result of a signed modulo has the dividend's sign and a magnitude
 * below |v|; returns false if the dividend is already within range */
static bool smod_range(int64_t *lo, int64_t *hi, int64_t v)
{
	/* |v| - 1 fits even for v == MIN */
	int64_t rmax = (int64_t)((v > 0 ? (uint64_t)v : 0 - (uint64_t)v) - 1);
	if (*lo >= -rmax && *hi <= rmax)
		return false;
	if (*lo >= 0) {
		*hi = *hi < rmax ? *hi : rmax;
		*lo = 0;
	} else if (*hi <= 0) {
		*lo = *lo > -rmax ? *lo : -rmax;
		*hi = 0;
	} else {
		*lo = -rmax;
		*hi = rmax;
	}
	return true;
}

static void smod(struct creg *d, const struct creg *s, bool alu32)
{
	if (alu32) {
		int64_t lo = reg_s32_min(d), hi = reg_s32_max(d);
		if (!smod_range(&lo, &hi, reg_s32_min(s)))
			return;
		reg_set_srange32(d, lo, hi);
		reset64_and_tnum(d);
	} else {
		int64_t lo = reg_smin(d), hi = reg_smax(d);
		if (!smod_range(&lo, &hi, reg_smin(s)))
			return;
		reg_set_srange64(d, lo, hi);
		reset32_and_tnum(d);
	}
}

/* ---- bitwise operations: the tnum is computed first by the caller;
 * the arcs come from it and from the operands' unsigned bounds
 * (mainline scalar[32]_min_max_{and,or,xor}) */

/* true if it ends with creg_update_bounds() or a constant (the sync can
 * skip its first step) */
static bool bitop(struct creg *d, const struct creg *s, uint8_t opc)
{
	struct tnum v32 = tnum_subreg(d->var_off);
	bool s_known32 = tnum_is_const(tnum_subreg(s->var_off));
	bool d_known32 = tnum_is_const(v32);
	bool s_known = tnum_is_const(s->var_off), d_known = tnum_is_const(d->var_off);

	/* 32-bit part */
	if (s_known32 && d_known32) {
		mark32_known(d, v32.value);
	} else if (opc == BPF_AND) {
		uint64_t a = reg_u32_max(d), b = reg_u32_max(s);
		reg_set_urange32(d, v32.value, a < b ? a : b);
	} else if (opc == BPF_OR) {
		uint64_t a = reg_u32_min(d), b = reg_u32_min(s);
		reg_set_urange32(d, a > b ? a : b, v32.value | v32.mask);
	} else {
		reg_set_urange32(d, v32.value, v32.value | v32.mask);
	}

	/* 64-bit part */
	struct tnum v = d->var_off;
	if (s_known && d_known) {
		creg_known(d, v.value);
		return true;
	}
	if (opc == BPF_AND) {
		uint64_t a = reg_umax(d), b = reg_umax(s);
		reg_set_urange64(d, v.value, a < b ? a : b);
		creg_update_bounds(d);
		return true;
	}
	if (opc == BPF_OR) {
		uint64_t a = reg_umin(d), b = reg_umin(s);
		reg_set_urange64(d, a > b ? a : b, v.value | v.mask);
		creg_update_bounds(d);
		return true;
	}
	reg_set_urange64(d, v.value, v.value | v.mask);
	return false;
}

/* ---- shifts by a constant below the operation's width */

/* mainline __scalar32_min_max_lsh */
static void lsh32_range(struct creg *d, uint64_t umin_val, uint64_t umax_val)
{
	if (umax_val > H_BITS - 1 || reg_u32_max(d) > UINT64_C(1) << (H_BITS - 1 - umax_val))
		d->r32 = cnum_full(RH);
	else
		reg_set_urange32(d, reg_u32_min(d) << umin_val, reg_u32_max(d) << umax_val);
}

/* mainline __scalar64_min_max_lsh: besides the unsigned range, a shift by
 * exactly H_BITS (the "<<32 s>>32" sign-extension idiom) keeps the
 * subregister's signed range */
static void lsh64_range(struct creg *d, uint64_t umin_val, uint64_t umax_val)
{
	struct cnum u, s = cnum_full(RW);

	if (umin_val == H_BITS && umax_val == H_BITS)
		s = cnum_from_srange(wsext((uint64_t)reg_s32_min(d) << H_BITS),
				     wsext((uint64_t)reg_s32_max(d) << H_BITS), RW);
	if (reg_umax(d) > UINT64_C(1) << (W_BITS - 1 - umax_val))
		u = cnum_full(RW);
	else
		u = cnum_from_urange(reg_umin(d) << umin_val, reg_umax(d) << umax_val, RW);
	d->r64 = cnum_intersect(u, s, RW);
}

static void shift(struct creg *d, const struct creg *s, uint8_t opc, bool alu32)
{
	if (alu32) {
		uint64_t lo = reg_u32_min(s), hi = reg_u32_max(s);
		struct tnum sub = tnum_subreg(d->var_off);
		switch (opc) {
		case BPF_LSH:
			lsh32_range(d, lo, hi);
			d->var_off = tnum_subreg(tnum_lshift(sub, (unsigned)lo));
			break;
		case BPF_RSH:
			d->var_off = tnum_rshift(sub, (unsigned)lo);
			reg_set_urange32(d, reg_u32_min(d) >> hi, reg_u32_max(d) >> lo);
			break;
		default: /* BPF_ARSH; src is constant, lo == hi */
			reg_set_srange32(d, reg_s32_min(d) >> lo, reg_s32_max(d) >> lo);
			d->var_off = tnum_arshift(sub, (unsigned)lo, H_BITS);
			break;
		}
		/* the 64-bit arc is rebuilt by the zero extension */
		d->r64 = cnum_full(RW);
		creg_update_bounds32(d);
		return;
	}

	uint64_t lo = reg_umin(s), hi = reg_umax(s);
	switch (opc) {
	case BPF_LSH:
		lsh64_range(d, lo, hi); /* uses the unshifted 32-bit arc */
		lsh32_range(d, lo, hi);
		d->var_off = tnum_lshift(d->var_off, (unsigned)lo);
		break;
	case BPF_RSH:
		d->var_off = tnum_rshift(d->var_off, (unsigned)lo);
		reg_set_urange64(d, reg_umin(d) >> hi, reg_umax(d) >> lo);
		d->r32 = cnum_full(RH);
		break;
	default: /* BPF_ARSH */
		reg_set_srange64(d, reg_smin(d) >> lo, reg_smax(d) >> lo);
		d->var_off = tnum_arshift(d->var_off, (unsigned)lo, W_BITS);
		d->r32 = cnum_full(RH);
		break;
	}
	creg_update_bounds(d);
}

/* mainline scalar_byte_swap (a little-endian machine): ALU64|END always
 * swaps, ALU|END swaps for TO_BE; 16- and 32-bit forms then truncate.
 * True if the sync that follows would leave the result as it is
 * (creg_coerce_low()'s answer), false if it has to run. */
static bool byte_swap(struct creg *d, const struct rb_alu *op)
{
	bool alu64 = BPF_CLASS(op->code) == BPF_ALU64;
	bool to_le = BPF_SRC(op->code) == BPF_TO_LE;

	if (alu64 || !to_le) {
		d->var_off = tnum_bswap(d->var_off, (unsigned)op->imm / 8);
		d->r64 = cnum_full(RW);
		d->r32 = cnum_full(RH);
	}
	if (op->imm == 16)
		return creg_coerce_low(d, 16);
	if (op->imm == 32)
		creg_coerce(d, 32);
	return false;
}

/* check_alu_op's BPF_MOV: register copy, sign-extending MOVSX, and the
 * 32-bit forms, which zero-extend and sync */
static void mov(struct creg *d, const struct creg *s, const struct rb_alu *op)
{
	creg_copy(d, s);
	if (BPF_CLASS(op->code) == BPF_ALU64) {
		if (op->off == 8 || op->off == 16 || op->off == 32)
			creg_coerce_sx(d, (unsigned)op->off);
		return;
	}
	if (op->off == 8 || op->off == 16)
		creg_coerce_subreg_sx(d, (unsigned)op->off);
	creg_zext_sync(d);
}

/* mainline scalar32_min_max_mul and scalar_min_max_mul on the arcs
 * (cnum_mul), both in one call */
static __attribute__((noinline)) void mul_arcs(struct creg *d, const struct creg *s)
{
	d->r32 = cnum_mul_at(d->r32, s->r32, RH);
	d->r64 = cnum_mul_at(d->r64, s->r64, RW);
}

/* mainline adjust_scalar_min_max_vals */
void creg_alu(struct creg *dst, const struct creg *src_in, const struct rb_alu *op)
{
	uint8_t opc = BPF_OP(op->code);
	bool alu32 = BPF_CLASS(op->code) != BPF_ALU64;
	/* the source is read in place; a copy only when it is dst itself,
	 * which the operations below change before they read the source
	 * (unary: mainline passes dst as its own source) */
	const struct creg *src = src_in;
	struct creg copy;
	if (opc == BPF_NEG || opc == BPF_END || src_in == dst) {
		creg_copy(&copy, dst);
		src = &copy;
	}

	if (opc == BPF_MOV) {
		mov(dst, src, op);
		return;
	}
	if (!safe_to_compute(op, src, alu32)) {
		*dst = creg_unknown();
		return;
	}
	bool updated = false; /* the operation ended with creg_update_bounds() */

	switch (opc) {
	case BPF_ADD:
		dst->r32 = cnum_add(dst->r32, src->r32, RH);
		dst->r64 = cnum_add(dst->r64, src->r64, RW);
		dst->var_off = tnum_add(dst->var_off, src->var_off);
		break;
	case BPF_SUB:
		dst->r32 = cnum_sub(dst->r32, src->r32, RH);
		dst->r64 = cnum_sub(dst->r64, src->r64, RW);
		dst->var_off = tnum_sub(dst->var_off, src->var_off);
		break;
	case BPF_NEG: {
		struct creg old;
		creg_copy(&old, dst);
		creg_known(dst, 0);
		dst->r32 = cnum_sub(dst->r32, old.r32, RH);
		dst->r64 = cnum_sub(dst->r64, old.r64, RW);
		dst->var_off = tnum_neg(old.var_off);
		break;
	}
	case BPF_MUL:
		dst->var_off = tnum_mul(dst->var_off, src->var_off);
		mul_arcs(dst, src);
		break;
	case BPF_DIV:
		/* BPF: x / 0 == 0 */
		if (alu32 ? reg_u32_min(src) == 0 : reg_umin(src) == 0) {
			creg_known(dst, 0);
			break;
		}
		if (op->off == 1)
			sdiv(dst, src, alu32);
		else
			udiv(dst, src, alu32);
		break;
	case BPF_MOD:
		/* BPF: x % 0 == x */
		if (alu32 ? reg_u32_min(src) == 0 : reg_umin(src) == 0)
			break;
		if (op->off == 1)
			smod(dst, src, alu32);
		else
			umod(dst, src, alu32);
		break;
	case BPF_AND:
		dst->var_off = tnum_and(dst->var_off, src->var_off);
		updated = bitop(dst, src, BPF_AND);
		break;
	case BPF_OR:
		dst->var_off = tnum_or(dst->var_off, src->var_off);
		updated = bitop(dst, src, BPF_OR);
		break;
	case BPF_XOR:
		dst->var_off = tnum_xor(dst->var_off, src->var_off);
		bitop(dst, src, BPF_XOR);
		break;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		shift(dst, src, opc, alu32);
		updated = !alu32; /* the 64-bit shifts end with creg_update_bounds() */
		break;
	case BPF_END:
		if (byte_swap(dst, op))
			return;
		break;
	default:
		break;
	}

	/* ALU32 results are zero-extended (END truncates by itself) */
	if (alu32 && opc != BPF_END) {
		creg_zext_sync(dst);
		return;
	}
	if (updated)
		creg_sync_updated(dst);
	else
		creg_sync(dst);
}
