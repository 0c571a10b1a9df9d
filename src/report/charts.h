/* charts.h — the charts, as data: one row per chart. Adding a chart is a
 * row in charts.c plus its gnuplot script plots/NAME.gp.
 *
 * Each row names the chart, says in one line what it shows, which runs it
 * reads, the SQL that exports its data (to data/FILE, tab-separated, a
 * '#' header line; up to two files), and the SQL that counts the points
 * it can draw: a chart with none is skipped with a note (what `needs`
 * says), never handed to gnuplot. In every query ?1 is the run (for
 * before/after: the run before), ?2 the run after, ?3 and ?4 the two
 * trackers compared by role (the baseline and the candidate, default
 * "old" and "cnum"). The TEMP table chart_trackers(name, ord, val_size,
 * kernel, reg_bytes, state_bytes) lists every registry tracker in
 * registry order, then the kernels of src/kernels/ (kernel 1 the running
 * one, 2 an image), for the charts that show every tracker. Pairs of
 * trackers come from the tracker_pairs and tracker_pair_metrics views
 * (src/store/pairs.c, from the metric registry result/metrics.h).
 *
 * A "pivot" file's query returns rows (key, ord, tracker, value); the
 * file gets one row per key (in ord order) and one column per tracker
 * present, in registry order, headed by the tracker's name: a new
 * registry tracker is a new column, with no change here or in the
 * script. */
#ifndef RB_REPORT_CHARTS_H
#define RB_REPORT_CHARTS_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

/* the bit of struct rb_chart's pivot for file[i] */
#define RB_CHART_PIVOT(i) (1 << (i))

enum rb_chart_runs {
	RB_CHART_RUN,          /* ?1 = the verify run shown */
	RB_CHART_BEFORE_AFTER, /* ?1 = run before, ?2 = run after */
	RB_CHART_CENSUS,       /* ?1 = the census run */
	RB_CHART_BENCH,        /* ?1 = the bench run */
};

struct rb_chart {
	const char *name;  /* plots/NAME.gp -> NAME.png, NAME.svg */
	const char *title; /* what it shows, for plot's output */
	enum rb_chart_runs runs;
	const char *file[2];  /* data file names (file[1] may be NULL) */
	const char *query[2]; /* their SQL */
	const char *points;   /* SQL: plottable points (one integer) */
	const char *needs;    /* what fills it */
	int pivot;            /* RB_CHART_PIVOT(i): file[i]'s query gives (key, ord, tracker, value) */
	int blocks;           /* a new block (2 blank lines) per first column value */
};

/* the charts, NULL-terminated by name */
extern const struct rb_chart rb_charts[];

/* the runs the charts read (-1: none) and the two trackers compared by
 * role (NULL: the defaults, RB_ROLE_BASELINE and RB_ROLE_CANDIDATE) */
struct rb_chart_runs_ids {
	int64_t run, before, after, census, bench;
	const char *baseline, *candidate;
};

/* Export chart c's data files into dir (which must exist), and
 * dir/NAME.vars.gp (rowsN, trkN, keysN of each file N: see export() in
 * charts.c), and count its plottable points into *points. */
int rb_chart_export(sqlite3 *db, const struct rb_chart *c, const struct rb_chart_runs_ids *runs,
		    const char *dir, int64_t *points, struct rb_err *err);

/* s as a gnuplot string literal (single-quoted, never expanded; control
 * characters as joined octal escapes) */
void rb_gp_string(FILE *f, const char *s);

#endif
