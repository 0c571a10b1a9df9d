/* compare.c — loading, sorting, summarising a comparison (see compare.h). */
#include "report/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/rowfilter.h"
#include "store/pairs.h"
#include "util/filter.h"
#include "util/grow.h"
#include "util/array_size.h"
#include "util/sort.h"

static const char *stat_name(int s) { return s == RB_STAT_VERDICT ? "verdict" : rb_metrics[RB_STAT_METRIC(s)].name; }
static const char *stat_title(int s) { return s == RB_STAT_VERDICT ? "Verdict" : rb_metrics[RB_STAT_METRIC(s)].title; }
static unsigned stat_flags(int s) { return s == RB_STAT_VERDICT ? 0 : rb_metrics[RB_STAT_METRIC(s)].flags; }

int rb_cmp_stat_parse(const char *name)
{
	if (!strcmp(name, "verdict"))
		return RB_STAT_VERDICT;
	int m = rb_metric_parse(name);
	return m < 0 ? -1 : m + 1;
}

size_t rb_cmp_default_stats(enum rb_cmp_stat *out)
{
	size_t n = 0;
	out[n++] = RB_STAT_VERDICT;
	for (int s = 1; s < RB_STAT_COUNT; s++)
		if (stat_flags(s) & RB_MF_COMPARE)
			out[n++] = (enum rb_cmp_stat)s;
	return n;
}

int rb_cmp_stat_names(char *buf, size_t len, const char *sep)
{
	int n = 0;
	for (int s = 0; s < RB_STAT_COUNT; s++) {
		int k = snprintf(len > (size_t)n ? buf + n : NULL, len > (size_t)n ? len - (size_t)n : 0, "%s%s",
				 s ? sep : "", stat_name(s));
		n += k > 0 ? k : 0;
	}
	return n;
}

/* one side of a pair row: its verdict at column col, then each metric
 * at col + 2, col + 4, ... (rb_pair_columns interleaves the two sides) */
static void read_side(sqlite3_stmt *s, int col, struct rb_cmp_side *side)
{
	side->present = sqlite3_column_type(s, col) != SQLITE_NULL;
	if (!side->present)
		return;
	snprintf(side->verdict, sizeof(side->verdict), "%s", (const char *)sqlite3_column_text(s, col));
	for (int i = 1; i < RB_STAT_COUNT; i++)
		side->v[i] = sqlite3_column_double(s, col + 2 * i);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* does `path` end with the path-component suffix `suf`? */
static bool ends_at_component(const char *path, const char *suf)
{
	size_t a = strlen(path), b = strlen(suf);
	return a >= b && !strcmp(path + a - b, suf) && (a == b || path[a - b - 1] == '/');
}

/* the suffix of path made of its last k components */
static const char *last_components(const char *path, int k)
{
	const char *p = path + strlen(path);
	while (p > path) {
		p--;
		if (*p == '/' && --k == 0)
			return p + 1;
	}
	return path;
}

/* Each row's object shown by the shortest path suffix (whole components)
 * that no other object of the comparison ends with. */
static int shortest_names(struct rb_compare *c)
{
	/* the distinct paths (rows come ordered by path, but a sort may
	 * have moved them: collect and sort them) */
	const char **paths = malloc((c->n ? c->n : 1) * sizeof(*paths));
	if (!paths)
		return -1;
	size_t np = 0;
	for (size_t i = 0; i < c->n; i++)
		paths[np++] = c->rows[i].object;
	rb_sort(paths, np, sizeof(*paths), cmp_str);
	size_t d = 0;
	for (size_t i = 0; i < np; i++)
		if (!d || strcmp(paths[d - 1], paths[i]))
			paths[d++] = paths[i];
	for (size_t i = 0; i < c->n; i++) {
		struct rb_cmp_row *r = &c->rows[i];
		if (i && !strcmp(r->object, c->rows[i - 1].object)) {
			memcpy(r->shown, c->rows[i - 1].shown, sizeof(r->shown));
			continue;
		}
		const char *suf = r->object;
		for (int k = 1;; k++) {
			suf = last_components(r->object, k);
			bool unique = true;
			for (size_t j = 0; j < d && unique; j++)
				if (strcmp(paths[j], r->object) && ends_at_component(paths[j], suf))
					unique = false;
			if (unique || suf == r->object)
				break;
		}
		snprintf(r->shown, sizeof(r->shown), "%s", suf);
	}
	free(paths);
	return 0;
}

/* each side's error after the pair columns: the instruction and message
 * of a rejection */
#define ERR_COLS "a.verdict <> 'success', a.err_insn, a.msg, b.verdict <> 'success', b.err_insn, b.msg "

static void read_error(sqlite3_stmt *s, int col, struct rb_cmp_side *side)
{
	const char *msg = (const char *)sqlite3_column_text(s, col + 2);
	if (!side->present || !sqlite3_column_int(s, col) || !msg || !*msg)
		return;
	if (sqlite3_column_type(s, col + 1) != SQLITE_NULL && sqlite3_column_int(s, col + 1) >= 0)
		snprintf(side->error, sizeof(side->error), "insn %d: %s", sqlite3_column_int(s, col + 1), msg);
	else
		snprintf(side->error, sizeof(side->error), "%s", msg);
}

int rb_compare_load(sqlite3 *db, const struct rb_compare_spec *spec, struct rb_compare *out,
		    struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	bool by_tracker = spec->tracker_a && spec->tracker_b;
	/* every (program, tracker) key on either side, each side LEFT JOINed;
	 * the two sides' columns as the tracker_pairs view has them */
	char *cols = rb_pair_columns(db, "a", "b", err);
	if (!cols)
		return -1;
	char *sql;
	if (by_tracker)
		sql = sqlite3_mprintf(
			"WITH k AS (SELECT program_id FROM results WHERE run_id = ?1 AND tracker = ?3 "
			"UNION SELECT program_id FROM results WHERE run_id = ?2 AND tracker = ?4) "
			"SELECT p.obj_path, p.name, coalesce(p.source, ''), '', %s, " ERR_COLS
			"FROM k JOIN programs p ON p.id = k.program_id "
			"LEFT JOIN results a ON a.run_id = ?1 AND a.program_id = k.program_id AND a.tracker = ?3 "
			"LEFT JOIN results b ON b.run_id = ?2 AND b.program_id = k.program_id AND b.tracker = ?4 "
			"ORDER BY p.obj_path, p.name",
			cols);
	else
		sql = sqlite3_mprintf(
			"WITH k AS (SELECT program_id, tracker FROM results WHERE run_id = ?1 "
			"AND (?3 IS NULL OR tracker = ?3) UNION SELECT program_id, tracker FROM results "
			"WHERE run_id = ?2 AND (?3 IS NULL OR tracker = ?3)) "
			"SELECT p.obj_path, p.name, coalesce(p.source, ''), k.tracker, %s, " ERR_COLS
			"FROM k JOIN programs p ON p.id = k.program_id "
			"LEFT JOIN results a ON a.run_id = ?1 AND a.program_id = k.program_id AND a.tracker = k.tracker "
			"LEFT JOIN results b ON b.run_id = ?2 AND b.program_id = k.program_id AND b.tracker = k.tracker "
			"ORDER BY p.obj_path, p.name, k.tracker",
			cols);
	sqlite3_free(cols);
	if (!sql)
		return rb_errf(err, "compare: out of memory");
	sqlite3_stmt *s;
	int prc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
	sqlite3_free(sql);
	if (prc != SQLITE_OK)
		return rb_errf(err, "compare: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, spec->run_a);
	sqlite3_bind_int64(s, 2, spec->run_b);
	if (by_tracker) {
		sqlite3_bind_text(s, 3, spec->tracker_a, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, spec->tracker_b, -1, SQLITE_STATIC);
	} else if (spec->tracker) {
		sqlite3_bind_text(s, 3, spec->tracker, -1, SQLITE_STATIC);
	}
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *object = (const char *)sqlite3_column_text(s, 0);
		const char *program = (const char *)sqlite3_column_text(s, 1);
		if (!rb_filter_match(spec->filter, object, program))
			continue;
		if (RB_GROW(out->rows, out->n + 1, &cap, 256) < 0) {
			sqlite3_finalize(s);
			rb_compare_free(out);
			return rb_errf(err, "compare: out of memory");
		}
		struct rb_cmp_row *r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		snprintf(r->object, sizeof(r->object), "%s", object);
		snprintf(r->program, sizeof(r->program), "%s", program);
		snprintf(r->source, sizeof(r->source), "%s", (const char *)sqlite3_column_text(s, 2));
		snprintf(r->tracker, sizeof(r->tracker), "%s", (const char *)sqlite3_column_text(s, 3));
		read_side(s, 4, &r->a);
		read_side(s, 5, &r->b);
		int e = sqlite3_column_count(s) - 6;
		read_error(s, e, &r->a);
		read_error(s, e + 3, &r->b);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		rb_compare_free(out);
		return rb_errf(err, "compare: %s", sqlite3_errmsg(db));
	}
	if (shortest_names(out) < 0) {
		rb_compare_free(out);
		return rb_errf(err, "compare: out of memory");
	}
	return 0;
}

void rb_compare_free(struct rb_compare *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

bool rb_cmp_row_changed(const struct rb_cmp_row *r)
{
	if (r->a.present != r->b.present)
		return true;
	if (strcmp(r->a.verdict, r->b.verdict))
		return true;
	/* the counts (RB_MF_CHANGED): time is noise, and memory is states x
	 * state size, which differs between trackers by design */
	for (int i = 1; i < RB_STAT_COUNT; i++)
		if ((stat_flags(i) & RB_MF_CHANGED) && r->a.v[i] != r->b.v[i])
			return true;
	return false;
}

void rb_cmp_rf_row(const struct rb_cmp_row *r, struct rb_rf_row *out)
{
	out->file = r->object;
	out->prog = r->program;
	out->source = r->source;
	out->nsides = 2;
	const struct rb_cmp_side *sd[2] = {&r->a, &r->b};
	for (int s = 0; s < 2; s++) {
		out->present[s] = sd[s]->present;
		out->verdict[s] = sd[s]->verdict;
		out->error[s] = sd[s]->error;
		for (int m = 0; m < RB_METRIC_COUNT; m++)
			out->v[s][m] = sd[s]->v[m + 1];
	}
}

static int cmp_rows(const void *a, const void *b, void *ctx)
{
	const struct rb_cmp_row *x = a, *y = b;
	struct rb_rf_row rx, ry;
	rb_cmp_rf_row(x, &rx);
	rb_cmp_rf_row(y, &ry);
	int c = rb_sortspec_cmp(ctx, &rx, &ry);
	return c ? c : strcmp(x->tracker, y->tracker);
}

int rb_compare_sort(struct rb_compare *c, const char *key)
{
	struct rb_sortspec spec;
	struct rb_err err = {{0}};
	if (rb_sortspec_parse(&spec, key, true, &err) < 0)
		return -1;
	qsort_r(c->rows, c->n, sizeof(c->rows[0]), cmp_rows, &spec);
	return 0;
}

void rb_compare_filter(struct rb_compare *c, const struct rb_rowfilter *f)
{
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct rb_rf_row r;
		rb_cmp_rf_row(&c->rows[i], &r);
		if (rb_rowfilter_match(f, &r))
			c->rows[k++] = c->rows[i];
	}
	c->n = k;
}

static bool verified(const struct rb_cmp_side *s)
{
	int v = rb_verdict_parse(s->verdict);
	return v == RB_ACCEPT || v == RB_REJECT;
}

void rb_compare_summarize(const struct rb_compare *c, struct rb_compare_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->by_run = c->n > 0 && c->rows[0].tracker[0];
	double logsum[RB_STAT_COUNT] = {0};
	for (size_t i = 0; i < c->n; i++) {
		const struct rb_cmp_row *r = &c->rows[i];
		s->rows++;
		if (!strcmp(r->program, "(object)")) {
			s->failed_open++;
			continue;
		}
		if (!r->b.present) {
			s->only_a++;
			continue;
		}
		if (!r->a.present) {
			s->only_b++;
			continue;
		}
		if (!verified(&r->a) || !verified(&r->b)) {
			int side = verified(&r->a) ? 1 : 0;
			int v = rb_verdict_parse(side ? r->b.verdict : r->a.verdict);
			s->unverified[side][v < 0 ? RB_LOAD_ERROR : v]++;
			continue;
		}
		s->programs++;
		if (strcmp(r->a.verdict, r->b.verdict))
			s->verdict_changes++;
		if (rb_cmp_row_changed(r))
			s->changed++;
		for (int k = 1; k < RB_STAT_COUNT; k++)
			if (r->a.v[k] > 0 && r->b.v[k] > 0) {
				logsum[k] += log(r->b.v[k] / r->a.v[k]);
				s->gmean_n[k]++;
			}
	}
	for (int k = 1; k < RB_STAT_COUNT; k++)
		s->gmean[k] = s->gmean_n[k] ? exp(logsum[k] / (double)s->gmean_n[k]) : NAN;
}

static void fmt_num(char *buf, size_t len, int stat, double v)
{
	if (rb_metrics[RB_STAT_METRIC(stat)].fmt == RB_MFMT_US)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void fmt_diff(char *buf, size_t len, int stat, double a, double b, bool with_pct)
{
	char d[32];
	if (rb_metrics[RB_STAT_METRIC(stat)].fmt == RB_MFMT_US)
		snprintf(d, sizeof(d), "%+.1f", b - a);
	else
		snprintf(d, sizeof(d), "%+.0f", b - a);
	if (!with_pct) {
		snprintf(buf, len, "%s", d);
		return;
	}
	double p = rb_rf_pct(a, b);
	if (isinf(p))
		snprintf(buf, len, "%.24s (+inf%%)", d);
	else
		snprintf(buf, len, "%.24s (%+.2f%%)", d, p);
}

int rb_compare_table(const struct rb_compare *c, const enum rb_cmp_stat *stats, size_t nstats,
		     bool csv, bool errors, const bool *keep, size_t limit, struct rb_table *out)
{
	bool by_run = c->n > 0 && c->rows[0].tracker[0];
	const char *hdr[64];
	char titles[64][48];
	size_t nh = 0;
	hdr[nh++] = csv ? "object" : "Object";
	hdr[nh++] = csv ? "program" : "Program";
	if (by_run)
		hdr[nh++] = csv ? "tracker" : "Tracker";
	for (size_t i = 0; i < nstats && nh + 4 < 64; i++) {
		const char *name = stat_name(stats[i]), *title = stat_title(stats[i]);
		static const char *const parts_txt[] = {"A", "B", "DIFF"};
		static const char *const parts_csv[] = {"a", "b", "diff", "pct"};
		size_t np = csv && stats[i] != RB_STAT_VERDICT ? 4 : 3;
		for (size_t p = 0; p < np; p++) {
			if (csv)
				snprintf(titles[nh], sizeof(titles[nh]), "%s_%s", name, parts_csv[p]);
			else
				snprintf(titles[nh], sizeof(titles[nh]), "%s (%s)", title, parts_txt[p]);
			hdr[nh] = titles[nh];
			nh++;
		}
	}
	if (errors) {
		hdr[nh++] = csv ? "error_a" : "Error (A)";
		hdr[nh++] = csv ? "error_b" : "Error (B)";
	}
	if (rb_table_init(out, nh, hdr) < 0)
		return -1;
	size_t shown = 0;
	for (size_t i = 0; i < c->n && (!limit || shown < limit); i++) {
		if (keep && !keep[i])
			continue;
		const struct rb_cmp_row *r = &c->rows[i];
		char cell[64][64];
		const char *cells[64];
		size_t k = 0;
		cells[k++] = csv ? r->object : r->shown;
		cells[k++] = r->program;
		if (by_run)
			cells[k++] = r->tracker;
		for (size_t j = 0; j < nstats && k + 4 < 64; j++) {
			int st = stats[j];
			size_t first = k;
			if (st == RB_STAT_VERDICT) {
				snprintf(cell[k], 64, "%s", r->a.present ? r->a.verdict : "-");
				snprintf(cell[k + 1], 64, "%s", r->b.present ? r->b.verdict : "-");
				snprintf(cell[k + 2], 64, "%s",
					 !r->a.present || !r->b.present ? "N/A"
					 : strcmp(r->a.verdict, r->b.verdict) ? "MISMATCH"
									       : "MATCH");
				k += 3;
			} else {
				double a = r->a.v[st], b = r->b.v[st];
				if (r->a.present)
					fmt_num(cell[k], 64, st, a);
				else
					snprintf(cell[k], 64, "-");
				if (r->b.present)
					fmt_num(cell[k + 1], 64, st, b);
				else
					snprintf(cell[k + 1], 64, "-");
				k += 2;
				if (!r->a.present || !r->b.present) {
					snprintf(cell[k++], 64, "N/A");
					if (csv)
						snprintf(cell[k++], 64, "%s", "");
				} else if (csv) {
					fmt_diff(cell[k++], 64, st, a, b, false);
					double p = rb_rf_pct(a, b);
					if (isinf(p))
						snprintf(cell[k++], 64, "inf");
					else
						snprintf(cell[k++], 64, "%.2f", p);
				} else {
					fmt_diff(cell[k++], 64, st, a, b, true);
				}
			}
			for (size_t q = first; q < k; q++)
				cells[q] = cell[q];
		}
		if (errors) {
			cells[k++] = r->a.error;
			cells[k++] = r->b.error;
		}
		if (rb_table_add(out, cells) < 0)
			return -1;
		shown++;
	}
	return 0;
}

int rb_compare_summary_table(const struct rb_compare_summary *s, struct rb_table *out)
{
	static const char *const hdr[] = {"statistic", "value"};
	if (rb_table_init(out, 2, hdr) < 0)
		return -1;
	char v[64], name[96];
	const char *what = s->by_run ? "(program, tracker) pairs" : "programs";
	snprintf(name, sizeof(name), "%s", what);
	snprintf(v, sizeof(v), "%zu", s->rows);
	rb_table_add(out, (const char *const[]){name, v});
	snprintf(name, sizeof(name), "%s compared (both sides verified)", what);
	snprintf(v, sizeof(v), "%zu", s->programs);
	rb_table_add(out, (const char *const[]){name, v});
	struct {
		const char *name;
		size_t val;
	} excl[] = {
		{"excluded: only in A", s->only_a},
		{"excluded: only in B", s->only_b},
		{"excluded: object could not be opened", s->failed_open},
	};
	for (size_t i = 0; i < ARRAY_SIZE(excl); i++) {
		if (!excl[i].val)
			continue;
		snprintf(v, sizeof(v), "%zu", excl[i].val);
		rb_table_add(out, (const char *const[]){excl[i].name, v});
	}
	for (int side = 0; side < 2; side++)
		for (int vd = 0; vd < RB_VERDICT_COUNT; vd++) {
			if (!s->unverified[side][vd])
				continue;
			snprintf(name, sizeof(name), "excluded: %s %s", side ? "B" : "A",
				 rb_verdict_name((enum rb_verdict)vd));
			snprintf(v, sizeof(v), "%zu", s->unverified[side][vd]);
			rb_table_add(out, (const char *const[]){name, v});
		}
	struct {
		const char *name;
		size_t val;
	} counts[] = {
		{"verdict changes", s->verdict_changes},
		{"changed (verdict or counts)", s->changed},
	};
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		snprintf(v, sizeof(v), "%zu", counts[i].val);
		rb_table_add(out, (const char *const[]){counts[i].name, v});
	}
	for (int g = 1; g < RB_STAT_COUNT; g++) {
		if (!(stat_flags(g) & RB_MF_GMEAN))
			continue;
		snprintf(name, sizeof(name), "geomean B/A %s", stat_name(g));
		if (s->gmean_n[g])
			snprintf(v, sizeof(v), "%.4f", s->gmean[g]);
		else
			snprintf(v, sizeof(v), "n/a");
		rb_table_add(out, (const char *const[]){name, v});
	}
	return 0;
}
