/* census.h — the operator census: soundness and precision of every tracker
 * operation over a broad deterministic family of concrete input sets.
 *
 * At width 8 every concrete value is enumerable: each abstract input's
 * concretisation gamma is computed exactly (256-bit bitmaps), the concrete
 * operation is applied to every concrete input, and the abstract result is
 * checked to contain every concrete result (branches: never/always taken
 * answers and refined states). Precision compares each result with the
 * best value the same tracker can express for the true result set
 * (from_set), and cnum with old over the same concrete inputs.
 * At widths 16/32/64 the concrete values are sampled (bounds + random
 * members of gamma) and only soundness is checked.
 *
 * Branches: branch_taken must never exclude an outcome some concrete pair
 * takes; branch_refine is checked on every outcome branch_taken does not
 * exclude (it must keep every value taking that outcome, and may declare
 * the outcome impossible only when no pair takes it). For precision, an
 * outcome branch_taken decides keeps the unrefined state (6.18 follows a
 * decided branch without refining), an excluded one is empty. A jump
 * case is optimal when both registers (dst only for immediates) on both
 * outcomes equal the best abstraction of the values taking that outcome.
 *
 * Library code: no printing, no exit, no global mutable state. Each result
 * row is handed to a callback.
 */
#ifndef RB_CENSUS_H
#define RB_CENSUS_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "tracker/tracker.h"
#include "util/err.h"

struct rb_census_opts {
	unsigned bits;                /* 8, 16, 32 or 64 */
	const char *const *trackers;  /* NULL-terminated names, NULL = every tracker */
	const char *baseline;         /* every other tracker is compared with this
	                               * one (NULL = RB_ROLE_BASELINE, "old") */
	const char *const *ops;       /* NULL-terminated op names (or base names
	                               * such as "add", matching every form); NULL = all */
	uint64_t pairs;               /* cases per binary op; 0 = default */
	uint64_t sets;                /* width 8: unary ops use at most this many
	                               * input sets, evenly spread; 0 = all */
	uint64_t seed;
	unsigned threads;             /* 0 = number of online cores */
	/* tests: run these tracker vtables (NULL-terminated, all at `bits`)
	 * instead of looking `trackers` up by name */
	const struct rb_tracker *const *custom;
	/* set non-zero (a signal handler, say) to stop: the workers stop
	 * after their current chunk and rb_census_run returns 2, no rows */
	volatile sig_atomic_t *stop;
	/* progress: called from the calling thread about once a second while
	 * the workers run, with the work items finished and in all (NULL: none) */
	void (*progress)(uint64_t done, uint64_t total, void *ctx);
	void *progress_ctx;
};

#define RB_CENSUS_DEFAULT_PAIRS_8 100000u
#define RB_CENSUS_DEFAULT_PAIRS_WIDE 20000u
#define RB_CENSUS_MAX_PAIRS 1000000000u

struct rb_census_row {
	const char *op;      /* e.g. "add64", "add32_imm", "jsgt32", "ldsx16" */
	const char *kind;    /* "alu", "alu1", "mov", "load", "jmp" */
	const char *tracker; /* registry name */
	const char *baseline; /* the tracker the comparison fields compare with */
	unsigned bits;
	bool sampled;        /* width > 8: concrete values sampled, no precision */
	uint64_t cases, unsound;
	uint64_t optimal;    /* results equal (in gamma) to the best of the domain */
	double extra_log2;   /* mean of log2|gamma(result)| - log2|gamma(best)| */
	bool has_cmp;        /* compared with the baseline over the same inputs */
	uint64_t tighter, looser, equal, incomparable;
	/* the same comparison restricted to cases where the baseline and
	 * this tracker abstract the inputs to the same gamma (the op's own
	 * effect) */
	uint64_t same_cases, same_tighter, same_looser, same_equal, same_incomparable;
	/* of same_looser + same_incomparable: cases where this tracker's
	 * result is already the best its domain can express (the loss is the
	 * domain's, not the transfer function's) */
	uint64_t same_domain;
	const char *looser_example; /* a case where it is looser, or NULL */
	const char *counterexample; /* first unsound case (multi-line) or NULL */
};

struct rb_census_summary {
	unsigned bits, threads;
	bool sampled;
	uint64_t pairs;          /* binary cases per op */
	uint64_t input_sets;     /* distinct concrete input sets (width 8) */
	uint64_t ops, rows, cases, unsound;
};

/* called once per (op, tracker) row, in op order; a non-zero return stops
 * the census (rb_census_run then returns that value) */
typedef int (*rb_census_cb)(const struct rb_census_row *row, void *ctx);

/* Check the options without running anything: 0 or -1 with err filled. */
int rb_census_check_opts(const struct rb_census_opts *o, struct rb_err *err);

/* Run the census. Returns 0 (see sum->unsound for findings), -1 on bad
 * options or resource failure (err filled), or the callback's non-zero. */
int rb_census_run(const struct rb_census_opts *o, rb_census_cb cb, void *ctx,
		  struct rb_census_summary *sum, struct rb_err *err);

/* every op the census knows, in table order */
void rb_census_ops_foreach(void (*cb)(const char *name, const char *kind, void *ctx), void *ctx);

/* Table output (table.c): a row callback that prints one aligned row (or
 * one CSV line) per call to t->out, keeps every counterexample and the
 * cnum-vs-old totals for the footer. */
#define RB_CENSUS_TABLE_TRACKERS 8
struct rb_census_table_cmp {
	const char *tracker, *baseline;
	uint64_t cmp[4], same[4];
	char *lossy;      /* "op(looser+incomparable) ..." (malloc'ed) */
	char *lossy_same; /* the same over equal-gamma inputs (malloc'ed) */
};
struct rb_census_table {
	FILE *out;
	bool csv;
	unsigned rows;
	uint64_t cases, unsound;
	char **cex;   /* counterexamples (malloc'ed), printed by the footer */
	unsigned ncex;
	bool examples; /* keep every row's looser_example for the footer */
	/* per compared tracker: totals against the baseline */
	struct rb_census_table_cmp by[RB_CENSUS_TABLE_TRACKERS];
	unsigned nby;
	char **ex;
	unsigned nex;
};
void rb_census_table_header(struct rb_census_table *t, const struct rb_census_opts *o, unsigned ntrackers);
int rb_census_table_row(const struct rb_census_row *row, void *ctx);
/* the totals, the ops where cnum loses precision, the counterexamples
 * (to `cexout`); frees what the table kept */
void rb_census_table_footer(struct rb_census_table *t, const struct rb_census_summary *sum, FILE *cexout);

#endif
