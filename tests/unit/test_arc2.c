/* test_arc2.c — the arc2 tracker (src/tracker/arc2/): two-arc sets are
 * exact and canonical (exhaustively on a 16-value circle), the best pair
 * of a set holds it, the engine-facing queries agree with the set (bounds
 * of the members across both widths), "a == b" gives both sides a ∩ b,
 * and a reduced census finds arc2 sound and never looser than old or
 * cnum on inputs both abstract alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/bpf.h>

/* the two-arc primitives of the 8-bit build (width-suffixed _w8) */
#define RB_BITS 8
#include "tracker/arc2/pieces.h"

#include "census/census.h"
#include "tracker/tracker.h"

#define NB 4 /* circle of 16 values */
#define NV (1u << NB)

static unsigned arc_set(struct cnum a)
{
	unsigned s = 0;
	for (unsigned v = 0; v < NV; v++)
		if (cnum_contains(a, v, NB))
			s |= 1u << v;
	return s;
}

static unsigned list_set(const struct a2_list *l)
{
	unsigned s = 0;
	for (unsigned i = 0; i < l->n; i++) {
		unsigned p = arc_set(l->p[i]);
		assert_int_equal(s & p, 0); /* pieces are disjoint */
		s |= p;
	}
	return s;
}

/* every arc of the circle, the empty one included */
static unsigned all_arcs(struct cnum *out)
{
	unsigned n = 0;
	out[n++] = cnum_empty(NB);
	out[n++] = cnum_full(NB);
	for (unsigned b = 0; b < NV; b++)
		for (unsigned s = 0; s + 1 < NV; s++)
			out[n++] = (struct cnum){b, s};
	return n;
}

static void test_pieces_exact_and_canonical(void **state)
{
	(void)state;
	static struct cnum arcs[NV * NV + 2];
	/* canonical pair per set (a set of 16 values is a 16-bit mask) */
	static struct cnum canon_a[1u << NV], canon_b[1u << NV];
	static unsigned char seen[1u << NV];
	unsigned n = all_arcs(arcs);
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++) {
			struct a2_list l;
			a2_pieces(arcs[i], arcs[j], NB, &l);
			unsigned want = arc_set(arcs[i]) & arc_set(arcs[j]);
			assert_true(l.n <= 2);
			assert_int_equal(list_set(&l), want);
			struct cnum a, b;
			a2_canon(&l, NB, NULL, &a, &b);
			assert_int_equal(arc_set(a) & arc_set(b), want);
			if (!seen[want]) {
				seen[want] = 1;
				canon_a[want] = a;
				canon_b[want] = b;
			} else {
				assert_true(cnum_equal(a, canon_a[want]) && cnum_equal(b, canon_b[want]));
			}
			/* the hull is the smallest arc holding the set */
			struct cnum h = a2_hull(&l, NB);
			assert_int_equal(arc_set(h) & want, want);
		}
}

static void test_three_pieces_merge(void **state)
{
	(void)state;
	/* [1,2] ∪ [5,6] ∪ [9,14]: three pieces, gaps 3..4, 7..8 and 15..0 of
	 * two values each; without context the first smallest (3..4) goes */
	struct a2_list l = {3, {{1, 1}, {5, 1}, {9, 5}}};
	struct cnum a, b;
	a2_canon(&l, NB, NULL, &a, &b);
	assert_int_equal(arc_set(a) & arc_set(b), 0x7e7eu);
	/* a tnum holding only 0..3 rules out 7..8: that merge is free */
	struct a2_ctx cx = {.t = {0, 0x3}};
	a2_canon(&l, NB, &cx, &a, &b);
	assert_int_equal(arc_set(a) & arc_set(b), 0x7fe6u);
}

static void test_from_set(void **state)
{
	(void)state;
	srand(3);
	for (int k = 0; k < 2000; k++) {
		uint64_t vals[NV];
		unsigned n = 0, want = 0;
		for (unsigned v = 0; v < NV; v++)
			if (rand() % 3 == 0) {
				vals[n++] = v;
				want |= 1u << v;
			}
		struct cnum a, b;
		assert_true(a2_from_set(vals, n, NB, NULL, &a, &b));
		unsigned got = arc_set(a) & arc_set(b);
		assert_int_equal(got & want, want);
		/* never bigger than the best single arc (ties may pick another) */
		struct cnum one;
		if (n) {
			assert_true(cnum_from_set(vals, n, NB, &one));
			assert_true(__builtin_popcount(got) <= __builtin_popcount(arc_set(one)));
		} else {
			assert_int_equal(got, 0);
		}
	}
	/* two runs are held exactly */
	uint64_t two[] = {1, 2, 3, 10, 11};
	struct cnum a, b;
	a2_from_set(two, 5, NB, NULL, &a, &b);
	assert_int_equal(arc_set(a) & arc_set(b), (1u << 1 | 1u << 2 | 1u << 3 | 1u << 10 | 1u << 11));
}

static void test_vtable_queries(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("arc2", 8);
	assert_non_null(t);
	assert_int_equal(rb_tracker_get("arc2", 64)->val_size, 64);
	rb_val v = {{0}}, w = {{0}};
	uint64_t vals[] = {0x10, 0x11, 0xf0, 0xf1};
	t->from_set(&v, vals, 4);
	for (unsigned x = 0; x < 256; x++) {
		bool in = x == 0x10 || x == 0x11 || x == 0xf0 || x == 0xf1;
		assert_int_equal(t->contains(&v, x), in);
	}
	struct rb_bounds bd;
	t->bounds(&v, &bd);
	assert_int_equal(bd.umin, 0x10);
	assert_int_equal(bd.umax, 0xf1);
	assert_int_equal(bd.smin, -16);
	assert_int_equal(bd.smax, 0x11);
	assert_false(t->is_empty(&v));
	assert_false(t->is_const(&v));
	t->constant(&w, 0x11);
	assert_true(t->is_const(&w));
	assert_true(t->is_subset(&v, &w));
	assert_false(t->is_subset(&w, &v));
	assert_true(t->intersect(&w, &v));
	assert_true(t->contains(&w, 0x11));
	t->constant(&w, 0x12);
	assert_false(t->intersect(&w, &v));
	assert_true(t->is_empty(&w));
}

/* The set is what both widths' pieces and the tnum admit together: the
 * bounds are those of the members. {6, 10, 16}: the subregister pair
 * alone admits low half 8 (s32 -8 at this width), no member has it. */
static void test_bounds_of_members(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("arc2", 8), *o = rb_tracker_get("old", 8);
	rb_val v, ov, src;
	uint64_t vals[] = {6, 10, 16};
	t->from_set(&v, vals, 3);
	struct rb_bounds b;
	t->bounds(&v, &b);
	assert_int_equal(b.s32_min, -6);
	assert_int_equal(b.s32_max, 6);
	assert_int_equal(b.u32_min, 0);
	assert_int_equal(b.u32_max, 10);
	/* w = w: old keeps s32 in [-6, 6]; arc2 exactly {0, 6, 10} */
	const struct rb_alu mov32 = {.code = BPF_ALU | BPF_MOV | BPF_X};
	o->from_set(&ov, vals, 3);
	src = ov;
	o->alu(&ov, &src, &mov32);
	src = v;
	t->alu(&v, &src, &mov32);
	for (unsigned x = 0; x < 256; x++) {
		assert_int_equal(t->contains(&v, x), x == 0 || x == 6 || x == 10);
		if (t->contains(&v, x))
			assert_true(o->contains(&ov, x));
	}
}

/* "if a == b" (64-bit) taken: both registers hold a ∩ b. a: low half at
 * least 4; b: one arc [246, 214]. b learns a's subregister. */
static void test_jeq64_both_sides(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("arc2", 8);
	uint64_t av[256], bv[256];
	unsigned na = 0, nb = 0;
	for (unsigned x = 0; x < 256; x++) {
		if ((x & 15) >= 4)
			av[na++] = x;
		if (x <= 214 || x >= 246)
			bv[nb++] = x;
	}
	rb_val a, b;
	t->from_set(&a, av, na);
	t->from_set(&b, bv, nb);
	assert_true(t->branch_refine(&a, &b, BPF_JEQ, false));
	for (unsigned x = 0; x < 256; x++) {
		bool in = (x & 15) >= 4 && (x <= 214 || x >= 246);
		assert_int_equal(t->contains(&a, x), in);
		assert_int_equal(t->contains(&b, x), in);
	}
}

/* the census property the tracker is built for, on a reduced census */
static unsigned n_loose(const struct rb_census_row *r) { return (unsigned)(r->same_looser + r->same_incomparable); }

struct tally {
	unsigned rows, unsound, loose, same;
	char first[200];
};

static int tally_row(const struct rb_census_row *r, void *ctx)
{
	struct tally *t = ctx;
	t->rows++;
	t->unsound += (unsigned)r->unsound;
	if (!strcmp(r->tracker, "arc2") && r->has_cmp)
		t->same += (unsigned)r->same_cases;
	if (!strcmp(r->tracker, "arc2") && r->has_cmp && n_loose(r)) {
		if (!t->loose)
			snprintf(t->first, sizeof(t->first), "%s: %u looser vs %s", r->op, n_loose(r), r->baseline);
		t->loose += n_loose(r);
	}
	return 0;
}

static void test_census_never_looser(void **state)
{
	(void)state;
	/* Never looser than old or cnum on inputs both abstract alike (the
	 * full 8-bit census finds 0 such cases, README "The arc2 tracker");
	 * 0 unsound. */
	const char *const ops[] = {"add64", "sub32", "jsgt64", "jeq32", "jsle32", "and64_imm", "neg64", "mul64",
				   "rsh64_imm", "movsx64_32", "mov32", "neg32", "jeq64", "jne64", NULL};
	const char *const base_names[] = {"old", "cnum"};
	for (int k = 0; k < 2; k++) {
		const char *const trs[] = {base_names[k], "arc2", NULL};
		struct rb_census_opts o = {.bits = 8, .pairs = 1500, .sets = 1500, .seed = 11, .threads = 2,
					   .ops = ops, .trackers = trs, .baseline = base_names[k]};
		struct tally t = {0};
		struct rb_err err = {{0}};
		struct rb_census_summary sum;
		if (rb_census_run(&o, tally_row, &t, &sum, &err))
			fail_msg("census: %s", err.msg);
		assert_int_equal(t.rows, 28);
		assert_int_equal(t.unsound, 0);
		print_message("arc2 vs %s: %u of %u equal-gamma cases looser (first: %s)\n", base_names[k], t.loose,
			      t.same, t.loose ? t.first : "-");
		assert_true(t.same > 1000);
		if (t.loose)
			fail_msg("%s", t.first);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pieces_exact_and_canonical),
		cmocka_unit_test(test_three_pieces_merge),
		cmocka_unit_test(test_from_set),
		cmocka_unit_test(test_vtable_queries),
		cmocka_unit_test(test_bounds_of_members),
		cmocka_unit_test(test_jeq64_both_sides),
		cmocka_unit_test(test_census_never_looser),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
