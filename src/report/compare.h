/* compare.h — program-by-program comparison of two runs, or of two
 * trackers within one run, in the style of veristat's comparison mode. */
#ifndef RB_REPORT_COMPARE_H
#define RB_REPORT_COMPARE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/table.h"
#include "result/result.h"
#include "util/err.h"

/* Statistics that can be compared: the verdict, then every metric of
 * result/metrics.h (RB_STAT_<id> = 1 + RB_M_<id>). */
enum rb_cmp_stat {
	RB_STAT_VERDICT,
#define RB_STAT_ENUM(id, ...) RB_STAT_##id,
	RB_METRICS(RB_STAT_ENUM)
#undef RB_STAT_ENUM
	RB_STAT_COUNT
};
#define RB_STAT_METRIC(s) ((enum rb_metric)((s) - 1))

struct rb_compare_spec {
	int64_t run_a, run_b;
	/* both NULL: compare the same tracker across the runs (every tracker
	 * in either run, or only `tracker` when set); both set: A = run_a
	 * with tracker_a, B = run_b with tracker_b */
	const char *tracker_a, *tracker_b;
	const char *tracker;
	const char *filter; /* glob on program or object-basename/program */
};

struct rb_cmp_side {
	bool present;
	char verdict[16];
	char error[200];         /* "insn N: message" of a rejection, "" if none */
	double v[RB_STAT_COUNT]; /* RB_STAT_VERDICT unused */
};

struct rb_cmp_row {
	char object[512];
	char shown[512];  /* the shortest path suffix that tells the object apart */
	char program[128];
	char source[64];
	char tracker[16]; /* run-vs-run: the tracker; tracker-vs-tracker: "" */
	struct rb_cmp_side a, b;
};

struct rb_compare {
	struct rb_cmp_row *rows;
	size_t n;
};

int rb_compare_load(sqlite3 *db, const struct rb_compare_spec *spec, struct rb_compare *out,
		    struct rb_err *err);
void rb_compare_free(struct rb_compare *c);

/* name -> stat: "verdict" or a metric's name (result/metrics.h); -1 if
 * unknown */
int rb_cmp_stat_parse(const char *name);
/* The default columns: the verdict and the metrics marked RB_MF_COMPARE;
 * returns how many (at most RB_STAT_COUNT) */
size_t rb_cmp_default_stats(enum rb_cmp_stat *out);
/* every stat name, separated by sep, into buf (snprintf conventions) */
int rb_cmp_stat_names(char *buf, size_t len, const char *sep);

/* Did the verdict, the presence or a metric marked RB_MF_CHANGED
 * (instructions, states, peak states) change? Time and memory are not
 * counted. */
bool rb_cmp_row_changed(const struct rb_cmp_row *r);

/* Sort by a spec (report/rowfilter.h): keys "name", "source", "verdict"
 * (changed first), or STAT with suffix _a, _b, _diff or _pct (e.g.
 * "states_pct"), comma-separated, each optionally followed by '^'
 * (ascending) or 'v' (descending); numbers sort descending (diff and pct
 * by magnitude), rows without the value last. Returns -1 for an unknown
 * key. */
int rb_compare_sort(struct rb_compare *c, const char *key);

/* the row as filters and sort keys see it (report/rowfilter.h) */
struct rb_rf_row;
void rb_cmp_rf_row(const struct rb_cmp_row *r, struct rb_rf_row *out);
/* keep only the rows f lets through (veristat's -f) */
struct rb_rowfilter;
void rb_compare_filter(struct rb_compare *c, const struct rb_rowfilter *f);

/* Only rows that both sides verified (success or failure on each side)
 * are compared; every other row is excluded and counted by reason. */
struct rb_compare_summary {
	bool by_run;            /* rows are (program, tracker) pairs */
	size_t rows;            /* every row */
	size_t programs;        /* rows compared: both sides verified */
	size_t only_a, only_b;  /* excluded: present on one side only */
	size_t failed_open;     /* excluded: objects that could not be opened */
	/* excluded: present on both sides, not verified on side s (0 A, 1 B)
	 * with verdict v (enum rb_verdict; a row unverified on both sides
	 * counts on side A) */
	size_t unverified[2][RB_VERDICT_COUNT];
	size_t verdict_changes; /* compared rows whose verdicts differ */
	size_t changed;         /* compared rows with rb_cmp_row_changed */
	/* geometric mean of B/A over compared rows where both sides are > 0 */
	double gmean[RB_STAT_COUNT];
	size_t gmean_n[RB_STAT_COUNT];
};
void rb_compare_summarize(const struct rb_compare *c, struct rb_compare_summary *s);

/* The per-program table: object, program, [tracker,] then for each stat in
 * stats: A, B, DIFF (text: "+12 (+3.4%)"; csv: separate diff and pct
 * columns), then with errors each side's error (instruction and
 * message). Rows where keep[i] is false are left out (keep may be NULL). */
int rb_compare_table(const struct rb_compare *c, const enum rb_cmp_stat *stats, size_t nstats,
		     bool csv, bool errors, const bool *keep, size_t limit, struct rb_table *out);
/* The summary as a two-column table (statistic, value); excluded rows
 * one line per reason. */
int rb_compare_summary_table(const struct rb_compare_summary *s, struct rb_table *out);

#endif
