/* test_cnum.c — the cnum tracker (src/tracker/cnum/).
 *
 * Exhaustive checks of the arc primitives on small circles (every arc of
 * a 4-bit circle, a structured sample of 8-bit arcs, every value), of
 * tnum_step, a sampled soundness check of the tracker's operations at
 * RB_BITS=8 against the concrete semantics, and hand-worked 64-bit
 * examples from the wrapped-range proposal compared with the old tracker.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <linux/bpf.h>

/* the arc and tnum primitives of the 8-bit build (width-suffixed _w8) */
#define RB_BITS 8
#include "tracker/cnum/arc.h"
#include "tracker/tnum.h"

#include "tracker/tracker.h"
#include "util/array_size.h"

/* ---- sets of values of a circle of at most 256 values, as bitmaps */
struct set {
	uint64_t w[4];
};

static inline void set_add(struct set *s, unsigned v) { s->w[v >> 6] |= UINT64_C(1) << (v & 63); }
static inline bool set_has(const struct set *s, unsigned v) { return s->w[v >> 6] >> (v & 63) & 1; }
static bool set_sub(const struct set *a, const struct set *b) /* a ⊆ b */
{
	for (int i = 0; i < 4; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}
static unsigned set_count(const struct set *s)
{
	unsigned n = 0;
	for (int i = 0; i < 4; i++)
		n += (unsigned)__builtin_popcountll(s->w[i]);
	return n;
}
static struct set set_and(const struct set *a, const struct set *b)
{
	struct set r;
	for (int i = 0; i < 4; i++)
		r.w[i] = a->w[i] & b->w[i];
	return r;
}
static struct set set_or(const struct set *a, const struct set *b)
{
	struct set r;
	for (int i = 0; i < 4; i++)
		r.w[i] = a->w[i] | b->w[i];
	return r;
}

/* the values of an arc, by walking it */
static struct set arc_set(struct cnum a, unsigned bits)
{
	struct set s = {{0}};
	if (cnum_is_empty(a, bits))
		return s;
	for (uint64_t k = 0; k <= a.size; k++)
		set_add(&s, (unsigned)((a.base + k) & cn_mask(bits)));
	return s;
}

/* the size (values - 1) of the smallest arc holding a set, by brute
 * force over every arc; UINT64_MAX for the empty set */
static uint64_t best_arc_size(const struct set *s, unsigned bits)
{
	uint64_t n = cn_mask(bits) + 1, best = UINT64_MAX;
	if (set_count(s) == 0)
		return best;
	for (uint64_t base = 0; base < n; base++) {
		if (!set_has(s, (unsigned)base))
			continue;
		/* the arc from base must reach the last member going round:
		 * the largest k of a member, found from the top down (base
		 * itself is one); n is a power of two: & (n - 1) is % n */
		uint64_t far = n - 1;
		while (!set_has(s, (unsigned)((base + far) & (n - 1))))
			far--;
		if (far < best)
			best = far;
	}
	return best;
}

/* every arc of a circle of 2^bits values, plus the empty one */
static size_t all_arcs(struct cnum *out, unsigned bits)
{
	size_t n = 0;
	uint64_t m = cn_mask(bits);
	for (uint64_t b = 0; b <= m; b++)
		for (uint64_t s = 0; s < m; s++)
			out[n++] = (struct cnum){b, s};
	out[n++] = cnum_full(bits);
	out[n++] = cnum_empty(bits);
	return n;
}

/* arcs of the 8-bit circle around its interesting points */
static size_t some_arcs8(struct cnum *out)
{
	static const uint64_t bases[] = {0, 1, 5, 60, 120, 126, 127, 128, 129, 200, 250, 254, 255};
	static const uint64_t sizes[] = {0, 1, 2, 3, 7, 30, 100, 127, 128, 129, 200, 254};
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(bases); i++)
		for (size_t j = 0; j < ARRAY_SIZE(sizes); j++)
			out[n++] = (struct cnum){bases[i], sizes[j]};
	out[n++] = cnum_full(8);
	out[n++] = cnum_empty(8);
	return n;
}

/* ---- conversions, contains, construction */
static void check_conversions(struct cnum a, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	struct set s = arc_set(a, bits);
	for (uint64_t v = 0; v <= m; v++)
		assert_true(cnum_contains(a, v, bits) == set_has(&s, (unsigned)v));
	if (cnum_is_empty(a, bits))
		return;

	/* unsigned bounds: exact unless the arc crosses max -> 0 */
	uint64_t umin = m, umax = 0;
	int64_t smin = INT64_MAX, smax = INT64_MIN;
	for (uint64_t v = 0; v <= m; v++) {
		if (!set_has(&s, (unsigned)v))
			continue;
		umin = v < umin ? v : umin;
		umax = v > umax ? v : umax;
		int64_t sv = sext_bits(v, bits);
		smin = sv < smin ? sv : smin;
		smax = sv > smax ? sv : smax;
	}
	bool ucross = set_has(&s, (unsigned)m) && set_has(&s, 0) && set_count(&s) != m + 1;
	bool scross = set_has(&s, (unsigned)cn_smax_bits(bits)) && set_has(&s, (unsigned)cn_smin_bits(bits));
	if (!ucross || a.size == m) {
		assert_true(cnum_umin(a, bits) == umin);
		assert_true(cnum_umax(a, bits) == umax);
	} else {
		assert_true(cnum_umin(a, bits) == 0 && cnum_umax(a, bits) == m);
	}
	if (!scross) {
		assert_true(cnum_smin(a, bits) == smin);
		assert_true(cnum_smax(a, bits) == smax);
	} else {
		assert_true(cnum_smin(a, bits) == sext_bits(cn_smin_bits(bits), bits));
		assert_true(cnum_smax(a, bits) == (int64_t)cn_smax_bits(bits));
	}
	/* round trip through the arc's own end points */
	struct cnum u = cnum_from_urange(a.base, cnum_end(a, bits), bits);
	struct set us = arc_set(u, bits);
	assert_memory_equal(&us, &s, sizeof(s));
}

static void test_arc_conversions(void **state)
{
	(void)state;
	static struct cnum arcs[16 * 16 + 2];
	size_t n = all_arcs(arcs, 4);
	for (size_t i = 0; i < n; i++)
		check_conversions(arcs[i], 4);
	/* every arc of the 8-bit circle */
	static struct cnum arcs8[256 * 256 + 2];
	n = all_arcs(arcs8, 8);
	for (size_t i = 0; i < n; i++)
		check_conversions(arcs8[i], 8);

	/* ranges, including wrapping ones (min > max), at 4 bits: exact */
	for (uint64_t lo = 0; lo < 16; lo++)
		for (uint64_t hi = 0; hi < 16; hi++) {
			struct set want = {{0}};
			for (uint64_t v = lo;; v = (v + 1) & 15) {
				set_add(&want, (unsigned)v);
				if (v == hi)
					break;
			}
			struct set got = arc_set(cnum_from_urange(lo, hi, 4), 4);
			assert_memory_equal(&got, &want, sizeof(want));
			/* the signed range of the same endpoints, as signed values */
			struct set sgot = arc_set(cnum_from_srange(sext_bits(lo, 4), sext_bits(hi, 4), 4), 4);
			assert_memory_equal(&sgot, &want, sizeof(want));
		}
	/* a full circle always has base 0, never the empty sentinel */
	assert_true(cnum_equal(cnum_from_urange(15, 14, 4), cnum_full(4)));
	assert_false(cnum_is_empty(cnum_from_urange(15, 14, 4), 4));
}

/* ---- binary primitives, every pair of 4-bit arcs and sampled 8-bit */
static void check_pair(struct cnum a, struct cnum b, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	struct set sa = arc_set(a, bits), sb = arc_set(b, bits);
	bool ea = cnum_is_empty(a, bits), eb = cnum_is_empty(b, bits);

	/* intersect: sound; exact when the intersection is one arc, else the
	 * smaller operand */
	struct set both = set_and(&sa, &sb);
	struct cnum x = cnum_intersect(a, b, bits);
	struct set sx = arc_set(x, bits);
	assert_true(set_sub(&both, &sx));
	uint64_t best = best_arc_size(&both, bits);
	if (best == UINT64_MAX) {
		assert_true(cnum_is_empty(x, bits));
	} else if (best + 1 == set_count(&both)) {
		assert_true(set_count(&sx) == set_count(&both));
	} else {
		assert_true(cnum_equal(x, a) || cnum_equal(x, b));
		assert_true(x.size == (a.size < b.size ? a.size : b.size));
	}

	/* hull: the smallest arc holding both */
	struct set un = set_or(&sa, &sb);
	struct cnum h = cnum_hull(a, b, bits);
	struct set sh = arc_set(h, bits);
	assert_true(set_sub(&un, &sh));
	uint64_t hb = best_arc_size(&un, bits);
	if (hb == UINT64_MAX)
		assert_true(cnum_is_empty(h, bits));
	else
		assert_true(h.size == hb);

	/* is_subset: exact */
	assert_true(cnum_is_subset(a, b, bits) == set_sub(&sb, &sa));

	if (ea || eb) {
		assert_true(cnum_is_empty(cnum_add(a, b, bits), bits));
		return;
	}
	/* add / sub / mul: sound; add's size is the sum of sizes (or full) */
	struct cnum s = cnum_add(a, b, bits), d = cnum_sub(a, b, bits), p = cnum_mul(a, b, bits);
	struct set ss = arc_set(s, bits), sd = arc_set(d, bits), sp = arc_set(p, bits);
	for (uint64_t i = 0; i <= a.size; i++)
		for (uint64_t j = 0; j <= b.size; j++) {
			uint64_t x1 = (a.base + i) & m, y1 = (b.base + j) & m;
			assert_true(set_has(&ss, (unsigned)((x1 + y1) & m)));
			assert_true(set_has(&sd, (unsigned)((x1 - y1) & m)));
			assert_true(set_has(&sp, (unsigned)((x1 * y1) & m)));
		}
	uint64_t want = a.size + b.size >= m ? m : a.size + b.size;
	assert_true(s.size == want);
}

static void test_arc_pairs(void **state)
{
	(void)state;
	static struct cnum arcs[16 * 16 + 2];
	size_t n = all_arcs(arcs, 4);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			check_pair(arcs[i], arcs[j], 4);
}

static void test_arc_pairs8(void **state)
{
	(void)state;
	static struct cnum arcs[200];
	size_t n = some_arcs8(arcs);
	/* every pair for the set operations; the arithmetic walks every
	 * value pair, so only pairs of shorter arcs */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (arcs[i].size <= 30 || arcs[j].size <= 30 || (i % 7 == 0 && j % 5 == 0))
				check_pair(arcs[i], arcs[j], 8);
}

static void test_arc_neg(void **state)
{
	(void)state;
	/* every arc of the 8-bit circle: negation maps an arc onto an arc of
	 * the same size, so the result is exact */
	static struct cnum arcs[256 * 256 + 2];
	size_t n = all_arcs(arcs, 8);
	for (size_t i = 0; i < n; i++) {
		struct cnum a = arcs[i], r = cnum_neg(a, 8);
		struct set sa = arc_set(a, 8), sr = arc_set(r, 8), want = {{0}};
		for (unsigned v = 0; v < 256; v++)
			if (set_has(&sa, v))
				set_add(&want, (0 - v) & 255);
		assert_memory_equal(&sr, &want, sizeof(want));
	}
}

/* ---- projections between widths (8-bit arc, 4-bit low part) */
static void test_arc_projections(void **state)
{
	(void)state;
	static struct cnum a8[200], a4[16 * 16 + 2];
	size_t n8 = some_arcs8(a8), n4 = all_arcs(a4, 4);
	for (size_t i = 0; i < n8; i++) {
		struct cnum a = a8[i];
		struct set sa = arc_set(a, 8), low = {{0}};
		for (unsigned v = 0; v < 256; v++)
			if (set_has(&sa, v))
				set_add(&low, v & 15);
		/* narrow: the low parts of an arc form one arc: exact */
		struct cnum nr = cnum_narrow(a, 8, 4);
		struct set sn = arc_set(nr, 4);
		assert_memory_equal(&sn, &low, sizeof(low));

		for (size_t j = 0; j < n4; j++) {
			struct cnum b = a4[j];
			struct set sb = arc_set(b, 4);
			/* the members of a whose low part is in b, by offset */
			int64_t first = -1, last = -1;
			for (uint64_t k = 0; !cnum_is_empty(a, 8) && k <= a.size; k++) {
				unsigned v = (unsigned)((a.base + k) & 255);
				if (set_has(&sb, v & 15)) {
					if (first < 0)
						first = (int64_t)k;
					last = (int64_t)k;
				}
			}
			struct cnum w = cnum_widen_intersect(a, 8, b, 4);
			if (first < 0) {
				assert_true(cnum_is_empty(w, 8));
				continue;
			}
			/* the tightest sub-arc of a, in a's own order */
			assert_true(w.base == ((a.base + (uint64_t)first) & 255));
			assert_true(w.size == (uint64_t)(last - first));
		}
	}
}

/* ---- from_set: the smallest arc over a set */
static void test_arc_from_set(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	for (int iter = 0; iter < 3000; iter++) {
		uint64_t vals[12];
		size_t n = (size_t)(iter % 12) + 1;
		struct set s = {{0}};
		unsigned bits = iter & 1 ? 8 : 4;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			vals[i] = seed >> 33;
			set_add(&s, (unsigned)(vals[i] & cn_mask(bits)));
		}
		struct cnum a;
		assert_true(cnum_from_set(vals, n, bits, &a));
		struct set sa = arc_set(a, bits);
		assert_true(set_sub(&s, &sa));
		assert_true(a.size == best_arc_size(&s, bits));
	}
	struct cnum e;
	assert_true(cnum_from_set(NULL, 0, 8, &e));
	assert_true(cnum_is_empty(e, 8));
}

/* ---- tnum_step: the least member above z, every 8-bit tnum and z */
static void test_tnum_step(void **state)
{
	(void)state;
	for (unsigned mask = 0; mask < 256; mask++)
		for (unsigned value = 0; value < 256; value++) {
			if (value & mask)
				continue;
			struct tnum t = {value, mask};
			unsigned tmax = value | mask;
			for (unsigned z = 0; z < 256; z++) {
				unsigned want = tmax;
				if (z < value) {
					want = value;
				} else if (z < tmax) {
					for (unsigned x = z + 1; x <= tmax; x++)
						if ((x & ~mask) == value) {
							want = x;
							break;
						}
				}
				assert_int_equal(tnum_step(t, z), want);
			}
		}
}

/* ---- the tracker at 8 bits, against the concrete semantics */

struct absval {
	rb_val v;
	uint8_t mem[256];
	unsigned n;
};

static void members(const struct rb_tracker *t, struct absval *a)
{
	a->n = 0;
	for (unsigned x = 0; x < 256; x++)
		if (t->contains(&a->v, x))
			a->mem[a->n++] = (uint8_t)x;
}

/* abstract inputs: constants, short and long ranges, ranges across the
 * signed and unsigned boundaries, tnum-shaped sets, and states built from
 * bounds (signed-only and 32-bit-only knowledge) */
static size_t make_inputs(const struct rb_tracker *t, struct absval *out)
{
	static const uint8_t lo[] = {0, 3, 120, 126, 250, 254, 0, 100, 200, 128};
	static const uint8_t len[] = {0, 2, 5, 9, 5, 3, 255, 60, 90, 0};
	size_t n = 0;
	for (size_t i = 0; i < sizeof(lo); i++) {
		uint64_t vals[256];
		size_t k = 0;
		for (unsigned d = 0; d <= len[i]; d++)
			vals[k++] = (uint8_t)(lo[i] + d);
		t->from_set(&out[n].v, vals, k);
		members(t, &out[n]);
		n++;
	}
	static const uint8_t tv[] = {0x00, 0x10, 0x81, 0x04};
	static const uint8_t tm[] = {0x0f, 0x06, 0x30, 0xf0};
	for (size_t i = 0; i < sizeof(tv); i++) {
		uint64_t vals[256];
		size_t k = 0;
		for (unsigned x = 0; x < 256; x++)
			if ((x & ~tm[i]) == tv[i])
				vals[k++] = x;
		t->from_set(&out[n].v, vals, k);
		members(t, &out[n]);
		n++;
	}
	struct rb_bounds b = {.umin = 0, .umax = 255, .smin = -128, .smax = 127,
			      .u32_min = 0, .u32_max = 15, .s32_min = -8, .s32_max = 7,
			      .var_off = {0, 0xff}};
	b.smin = -3;
	b.smax = 2;
	t->from_bounds(&out[n].v, &b);
	members(t, &out[n++]);
	b.smin = -128;
	b.smax = 127;
	b.s32_min = -2;
	b.s32_max = 1;
	t->from_bounds(&out[n].v, &b);
	members(t, &out[n++]);
	t->unknown(&out[n].v);
	members(t, &out[n++]);
	return n;
}

static void test_tracker_alu8(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("cnum", 8);
	assert_non_null(t);
	assert_int_equal(t->bits, 8);
	const struct rb_concrete *c = t->concrete;
	static struct absval in[32];
	size_t n = make_inputs(t, in);
	for (size_t i = 0; i < n; i++)
		assert_true(in[i].n > 0);

	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR,
				      BPF_AND, BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_NEG,
				      BPF_MOV};
	for (int cls = 0; cls < 2; cls++)
		for (size_t o = 0; o < sizeof(ops); o++)
			for (int16_t off = 0; off <= 1; off++) {
				if (off && ops[o] != BPF_DIV && ops[o] != BPF_MOD)
					continue;
				struct rb_alu op = {.code = (uint8_t)((cls ? BPF_ALU64 : BPF_ALU) | ops[o] | BPF_X),
						    .off = off};
				for (size_t i = 0; i < n; i++)
					for (size_t j = 0; j < n; j++) {
						rb_val r = in[i].v;
						t->alu(&r, &in[j].v, &op);
						int8_t rin[256]; /* contains(r, z) of each 8-bit z, asked once */
						memset(rin, -1, sizeof(rin));
						for (unsigned x = 0; x < in[i].n; x++)
							for (unsigned y = 0; y < in[j].n; y++) {
								uint64_t z = c->alu(in[i].mem[x], in[j].mem[y], &op);
								if (z < 256 && rin[z] < 0)
									rin[z] = t->contains(&r, z);
								if (!(z < 256 ? rin[z] : t->contains(&r, z))) {
									char b1[200], b2[200], b3[200];
									t->print(&in[i].v, b1, sizeof(b1));
									t->print(&in[j].v, b2, sizeof(b2));
									t->print(&r, b3, sizeof(b3));
									fail_msg("op %#x off %d: %u op %u = %u not in %s (from %s, %s)",
										 op.code, off, in[i].mem[x], in[j].mem[y],
										 (unsigned)z, b3, b1, b2);
								}
							}
					}
			}
	/* MOVSX and END, unary */
	static const struct rb_alu un[] = {
		{BPF_ALU64 | BPF_MOV | BPF_X, 8, 0}, {BPF_ALU64 | BPF_MOV | BPF_X, 16, 0},
		{BPF_ALU64 | BPF_MOV | BPF_X, 32, 0}, {BPF_ALU | BPF_MOV | BPF_X, 8, 0},
		{BPF_ALU | BPF_MOV | BPF_X, 16, 0}, {BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 16},
		{BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 32}, {BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 64},
		{BPF_ALU | BPF_END | BPF_TO_BE, 0, 16}, {BPF_ALU | BPF_END | BPF_TO_LE, 0, 32},
	};
	for (size_t u = 0; u < ARRAY_SIZE(un); u++)
		for (size_t i = 0; i < n; i++) {
			rb_val r = in[i].v;
			bool movx = BPF_OP(un[u].code) == BPF_MOV;
			t->alu(&r, &in[i].v, &un[u]);
			for (unsigned x = 0; x < in[i].n; x++) {
				uint64_t z = c->alu(movx ? 0 : in[i].mem[x], in[i].mem[x], &un[u]);
				assert_true(t->contains(&r, z));
			}
		}
	/* loads: zero- and sign-extending truncation */
	for (unsigned size = 8; size <= 64; size *= 2)
		for (int sx = 0; sx < 2; sx++)
			for (size_t i = 0; i < n; i++) {
				rb_val r = in[i].v;
				t->truncate(&r, size, sx);
				for (unsigned x = 0; x < in[i].n; x++)
					assert_true(t->contains(&r, c->truncate(in[i].mem[x], size, sx)));
			}
}

/* every conditional jump, with "not JSET" */
static const uint8_t jops[] = {BPF_JEQ, BPF_JNE, BPF_JSET, RB_JSET_FALSE, BPF_JGT, BPF_JGE,
			       BPF_JLT, BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};

/* both builds: "cnum-mainline" decides more jumps (its simulation) and
 * reverses JSET's answer for "not JSET" on its own */
static void test_tracker_branch8(void **state)
{
	(void)state;
	static const char *const names[] = {"cnum", "cnum-mainline"};
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		const struct rb_tracker *t = rb_tracker_get(names[k], 8);
		const struct rb_concrete *c = t->concrete;
		static struct absval in[32];
		size_t n = make_inputs(t, in);
		unsigned decided = 0, refined = 0;
		for (int is32 = 0; is32 < 2; is32++)
			for (size_t o = 0; o < sizeof(jops); o++)
				for (size_t i = 0; i < n; i++)
					for (size_t j = 0; j < n; j++) {
						int taken = t->branch_taken(&in[i].v, &in[j].v, jops[o], is32);
						rb_val a = in[i].v, b = in[j].v;
						bool ok = t->branch_refine(&a, &b, jops[o], is32);
						/* contains() of the refined values, asked once per value */
						int8_t ain[256], bin[256];
						memset(ain, -1, sizeof(ain));
						memset(bin, -1, sizeof(bin));
						for (unsigned x = 0; x < in[i].n; x++)
							for (unsigned y = 0; y < in[j].n; y++) {
								bool h = c->jmp(in[i].mem[x], in[j].mem[y], jops[o], is32);
								if (taken == RB_BR_NEVER)
									assert_false(h);
								if (taken == RB_BR_ALWAYS)
									assert_true(h);
								if (!h)
									continue;
								assert_true(ok);
								uint8_t vx = in[i].mem[x], vy = in[j].mem[y];
								if (ain[vx] < 0)
									ain[vx] = t->contains(&a, vx);
								if (bin[vy] < 0)
									bin[vy] = t->contains(&b, vy);
								assert_true(ain[vx]);
								assert_true(bin[vy]);
							}
						decided += taken != RB_BR_UNKNOWN;
						refined += !ok || (!t->equal(&a, &in[i].v) || !t->equal(&b, &in[j].v));
					}
		/* the checks above must have had something to check */
		assert_true(decided > 100);
		assert_true(refined > 100);
	}
}

/* pruning and set queries against the members */
static void test_tracker_sets8(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("cnum", 8);
	static struct absval in[32];
	size_t n = make_inputs(t, in);
	for (size_t i = 0; i < n; i++) {
		assert_false(t->is_empty(&in[i].v));
		assert_true(t->is_const(&in[i].v) == (in[i].n == 1));
		for (size_t j = 0; j < n; j++) {
			/* is_subset may only say yes if every member is kept */
			if (t->is_subset(&in[i].v, &in[j].v))
				for (unsigned y = 0; y < in[j].n; y++)
					assert_true(t->contains(&in[i].v, in[j].mem[y]));
			rb_val x = in[i].v;
			bool ne = t->intersect(&x, &in[j].v);
			for (unsigned y = 0; y < in[j].n; y++)
				if (t->contains(&in[i].v, in[j].mem[y])) {
					assert_true(ne);
					assert_true(t->contains(&x, in[j].mem[y]));
				}
		}
		assert_true(t->is_subset(&in[i].v, &in[i].v));
	}
	/* from_set: the tnum and both arcs are the best for the set */
	uint64_t vals[] = {0xfc, 0xfe, 0x01, 0x03};
	rb_val v;
	t->from_set(&v, vals, 4);
	struct rb_bounds b;
	t->bounds(&v, &b);
	assert_int_equal(b.smin, -4);
	assert_int_equal(b.smax, 3);
	assert_true(b.umin == 0 && b.umax == 255); /* wraps as unsigned */
	assert_int_equal(b.s32_min, -4); /* low nibbles c, e, 1, 3: s4 [-4, 3] */
	assert_int_equal(b.s32_max, 3);
}

/* is_subset (tracker.c's arc_in, which tests the formula for arcs shorter
 * than the circle first) against cnum_is_subset at both widths and
 * tnum_in, on the words of the 8-bit build: every pair of 4-bit arcs
 * (each with 64-bit arcs from a small set), and every pair of a
 * structured set of 8-bit arcs holding the full and empty arcs and a
 * full circle with a base other than 0 (each with a few 4-bit arcs) */
static void test_tracker_subset_exact8(void **state)
{
	(void)state;
	static const uint64_t pts[] = {0, 1, 2, 63, 64, 127, 128, 129, 200, 254, 255};
	struct cnum a8[ARRAY_SIZE(pts) * ARRAY_SIZE(pts)], a4[256];
	size_t n8 = 0, n4 = 0;
	for (size_t i = 0; i < ARRAY_SIZE(pts); i++)
		for (size_t j = 0; j < ARRAY_SIZE(pts); j++)
			a8[n8++] = (struct cnum){pts[i], pts[j]};
	for (uint64_t b = 0; b < 16; b++)
		for (uint64_t z = 0; z < 16; z++)
			a4[n4++] = (struct cnum){b, z};
	static const struct tnum tn[] = {{0, 0xff}, {0x10, 0xef}, {0x11, 0xee}};
	const char *names[] = {"cnum", "cnum-mainline"};
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		const struct rb_tracker *t = rb_tracker_get(names[k], 8);
		assert_non_null(t);
		unsigned yes = 0;
		for (int pass = 0; pass < 2; pass++) {
			size_t no = pass ? n4 : n8, nsmall = pass ? n8 : n4, step = pass ? 13 : 17;
			for (size_t i = 0; i < no; i++)
				for (size_t j = 0; j < no; j++)
					for (size_t s = 0; s < nsmall; s += step) {
						struct cnum o64 = pass ? a8[s] : a8[i], c64 = pass ? a8[(s * 7) % n8] : a8[j];
						struct cnum o32 = pass ? a4[i] : a4[s], c32 = pass ? a4[j] : a4[(s * 5) % n4];
						struct tnum ot = tn[(i + s) % 3], ct = tn[(j + s) % 3];
						rb_val o = {{ot.value, ot.mask, o64.base, o64.size, o32.base | o32.size << 32}};
						rb_val c = {{ct.value, ct.mask, c64.base, c64.size, c32.base | c32.size << 32}};
						bool want = cnum_is_subset(o64, c64, 8) && cnum_is_subset(o32, c32, 4) &&
							    tnum_in(ot, ct);
						assert_true(t->is_subset(&o, &c) == want);
						yes += want;
					}
		}
		assert_true(yes > 1000);
		/* the same arcs in o and c, every pair of tnums: the answer is
		 * tnum_in's alone (is_subset's shortcut for equal arcs must not
		 * skip the tnum test) */
		unsigned no_tnum = 0;
		for (size_t i = 0; i < n8; i += 3)
			for (size_t j = 0; j < n4; j += 7)
				for (size_t p = 0; p < ARRAY_SIZE(tn) * ARRAY_SIZE(tn); p++) {
					struct tnum ot = tn[p / ARRAY_SIZE(tn)], ct = tn[p % ARRAY_SIZE(tn)];
					uint64_t w32 = a4[j].base | a4[j].size << 32;
					rb_val o = {{ot.value, ot.mask, a8[i].base, a8[i].size, w32}};
					rb_val c = {{ct.value, ct.mask, a8[i].base, a8[i].size, w32}};
					assert_true(t->is_subset(&o, &c) == tnum_in(ot, ct));
					no_tnum += !tnum_in(ot, ct);
				}
		assert_true(no_tnum > 100);
	}
}

/* ---- hand-worked 64-bit examples of the proposal, against "old" */

static void test_example_s32_wrap(void **state)
{
	(void)state;
	/* {0xFFFFFFFC, 8} as a 32-bit arc is s32 [-4, 4], unbounded as u32 */
	struct cnum a = cnum_from_srange(-4, 4, 32);
	assert_true(a.base == 0xFFFFFFFCu && a.size == 8);
	/* (the _w8 build's primitives take any width up to 64) */
	assert_true(cnum_smin(a, 32) == -4 && cnum_smax(a, 32) == 4);
	assert_true(cnum_umin(a, 32) == 0 && cnum_umax(a, 32) == 0xFFFFFFFFu);

	const struct rb_tracker *cn = rb_tracker_get("cnum", 64), *old = rb_tracker_get("old", 64);
	assert_non_null(cn);
	struct rb_bounds b = {.umin = 0, .umax = UINT64_MAX, .smin = INT64_MIN, .smax = INT64_MAX,
			      .u32_min = 0, .u32_max = UINT32_MAX, .s32_min = -4, .s32_max = 4,
			      .var_off = {0, UINT64_MAX}};
	rb_val v, k;
	char buf[256];
	cn->from_bounds(&v, &b);
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "smin32=-4,smax32=4");
	struct rb_bounds got;
	cn->bounds(&v, &got);
	assert_true(got.s32_min == -4 && got.s32_max == 4 && got.u32_min == 0 && got.u32_max == UINT32_MAX);

	/* w += 0x80000000: the arc moves to {0x7FFFFFFC, 8}: u32 tight, s32
	 * wraps. The old tracker's u32 and s32 ranges both overflow. */
	struct rb_alu add32 = {BPF_ALU | BPF_ADD | BPF_X, 0, 0};
	cn->constant(&k, 0x80000000u);
	cn->alu(&v, &k, &add32);
	cn->bounds(&v, &got);
	assert_true(got.u32_min == 0x7FFFFFFCu && got.u32_max == 0x80000004u);
	assert_true(got.umin == 0x7FFFFFFCu && got.umax == 0x80000004u); /* zero-extended */
	assert_true(got.smin == 0x7FFFFFFC && got.smax == 0x80000004);
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "smin=umin=umin32=0x7ffffffc,smax=umax=umax32=0x80000004,"
				 "var_off=(0x0; 0xffffffff)");
	if (old) {
		rb_val o, ok;
		struct rb_bounds ob;
		old->from_bounds(&o, &b);
		old->print(&o, buf, sizeof(buf));
		assert_string_equal(buf, "smin32=-4,smax32=4"); /* same start */
		old->constant(&ok, 0x80000000u);
		old->alu(&o, &ok, &add32);
		old->bounds(&o, &ob);
		/* looser than cnum: 0x7FFFFFFB..0x80000005 cannot be excluded */
		assert_true(ob.u32_max - ob.u32_min > got.u32_max - got.u32_min);
		assert_true(old->contains(&o, 0x12345678) && !cn->contains(&v, 0x12345678));
	}
}

/* An arc emptied by the tnum: mainline's __update_reg64_bounds runs its
 * single-value test on the empty arc (read as [0, U64_MAX]) and a constant
 * tnum c != 0 makes the register the constant c again; "cnum" keeps the
 * outcome dead. Here "r1 = 0; if r1 & 4": JSET sets bit 2 of the tnum
 * (now the constant 4) while the arc is still [0, 0]. */
static void test_mainline_empty_to_const(void **state)
{
	(void)state;
	static const unsigned widths[] = {64, 8};
	for (unsigned w = 0; w < 2; w++) {
		const struct rb_tracker *ml = rb_tracker_get("cnum-mainline", widths[w]);
		const struct rb_tracker *cn = rb_tracker_get("cnum", widths[w]);
		assert_non_null(ml);
		assert_non_null(cn);
		rb_val a, k;
		ml->constant(&a, 0);
		ml->constant(&k, 4);
		assert_true(ml->branch_refine(&a, &k, BPF_JSET, false));
		assert_true(ml->is_const(&a) && ml->contains(&a, 4) && !ml->contains(&a, 0));
		/* 0 stays dead: the empty arc's umin 0 is a member of tnum 0 and
		 * no member follows it */
		ml->constant(&a, 0);
		ml->constant(&k, 0);
		assert_false(ml->branch_refine(&a, &k, BPF_JNE, false));
		cn->constant(&a, 0);
		cn->constant(&k, 4);
		assert_false(cn->branch_refine(&a, &k, BPF_JSET, false));
	}
}

/* "r op r", one register compared with itself: cnum-mainline answers as
 * Linux 7.2.13's is_scalar_branch_taken() does for reg1 == reg2 (the
 * orderings with equality and JEQ always, the strict ones and JNE never,
 * JSET by the constant or by 0 lying outside the signed bounds), sound on
 * every member of every input at both compared widths; "cnum" (6.18)
 * leaves "r op r" to branch_taken/branch_refine with the value twice. */
static void test_mainline_same_register8(void **state)
{
	(void)state;
	const struct rb_tracker *ml = rb_tracker_get("cnum-mainline", 8);
	const struct rb_tracker *cn = rb_tracker_get("cnum", 8);
	assert_non_null(ml);
	assert_non_null(cn);
	assert_null(cn->branch_taken_same);
	assert_non_null(ml->branch_taken_same);
	const struct rb_concrete *c = ml->concrete;
	static struct absval in[32];
	size_t n = make_inputs(ml, in);
	unsigned jset_decided = 0, jset_open = 0;
	for (int is32 = 0; is32 < 2; is32++)
		for (size_t o = 0; o < sizeof(jops); o++)
			for (size_t i = 0; i < n; i++) {
				int got = ml->branch_taken_same(&in[i].v, jops[o], is32);
				bool jset = jops[o] == BPF_JSET || jops[o] == RB_JSET_FALSE;
				if (!jset) {
					bool holds = c->jmp(0, 0, jops[o], is32);
					assert_int_equal(got, holds ? RB_BR_ALWAYS : RB_BR_NEVER);
				} else {
					/* may the compared bits be 0? exactly when
					 * undecided, unless the value is constant */
					struct rb_bounds b;
					ml->bounds(&in[i].v, &b);
					int64_t lo = is32 ? b.s32_min : b.smin, hi = is32 ? b.s32_max : b.smax;
					uint64_t m = is32 ? (UINT64_C(1) << ml->subbits) - 1 : UINT64_MAX;
					if (!(b.var_off.mask & m))
						assert_true(got != RB_BR_UNKNOWN);
					else
						assert_int_equal(got == RB_BR_UNKNOWN, lo <= 0 && hi >= 0);
					jset_decided += got != RB_BR_UNKNOWN;
					jset_open += got == RB_BR_UNKNOWN;
				}
				/* sound: every member x agrees with "x op x" */
				for (unsigned x = 0; x < in[i].n; x++) {
					bool h = c->jmp(in[i].mem[x], in[i].mem[x], jops[o], is32);
					if (got == RB_BR_NEVER)
						assert_false(h);
					if (got == RB_BR_ALWAYS)
						assert_true(h);
				}
			}
	assert_true(jset_decided > 10 && jset_open > 10);
}

/* make_inputs() and values reached from them by random ALU, MOVSX and
 * truncation steps (some leave the register unsynced, as mainline's
 * coerce_reg_to_size_sx does), up to cap values of more than one member */
static size_t walk_inputs(const struct rb_tracker *ml, struct absval *in, size_t cap)
{
	size_t n0 = make_inputs(ml, in), n = n0;
	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_OR, BPF_AND, BPF_XOR,
				      BPF_LSH, BPF_RSH, BPF_ARSH, BPF_NEG};
	uint64_t rng = 0x9e3779b97f4a7c15u;
	while (n < cap) {
		rb_val v = in[rng % n0].v;
		for (int k = 0; k < 4; k++) {
			rng = rng * 6364136223846793005u + 1442695040888963407u;
			unsigned r = (unsigned)(rng >> 33);
			struct rb_alu op = {.code = (uint8_t)((r & 1 ? BPF_ALU64 : BPF_ALU) | ops[(r >> 1) % sizeof(ops)] |
							      BPF_X)};
			if (r % 7 == 0)
				ml->truncate(&v, (r >> 4) & 1 ? 8 : 16, true);
			else if (r % 7 == 1)
				op = (struct rb_alu){.code = BPF_ALU64 | BPF_MOV | BPF_X, .off = 8};
			if (r % 7 != 0)
				ml->alu(&v, &in[(r >> 8) % n0].v, &op);
		}
		in[n].v = v;
		members(ml, &in[n]);
		if (in[n].n > 1)
			n++;
	}
	return n;
}

/* cnum-mainline: JSET without a constant operand. Linux 7.2.13 returns
 * from is_scalar_branch_taken() before simulate_both_branches_taken(), so
 * both outcomes keep plain copies (neither refined nor synced); the engine
 * calls branch_refine, which refines nothing here and syncs. Equal only
 * because reg_bounds_sync is idempotent on every value the tracker makes:
 * checked bit for bit on make_inputs() and values reached from them by
 * random ALU, MOVSX and truncation steps (some leave the register
 * unsynced, as mainline's coerce_reg_to_size_sx does). */
static void test_mainline_jset_no_const8(void **state)
{
	(void)state;
	const struct rb_tracker *ml = rb_tracker_get("cnum-mainline", 8);
	static struct absval in[256];
	size_t n = walk_inputs(ml, in, ARRAY_SIZE(in));
	for (int is32 = 0; is32 < 2; is32++)
		for (int f = 0; f < 2; f++)
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++) {
					if (ml->is_const(&in[i].v) || ml->is_const(&in[j].v))
						continue;
					struct rb_bounds bi, bj;
					ml->bounds(&in[i].v, &bi);
					ml->bounds(&in[j].v, &bj);
					uint64_t m = (UINT64_C(1) << ml->subbits) - 1;
					if (is32 && (!(bi.var_off.mask & m) || !(bj.var_off.mask & m)))
						continue;
					rb_val a = in[i].v, b = in[j].v;
					assert_true(ml->branch_refine(&a, &b, f ? RB_JSET_FALSE : BPF_JSET, is32));
					assert_memory_equal(&a, &in[i].v, ml->val_size);
					assert_memory_equal(&b, &in[j].v, ml->val_size);
				}
}

/* A 64-bit register copy (ALU64 MOV, BPF_X or BPF_K, off 0) takes
 * cn_alu's shortcut: the source's five words (reg.h's layout, val_size
 * at 64 bits), exactly, and nothing past them (the engine's 40-byte slots
 * hold no more). Both builds, on make_inputs() and walk_inputs() values,
 * each copied over every other. */
static void test_tracker_mov_copy8(void **state)
{
	(void)state;
	static const char *const names[] = {"cnum", "cnum-mainline"};
	static struct absval in[128];
	assert_int_equal(rb_tracker_get("cnum", 64)->val_size, 5 * sizeof(uint64_t));
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		const struct rb_tracker *t = rb_tracker_get(names[k], 8);
		assert_non_null(t);
		size_t n = walk_inputs(t, in, ARRAY_SIZE(in));
		for (int x = 0; x < 2; x++) {
			struct rb_alu op = {.code = (uint8_t)(BPF_ALU64 | BPF_MOV | (x ? BPF_X : BPF_K))};
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++) {
					rb_val d = in[i].v, want = in[j].v;
					for (int w = 5; w < RB_VAL_WORDS; w++)
						d.w[w] = want.w[w] = 0xa5a5a5a5a5a5a5a5u ^ (uint64_t)w;
					t->alu(&d, &in[j].v, &op);
					assert_memory_equal(&d, &want, sizeof(d));
				}
		}
	}
}

/* cnum-mainline's branch_taken answers "unknown" without simulating both
 * outcomes when it finds concrete values taking the jump and others not
 * (branch.c both_outcomes_seen). The simulation answers "unknown" exactly
 * when refining by each outcome leaves no arc empty, so wherever
 * branch_taken says "unknown" and the simulation would have run (any
 * ordering, JEQ, JNE; JSET with a constant operand), both refinements must
 * succeed: a fast path that hid a decided outcome fails here. Every pair of
 * walk_inputs() values, every jump, both widths. */
static uint8_t negate_jop(uint8_t jop)
{
	switch (jop) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JSET: return RB_JSET_FALSE;
	case RB_JSET_FALSE: return BPF_JSET;
	case BPF_JGT: return BPF_JLE;
	case BPF_JLE: return BPF_JGT;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLT: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSGE: return BPF_JSLT;
	default: return BPF_JSGE; /* BPF_JSLT */
	}
}

static void test_mainline_taken_witness8(void **state)
{
	(void)state;
	const struct rb_tracker *ml = rb_tracker_get("cnum-mainline", 8);
	static struct absval in[256];
	size_t n = walk_inputs(ml, in, ARRAY_SIZE(in));
	const uint64_t m = (UINT64_C(1) << ml->subbits) - 1;
	unsigned open = 0, decided = 0;
	for (int is32 = 0; is32 < 2; is32++)
		for (size_t o = 0; o < sizeof(jops); o++)
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++) {
					int r = ml->branch_taken(&in[i].v, &in[j].v, jops[o], is32);
					if (r != RB_BR_UNKNOWN) {
						decided++;
						continue;
					}
					if (jops[o] == BPF_JSET || jops[o] == RB_JSET_FALSE) {
						struct rb_bounds bi, bj;
						ml->bounds(&in[i].v, &bi);
						ml->bounds(&in[j].v, &bj);
						uint64_t w = is32 ? m : UINT64_MAX;
						if ((bi.var_off.mask & w) && (bj.var_off.mask & w))
							continue; /* no constant: not simulated */
					}
					rb_val a = in[i].v, b = in[j].v, a2 = in[i].v, b2 = in[j].v;
					bool t = ml->branch_refine(&a, &b, jops[o], is32);
					bool f = ml->branch_refine(&a2, &b2, negate_jop(jops[o]), is32);
					if (!t || !f)
						print_error("jop %#x is32 %d inputs %zu, %zu: unknown, but refining %s fails\n",
							    jops[o], is32, i, j, t ? "the fall-through" : "the taken branch");
					assert_true(t && f);
					open++;
				}
	print_message("%u pairs unknown (checked), %u decided\n", open, decided);
	assert_true(open > 10000 && decided > 10000);
}

static void test_example_add_2_63(void **state)
{
	(void)state;
	/* [2^63 - 5, 2^63 + 5] straddles 2^63 (S64_MAX -> S64_MIN): tight as
	 * unsigned, unbounded as signed. Adding 2^63 moves it to [-5, 5]:
	 * tight as signed, unbounded as unsigned. cnum keeps 11 values. */
	const struct rb_tracker *cn = rb_tracker_get("cnum", 64), *old = rb_tracker_get("old", 64);
	const uint64_t h = UINT64_C(1) << 63;
	uint64_t vals[11];
	for (int i = 0; i < 11; i++)
		vals[i] = h - 5 + (uint64_t)i;
	rb_val v, k;
	cn->from_set(&v, vals, 11);
	struct rb_bounds b;
	cn->bounds(&v, &b);
	assert_true(b.umin == h - 5 && b.umax == h + 5);
	assert_true(b.smin == INT64_MIN && b.smax == INT64_MAX);

	struct rb_alu add64 = {BPF_ALU64 | BPF_ADD | BPF_X, 0, 0};
	cn->constant(&k, h);
	cn->alu(&v, &k, &add64);
	struct rb_bounds got;
	cn->bounds(&v, &got);
	assert_int_equal(got.smin, -5);
	assert_int_equal(got.smax, 5);
	assert_true(got.umin == 0 && got.umax == UINT64_MAX);
	assert_true(cn->contains(&v, (uint64_t)-5) && cn->contains(&v, 5));
	assert_false(cn->contains(&v, 6));
	assert_false(cn->contains(&v, (uint64_t)-6));
	if (old) {
		rb_val o, ok;
		struct rb_bounds ob;
		old->from_bounds(&o, &b);
		old->constant(&ok, h);
		old->alu(&o, &ok, &add64);
		old->bounds(&o, &ob);
		/* the old tracker's signed and unsigned sums both overflow */
		assert_true(ob.smin < -5 || ob.smax > 5);
		/* only the 32-bit range survives there: 2^32 + 1 is kept */
		assert_true(old->contains(&o, (UINT64_C(1) << 32) + 1));
		assert_false(cn->contains(&v, (UINT64_C(1) << 32) + 1));
	}
}

/* the 6.18 print syntax through the conversions */
/* from_set_best is false for a reason: at 8 bits the set {152, 158}
 * has a value of the domain with fewer members than from_set's (a longer
 * subregister arc, [14..8] rather than [8..14], that the tnum meets in
 * fewer places), so no census may require from_set to be unbeaten */
static void test_from_set_not_smallest8(void **state)
{
	(void)state;
	static const uint64_t set[] = {152, 158};
	const char *names[] = {"cnum", "cnum-mainline"};
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		const struct rb_tracker *t = rb_tracker_get(names[k], 8);
		assert_non_null(t);
		assert_false(t->from_set_best);
		rb_val fs, small = {{0x98, 0x6, 152, 6, 14 | (uint64_t)10 << 32}};
		t->from_set(&fs, set, ARRAY_SIZE(set));
		unsigned nfs = 0, nsmall = 0;
		for (uint64_t x = 0; x < 256; x++) {
			nfs += t->contains(&fs, x);
			nsmall += t->contains(&small, x);
		}
		for (size_t i = 0; i < ARRAY_SIZE(set); i++) {
			assert_true(t->contains(&fs, set[i]));
			assert_true(t->contains(&small, set[i]));
		}
		assert_int_equal(nfs, 4);
		assert_int_equal(nsmall, 2);
	}
	/* old's four ranges each have one smallest member: its from_set is */
	assert_true(rb_tracker_get("old", 8)->from_set_best);
}

static void test_print(void **state)
{
	(void)state;
	const struct rb_tracker *cn = rb_tracker_get("cnum", 64);
	rb_val v;
	char buf[256];
	cn->constant(&v, 5);
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "5");
	cn->constant(&v, (uint64_t)-1);
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "-1");
	cn->unknown(&v);
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* "if r1 > 8" fall-through from a u32 load: the kernel prints
	 * smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf) */
	struct rb_bounds b = {.umin = 0, .umax = 0xffffffff, .smin = 0, .smax = 0xffffffff,
			      .u32_min = 0, .u32_max = UINT32_MAX, .s32_min = INT32_MIN, .s32_max = INT32_MAX,
			      .var_off = {0, 0xffffffff}};
	cn->from_bounds(&v, &b);
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff)");
	rb_val k;
	cn->constant(&k, 8);
	assert_true(cn->branch_refine(&v, &k, BPF_JLE, false));
	cn->print(&v, buf, sizeof(buf));
	assert_string_equal(buf, "smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf)");
	assert_int_equal(cn->val_size, 40);
}

/* the shared printer (print_bounds.c) over hand-made bounds (kernel 6.18 log.c rules) */
int rb_print_bounds_w64(const struct rb_bounds *b, char *buf, size_t len);
int rb_print_bounds_w32(const struct rb_bounds *b, char *buf, size_t len);

static void test_print_rules(void **state)
{
	(void)state;
	char buf[256];
	/* hex for values outside the 16-bit range; a negative 64-bit value
	 * never merges with an unsigned one; 32-bit hex has no sign */
	struct rb_bounds b = {.smin = -(INT64_C(1) << 31) - 2, .smax = 32769, .umin = 0, .umax = UINT64_MAX,
			      .s32_min = -32770, .s32_max = 0x7ffffffe, .u32_min = 0, .u32_max = UINT32_MAX,
			      .var_off = {0, UINT64_MAX}};
	rb_print_bounds_w64(&b, buf, sizeof(buf));
	assert_string_equal(buf, "smin=0xffffffff7ffffffe,smax=0x8001,smin32=0xffff7ffe,smax32=0x7ffffffe");
	/* equal bits merge only with the same sign */
	b = (struct rb_bounds){.smin = -2, .smax = 10, .umin = 0, .umax = UINT64_MAX, .s32_min = -2,
			       .s32_max = 10, .u32_min = 0, .u32_max = UINT32_MAX, .var_off = {0, UINT64_MAX}};
	rb_print_bounds_w64(&b, buf, sizeof(buf));
	assert_string_equal(buf, "smin=smin32=-2,smax=smax32=10");
	b.s32_min = INT32_MIN + 1;
	b.u32_min = 0x80000001u;
	b.u32_max = 0x80000001u;
	b.s32_max = INT32_MIN + 1;
	rb_print_bounds_w64(&b, buf, sizeof(buf));
	assert_string_equal(buf, "smin=-2,smax=10,smin32=umin32=0x80000001,smax32=umax32=0x80000001");
	/* at 32 bits the register is 32 bits wide and the subregister 16 */
	b = (struct rb_bounds){.smin = -40000, .smax = -1, .umin = 0xffff63c0u, .umax = 0xffffffffu,
			       .s32_min = -16, .s32_max = -1, .u32_min = 0xfff0, .u32_max = 0xffff,
			       .var_off = {0xffff0000u, 0xffff}};
	rb_print_bounds_w32(&b, buf, sizeof(buf));
	assert_string_equal(buf, "smin=0xffff63c0,smax=smax32=-1,umin=0xffff63c0,smin32=-16,umin32=65520,"
				 "var_off=(0xffff0000; 0xffff)");
}

/* wherever the two trackers hold the same eight bounds, they print the
 * same text */
static void test_print_vs_old(void **state)
{
	(void)state;
	static const uint64_t pts[] = {0, 1, 5, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
				       0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
				       0x8000000000000000ull, UINT64_MAX, (uint64_t)-5, (uint64_t)-0x8001};
	static const unsigned widths[] = {64, 32, 8};
	uint64_t seed = 88172645463325252ull;
	for (size_t w = 0; w < 3; w++) {
		const struct rb_tracker *cn = rb_tracker_get("cnum", widths[w]);
		const struct rb_tracker *old = rb_tracker_get("old", widths[w]);
		if (!old)
			skip();
		unsigned compared = 0;
		for (int it = 0; it < 20000; it++) {
			uint64_t vals[3];
			size_t n = 1 + (size_t)(it % 3);
			for (size_t i = 0; i < n; i++) {
				seed ^= seed << 13;
				seed ^= seed >> 7;
				seed ^= seed << 17;
				vals[i] = (seed & 3) ? pts[(seed >> 8) % 16] + ((seed >> 20) % 7) - 3 : seed;
			}
			rb_val v, o;
			struct rb_bounds b, ob;
			cn->from_set(&v, vals, n);
			cn->bounds(&v, &b);
			old->from_bounds(&o, &b);
			old->bounds(&o, &ob);
			if (memcmp(&b, &ob, sizeof(b)) != 0)
				continue;
			char p1[256], p2[256];
			cn->print(&v, p1, sizeof(p1));
			old->print(&o, p2, sizeof(p2));
			assert_string_equal(p1, p2);
			compared++;
		}
		assert_true(compared > 5000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arc_conversions),
		cmocka_unit_test(test_arc_pairs),
		cmocka_unit_test(test_arc_pairs8),
		cmocka_unit_test(test_arc_neg),
		cmocka_unit_test(test_arc_projections),
		cmocka_unit_test(test_arc_from_set),
		cmocka_unit_test(test_tnum_step),
		cmocka_unit_test(test_tracker_alu8),
		cmocka_unit_test(test_tracker_branch8),
		cmocka_unit_test(test_tracker_sets8),
		cmocka_unit_test(test_tracker_subset_exact8),
		cmocka_unit_test(test_from_set_not_smallest8),
		cmocka_unit_test(test_example_s32_wrap),
		cmocka_unit_test(test_example_add_2_63),
		cmocka_unit_test(test_mainline_empty_to_const),
		cmocka_unit_test(test_mainline_same_register8),
		cmocka_unit_test(test_mainline_jset_no_const8),
		cmocka_unit_test(test_tracker_mov_copy8),
		cmocka_unit_test(test_mainline_taken_witness8),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_print_rules),
		cmocka_unit_test(test_print_vs_old),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
