/* test_census.c — the operator census (src/census/): a reduced census of
 * the real trackers finds no unsound case; deliberately broken copies of a
 * tracker (built here, the tracker code is untouched) are caught with a
 * counterexample; the precision comparison and the input generator do
 * what they claim; results do not depend on the thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "census/census.h"
#include "census/inputs.h"
#include "census/internal.h" /* CENSUS_CHUNK_PAIRS */
#include "util/array_size.h"

#define MAXROWS 1000
struct rows {
	unsigned n;
	struct rb_census_row r[MAXROWS];
	char *cex[MAXROWS];
	char name[MAXROWS][24], tracker[MAXROWS][16];
};

static int keep(const struct rb_census_row *row, void *ctx)
{
	struct rows *rs = ctx;
	if (rs->n >= MAXROWS)
		return 1;
	unsigned i = rs->n++;
	rs->r[i] = *row;
	snprintf(rs->name[i], sizeof(rs->name[i]), "%s", row->op);
	snprintf(rs->tracker[i], sizeof(rs->tracker[i]), "%s", row->tracker);
	rs->r[i].op = rs->name[i];
	rs->r[i].tracker = rs->tracker[i];
	rs->cex[i] = row->counterexample ? strdup(row->counterexample) : NULL;
	rs->r[i].counterexample = rs->cex[i];
	return 0;
}

static void rows_free(struct rows *rs)
{
	for (unsigned i = 0; i < rs->n; i++)
		free(rs->cex[i]);
	free(rs);
}

static struct rows *run(const struct rb_census_opts *o)
{
	struct rows *rs = calloc(1, sizeof(*rs));
	struct rb_err err = {{0}};
	struct rb_census_summary sum;
	assert_non_null(rs);
	int rc = rb_census_run(o, keep, rs, &sum, &err);
	if (rc)
		fail_msg("census failed: %s", err.msg);
	assert_int_equal(sum.rows, rs->n);
	return rs;
}

static const struct rb_census_row *row(const struct rows *rs, const char *op, const char *tracker)
{
	for (unsigned i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].op, op) && !strcmp(rs->r[i].tracker, tracker))
			return &rs->r[i];
	fail_msg("no row %s/%s", op, tracker);
	return NULL;
}

static unsigned ntrackers(unsigned bits)
{
	unsigned n = 0;
	for (const struct rb_tracker *const *p = rb_trackers(bits); *p; p++)
		n++;
	return n;
}

static void count_op(const char *name, const char *kind, void *ctx)
{
	(void)name;
	(void)kind;
	(*(unsigned *)ctx)++;
}

/* the reduced census of every op and every tracker at width 8: sound */
static void test_reduced_census_sound(void **state)
{
	(void)state;
	unsigned nops = 0;
	rb_census_ops_foreach(count_op, &nops);
	assert_true(nops >= 120);
	struct rb_census_opts o = {.bits = 8, .pairs = 1500, .sets = 2500, .seed = 7, .threads = 2};
	struct rows *rs = run(&o);
	assert_int_equal(rs->n, nops * ntrackers(8));
	for (unsigned i = 0; i < rs->n; i++) {
		const struct rb_census_row *r = &rs->r[i];
		if (r->unsound)
			fail_msg("%s", r->counterexample ? r->counterexample : r->op);
		assert_true(r->cases > 0);
		assert_false(r->sampled);
		assert_true(r->optimal <= r->cases);
		/* best is the best: never beaten (where from_set gives the
		 * smallest value of the domain) */
		if (rb_tracker_get(r->tracker, 8)->from_set_best)
			assert_true(r->extra_log2 >= -1e-9);
		if (r->has_cmp)
			assert_int_equal(r->tighter + r->looser + r->equal + r->incomparable, r->cases);
	}
	/* a constant source and a constant destination: exact for everyone */
	const struct rb_census_row *mi = row(rs, "mov64_imm", rb_trackers(8)[0]->name);
	assert_int_equal(mi->optimal, mi->cases);
	rows_free(rs);
}

/* every op and tracker sampled at 16, 32 and 64 bits: 100 pairs each */
static void test_sampled_census_sound(void **state)
{
	(void)state;
	for (unsigned bits = 16; bits <= 64; bits *= 2) {
		struct rb_census_opts o = {.bits = bits, .pairs = 100, .seed = 3, .threads = 2};
		struct rows *rs = run(&o);
		assert_true(rs->n >= 120);
		for (unsigned i = 0; i < rs->n; i++) {
			if (rs->r[i].unsound)
				fail_msg("%s", rs->r[i].counterexample ? rs->r[i].counterexample : rs->r[i].op);
			assert_true(rs->r[i].sampled);
			assert_int_equal(rs->r[i].cases, 100);
		}
		rows_free(rs);
	}
}

/* ---- deliberately broken copies of the first tracker ---- */

static const struct rb_tracker *base8; /* set by each test before use */

static void drop_max(rb_val *v)
{
	uint64_t vals[256];
	size_t n = 0;
	for (uint64_t x = 0; x < 256; x++)
		if (base8->contains(v, x))
			vals[n++] = x;
	if (n > 1)
		base8->from_set(v, vals, n - 1); /* without the largest member */
}

static void broken_alu(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	base8->alu(dst, src, op);
	if (op->code == (BPF_ALU64 | BPF_ADD | BPF_X))
		drop_max(dst);
}

static int broken_taken(const rb_val *a, const rb_val *b, uint8_t jop, bool is32)
{
	int r = base8->branch_taken(a, b, jop, is32);
	if (jop == BPF_JSGT && !is32 && r == RB_BR_UNKNOWN)
		return RB_BR_NEVER;
	return r;
}

static bool broken_refine(rb_val *a, rb_val *b, uint8_t jop, bool is32)
{
	bool ok = base8->branch_refine(a, b, jop, is32);
	if (ok && jop == BPF_JLT && is32)
		drop_max(a);
	return ok;
}

static void broken_truncate(rb_val *v, unsigned size_bits, bool sext)
{
	(void)sext; /* forgets the sign extension */
	base8->truncate(v, size_bits, false);
}

static void test_broken_tracker_caught(void **state)
{
	(void)state;
	base8 = rb_trackers(8)[0];
	struct rb_tracker broken = *base8;
	broken.name = "broken";
	broken.alu = broken_alu;
	broken.branch_taken = broken_taken;
	broken.branch_refine = broken_refine;
	broken.truncate = broken_truncate;
	const struct rb_tracker *const list[] = {&broken, NULL};
	const char *const ops[] = {"add64", "add64_imm", "sub64", "sub64_imm", "jsgt64", "jsgt64_imm", "jsgt32",
				   "jlt32", "jlt32_imm", "jlt64", "ldsx8", "ld8", NULL};
	struct rb_census_opts o = {.bits = 8, .pairs = 1000, .sets = 1500, .seed = 11, .threads = 2,
				   .ops = ops, .custom = list};
	struct rows *rs = run(&o);
	assert_int_equal(rs->n, 12);
	const char *caught[] = {"add64", "jsgt64", "jsgt64_imm", "jlt32", "jlt32_imm", "ldsx8"};
	const char *clean[] = {"sub64", "sub64_imm", "add64_imm", "jsgt32", "jlt64", "ld8"};
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
		const struct rb_census_row *r = row(rs, caught[i], "broken");
		assert_true(r->unsound > 0);
		assert_non_null(r->counterexample);
		assert_non_null(strstr(r->counterexample, caught[i]));
		assert_non_null(strstr(r->counterexample, "scalar("));
	}
	for (size_t i = 0; i < ARRAY_SIZE(clean); i++) {
		const struct rb_census_row *r = row(rs, clean[i], "broken");
		assert_int_equal(r->unsound, 0);
		assert_null(r->counterexample);
	}
	/* the ALU counterexample names a concrete pair and the missing result */
	assert_non_null(strstr(row(rs, "add64", "broken")->counterexample, "not in"));
	rows_free(rs);

}

/* at 64 bits (sampled): an ADD that lowers its unsigned maximum by one is
 * caught, because the sampler always tries the inputs' bounds */
static const struct rb_tracker *base64;

static void broken_alu64(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	base64->alu(dst, src, op);
	if (op->code != (BPF_ALU64 | BPF_ADD | BPF_X))
		return;
	struct rb_bounds b;
	base64->bounds(dst, &b);
	if (b.umin < b.umax) {
		b.umax--;
		b.var_off = (struct rb_tnum){0, UINT64_MAX};
		base64->from_bounds(dst, &b);
	}
}

static void test_broken_tracker_caught_sampled(void **state)
{
	(void)state;
	base64 = rb_trackers(64)[0];
	struct rb_tracker broken = *base64;
	broken.name = "broken";
	broken.alu = broken_alu64;
	const struct rb_tracker *const list[] = {&broken, NULL};
	const char *const ops[] = {"add64", "add64_imm", "sub64", NULL};
	struct rb_census_opts o = {.bits = 64, .pairs = 2000, .seed = 11, .threads = 2, .ops = ops, .custom = list};
	struct rows *rs = run(&o);
	assert_true(row(rs, "add64", "broken")->unsound > 0);
	assert_non_null(strstr(row(rs, "add64", "broken")->counterexample, "64 bits"));
	assert_int_equal(row(rs, "add64_imm", "broken")->unsound, 0);
	assert_int_equal(row(rs, "sub64", "broken")->unsound, 0);
	rows_free(rs);
}

/* ---- precision: a copy of a tracker named "cnum" next to "old" ---- */

static void unknown_alu(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	base8->alu(dst, src, op);
	if (BPF_OP(op->code) == BPF_ADD)
		base8->unknown(dst);
}

static void test_precision_comparison(void **state)
{
	(void)state;
	const struct rb_tracker *old = rb_tracker_get("old", 8);
	assert_non_null(old);
	base8 = old;
	struct rb_tracker same = *old, loose = *old;
	same.name = "cnum";
	loose.name = "cnum";
	loose.alu = unknown_alu;
	const char *const ops[] = {"add", "xor64", NULL};

	const struct rb_tracker *const l1[] = {old, &same, NULL};
	struct rb_census_opts o = {.bits = 8, .pairs = 1000, .seed = 5, .threads = 2, .ops = ops, .custom = l1};
	struct rows *rs = run(&o);
	const struct rb_census_row *r = row(rs, "add64", "cnum"), *ro = row(rs, "add64", "old");
	assert_true(r->has_cmp);
	assert_false(ro->has_cmp);
	assert_int_equal(r->equal, r->cases);
	assert_int_equal(r->optimal, ro->optimal);
	rows_free(rs);

	const struct rb_tracker *const l2[] = {old, &loose, NULL};
	o.custom = l2;
	rs = run(&o);
	for (unsigned i = 0; i < rs->n; i++)
		assert_int_equal(rs->r[i].unsound, 0); /* unknown is sound */
	r = row(rs, "add64", "cnum");
	ro = row(rs, "add64", "old");
	assert_int_equal(r->tighter, 0);
	assert_int_equal(r->incomparable, 0);
	print_message("unknown add64 vs old: %llu looser of %llu\n", (unsigned long long)r->looser,
		      (unsigned long long)r->cases);
	assert_int_equal(r->looser + r->equal, r->cases);
	/* the copies abstract every input alike; a result that is unknown
	 * where old's is smaller is never cnum's own best */
	assert_int_equal(r->same_cases, r->cases);
	assert_int_equal(r->same_looser, r->looser);
	assert_int_equal(r->same_domain, 0);
	assert_true(r->looser > r->cases / 4);
	assert_true(r->optimal < ro->optimal);
	assert_true(r->extra_log2 > ro->extra_log2);
	r = row(rs, "xor64", "cnum");
	assert_int_equal(r->equal, r->cases);
	rows_free(rs);
}

/* same seed, different thread counts: identical rows. 2100 pairs: two
 * work items per binary op (CENSUS_CHUNK_PAIRS 2000), so threads split an
 * op as well as the ops; old and cnum only (the comparison columns need
 * two trackers; determinism does not depend on which), about a quarter of
 * the CPU of every tracker at 3000 pairs */
static void test_deterministic(void **state)
{
	(void)state;
	const char *const ops[] = {"mul64", "jset32", "neg64", NULL};
	const char *const trs[] = {"old", "cnum", NULL};
	_Static_assert(2100 > CENSUS_CHUNK_PAIRS, "two work items per binary op");
	struct rb_census_opts o = {.bits = 8, .pairs = 2100, .sets = 3000, .seed = 99, .threads = 1, .ops = ops,
				   .trackers = trs};
	struct rows *a = run(&o);
	o.threads = 3;
	struct rows *b = run(&o);
	assert_int_equal(a->n, b->n);
	for (unsigned i = 0; i < a->n; i++) {
		assert_string_equal(a->r[i].op, b->r[i].op);
		assert_int_equal(a->r[i].cases, b->r[i].cases);
		assert_int_equal(a->r[i].optimal, b->r[i].optimal);
		assert_true(a->r[i].extra_log2 == b->r[i].extra_log2);
		assert_int_equal(a->r[i].equal, b->r[i].equal);
		assert_int_equal(a->r[i].looser, b->r[i].looser);
	}
	o.seed = 100; /* another seed: other pairs */
	struct rows *c = run(&o);
	assert_true(c->r[0].optimal != a->r[0].optimal || c->r[0].extra_log2 != a->r[0].extra_log2);
	rows_free(a);
	rows_free(b);
	rows_free(c);
}

static void test_bad_options(void **state)
{
	(void)state;
	struct rb_err err = {{0}};
	struct rb_census_opts o = {.bits = 12};
	assert_int_equal(rb_census_check_opts(&o, &err), -1);
	assert_non_null(strstr(err.msg, "12"));
	const char *const ops[] = {"add64", "frobnicate", NULL};
	struct rb_census_opts o2 = {.bits = 8, .ops = ops};
	assert_int_equal(rb_census_check_opts(&o2, &err), -1);
	assert_non_null(strstr(err.msg, "frobnicate"));
	assert_int_equal(rb_census_run(&o2, keep, NULL, NULL, &err), -1);
	const char *const trs[] = {"nosuch", NULL};
	struct rb_census_opts o3 = {.bits = 8, .trackers = trs};
	assert_int_equal(rb_census_check_opts(&o3, &err), -1);
	struct rb_census_opts o4 = {.bits = 8, .pairs = 2000000000u};
	assert_int_equal(rb_census_check_opts(&o4, &err), -1);
}

/* ---- the input generator ---- */

static void test_families(void **state)
{
	(void)state;
	for (unsigned bits = 8; bits <= 64; bits *= 2) {
		const uint64_t m = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
		const uint64_t smin = UINT64_C(1) << (bits - 1), smax = smin - 1;
		struct rng r = rng_seed(1, 2, bits);
		for (int i = 0; i < 3000; i++) {
			struct census_set s;
			unsigned fam = (unsigned)(i % FAM_COUNT);
			census_set_gen(&r, fam, bits, &s);
			assert_int_equal(s.family, fam);
			if (s.kind != SK_RANDOM) {
				uint64_t v[32];
				unsigned n = census_set_sample(&s, bits, &r, v, 32);
				assert_true(n >= 1);
				for (unsigned k = 0; k < n; k++) {
					assert_true(v[k] <= m);
					assert_true(census_set_has(&s, bits, v[k]));
				}
			}
			bool sx = s.kind == SK_ARC && census_set_has(&s, bits, smax) && census_set_has(&s, bits, smin);
			bool ux = s.kind == SK_ARC && census_set_has(&s, bits, m) && census_set_has(&s, bits, 0);
			switch (fam) {
			case FAM_CONST: assert_true(s.kind == SK_ARC && s.b == 0); break;
			case FAM_UINT: assert_true(s.b >= 16 && !sx && !ux); break;
			case FAM_SCROSS: assert_true(sx && !ux); break;
			case FAM_UWRAP: assert_true(ux && !sx); break;
			case FAM_BOTH: assert_true(sx && ux); break;
			case FAM_TNUM: assert_true(s.kind == SK_TNUM && !(s.a & s.b)); break;
			default: break;
			}
		}
	}
}

static void test_width8_inputs(void **state)
{
	(void)state;
	size_t n = 0;
	struct census_set *v = census_sets8(1, &n);
	assert_non_null(v);
	assert_true(n > 90000);
	/* every constant, every tnum and every arc is there */
	unsigned consts = 0, tnums = 0, arcs = 0;
	for (size_t i = 0; i < n; i++) {
		consts += v[i].kind == SK_ARC && v[i].b == 0;
		tnums += v[i].kind == SK_TNUM;
		arcs += v[i].kind == SK_ARC;
	}
	assert_int_equal(consts, 256);
	assert_int_equal(tnums, 6561);
	assert_int_equal(arcs, 65536);
	/* the 4-bit-arc subregister set {low nibble in [14..1], high = 3} */
	bool found = false;
	for (size_t i = 0; i < n && !found; i++) {
		if (v[i].kind != SK_SUBREG || v[i].a != 14 || v[i].b != 3 || v[i].c != 3 || v[i].d != 0)
			continue;
		found = true;
		bm256 b;
		census_set_bitmap8(&v[i], &b);
		assert_int_equal(bm_count(&b), 4);
		assert_true(bm_has(&b, 0x3e) && bm_has(&b, 0x3f) && bm_has(&b, 0x30) && bm_has(&b, 0x31));
	}
	assert_true(found);
	/* the bitmap (built word by word) is census_set_has's members, for
	 * every set of the pool and a few out-of-range ones */
	const struct census_set odd[] = {
		{.kind = SK_ARC, .a = 300, .b = 10},	{.kind = SK_ARC, .a = 7, .b = 255},
		{.kind = SK_ARC, .a = 9, .b = 1000},	{.kind = SK_ARC, .a = 250, .b = 254},
		{.kind = SK_UNION, .a = 250, .b = 20, .c = 10, .d = 3}, {.kind = SK_TNUM, .a = 3, .b = 1},
		{.kind = SK_TNUM, .a = 0x100, .b = 0}, {.kind = SK_TNUM, .a = 0x10, .b = 0x1ef},
		{.kind = SK_SUBREG, .a = 15, .b = 3, .c = 14, .d = 20},
	};
	for (size_t i = 0; i < n + ARRAY_SIZE(odd); i++) {
		const struct census_set *s = i < n ? &v[i] : &odd[i - n];
		if (s->kind == SK_RANDOM)
			continue;
		bm256 b, want = {{0}};
		census_set_bitmap8(s, &b);
		for (unsigned x = 0; x < 256; x++)
			if (census_set_has(s, 8, x))
				bm_set(&want, x);
		if (!bm_eq(&b, &want))
			fail_msg("set %zu (kind %d a=%llu b=%llu c=%llu d=%llu): bitmap differs", i, s->kind,
				 (unsigned long long)s->a, (unsigned long long)s->b, (unsigned long long)s->c,
				 (unsigned long long)s->d);
	}
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_width8_inputs),
		cmocka_unit_test(test_broken_tracker_caught),
		cmocka_unit_test(test_broken_tracker_caught_sampled),
		cmocka_unit_test(test_precision_comparison),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_reduced_census_sound),
		cmocka_unit_test(test_sampled_census_sound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
