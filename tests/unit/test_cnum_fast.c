/* test_cnum_fast.c — the cnum trackers' fast paths against the step-by-step
 * references they replace, at RB_BITS=8 (4-bit subregister):
 *   - creg_sync() against creg_sync_ref(), mainline's reg_bounds_sync(),
 *     in both builds ("cnum" and "cnum-mainline", whose single-value
 *     collapse differs), and the deduction's idempotence that lets the
 *     sync run it once;
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
		cmocka_unit_test(test_mul_ref8),
		cmocka_unit_test(test_branch_taken8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
