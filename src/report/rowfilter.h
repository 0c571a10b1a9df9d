/* rowfilter.h — veristat's -f filters and -s sort specs over the metric
 * registry (result/metrics.h), for the rows of `verify` (one side) and
 * `compare` (two sides, A and B).
 *
 * A filter is
 *   GLOB            the program name or FILE/PROG matches the glob
 *   KEY OP VALUE    OP one of = == != <> < <= > >=; KEY a metric name
 *                   (insns, states, ...; in compare with _a, _b, _diff or
 *                   _pct, bare = _b as veristat), |KEY| its absolute
 *                   value, or one of verdict, source, file, prog, error
 *                   (= and != only; VALUE a glob; verdict/error with _a or
 *                   _b in compare, bare = _b)
 * and '!' before either makes it a deny filter. A row passes when no deny
 * filter matches it, and, for each kind (globs, KEY OP VALUE), some allow
 * filter of that kind matches or there is none (veristat's rules).
 *
 * A sort spec is a comma-separated list of keys: name, or a metric (with
 * the compare suffixes; bare: _diff in compare, by magnitude), verdict,
 * source; '^' after a key sorts it ascending, 'v' descending (default:
 * names ascending, numbers descending). */
#ifndef RB_REPORT_ROWFILTER_H
#define RB_REPORT_ROWFILTER_H

#include <stdbool.h>

#include "result/metrics.h"
#include "util/err.h"

enum rb_rf_var { RB_RF_A, RB_RF_B, RB_RF_DIFF, RB_RF_PCT };
enum rb_rf_key { RB_RF_GLOB, RB_RF_METRIC, RB_RF_VERDICT, RB_RF_SOURCE, RB_RF_FILE, RB_RF_PROG, RB_RF_ERROR,
		 RB_RF_NAME };
enum rb_rf_op { RB_RF_EQ, RB_RF_NE, RB_RF_LT, RB_RF_LE, RB_RF_GT, RB_RF_GE };

#define RB_RF_MAX 32
struct rb_rf_term {
	bool deny, abs;
	enum rb_rf_key key;
	int metric; /* RB_RF_METRIC */
	enum rb_rf_var var;
	enum rb_rf_op op;
	double num;
	char str[160];
};
struct rb_rowfilter {
	struct rb_rf_term t[RB_RF_MAX];
	int n;
};

/* a row as the filters and sort keys see it: one side (verify) or two */
struct rb_rf_row {
	const char *file, *prog, *source;
	int nsides;
	bool present[2];
	const char *verdict[2], *error[2];
	double v[2][RB_METRIC_COUNT];
};

/* 100 (b - a) / a, +-inf when a is 0 and b is not */
double rb_rf_pct(double a, double b);

/* add one -f expression; -1 with err naming what is wrong in it.
 * two_sides: compare's suffixes allowed */
int rb_rowfilter_add(struct rb_rowfilter *f, const char *expr, bool two_sides, struct rb_err *err);
bool rb_rowfilter_match(const struct rb_rowfilter *f, const struct rb_rf_row *r);

struct rb_sortspec {
	struct rb_rf_term k[8]; /* key, var, abs; op: RB_RF_LT ascending, RB_RF_GT descending */
	int n;
};
/* parse a comma-separated sort spec; -1 with err */
int rb_sortspec_parse(struct rb_sortspec *s, const char *spec, bool two_sides, struct rb_err *err);
/* <0, 0, >0: x before, with, after y */
int rb_sortspec_cmp(const struct rb_sortspec *s, const struct rb_rf_row *x, const struct rb_rf_row *y);

#endif
