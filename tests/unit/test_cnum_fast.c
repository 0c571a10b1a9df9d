/* test_cnum_fast.c — the cnum trackers' fast paths against the step-by-step
 * references they replace, at RB_BITS=8 (4-bit subregister):
 *   - creg_sync() against creg_sync_ref(), mainline's reg_bounds_sync(),
 *     in both builds ("cnum" and "cnum-mainline", whose single-value
 *     collapse differs), and the deduction's idempotence that lets the
 *     sync run it once;
 *   - creg_coerce() and creg_coerce_val() against creg_coerce_ref() (a
 *     zero-extending load narrower than the subregister: its sync worked
 *     out, its common outcomes on the stored words), both builds,
 *     and its "another sync changes nothing" answer, also at 16 bits;
 *   - creg_zext_sync() (an ALU32 result) against creg_zext() then
 *     creg_sync_ref(), both builds, at 8 bits and 16 bits;
 *   - creg_sync_updated() against creg_sync_ref() on what
 *     creg_update_bounds() leaves (64-bit AND, OR and shifts);
 *   - cnum_mul() against cnum_mul_ref();
 *   - the "cnum" build's branch_taken against Linux 6.18's tests
 *     (rb_bounds_branch_taken) on the bounds the arcs convert to.
 * For the sync, every state is a tnum and two arcs:
 *   - every tnum with every 4-bit arc, two 8-bit arcs in turn from a list
 *     made from them (full, empty, the tnum's unsigned and signed ranges,
 *     the 4-bit arc zero- and sign-extended, its unsigned range, and
 *     random arcs);
 *   - every 8-bit arc with a quarter of the 4-bit arcs (in turn), the tnum
 *     unknown, the tnum of the 8-bit arc's unsigned range, or a random one;
 *   - random states, some with a malformed tnum (value bits inside the
 *     mask).
 * (All 1.1e11 states would take hours; every pair above once with each
 * choice, 64 million states, passed when the fast paths were written, in
 * 18 s of CPU.)
 * The fast paths (a constant and the unknown value returned at once, the
 * second deduction only after a change, the last __update_reg_bounds
 * skipped when nothing moved since the first) each meet many of these
 * states; a broken one (tried: see the commit message) fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "xorshift.h"

#define RB_BITS 8
#include "tracker/branch_taken.h"
#include "tracker/cnum/reg.h"
#include "tnum_enum.h"

/* the "cnum-mainline" build of the same functions (variant.h: CN_SYM
 * adds _ml), on the same struct creg */
void creg_sync_ml_w8(struct creg *r);
void creg_sync_ref_ml_w8(struct creg *r);
void creg_coerce_ml_w8(struct creg *r, unsigned size_bits);
bool creg_coerce_low_ml_w8(struct creg *r, unsigned size_bits);
void creg_coerce_val_ml_w8(rb_val *v, unsigned size_bits);
void creg_coerce_ref_ml_w8(struct creg *r, unsigned size_bits);
void creg_zext_ml_w8(struct creg *r);
void creg_update_bounds_ml_w8(struct creg *r);
void creg_sync_updated_ml_w8(struct creg *r);
void creg_zext_sync_ml_w8(struct creg *r);
/* the 16-bit builds (8-bit subregister), where a second sync after a
 * narrowing can change the state, which it never does at 8 bits */
bool creg_coerce_low_w16(struct creg *r, unsigned size_bits);
void creg_coerce_ref_w16(struct creg *r, unsigned size_bits);
void creg_sync_ref_w16(struct creg *r);
bool creg_coerce_low_ml_w16(struct creg *r, unsigned size_bits);
void creg_coerce_ref_ml_w16(struct creg *r, unsigned size_bits);
void creg_sync_ref_ml_w16(struct creg *r);
void creg_zext_w16(struct creg *r);
void creg_zext_sync_w16(struct creg *r);
void creg_zext_ml_w16(struct creg *r);
void creg_zext_sync_ml_w16(struct creg *r);

#define N_TNUMS 6561u /* 3^8 */
#define N_ARC8 (256u * 255u + 2u)
#define N_ARC4 (16u * 15u + 2u)

/* every arc of a width: each base with each size short of the circle,
 * then the full circle (base 0) and the empty arc */
static struct cnum arc_nth(unsigned i, unsigned bits)
{
	uint64_t n = UINT64_C(1) << bits, m = n - 1;
	if (i < n * m)
		return (struct cnum){i % n, i / n};
	if (i == n * m)
		return (struct cnum){0, m};
	return (struct cnum){m, m};
}

static bool same(const struct creg *a, const struct creg *b)
{
	return a->var_off.value == b->var_off.value && a->var_off.mask == b->var_off.mask &&
	       cnum_equal(a->r64, b->r64) && cnum_equal(a->r32, b->r32);
}

static void show(const char *what, const struct creg *r)
{
	print_error("%s: var_off (%#llx; %#llx) r64 {%#llx, %#llx} r32 {%#llx, %#llx}\n", what,
		    (unsigned long long)r->var_off.value, (unsigned long long)r->var_off.mask,
		    (unsigned long long)r->r64.base, (unsigned long long)r->r64.size,
		    (unsigned long long)r->r32.base, (unsigned long long)r->r32.size);
}

struct tally {
	unsigned long states, unchanged, to_const, emptied;
};

/* one state through both builds' sync and reference */
static void check(const struct creg *in, struct tally *n)
{
	struct creg fast = *in, ref = *in, mfast = *in, mref = *in;
	creg_sync(&fast);
	creg_sync_ref(&ref);
	creg_sync_ml_w8(&mfast);
	creg_sync_ref_ml_w8(&mref);
	if (!same(&fast, &ref) || !same(&mfast, &mref)) {
		show("input", in);
		show("cnum creg_sync", &fast);
		show("cnum creg_sync_ref", &ref);
		show("cnum-mainline creg_sync", &mfast);
		show("cnum-mainline creg_sync_ref", &mref);
		fail();
	}
	n->states++;
	n->unchanged += same(&ref, in);
	n->to_const += !ref.var_off.mask && !ref.r64.size && in->var_off.mask;
	n->emptied += creg_violation(&ref) && !creg_violation(in);
}

static struct cnum rnd_arc(struct rng *g, unsigned bits)
{
	uint64_t n = UINT64_C(1) << bits;
	return arc_nth((unsigned)(rnd(g) % (n * (n - 1) + 2)), bits);
}

static void report(const char *what, const struct tally *n)
{
	print_message("%s: %lu states, %lu left as they were, %lu became constants, %lu lost an arc\n",
		      what, n->states, n->unchanged, n->to_const, n->emptied);
}

/* every tnum with every 4-bit arc and a list of 8-bit arcs */
static void test_sync_tnums8(void **state)
{
	(void)state;
	struct rng g = {0x2545f4914f6cdd1dull};
	struct tally n = {0};
	for (unsigned i = 0; i < N_TNUMS; i++) {
		struct tnum t = tnum_nth(i);
		for (unsigned j = 0; j < N_ARC4; j++) {
			struct cnum r32 = arc_nth(j, RH);
			uint64_t lo = cnum_umin(r32, RH), hi = cnum_umax(r32, RH);
			struct cnum r64s[] = {
				cnum_full(RW),
				cnum_empty(RW),
				cnum_from_urange(tnum_umin(t), tnum_umax(t), RW),
				cnum_from_srange(wsext(t.value | (t.mask & ~(W_MASK >> 1))),
						 wsext(t.value | (t.mask & (W_MASK >> 1))), RW),
				cnum_is_empty(r32, RH) ? cnum_full(RW) : (struct cnum){r32.base, r32.size},
				cnum_from_srange(hsext(r32.base), hsext(r32.base + r32.size), RW),
				cnum_from_urange(lo, hi, RW),
				rnd_arc(&g, RW),
				rnd_arc(&g, RW),
			};
			/* two of the list per pair, in turn */
			size_t nk = sizeof(r64s) / sizeof(r64s[0]), k = (i + j) % nk;
			struct creg r = {t, r64s[k], r32};
			check(&r, &n);
			r.r64 = r64s[(k + 1 + (i + 3 * j) % (nk - 1)) % nk];
			check(&r, &n);
		}
	}
	report("tnums", &n);
	assert_true(n.unchanged > 300000 && n.to_const > 100000 && n.emptied > 500000);
}

/* every 8-bit arc with every 4-bit arc */
static void test_sync_arcs8(void **state)
{
	(void)state;
	struct rng g = {0x9e3779b97f4a7c15ull};
	struct tally n = {0};
	for (unsigned i = 0; i < N_ARC8; i++) {
		struct cnum r64 = arc_nth(i, RW);
		struct tnum ts[] = {
			TNUM_C(0, W_MASK),
			tnum_range(cnum_umin(r64, RW), cnum_umax(r64, RW)),
			tnum_nth((unsigned)(rnd(&g) % N_TNUMS)),
		};
		/* a quarter of the 4-bit arcs, in turn, each with one of the
		 * three tnums */
		for (unsigned j = i % 4; j < N_ARC4; j += 4) {
			struct creg r = {ts[(i / 4 + j) % 3], r64, arc_nth(j, RH)};
			check(&r, &n);
		}
	}
	report("arcs", &n);
	assert_true(n.unchanged > 300000 && n.to_const > 100000 && n.emptied > 500000);
}

/* random states */
static void test_sync_random8(void **state)
{
	(void)state;
	struct rng g = {0x853c49e6748fea9bull};
	struct tally n = {0};
	for (unsigned i = 0; i < 1000000; i++) {
		struct creg r = {tnum_nth((unsigned)(rnd(&g) % N_TNUMS)), rnd_arc(&g, RW), rnd_arc(&g, RH)};
		/* a quarter with a tnum whose value has bits inside its mask
		 * (no tnum operation makes one; the fast paths must still
		 * agree), the mask's low half or all of it unknown */
		if (i % 4 == 0)
			r.var_off = TNUM_C(rnd(&g) & W_MASK, i % 8 ? H_MASK : W_MASK);
		check(&r, &n);
	}
	report("random", &n);
	assert_true(n.unchanged > 1000 && n.to_const > 1000 && n.emptied > 100000);
}

/* creg_coerce() against creg_coerce_ref(), in both builds, for the two
 * sizes below the subregister (8 and 16 BPF bits: 1 and 2 bits here) */
struct coerce_tally {
	unsigned long states, to_const, dead, tnum_moved, stable, resync_moves;
};

static void check_coerce(const struct creg *in, unsigned size_bits, struct coerce_tally *n)
{
	struct creg fast = *in, ref = *in, mfast = *in, mref = *in, low = *in, mlow = *in;
	creg_coerce(&fast, size_bits);
	creg_coerce_ml_w8(&mfast, size_bits);
	bool stable = creg_coerce_low(&low, size_bits), mstable = creg_coerce_low_ml_w8(&mlow, size_bits);
	creg_coerce_ref(&ref, size_bits);
	creg_coerce_ref_ml_w8(&mref, size_bits);
	/* the load's own entry, on the stored words (its shortcuts) */
	rb_val val, mval;
	creg_store(&val, in);
	creg_store(&mval, in);
	creg_coerce_val(&val, size_bits);
	creg_coerce_val_ml_w8(&mval, size_bits);
	struct creg fval = creg_load(&val), mfval = creg_load(&mval);
	/* "stable": a sync would change nothing (the ALU's END skips it) */
	struct creg again = ref, magain = mref;
	creg_sync_ref(&again);
	creg_sync_ref_ml_w8(&magain);
	if (!same(&fast, &ref) || !same(&mfast, &mref) || !same(&low, &ref) || !same(&mlow, &mref) ||
	    !same(&fval, &ref) || !same(&mfval, &mref) ||
	    (stable && !same(&again, &ref)) ||
	    (mstable && !same(&magain, &mref))) {
		print_error("stable %d, cnum-mainline stable %d\n", stable, mstable);
		print_error("size %u\n", size_bits);
		show("input", in);
		show("cnum creg_coerce", &fast);
		show("cnum creg_coerce_ref", &ref);
		show("cnum-mainline creg_coerce", &mfast);
		show("cnum-mainline creg_coerce_ref", &mref);
		show("cnum creg_coerce_val", &fval);
		show("cnum-mainline creg_coerce_val", &mfval);
		fail();
	}
	struct tnum t = tnum_cast_bits(in->var_off, W_SCALE(size_bits));
	n->states++;
	n->to_const += !ref.var_off.mask && t.mask;
	n->dead += creg_violation(&ref) || creg_violation(&mref);
	n->tnum_moved += !tnum_equal(ref.var_off, t) && !creg_violation(&ref) && ref.var_off.mask;
	n->stable += stable && mstable;
	n->resync_moves += !same(&again, &ref) || !same(&magain, &mref);
}

/* every 8-bit arc with every tnum of the low three bits (the rest of the
 * tnum random) and a 4-bit arc in turn; then every tnum with every 8-bit
 * arc of a list; then random states, a quarter with a malformed tnum */
static void test_coerce_low8(void **state)
{
	(void)state;
	static const unsigned sizes[] = {8, 16};
	struct rng g = {0x6a09e667f3bcc908ull};
	struct coerce_tally n = {0};
	for (unsigned i = 0; i < N_ARC8; i++) {
		struct cnum r64 = arc_nth(i, RW);
		for (unsigned j = 0; j < 27; j++) {
			struct tnum hi = tnum_nth((unsigned)(rnd(&g) % N_TNUMS));
			struct tnum lo = tnum_nth(j);
			struct creg r = {TNUM_C(lo.value | (hi.value & ~UINT64_C(7)), lo.mask | (hi.mask & ~UINT64_C(7))),
					 r64, arc_nth((i + j) % N_ARC4, RH)};
			for (unsigned k = 0; k < 2; k++)
				check_coerce(&r, sizes[k], &n);
		}
	}
	for (unsigned i = 0; i < N_TNUMS; i++) {
		struct tnum t = tnum_nth(i);
		struct cnum r64s[] = {
			cnum_full(RW),
			cnum_empty(RW),
			cnum_from_urange(tnum_umin(t), tnum_umax(t), RW),
			cnum_from_urange(tnum_umin(t) & 3, tnum_umax(t) & 3, RW),
			rnd_arc(&g, RW),
			rnd_arc(&g, RW),
			rnd_arc(&g, RW),
			rnd_arc(&g, RW),
		};
		for (size_t j = 0; j < sizeof(r64s) / sizeof(r64s[0]); j++) {
			struct creg r = {t, r64s[j], rnd_arc(&g, RH)};
			for (unsigned k = 0; k < 2; k++)
				check_coerce(&r, sizes[k], &n);
		}
	}
	for (unsigned i = 0; i < 200000; i++) {
		struct creg r = {tnum_nth((unsigned)(rnd(&g) % N_TNUMS)), rnd_arc(&g, RW), rnd_arc(&g, RH)};
		if (i % 4 == 0)
			r.var_off = TNUM_C(rnd(&g) & W_MASK, rnd(&g) & W_MASK);
		check_coerce(&r, sizes[i % 2], &n);
	}
	print_message("coerce: %lu states, %lu became constants, %lu dead, %lu with a tnum narrowed by the range, "
		      "%lu stable, %lu moved by another sync\n",
		      n.states, n.to_const, n.dead, n.tnum_moved, n.stable, n.resync_moves);
	assert_true(n.to_const > 10000 && n.dead > 4000 && n.tnum_moved > 200 && n.stable > 1000000);
}

/* the same at 16 bits (sizes 8 and 16: 2 and 4 bits), where another sync
 * does move some narrowed states: every tnum of the low six bits (the
 * rest random) with every 64-bit arc [lo, hi] of 4-bit ends under a
 * random common high part (an eighth of them a random arc instead) */
static void test_coerce_stable16(void **state)
{
	(void)state;
	struct rng g = {0xbb67ae8584caa73bull};
	unsigned long states = 0, stable = 0, moved = 0;
	for (unsigned sz = 8; sz <= 16; sz += 8)
		for (unsigned i = 0; i < 729; i++) {
			uint64_t v = 0, m = 0;
			for (unsigned b = 0, x = i; b < 6; b++, x /= 3) {
				if (x % 3 == 1)
					v |= UINT64_C(1) << b;
				else if (x % 3 == 2)
					m |= UINT64_C(1) << b;
			}
			uint64_t hm = rnd(&g) & 0xffc0;
			v |= rnd(&g) & 0xffc0 & ~hm;
			m |= hm;
			for (uint64_t lo = 0; lo < 16; lo++)
				for (uint64_t hi = lo; hi < 16; hi++) {
					uint64_t hp = rnd(&g) & 0xfff0;
					struct creg in = {TNUM_C(v, m), cnum_from_urange(hp | lo, hp | hi, 16),
							  {rnd(&g) & 0xff, rnd(&g) & 0xff}};
					if (rnd(&g) % 8 == 0)
						in.r64 = (struct cnum){rnd(&g) & 0xffff, rnd(&g) & 0xffff};
					struct creg f = in, r = in, mf = in, mr = in;
					bool st = creg_coerce_low_w16(&f, sz), mst = creg_coerce_low_ml_w16(&mf, sz);
					creg_coerce_ref_w16(&r, sz);
					creg_coerce_ref_ml_w16(&mr, sz);
					struct creg a = r, ma = mr;
					creg_sync_ref_w16(&a);
					creg_sync_ref_ml_w16(&ma);
					if (!same(&f, &r) || !same(&mf, &mr) || (st && !same(&a, &r)) ||
					    (mst && !same(&ma, &mr))) {
						print_error("size %u, stable %d, cnum-mainline stable %d\n", sz, st, mst);
						show("input", &in);
						show("cnum creg_coerce", &f);
						show("cnum creg_coerce_ref", &r);
						show("cnum synced again", &a);
						show("cnum-mainline creg_coerce", &mf);
						show("cnum-mainline creg_coerce_ref", &mr);
						show("cnum-mainline synced again", &ma);
						fail();
					}
					states++;
					stable += st;
					moved += !same(&a, &r) || !same(&ma, &mr);
				}
		}
	print_message("coerce at 16 bits: %lu states, %lu stable, %lu moved by another sync\n", states, stable,
		      moved);
	assert_true(stable > states / 2 && moved > 50);
}

/* creg_zext_sync() against creg_zext() + creg_sync_ref() in both builds,
 * at 8 bits (every tnum with every 4-bit arc, the 8-bit arc random: zext
 * replaces it) and at 16 bits (random states, most of them with a known
 * bit 7: sync_low()'s case); the counts: states through the fast path's
 * condition (a known subregister sign bit, a 32-bit arc that does not
 * wrap) */
static unsigned long zext_pair(const struct creg *in, void (*zs)(struct creg *), void (*z)(struct creg *),
			       void (*sref)(struct creg *), unsigned hbits)
{
	struct creg f = *in, r = *in;
	zs(&f);
	z(&r);
	sref(&r);
	if (!same(&f, &r)) {
		print_error("%u-bit subregister\n", hbits);
		show("input", in);
		show("creg_zext_sync", &f);
		show("creg_zext + creg_sync_ref", &r);
		fail();
	}
	uint64_t hm = (UINT64_C(1) << hbits) - 1;
	return !(in->var_off.mask & (UINT64_C(1) << (hbits - 1))) && in->r32.size <= hm - in->r32.base;
}

static void test_zext_sync(void **state)
{
	(void)state;
	struct rng g = {0x3c6ef372fe94f82bull};
	unsigned long states = 0, low = 0;
	for (unsigned i = 0; i < N_TNUMS; i++)
		for (unsigned j = 0; j < N_ARC4; j++) {
			struct creg r = {tnum_nth(i), rnd_arc(&g, RW), arc_nth(j, RH)};
			low += zext_pair(&r, creg_zext_sync, creg_zext, creg_sync_ref, 4);
			low += zext_pair(&r, creg_zext_sync_ml_w8, creg_zext_ml_w8, creg_sync_ref_ml_w8, 4);
			states += 2;
		}
	for (unsigned i = 0; i < 400000; i++) {
		uint64_t m = rnd(&g) & 0xffff;
		if (i % 4)
			m &= ~UINT64_C(0x80);
		struct creg r = {TNUM_C(rnd(&g) & 0xffff & ~m, m), {rnd(&g) & 0xffff, rnd(&g) & 0xffff},
				 {rnd(&g) & 0xff, rnd(&g) & (i % 2 ? 0xff : 0xf)}};
		low += zext_pair(&r, creg_zext_sync_w16, creg_zext_w16, creg_sync_ref_w16, 8);
		low += zext_pair(&r, creg_zext_sync_ml_w16, creg_zext_ml_w16, creg_sync_ref_ml_w16, 8);
		states += 2;
	}
	print_message("zext + sync: %lu states, %lu of them with a known subregister sign bit and no wrap\n", states,
		      low);
	assert_true(low > states / 4 && low < states - states / 10);
}

/* creg_sync_updated() against creg_sync_ref() after creg_update_bounds(),
 * both builds: every tnum with every 4-bit arc and two 8-bit arcs in turn
 * from a list (as test_sync_tnums8) */
static void test_sync_updated8(void **state)
{
	(void)state;
	struct rng g = {0xa54ff53a5f1d36f1ull};
	unsigned long states = 0, moved = 0;
	for (unsigned i = 0; i < N_TNUMS; i++) {
		struct tnum t = tnum_nth(i);
		for (unsigned j = 0; j < N_ARC4; j++) {
			struct cnum r32 = arc_nth(j, RH);
			struct cnum r64s[] = {
				cnum_full(RW),
				cnum_empty(RW),
				cnum_from_urange(tnum_umin(t), tnum_umax(t), RW),
				cnum_is_empty(r32, RH) ? cnum_full(RW) : (struct cnum){r32.base, r32.size},
				rnd_arc(&g, RW),
				rnd_arc(&g, RW),
			};
			size_t nk = sizeof(r64s) / sizeof(r64s[0]);
			for (unsigned k = 0; k < 2; k++) {
				struct creg in = {t, r64s[(i + j + 3 * k) % nk], r32};
				struct creg a = in, ma = in;
				creg_update_bounds(&a);
				creg_update_bounds_ml_w8(&ma);
				struct creg b = a, mb = ma;
				creg_sync_updated(&a);
				creg_sync_ref(&b);
				creg_sync_updated_ml_w8(&ma);
				creg_sync_ref_ml_w8(&mb);
				if (!same(&a, &b) || !same(&ma, &mb)) {
					show("input", &in);
					show("cnum creg_sync_updated", &a);
					show("cnum creg_sync_ref", &b);
					show("cnum-mainline creg_sync_updated", &ma);
					show("cnum-mainline creg_sync_ref", &mb);
					fail();
				}
				struct creg u = in;
				creg_update_bounds(&u);
				states++;
				moved += !same(&u, &b);
			}
		}
	}
	print_message("sync after update: %lu states, %lu moved by the sync\n", states, moved);
	assert_true(moved > states / 4);
}

/* the deduction (r64 -> r32, r32 -> r64) changes nothing on its own
 * output, which lets creg_sync() run it once where mainline runs it
 * twice: every pair of an 8-bit and a 4-bit arc (it reads no tnum) */
static void test_deduce_once8(void **state)
{
	(void)state;
	unsigned long changed = 0, emptied = 0;
	for (unsigned i = 0; i < N_ARC8; i++) {
		struct cnum r64 = arc_nth(i, RW);
		for (unsigned j = 0; j < N_ARC4; j++) {
			struct creg once = {TNUM_C(0, W_MASK), r64, arc_nth(j, RH)}, twice;
			changed += creg_deduce_bounds(&once);
			emptied += creg_violation(&once);
			twice = once;
			if (creg_deduce_bounds(&twice) || !same(&once, &twice)) {
				struct creg in = {TNUM_C(0, W_MASK), r64, arc_nth(j, RH)};
				show("input", &in);
				show("deduced once", &once);
				show("twice", &twice);
				fail();
			}
		}
	}
	print_message("%u pairs of arcs, %lu changed by the deduction, %lu of them emptied\n",
		      N_ARC8 * N_ARC4, changed, emptied);
	assert_true(changed > 1000000 && emptied > 100000);
}

/* cnum_mul (the product's arc, with fast paths) against cnum_mul_ref
 * (mainline's steps): every pair of arcs of 4 and 5 bits (the
 * subregister's width and the generic code), of 6 bits every arc with
 * half the arcs and as many random ones, every 8-bit arc with 16 random
 * 8-bit arcs (one copy for both builds: arc.c is shared, variant.h) */
static void mul_pair(struct cnum a, struct cnum b, unsigned bits, unsigned long *full)
{
	struct cnum f = cnum_mul(a, b, bits), r = cnum_mul_ref(a, b, bits);
	if (!cnum_equal(f, r)) {
		print_error("%u bits: {%#llx, %#llx} * {%#llx, %#llx}: cnum_mul {%#llx, %#llx}, ref {%#llx, %#llx}\n",
			    bits, (unsigned long long)a.base, (unsigned long long)a.size,
			    (unsigned long long)b.base, (unsigned long long)b.size, (unsigned long long)f.base,
			    (unsigned long long)f.size, (unsigned long long)r.base, (unsigned long long)r.size);
		fail();
	}
	*full += cnum_is_full(r, bits);
}

static void test_mul_ref8(void **state)
{
	(void)state;
	unsigned long pairs = 0, full = 0;
	struct rng g = {0xda942042e4dd58b5ull};
	for (unsigned bits = 4; bits <= 6; bits++) {
		unsigned n = (1u << bits) * ((1u << bits) - 1) + 2;
		for (unsigned i = 0; i < n; i++)
			for (unsigned j = 0; j < n; j++, pairs++)
				mul_pair(arc_nth(i, bits), j < n / 2 || bits < 6 ? arc_nth(j, bits) : rnd_arc(&g, bits),
					 bits, &full);
	}
	for (unsigned i = 0; i < N_ARC8; i++)
		for (unsigned k = 0; k < 16; k++, pairs++)
			mul_pair(arc_nth(i, RW), rnd_arc(&g, RW), RW, &full);
	print_message("%lu products, %lu unbounded\n", pairs, full);
	assert_true(full > 100000 && pairs - full > 50000);
}

/* branch_taken of the "cnum" build (the tests per jump kind, on the
 * stored words, with the meet shortcut of arcs_exclude_eq) against
 * rb_bounds_branch_taken() on the bounds mainline's conversions give:
 * random pairs of states, every jump and both widths */
static void test_branch_taken8(void **state)
{
	(void)state;
	static const uint8_t jops[] = {BPF_JEQ, BPF_JNE, BPF_JSET, RB_JSET_FALSE, BPF_JGT, BPF_JGE,
				       BPF_JLT, BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};
	struct rng g = {0x6a09e667f3bcc908ull};
	unsigned long decided = 0, calls = 0;
	for (unsigned i = 0; i < 200000; i++) {
		struct creg x = {tnum_nth((unsigned)(rnd(&g) % N_TNUMS)), rnd_arc(&g, RW), rnd_arc(&g, RH)};
		struct creg y = {tnum_nth((unsigned)(rnd(&g) % N_TNUMS)), rnd_arc(&g, RW), rnd_arc(&g, RH)};
		if (i & 1) /* synced states too: fewer empty arcs, more meeting */
			creg_sync(&x), creg_sync(&y);
		if (i % 7 == 0) /* a constant on one side */
			creg_known(&y, rnd(&g) & W_MASK);
		rb_val a, b;
		creg_store(&a, &x);
		creg_store(&b, &y);
		struct rb_bounds ba, bb;
		creg_conv_bounds(&x, true, true, &ba);
		creg_conv_bounds(&y, true, true, &bb);
		for (size_t o = 0; o < sizeof(jops); o++)
			for (int is32 = 0; is32 < 2; is32++, calls++) {
				int got = creg_branch_taken_val(&a, &b, jops[o], is32);
				int want = rb_bounds_branch_taken(&ba, &bb, jops[o], is32);
				if (got != want) {
					show("a", &x);
					show("b", &y);
					print_error("jop %#x is32 %d: %d, the 6.18 tests %d\n", jops[o], is32, got, want);
					fail();
				}
				decided += want != RB_BR_UNKNOWN;
			}
	}
	print_message("%lu jumps, %lu decided\n", calls, decided);
	assert_true(decided > calls / 10 && decided < calls - calls / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_tnums8),
		cmocka_unit_test(test_sync_arcs8),
		cmocka_unit_test(test_sync_random8),
		cmocka_unit_test(test_deduce_once8),
		cmocka_unit_test(test_coerce_low8),
		cmocka_unit_test(test_coerce_stable16),
		cmocka_unit_test(test_zext_sync),
		cmocka_unit_test(test_sync_updated8),
		cmocka_unit_test(test_mul_ref8),
		cmocka_unit_test(test_branch_taken8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
