/* tracker.c — the "cnum" tracker behind tracker.h: a tnum plus one arc
 * (circular number) per width, as mainline Linux (2026) keeps scalars
 * (struct bpf_reg_state: var_off, r64, r32). See reg.h for the layout and
 * alu.c / branch.c / sync.c / print.c for which mainline functions each
 * part follows.
 */
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracker/cnum/reg.h"

extern const struct rb_concrete RB_SYM(rb_concrete);

static void mark_empty(struct creg *r)
{
	r->r64 = cnum_empty(RW);
	r->r32 = cnum_empty(RH);
}

static void cn_unknown(rb_val *v)
{
	struct creg r = creg_unknown();
	creg_store(v, &r);
}

static void cn_constant(rb_val *v, uint64_t c)
{
	struct creg r;
	creg_known(&r, wtrunc(c));
	creg_store(v, &r);
}

/* bounds may wrap (min > max): they then describe the wrapped arc */
static void cn_from_bounds(rb_val *v, const struct rb_bounds *b)
{
	struct creg r = creg_unknown();
	r.r64 = cnum_intersect(cnum_from_urange(wtrunc(b->umin), wtrunc(b->umax), RW),
			       cnum_from_srange(b->smin, b->smax, RW), RW);
	r.r32 = cnum_intersect(cnum_from_urange(htrunc(b->u32_min), htrunc(b->u32_max), RH),
			       cnum_from_srange(b->s32_min, b->s32_max, RH), RH);
	r.var_off = TNUM_C(wtrunc(b->var_off.value & ~b->var_off.mask), wtrunc(b->var_off.mask));
	creg_sync(&r);
	creg_store(v, &r);
}

/* the best value for a set: exact tnum, smallest arcs (the 32-bit one over
 * the low halves) */
static void cn_from_set(rb_val *v, const uint64_t *vals, size_t n)
{
	struct creg r;
	if (n == 0) {
		r = creg_unknown();
		mark_empty(&r);
		creg_store(v, &r);
		return;
	}
	r.var_off = tnum_from_set(vals, n);
	if (!cnum_from_set(vals, n, RW, &r.r64) || !cnum_from_set(vals, n, RH, &r.r32))
		r = creg_unknown(); /* out of memory: still sound */
	creg_store(v, &r);
}

static void cn_bounds(const rb_val *v, struct rb_bounds *out)
{
	struct creg r = creg_load(v);
	creg_bounds(&r, out);
}

static bool cn_contains(const rb_val *v, uint64_t x)
{
	struct creg r = creg_load(v);
	x = wtrunc(x);
	return tnum_contains(r.var_off, x) && cnum_contains(r.r64, x, RW) &&
	       cnum_contains(r.r32, x & H_MASK, RH);
}

/* does tnum t have a member in arc a (of width bits <= W_BITS)? */
static bool tnum_meets_arc(struct tnum t, struct cnum a, unsigned bits)
{
	uint64_t lo[2], hi[2];
	int k = 1;
	if (cnum_is_empty(a, bits))
		return false;
	lo[0] = a.base;
	hi[0] = cnum_end(a, bits);
	if (hi[0] < lo[0]) { /* wraps: [base, max] and [0, end] */
		lo[1] = 0;
		hi[1] = hi[0];
		hi[0] = cn_mask(bits);
		k = 2;
	}
	for (int i = 0; i < k; i++) {
		if (tnum_contains(t, lo[i]))
			return true;
		uint64_t next = tnum_step(t, lo[i]);
		if (next > lo[i] && next <= hi[i])
			return true;
	}
	return false;
}

static bool cn_is_empty(const rb_val *v)
{
	struct creg r = creg_load(v);
	return creg_violation(&r) || !tnum_meets_arc(r.var_off, r.r64, RW) ||
	       !tnum_meets_arc(tnum_subreg(r.var_off), r.r32, RH);
}

static bool cn_is_const(const rb_val *v)
{
	struct creg r = creg_load(v);
	return !cn_is_empty(v) && (tnum_is_const(r.var_off) || cnum_is_const(r.r64));
}

static bool cn_equal(const rb_val *a, const rb_val *b)
{
	struct creg x = creg_load(a), y = creg_load(b);
	if (creg_violation(&x) || creg_violation(&y))
		return creg_violation(&x) && creg_violation(&y);
	return tnum_equal(x.var_off, y.var_off) && cnum_equal(x.r64, y.r64) &&
	       cnum_equal(x.r32, y.r32);
}

/* cnum_is_subset(o, c, bits) with the formula for two arcs shorter than
 * the circle tested first and the circle's cases (a full arc, the empty
 * arc: size == mask) only where the formula's answer may differ: c lies in
 * o iff c's base is at clockwise distance s <= o.size from o's base and c
 * ends within o (c.size <= o.size - s). A failed first test (s > o.size,
 * so o is not a whole circle) is still a subset for an empty c; a failed
 * second for an empty c and a full o; a pass is wrong only for an empty o
 * (which holds just the empty arc). */
static inline bool arc_in(uint64_t ob, uint64_t os, uint64_t cb, uint64_t cs, uint64_t m)
{
	uint64_t s = (cb - ob) & m;
	if (s > os)
		return cb == m && cs == m;
	if (cs > os - s)
		return (os == m && ob != m) || (cb == m && cs == m);
	return os != m || ob != m || (cb == m && cs == m);
}

/* arc_in for the subregister's arcs as stored, one word each (base in
 * the low half, size in the high half; reg.h), whose empty arc is the
 * word with both halves H_MASK */
static inline bool arc32_in(uint64_t o, uint64_t c)
{
	const uint64_t empty = H_MASK | H_MASK << 32;
	uint64_t os = o >> 32, s = (c - o) & H_MASK;
	if (s > os)
		return c == empty;
	if (c >> 32 > os - s)
		return (os == H_MASK && o != empty) || c == empty;
	return o != empty || c == empty;
}

/* both arcs of c within o's, out of line (a tail call): the tests before
 * it then need no copies of the words they read (bench/insns.sh
 * is_subset: 49.0 -> 44.7 instructions per call, old 49.6) */
static __attribute__((noinline)) bool arcs_in(const uint64_t *o, const uint64_t *c)
{
	return arc_in(o[2], o[3], c[2], c[3], cn_mask(RW)) && arc32_in(o[4], c[4]);
}

/* mainline regsafe() for scalars (kernel/bpf/states.c): range_within()
 * (an arc subset per width) and tnum_in() */
static bool cn_is_subset(const rb_val *old, const rb_val *cur)
{
	/* straight from the stored words. tnum_in first and inline (c's
	 * unknown bits unknown in o, its known bits o's outside o's mask):
	 * one test of pure arithmetic that refuses most pairs which are
	 * not subsets; then the 64-bit arc, then the subregister's arc on
	 * its packed word. Measured with bench/rounds.sh (is_subset): this
	 * order and the inline tnum_in took cnum/old from 1.11-1.16 to
	 * 1.01-1.04; the arcs first with the sentinels tested first
	 * (fewer instructions) was slower, 1.24-1.28. Equal arcs, once
	 * the tnums pass, answer yes at once (callgrind, bench/insns.sh:
	 * 57.7 -> 49.0 instructions per call against old's 49.6, and
	 * 403k -> 283k conditional branches per 64k calls against old's
	 * 526k). */
	const uint64_t *o = old->w, *c = cur->w;
	if (((c[1] & ~o[1]) | ((c[0] & ~o[1]) ^ o[0])) != 0)
		return false;
	/* the same two arcs: every arc (the empty and the full one too)
	 * holds itself, so arc_in and arc32_in would both say yes */
	if (((o[2] ^ c[2]) | (o[3] ^ c[3]) | (o[4] ^ c[4])) == 0)
		return true;
	return arcs_in(o, c);
}

static int cn_print(const rb_val *v, char *buf, size_t len)
{
	struct creg r = creg_load(v);
	return creg_print(&r, buf, len);
}

/* the representation itself: tnum and both arcs (empty: "empty"); an arc
 * is printed as its first and last member, u64 order, with its size,
 * e.g. r64=[0x7ffffffffffffffc..0x8000000000000004] (size 0x8) */
static int cn_print_repr(const rb_val *v, char *buf, size_t len)
{
	struct creg r = creg_load(v);
	if (cn_is_empty(v))
		return snprintf(buf, len, "empty");
	return snprintf(buf, len, "var_off=(%#llx; %#llx) r64=[%#llx..%#llx] (size %#llx) r32=[%#llx..%#llx] (size %#llx)",
			(unsigned long long)r.var_off.value, (unsigned long long)r.var_off.mask,
			(unsigned long long)r.r64.base, (unsigned long long)cnum_end(r.r64, RW),
			(unsigned long long)r.r64.size, (unsigned long long)r.r32.base,
			(unsigned long long)cnum_end(r.r32, RH), (unsigned long long)r.r32.size);
}

/* every ALU operation but the plain 64-bit register copy (cn_alu) */
static __attribute__((noinline)) void cn_alu_rest(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	/* shortcuts with creg_alu's results, without unpacking: DIV/MOD (not
	 * in 6.18's algorithms) give an unknown value */
	uint8_t opc = BPF_OP(op->code);
	if (opc == BPF_MOV && BPF_CLASS(op->code) == BPF_ALU64) {
		/* MOVSX: the source, sign-extended (creg_alu's mov()) */
		if (op->off == 8 || op->off == 16 || op->off == 32) {
			creg_coerce_sx_val(dst, src, (unsigned)op->off);
		} else {
			for (int i = 0; i < 5; i++)
				dst->w[i] = src->w[i];
		}
		return;
	}
#ifndef RB_CNUM_MAINLINE_ALGOS
	if (opc == BPF_DIV || opc == BPF_MOD) {
		cn_unknown(dst);
		return;
	}
#endif
	struct creg d = creg_load(dst), s = creg_load(src);
	creg_alu(&d, &s, op);
	creg_store(dst, &d);
}

static void cn_alu(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	/* a 64-bit register copy (MOV, BPF_X or BPF_K, off 0: no sign
	 * extension) is the 40 bytes, one word at a time, tested first and
	 * with no frame: one compare of the code and one of off, five loads
	 * and stores, no taken branch but the return (the other operations'
	 * unpacking, in cn_alu_rest, had put a frame and four taken jumps on
	 * this path) */
	if ((op->code & ~BPF_X) != (BPF_ALU64 | BPF_MOV) || op->off != 0) {
		cn_alu_rest(dst, src, op);
		return;
	}
	for (int i = 0; i < 5; i++)
		dst->w[i] = src->w[i];
}

/* a load of size_bits (zero-extended: coerce_reg_to_size, or LDSX:
 * coerce_reg_to_size_sx, as mainline check_mem_access does) */
static void cn_truncate(rb_val *v, unsigned size_bits, bool sext)
{
	/* two tail calls: no unpacking here */
	if (sext)
		creg_coerce_sx_val(v, v, size_bits);
	else
		creg_coerce_val(v, size_bits);
}

static int cn_branch_taken(const rb_val *a, const rb_val *b, uint8_t jop, bool is32)
{
	return creg_branch_taken_val(a, b, jop, is32);
}

static bool cn_branch_refine(rb_val *a, rb_val *b, uint8_t jop, bool is32)
{
	struct creg x = creg_load(a), y = creg_load(b);
	bool ok = creg_refine(&x, &y, jop, is32);
	creg_store(a, &x);
	creg_store(b, &y);
	return ok;
}

static bool cn_intersect(rb_val *a, const rb_val *b)
{
	struct creg x = creg_load(a), y = creg_load(b);
	if (!tnum_overlap(x.var_off, y.var_off)) {
		mark_empty(&x);
	} else {
		x.var_off = tnum_intersect(x.var_off, y.var_off);
		x.r64 = cnum_intersect(x.r64, y.r64, RW);
		x.r32 = cnum_intersect(x.r32, y.r32, RH);
		creg_sync(&x);
	}
	creg_store(a, &x);
	return !cn_is_empty(a);
}

const struct rb_tracker CN_SYM(rb_cnum_tracker) = {
	.name = CN_NAME,
#ifdef RB_CNUM_MAINLINE_ALGOS
	.follows = "Linux 7.2.13's cnum tracker (mainline 2026): include/linux/cnum.h, kernel/bpf/cnum.c, "
		   "kernel/bpf/verifier.c",
	.build_flags = "-DRB_CNUM_MAINLINE_ALGOS",
#else
	.follows = "mainline's cnum representation (2026) with Linux 6.18.44's algorithms",
	.build_flags = "",
#endif
	.bits = W_BITS,
	.subbits = H_BITS,
	/* tnum (2 words) + cnum64 (2 words) + cnum32 (2 half words) */
	.val_size = (4 * W_BITS + 2 * H_BITS) / 8,
	.concrete = &RB_SYM(rb_concrete),
	.unknown = cn_unknown,
	.constant = cn_constant,
	.from_bounds = cn_from_bounds,
	.from_set = cn_from_set,
	/* not the smallest value: the shortest arc of each width is not
	 * unique, and a longer arc can meet the tnum and the other arc in
	 * fewer members. At 8 bits, {152, 158}: from_set gives var_off
	 * (0x98; 0x6), r64 [152..158], r32 [8..14], four members; r32
	 * [14..8] (across the 4-bit wrap) keeps only the two
	 * (test_cnum's test_from_set_not_smallest8) */
	.from_set_best = false,
	.bounds = cn_bounds,
	.contains = cn_contains,
	.is_const = cn_is_const,
	.is_empty = cn_is_empty,
	.equal = cn_equal,
	.is_subset = cn_is_subset,
	.print = cn_print,
	.print_repr = cn_print_repr,
	.alu = cn_alu,
	.truncate = cn_truncate,
	.branch_taken = cn_branch_taken,
#ifdef RB_CNUM_MAINLINE_ALGOS
	.branch_taken_same = creg_branch_taken_same_val,
#endif
	.branch_refine = cn_branch_refine,
	.intersect = cn_intersect,
};
