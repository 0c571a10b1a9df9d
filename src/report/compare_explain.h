/* compare_explain.h — `compare --changed --explain`: explain every program
 * whose verdict or instruction count differs between two engine trackers
 * of one run (src/explain/explain.h), print one row each and store them
 * (table explanations) so db/queries/explain_classes.sql can count cause
 * classes per source. */
#ifndef RB_REPORT_COMPARE_EXPLAIN_H
#define RB_REPORT_COMPARE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/compare.h"
#include "store/store.h"

struct rb_cmp_explain_opts {
	const char *baseline, *candidate;
	int64_t run_id;
	struct rb_store *st; /* where to store the rows; NULL: not stored */
	bool csv;
	double time_limit_s; /* per engine run, 0: none */
};

struct rb_cmp_explain_summary {
	size_t changed;     /* programs whose verdict or instruction count differ */
	size_t found;       /* a cause instruction and class found */
	size_t explained;   /* ... and the counterfactual made the change vanish */
	size_t not_opened;  /* objects that no longer open */
};

/* rows where keep[i] (may be NULL: all) and the verdict or insns differ */
int rb_compare_explain(const struct rb_compare *cmp, const bool *keep, const struct rb_cmp_explain_opts *o,
		       FILE *out, struct rb_cmp_explain_summary *sum, struct rb_err *err);

/* the stored row's explanation fields from x (run, program and sides left
 * to the caller) */
struct rb_explain;
struct rb_explanation_row;
void rb_cmp_explain_row(const struct rb_explain *x, bool ok, struct rb_explanation_row *row);

#endif
