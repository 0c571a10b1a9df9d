/* charts.c — the chart rows (see charts.h) and their export. */
#include "report/charts.h"

#include <stdio.h>
#include <string.h>

#include "tracker/tracker.h"

/* old (?3) and cnum (?4) side by side, per program of run ?1 */
#define PAIR_SQL                                                                                   \
	"SELECT p.name AS program, a.insns_processed AS old_insns, b.insns_processed AS cnum_insns, " \
	"a.total_states AS old_states, b.total_states AS cnum_states, a.verify_us AS old_us, "      \
	"b.verify_us AS cnum_us, a.verdict <> b.verdict AS verdict_differs, a.verdict AS old_verdict, " \
	"b.verdict AS cnum_verdict FROM results a JOIN results b ON b.run_id = a.run_id AND "       \
	"b.program_id = a.program_id AND b.tracker = ?4 JOIN programs p ON p.id = a.program_id "    \
	"WHERE a.run_id = ?1 AND a.tracker = ?3 ORDER BY p.name"
#define PAIR_NEEDS "a run with both the old and the cnum tracker"

#define CENSUS_SQL(cmp)                                                                           \
	"SELECT o.op, printf('%.2f', 100.0 * o.optimal / max(o.cases, 1)) AS old_optimal_pct, "     \
	"printf('%.2f', 100.0 * c.optimal / max(c.cases, 1)) AS cnum_optimal_pct, "                 \
	"o.unsound + c.unsound AS unsound "                                                         \
	"FROM census o JOIN census c ON c.run_id = o.run_id AND c.op = o.op "                       \
	"AND c.width = o.width AND c.tracker = ?4 "                                                 \
	"WHERE o.run_id = ?1 AND o.tracker = ?3 AND o.optimal IS NOT NULL "                         \
	"AND c.optimal IS NOT NULL AND o.width = (SELECT min(width) FROM census WHERE run_id = ?1) " \
	"AND o.op NOT LIKE '%\\_imm' ESCAPE '\\' AND coalesce(o.kind, '') " cmp " 'jmp' "          \
	"ORDER BY o.seq"

const struct rb_chart rb_charts[] = {
	{
		.name = "scatter_insns",
		.title = "instructions per program, cnum vs old",
		.runs = RB_CHART_RUN,
		.file = {"old_vs_cnum.tsv"},
		.query = {PAIR_SQL},
		/* log-log: both sides must be positive */
		.points = "SELECT count(*) FROM results a JOIN results b ON b.run_id = a.run_id AND "
			  "b.program_id = a.program_id AND b.tracker = ?4 WHERE a.run_id = ?1 AND "
			  "a.tracker = ?3 AND a.insns_processed > 0 AND b.insns_processed > 0",
		.needs = PAIR_NEEDS,
	},
	{
		.name = "scatter_states",
		.title = "states per program, cnum vs old",
		.runs = RB_CHART_RUN,
		.file = {"old_vs_cnum.tsv"},
		.query = {PAIR_SQL},
		.points = "SELECT count(*) FROM results a JOIN results b ON b.run_id = a.run_id AND "
			  "b.program_id = a.program_id AND b.tracker = ?4 WHERE a.run_id = ?1 AND "
			  "a.tracker = ?3 AND a.total_states > 0 AND b.total_states > 0",
		.needs = "a run with both the old and the cnum tracker and programs with states",
	},
	{
		.name = "cdf_time_ratio",
		.title = "CDF of the cnum/old verification-time ratio",
		.runs = RB_CHART_RUN,
		.file = {"time_ratio_cdf.tsv"},
		/* empirical CDF: the i-th smallest ratio has cumulative share i/N */
		.query = {"WITH r AS (SELECT b.verify_us / a.verify_us AS ratio FROM results a JOIN results b "
			  "ON b.run_id = a.run_id AND b.program_id = a.program_id AND b.tracker = ?4 "
			  "WHERE a.run_id = ?1 AND a.tracker = ?3 AND a.verify_us > 0 AND b.verify_us > 0) "
			  "SELECT printf('%.6g', ratio) AS ratio, "
			  "printf('%.6f', 1.0 * row_number() OVER (ORDER BY ratio) / (SELECT count(*) FROM r)) "
			  "AS cum_share FROM r ORDER BY ratio"},
		.points = "SELECT count(*) FROM results a JOIN results b ON b.run_id = a.run_id AND "
			  "b.program_id = a.program_id AND b.tracker = ?4 WHERE a.run_id = ?1 AND "
			  "a.tracker = ?3 AND a.verify_us > 0 AND b.verify_us > 0",
		.needs = PAIR_NEEDS,
	},
	{
		.name = "state_bytes",
		.title = "bytes per register state and per stored state",
		.runs = RB_CHART_RUN,
		.file = {"state_bytes.tsv"},
		/* value-tracking bytes of the two trackers (?5, ?6: their
		 * val_size at 64 bits) and of the kernel's 6.18 bpf_reg_state
		 * bounds (64 of its 112 bytes; a 1280-byte bpf_func_state), read
		 * from the 6.18.44 BTF (docs/kernel-facts.md, "Sizes of the
		 * kernel's verifier state"); a run's rows give the register and
		 * state sizes where it has them */
		.query = {"WITH t(tracker, ord, val) AS (VALUES (?3, 1, ?5), (?4, 2, ?6), ('kernel', 3, 64)), "
			  "m AS (SELECT tracker, max(reg_state_bytes) AS reg, max(state_bytes) AS st FROM results "
			  "WHERE run_id = ?1 GROUP BY tracker) "
			  "SELECT t.tracker, t.val AS value_bytes, "
			  "coalesce(nullif(m.reg, 0), CASE t.tracker WHEN 'kernel' THEN 112 END) AS reg_state_bytes, "
			  "coalesce(nullif(m.st, 0), CASE t.tracker WHEN 'kernel' THEN 1280 END) AS state_bytes "
			  "FROM t LEFT JOIN m ON m.tracker = t.tracker ORDER BY t.ord"},
		.points = "SELECT 3",
		.needs = "nothing",
	},
	{
		.name = "agreement",
		.title = "verdict agreement with the kernel per corpus source",
		.runs = RB_CHART_RUN,
		.file = {"agreement.tsv"},
		/* one row per source: agreement share for old and cnum (empty = none) */
		.query = {"WITH a AS (SELECT coalesce(source, 'unknown') AS source, tracker, count(agree) AS n, "
			  "sum(agree) AS ok FROM tracker_vs_kernel WHERE run_id = ?1 GROUP BY 1, 2) "
			  "SELECT source, "
			  "printf('%.2f', 100.0 * max(CASE WHEN tracker = ?3 THEN ok END) / "
			  "  max(CASE WHEN tracker = ?3 THEN n END)) AS old_pct, "
			  "printf('%.2f', 100.0 * max(CASE WHEN tracker = ?4 THEN ok END) / "
			  "  max(CASE WHEN tracker = ?4 THEN n END)) AS cnum_pct, "
			  "coalesce(max(CASE WHEN tracker = ?3 THEN n END), 0) AS old_n, "
			  "coalesce(max(CASE WHEN tracker = ?4 THEN n END), 0) AS cnum_n "
			  "FROM a GROUP BY source HAVING max(n) > 0 ORDER BY source"},
		.points = "SELECT count(*) FROM tracker_vs_kernel WHERE run_id = ?1 AND agree IS NOT NULL",
		.needs = "a run with the kernel and at least one userspace tracker",
	},
	{
		.name = "census",
		.title = "operator precision census",
		.runs = RB_CHART_CENSUS,
		.file = {"census.tsv", "census_jmp.tsv"},
		.query = {CENSUS_SQL("<>"), CENSUS_SQL("=")},
		.points = "SELECT count(*) FROM census WHERE run_id = ?1 AND tracker = ?3 AND optimal IS NOT NULL "
			  "AND coalesce(kind, '') <> 'jmp'",
		.needs = "a census run (rangebench run --census)",
	},
	{
		.name = "before_after",
		.title = "before/after for two runs",
		.runs = RB_CHART_BEFORE_AFTER,
		.file = {"before_after.tsv"},
		.query = {"SELECT p.name AS program, a.tracker, a.insns_processed AS a_insns, "
			  "b.insns_processed AS b_insns, a.total_states AS a_states, b.total_states AS b_states, "
			  "a.verdict <> b.verdict AS verdict_changed "
			  "FROM results a JOIN results b ON b.run_id = ?2 AND b.program_id = a.program_id "
			  "AND b.tracker = a.tracker JOIN programs p ON p.id = a.program_id "
			  "WHERE a.run_id = ?1 AND ?1 <> ?2 ORDER BY a.tracker, p.name"},
		.points = "SELECT count(*) FROM results a JOIN results b ON b.run_id = ?2 AND "
			  "b.program_id = a.program_id AND b.tracker = a.tracker WHERE a.run_id = ?1 AND ?1 <> ?2 "
			  "AND a.insns_processed > 0 AND b.insns_processed > 0",
		.needs = "two verify runs",
	},
	{
		.name = "bench_ratio",
		.title = "micro-benchmark ratios cnum/old",
		.runs = RB_CHART_BENCH,
		.file = {"bench.tsv"},
		.query = {"SELECT o.op, printf('%.3f', o.ns_per_op) AS old_ns, printf('%.3f', c.ns_per_op) AS cnum_ns, "
			  "printf('%.4f', c.ns_per_op / o.ns_per_op) AS ratio "
			  "FROM bench o JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND c.tracker = ?4 "
			  "WHERE o.run_id = ?1 AND o.tracker = ?3 AND o.ns_per_op > 0 "
			  "ORDER BY c.ns_per_op / o.ns_per_op DESC, o.op"},
		.points = "SELECT count(*) FROM bench o JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND "
			  "c.tracker = ?4 WHERE o.run_id = ?1 AND o.tracker = ?3 AND o.ns_per_op > 0 AND "
			  "c.ns_per_op > 0",
		.needs = "a bench run (make bench ARGS='--db FILE')",
	},
	{NULL},
};

static int bind_runs(sqlite3_stmt *s, const struct rb_chart *c, const struct rb_chart_runs_ids *r)
{
	int64_t a = -1, b = -1;
	switch (c->runs) {
	case RB_CHART_RUN: a = r->run; break;
	case RB_CHART_BEFORE_AFTER: a = r->before, b = r->after; break;
	case RB_CHART_CENSUS: a = r->census; break;
	case RB_CHART_BENCH: a = r->bench; break;
	}
	int n = sqlite3_bind_parameter_count(s);
	if (n >= 1)
		sqlite3_bind_int64(s, 1, a);
	if (n >= 2)
		sqlite3_bind_int64(s, 2, b);
	if (n >= 3)
		sqlite3_bind_text(s, 3, "old", -1, SQLITE_STATIC);
	if (n >= 4)
		sqlite3_bind_text(s, 4, "cnum", -1, SQLITE_STATIC);
	const struct rb_tracker *ta = rb_tracker_get("old", 64), *tb = rb_tracker_get("cnum", 64);
	if (n >= 5)
		sqlite3_bind_int64(s, 5, ta ? (int64_t)ta->val_size : 0);
	if (n >= 6)
		sqlite3_bind_int64(s, 6, tb ? (int64_t)tb->val_size : 0);
	return 0;
}

/* Write the rows of a query to dir/name as TSV with a '#' header. Spaces
 * inside text cells become '_' so every reader splits columns alike. */
static int export(sqlite3 *db, const struct rb_chart *c, const struct rb_chart_runs_ids *runs, const char *dir,
		  const char *name, const char *sql, struct rb_err *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "chart %s: %s", c->name, sqlite3_errmsg(db));
	bind_runs(s, c, runs);
	FILE *f = fopen(path, "w");
	if (!f) {
		sqlite3_finalize(s);
		return rb_errf(err, "%s: cannot write", path);
	}
	int ncol = sqlite3_column_count(s);
	fputc('#', f);
	for (int i = 0; i < ncol; i++)
		fprintf(f, "%s%s", i ? "\t" : "", sqlite3_column_name(s, i));
	fputc('\n', f);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (int i = 0; i < ncol; i++) {
			if (i)
				fputc('\t', f);
			const unsigned char *t = sqlite3_column_text(s, i);
			for (; t && *t; t++)
				fputc(*t == ' ' || *t == '\t' ? '_' : *t, f);
		}
		fputc('\n', f);
	}
	sqlite3_finalize(s);
	if (fclose(f) != 0 || rc != SQLITE_DONE)
		return rb_errf(err, "chart %s: %s", c->name, rc != SQLITE_DONE ? sqlite3_errmsg(db) : "write failed");
	return 0;
}

int rb_chart_export(sqlite3 *db, const struct rb_chart *c, const struct rb_chart_runs_ids *runs,
		    const char *dir, int64_t *points, struct rb_err *err)
{
	*points = 0;
	for (int i = 0; i < 2 && c->file[i]; i++)
		if (export(db, c, runs, dir, c->file[i], c->query[i], err) < 0)
			return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, c->points, -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "chart %s: %s", c->name, sqlite3_errmsg(db));
	bind_runs(s, c, runs);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*points = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return rb_errf(err, "chart %s: %s", c->name, sqlite3_errmsg(db));
	return 0;
}
