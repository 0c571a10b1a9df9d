/* test_old_sync.c — the old tracker's bounds sync (src/tracker/old/sync.c)
 * at RB_BITS=8 (4-bit subregister): old_bounds_sync(), the sync with its
 * fast paths, against old_bounds_sync_ref(), Linux 6.18's reg_bounds_sync()
 * step by step, and each fast path against the work it skips:
 *   - old_deduce_settled(): on every state it accepts, the three deduction
 *     rounds followed by __reg_bound_offset give what __reg_bound_offset
 *     alone gives. Checked on every 8-bit state of the two kinds it is
 *     meant for (one value; a zero-extended subregister range) with every
 *     var_off, and on their neighbours (one bound moved), so a test too
 *     loose lets a state through on which the rounds do change something;
 *   - rb_tnum_single_in_urange()'s first test: on every tnum and every
 *     range whose two ends are members, the steps answer false too;
 *   - the stop at a fixed point of the rounds, and the last
 *     __update_reg_bounds skipped when it would repeat the first: the
 *     whole sync against the reference on those states and on random ones,
 *     and __update_reg_bounds twice against once on random ones.
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
#include "tracker/bounds.h"
#include "tracker/old/repr.h"
#include "tnum_enum.h"

static bool same(const struct old_reg *a, const struct old_reg *b)
{
	return a->var_off.value == b->var_off.value && a->var_off.mask == b->var_off.mask &&
	       a->smin == b->smin && a->smax == b->smax && a->umin == b->umin && a->umax == b->umax &&
	       a->s32_min == b->s32_min && a->s32_max == b->s32_max && a->u32_min == b->u32_min &&
	       a->u32_max == b->u32_max;
}

static void show(const char *what, const struct old_reg *r)
{
	print_error("%s: var_off (%#llx; %#llx) u [%llu, %llu] s [%lld, %lld] u32 [%u, %u] s32 [%d, %d]\n",
		    what, (unsigned long long)r->var_off.value, (unsigned long long)r->var_off.mask,
		    (unsigned long long)r->umin, (unsigned long long)r->umax, (long long)r->smin,
		    (long long)r->smax, r->u32_min, r->u32_max, r->s32_min, r->s32_max);
}

#define N_TNUMS 6561u /* 3^8 */

struct tally {
	unsigned long settled, unsettled, sync_fast, moved;
};

/* one state: the sync against the reference; where old_deduce_settled()
 * accepts the state, the rounds then __reg_bound_offset against
 * __reg_bound_offset alone */
static void check(const struct old_reg *in, struct tally *n)
{
	struct old_reg fast = *in, ref = *in;
	old_bounds_sync(&fast);
	old_bounds_sync_ref(&ref);
	if (!same(&fast, &ref)) {
		show("input", in);
		show("old_bounds_sync", &fast);
		show("old_bounds_sync_ref", &ref);
		fail();
	}
	struct old_reg u = *in;
	old_update_bounds(&u);
	n->sync_fast += old_deduce_settled(&u);

	if (!old_deduce_settled(in)) {
		n->unsettled++;
		return;
	}
	n->settled++;
	struct old_reg rounds = *in, alone = *in;
	old_deduce_bounds(&rounds);
	old_deduce_bounds(&rounds);
	old_deduce_bounds(&rounds);
	/* the rounds may narrow var_off (to its intersection with the range) */
	n->moved += !same(&rounds, in);
	old_bound_offset(&rounds);
	old_bound_offset(&alone);
	if (!same(&rounds, &alone)) {
		show("settled input", in);
		show("rounds then bound_offset", &rounds);
		show("bound_offset alone", &alone);
		fail();
	}
}

/* the states old_deduce_settled() is meant for: one value c (c_or_lo ==
 * hi), or a zero-extended subregister range [lo, hi] (hi <= H_MASK) */
static struct old_reg settled_state(uint64_t lo, uint64_t hi, struct tnum t)
{
	struct old_reg r = {.var_off = t, .umin = lo, .umax = hi};
	if (lo == hi) {
		r.smin = r.smax = wsext(lo);
		r.u32_min = r.u32_max = (uint32_t)htrunc(lo);
		r.s32_min = r.s32_max = (int32_t)hsext(lo);
		return r;
	}
	r.smin = (int64_t)lo;
	r.smax = (int64_t)hi;
	r.u32_min = (uint32_t)lo;
	r.u32_max = (uint32_t)hi;
	if (hsext(lo) <= hsext(hi)) {
		r.s32_min = (int32_t)hsext(lo);
		r.s32_max = (int32_t)hsext(hi);
	} else {
		r.s32_min = (int32_t)H_SMIN;
		r.s32_max = (int32_t)H_SMAX;
	}
	return r;
}

/* one bound of r moved by d (within its field's range of values) */
static bool nudge(struct old_reg *r, unsigned field, int64_t d)
{
	switch (field) {
	case 0: r->umin = wtrunc(r->umin + (uint64_t)d); return true;
	case 1: r->umax = wtrunc(r->umax + (uint64_t)d); return true;
	case 2: r->smin = wsext((uint64_t)(r->smin + d)); return true;
	case 3: r->smax = wsext((uint64_t)(r->smax + d)); return true;
	case 4: r->u32_min = (uint32_t)htrunc(r->u32_min + (uint64_t)d); return true;
	case 5: r->u32_max = (uint32_t)htrunc(r->u32_max + (uint64_t)d); return true;
	case 6: r->s32_min = (int32_t)hsext((uint64_t)(r->s32_min + d)); return true;
	case 7: r->s32_max = (int32_t)hsext((uint64_t)(r->s32_max + d)); return true;
	default: return false;
	}
}

static void test_deduce_settled8(void **state)
{
	(void)state;
	struct tally n = {0};
	/* the intended states with every var_off */
	for (uint64_t lo = 0; lo <= W_MASK; lo++)
		for (uint64_t hi = lo; hi <= (lo > H_MASK ? lo : H_MASK); hi++)
			for (unsigned i = 0; i < N_TNUMS; i++) {
				struct old_reg r = settled_state(lo, hi, tnum_nth(i));
				check(&r, &n);
				assert_true(old_deduce_settled(&r));
			}
	unsigned long intended = n.settled;
	/* their neighbours: one bound moved by a little or by half the
	 * circle, with a sample of var_offs (every 97th, and the range's) */
	static const int64_t ds[] = {1, -1, 2, -2, 7, -7, (int64_t)H_SMAX + 1, -((int64_t)H_SMAX + 1),
				     W_SMAX + 1, W_SMAX};
	for (uint64_t lo = 0; lo <= W_MASK; lo++)
		for (uint64_t hi = lo; hi <= (lo > H_MASK ? lo : H_MASK); hi++)
			for (unsigned i = 0; i < N_TNUMS + 97; i += 97) {
				struct tnum t = i < N_TNUMS ? tnum_nth(i) : tnum_range(lo, hi);
				for (unsigned f = 0; f < 8; f++)
					for (size_t k = 0; k < sizeof(ds) / sizeof(ds[0]); k++) {
						struct old_reg r = settled_state(lo, hi, t);
						nudge(&r, f, ds[k]);
						check(&r, &n);
					}
			}
	print_message("settled: %lu intended, %lu neighbours; %lu not settled; rounds narrowed "
		      "var_off %lu times; %lu syncs took the fast path\n",
		      intended, n.settled - intended, n.unsettled, n.moved, n.sync_fast);
	/* the neighbours mostly fail the test; some are intended states again */
	assert_true(intended == 376ul * N_TNUMS); /* 256 values, 120 wider ranges */
	assert_true(n.unsettled > 100000 && n.moved > 10000 && n.sync_fast > 500000);
}

/* random states, valid or not (some min > max), with bounds drawn near
 * each other so that the deductions have something to do */
static void test_sync_random8(void **state)
{
	(void)state;
	struct rng g = {0x9e3779b97f4a7c15ull};
	struct tally n = {0};
	for (unsigned i = 0; i < 400000; i++) {
		struct old_reg r;
		uint64_t a = rnd(&g) & W_MASK, b = rnd(&g) & W_MASK, k = rnd(&g);
		r.var_off = tnum_nth((unsigned)(rnd(&g) % N_TNUMS));
		if (k & 1) /* the unsigned range's tnum */
			r.var_off = tnum_range(a < b ? a : b, a < b ? b : a);
		r.umin = a < b ? a : b;
		r.umax = a < b ? b : a;
		r.smin = wsext(k & 2 ? rnd(&g) : r.umin);
		r.smax = wsext(k & 4 ? rnd(&g) : r.umax);
		if (r.smin > r.smax && (k & 8)) {
			int64_t x = r.smin;
			r.smin = r.smax;
			r.smax = x;
		}
		r.u32_min = (uint32_t)htrunc(k & 16 ? rnd(&g) : r.umin);
		r.u32_max = (uint32_t)htrunc(k & 32 ? rnd(&g) : r.umax);
		r.s32_min = (int32_t)hsext(k & 64 ? rnd(&g) : r.u32_min);
		r.s32_max = (int32_t)hsext(k & 128 ? rnd(&g) : r.u32_max);
		if (r.s32_min > r.s32_max && (k & 256)) {
			int32_t x = r.s32_min;
			r.s32_min = r.s32_max;
			r.s32_max = x;
		}
		check(&r, &n);
		/* __update_reg_bounds changes nothing a second time */
		struct old_reg once = r, twice;
		old_update_bounds(&once);
		twice = once;
		old_update_bounds(&twice);
		if (!same(&once, &twice)) {
			show("input", &r);
			show("update_bounds", &once);
			show("twice", &twice);
			fail();
		}
	}
	print_message("%lu settled, %lu not, %lu syncs took the fast path\n", n.settled, n.unsettled,
		      n.sync_fast);
	assert_true(n.unsettled > 100000);
}

static void single_both(struct tnum t, uint64_t lo, uint64_t hi, unsigned long *single)
{
	uint64_t c1 = 0, c2 = 0;
	bool a = rb_tnum_single_in_urange(t, lo, hi, &c1);
	bool b = rb_tnum_single_in_urange_steps(t, lo, hi, &c2);
	if (a != b || (a && c1 != c2)) {
		print_error("tnum (%#llx; %#llx) [%llu, %llu]: %d %llu, steps %d %llu\n",
			    (unsigned long long)t.value, (unsigned long long)t.mask, (unsigned long long)lo,
			    (unsigned long long)hi, a, (unsigned long long)c1, b, (unsigned long long)c2);
		fail();
	}
	*single += a;
}

/* rb_tnum_single_in_urange() against its steps alone: every tnum with
 * every range whose ends are both members (where the first test answers),
 * and every range of up to three values or up to W_MASK (where mostly it
 * does not) */
static void test_single_in_urange8(void **state)
{
	(void)state;
	unsigned long pairs = 0, single = 0;
	for (unsigned i = 0; i < N_TNUMS; i++) {
		struct tnum t = tnum_nth(i);
		/* the members: t.value plus each submask of t.mask */
		for (uint64_t s1 = t.mask;; s1 = (s1 - 1) & t.mask) {
			for (uint64_t s2 = t.mask; s2 > s1; s2 = (s2 - 1) & t.mask) {
				single_both(t, t.value | s1, t.value | s2, &single);
				pairs++;
			}
			if (!s1)
				break;
		}
		for (uint64_t lo = 0; lo <= W_MASK; lo++) {
			single_both(t, lo, lo, &single);
			if (lo + 1 <= W_MASK)
				single_both(t, lo, lo + 1, &single);
			if (lo + 2 <= W_MASK)
				single_both(t, lo, lo + 2, &single);
			single_both(t, lo, W_MASK, &single);
		}
	}
	print_message("%lu ranges with both ends in the tnum, %lu single values\n", pairs, single);
	assert_true(pairs > 500000 && single > 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deduce_settled8),
		cmocka_unit_test(test_sync_random8),
		cmocka_unit_test(test_single_in_urange8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
