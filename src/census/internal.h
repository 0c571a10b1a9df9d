/* internal.h — shared between the census's own files (not a public API). */
#ifndef RB_CENSUS_INTERNAL_H
#define RB_CENSUS_INTERNAL_H

#include <stdatomic.h>
#include <stdio.h>

#include "census/bitmap.h"
#include "census/census.h"
#include "census/inputs.h"
#include "census/oplist.h"
#include "census/rng.h"
#include "tracker/tracker.h"

#define CENSUS_MAX_TRACKERS 8
#define CENSUS_CHUNK_PAIRS 2000u  /* binary cases per work item */
#define CENSUS_CHUNK_SETS 4096u   /* unary cases per work item (width 8) */
#define CENSUS_SAMPLES 16u        /* concrete values per input when sampling */

enum { CMP_TIGHTER, CMP_LOOSER, CMP_EQUAL, CMP_INCOMPARABLE };

/* one (work item, tracker) tally */
struct census_stats {
	uint64_t cases, unsound, optimal;
	double extra;
	uint64_t cmp[4];  /* this tracker vs the baseline (not for the baseline) */
	uint64_t same[4]; /* the same over cases whose inputs have equal gamma */
	uint64_t same_domain; /* ... looser/incomparable at its own best */
	char *cex;        /* first counterexample (malloc'ed) */
	char *loose;      /* first case where it is looser than the baseline (malloc'ed) */
	bool loose_same;  /* ... and its inputs have equal gamma */
};

/* the width-8 input pool: distinct concrete sets, each tracker's best
 * abstraction of each and its exact gamma. The sets are read-only once
 * built; an abstraction is made when a case first reads it
 * (census_pool_get), so a census of a few cases abstracts a few sets */
struct census_pool {
	size_t n;
	bm256 *set;
	uint8_t *fam;
	uint32_t *fidx[FAM_COUNT];
	size_t fcount[FAM_COUNT];
	rb_val *abs[CENSUS_MAX_TRACKERS];
	bm256 *gam[CENSUS_MAX_TRACKERS];
	atomic_uchar *state[CENSUS_MAX_TRACKERS]; /* per set: POOL_ABSENT, POOL_MAKING, POOL_READY */
	/* constant(c) as the kernel builds an immediate source */
	rb_val cabs[CENSUS_MAX_TRACKERS][256];
	bm256 cgam[CENSUS_MAX_TRACKERS][256];
};

/* the concrete semantics of one op at width 8, tabulated */
struct census_table {
	uint8_t *alu;  /* [dst * 256 + src] for ALU ops; [x] for loads */
	bm256 *row;    /* jumps: row[a] = {b : a jop b} */
	bm256 *col;    /* jumps: col[b] = {a : a jop b} */
};

struct census_run {
	unsigned bits;
	bool sampled;
	uint64_t seed, pairs, sets;
	unsigned ntr;
	const struct rb_tracker *tr[CENSUS_MAX_TRACKERS];
	int base_i; /* index of the baseline for the comparisons, or -1 */
	const struct rb_concrete *conc;
	struct census_op ops[CENSUS_MAX_OPS];
	unsigned nops;
	struct census_pool *pool;  /* width 8 */
	struct census_table *tab;  /* per op, width 8 */
};

/* per-thread scratch: caches of gamma(from_set(R)) per tracker */
#define CENSUS_BEST_CACHE 4096u
struct census_best_entry {
	bm256 key, val;
	uint8_t valid;
};
struct census_scratch {
	struct census_best_entry *best[CENSUS_MAX_TRACKERS];
};

struct census_item {
	unsigned op;          /* index into run->ops */
	uint64_t lo, hi;      /* case range */
	unsigned chunk;
	struct census_stats st[CENSUS_MAX_TRACKERS];
};

/* pool.c */
enum { POOL_ABSENT, POOL_MAKING, POOL_READY };
void census_gamma8(const struct rb_tracker *t, const rb_val *v, bm256 *out);
struct census_pool *census_pool_build(const struct census_run *run, struct rb_err *err);
/* tracker ti's abstraction of pool set i and its gamma (into *abs, *gam),
 * made on first use; while another thread makes the same one, made in
 * the caller's own room (each depends on its set alone: the same either way) */
struct census_room {
	rb_val abs;
	bm256 gam;
};
void census_pool_get(const struct census_run *run, unsigned ti, uint32_t i, struct census_room *own,
		     const rb_val **abs, const bm256 **gam);
void census_pool_free(struct census_pool *p);
int census_tables_build(struct census_run *run, const bool *selected, struct rb_err *err);
void census_tables_free(struct census_run *run);

/* exact8.c / sampled.c: run the cases of one work item */
uint64_t census_unary_cases8(const struct census_run *run, const struct census_op *op);
void census_item_exact8(const struct census_run *run, struct census_scratch *sc, struct census_item *it);
void census_item_sampled(const struct census_run *run, struct census_item *it);

/* report.c: metrics and counterexamples */
double census_lg(const bm256 *b);
unsigned census_cmp(const bm256 *cand, const bm256 *base, unsigned n);
void census_cex(struct census_stats *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* keep an example of a tracker looser than the baseline; prefers equal-gamma inputs */
void census_loose(struct census_stats *st, bool same, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int census_sprint(const struct rb_tracker *t, const rb_val *v, char *buf, size_t len);

#endif
