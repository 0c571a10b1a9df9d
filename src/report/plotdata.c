/* plotdata.c — exporting chart data from the database (see plotdata.h). */
#include "report/plotdata.h"

#include <stdio.h>
#include <string.h>

#include "tracker/tracker.h"

enum {
	F_OLD_VS_CNUM,
	F_TIME_RATIO,
	F_STATE_BYTES,
	F_AGREEMENT,
	F_CENSUS,
	F_CENSUS_JMP,
	F_BEFORE_AFTER,
	F_BENCH,
	F_COUNT
};

const struct rb_plot_file rb_plot_files[] = {
	[F_OLD_VS_CNUM] = {"old_vs_cnum.tsv", "a run with both the old and the cnum tracker"},
	[F_TIME_RATIO] = {"time_ratio_cdf.tsv", "a run with both the old and the cnum tracker"},
	[F_STATE_BYTES] = {"state_bytes.tsv", "the tracker registry"},
	[F_AGREEMENT] = {"agreement.tsv", "a run with the kernel and at least one userspace tracker"},
	[F_CENSUS] = {"census.tsv", "a census run (rangebench run --census)"},
	[F_CENSUS_JMP] = {"census_jmp.tsv", "a census run (rangebench run --census)"},
	[F_BEFORE_AFTER] = {"before_after.tsv", "two verify runs"},
	[F_BENCH] = {"bench.tsv", "a bench run (make bench ARGS='--db FILE')"},
	{NULL, NULL},
};

/* Write the rows of a query to dir/name as TSV with a '#' header. Spaces
 * inside text cells become '_' so every reader splits columns alike. */
static int64_t export(sqlite3 *db, const char *dir, const char *name, const char *sql,
		      const int64_t *binds, int nbinds, struct rb_err *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "plot data %s: %s", name, sqlite3_errmsg(db));
	for (int i = 0; i < nbinds; i++)
		sqlite3_bind_int64(s, i + 1, binds[i]);
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
	int64_t n = 0;
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
		n++;
	}
	sqlite3_finalize(s);
	if (fclose(f) != 0 || rc != SQLITE_DONE)
		return rb_errf(err, "plot data %s: %s", name,
			       rc != SQLITE_DONE ? sqlite3_errmsg(db) : "write failed");
	return n;
}

int rb_plot_export(sqlite3 *db, const struct rb_plot_runs *runs, const char *dir, uint64_t *rows,
		   struct rb_err *err)
{
	int64_t n;
	int64_t r1[1] = {runs->run};

	n = export(db, dir, rb_plot_files[F_OLD_VS_CNUM].name,
		   "SELECT program, old_insns, cnum_insns, old_states, cnum_states, old_us, cnum_us, "
		   "old_verdict <> cnum_verdict AS verdict_differs, old_verdict, cnum_verdict "
		   "FROM old_vs_cnum WHERE run_id = ?1 ORDER BY program",
		   r1, 1, err);
	if (n < 0)
		return -1;
	rows[F_OLD_VS_CNUM] = (uint64_t)n;

	/* empirical CDF: the i-th smallest ratio has cumulative share i/N */
	n = export(db, dir, rb_plot_files[F_TIME_RATIO].name,
		   "WITH r AS (SELECT cnum_us / old_us AS ratio FROM old_vs_cnum WHERE run_id = ?1 "
		   "AND old_us > 0 AND cnum_us > 0) "
		   "SELECT printf('%.6g', ratio) AS ratio, "
		   "printf('%.6f', 1.0 * row_number() OVER (ORDER BY ratio) / (SELECT count(*) FROM r)) "
		   "AS cum_share FROM r ORDER BY ratio",
		   r1, 1, err);
	if (n < 0)
		return -1;
	rows[F_TIME_RATIO] = (uint64_t)n;

	/* bytes per value-tracking part, register state and stored state.
	 * Value tracking comes from the trackers themselves; the kernel's
	 * 6.18 numbers (64 of 112 bytes; 1280-byte bpf_func_state) were
	 * read from its BTF (docs/kernel-facts.md, "Sizes of the kernel's
	 * verifier state") and stand in when no kernel
	 * row says otherwise. */
	const struct rb_tracker *old = rb_tracker_get("old", 64), *cnum = rb_tracker_get("cnum", 64);
	char sql[2048];
	snprintf(sql, sizeof(sql),
		 "WITH t(tracker, ord, val) AS (VALUES ('old', 1, %zu), ('cnum', 2, %zu), ('kernel', 3, 64)), "
		 "m AS (SELECT tracker, max(reg_state_bytes) AS reg, max(state_bytes) AS st FROM results "
		 "WHERE run_id = ?1 GROUP BY tracker) "
		 "SELECT t.tracker, t.val AS value_bytes, "
		 "coalesce(nullif(m.reg, 0), CASE t.tracker WHEN 'kernel' THEN 112 END) AS reg_state_bytes, "
		 "coalesce(nullif(m.st, 0), CASE t.tracker WHEN 'kernel' THEN 1280 END) AS state_bytes "
		 "FROM t LEFT JOIN m ON m.tracker = t.tracker ORDER BY t.ord",
		 old ? old->val_size : 0, cnum ? cnum->val_size : 0);
	n = export(db, dir, rb_plot_files[F_STATE_BYTES].name, sql, r1, 1, err);
	if (n < 0)
		return -1;
	rows[F_STATE_BYTES] = (uint64_t)n;

	/* one row per source: agreement share for old and cnum (empty = none) */
	n = export(db, dir, rb_plot_files[F_AGREEMENT].name,
		   "WITH a AS (SELECT coalesce(source, 'unknown') AS source, tracker, count(agree) AS n, "
		   "sum(agree) AS ok FROM tracker_vs_kernel WHERE run_id = ?1 GROUP BY 1, 2) "
		   "SELECT source, "
		   "printf('%.2f', 100.0 * max(CASE WHEN tracker = 'old' THEN ok END) / "
		   "  max(CASE WHEN tracker = 'old' THEN n END)) AS old_pct, "
		   "printf('%.2f', 100.0 * max(CASE WHEN tracker = 'cnum' THEN ok END) / "
		   "  max(CASE WHEN tracker = 'cnum' THEN n END)) AS cnum_pct, "
		   "coalesce(max(CASE WHEN tracker = 'old' THEN n END), 0) AS old_n, "
		   "coalesce(max(CASE WHEN tracker = 'cnum' THEN n END), 0) AS cnum_n "
		   "FROM a GROUP BY source HAVING max(n) > 0 ORDER BY source",
		   r1, 1, err);
	if (n < 0)
		return -1;
	rows[F_AGREEMENT] = (uint64_t)n;

	/* census: register-source forms only (the _imm forms are in the
	 * table), ALU/mov/load operations and jumps in two files */
	int64_t rc1[1] = {runs->census};
	static const char *const census_sql =
		"SELECT o.op, printf('%%.2f', 100.0 * o.optimal / max(o.cases, 1)) AS old_optimal_pct, "
		"printf('%%.2f', 100.0 * c.optimal / max(c.cases, 1)) AS cnum_optimal_pct, "
		"o.unsound + c.unsound AS unsound "
		"FROM census o JOIN census c ON c.run_id = o.run_id AND c.op = o.op "
		"AND c.width = o.width AND c.tracker = 'cnum' "
		"WHERE o.run_id = ?1 AND o.tracker = 'old' AND o.optimal IS NOT NULL "
		"AND c.optimal IS NOT NULL AND o.width = (SELECT min(width) FROM census WHERE run_id = ?1) "
		"AND o.op NOT LIKE '%%\\_imm' ESCAPE '\\' AND coalesce(o.kind, '') %s 'jmp' "
		"ORDER BY o.seq";
	char csql[1400];
	snprintf(csql, sizeof(csql), census_sql, "<>");
	n = export(db, dir, rb_plot_files[F_CENSUS].name, csql, rc1, 1, err);
	if (n < 0)
		return -1;
	rows[F_CENSUS] = (uint64_t)n;
	snprintf(csql, sizeof(csql), census_sql, "=");
	n = export(db, dir, rb_plot_files[F_CENSUS_JMP].name, csql, rc1, 1, err);
	if (n < 0)
		return -1;
	rows[F_CENSUS_JMP] = (uint64_t)n;

	int64_t rba[2] = {runs->before, runs->after};
	n = export(db, dir, rb_plot_files[F_BEFORE_AFTER].name,
		   "SELECT p.name AS program, a.tracker, a.insns_processed AS a_insns, "
		   "b.insns_processed AS b_insns, a.total_states AS a_states, b.total_states AS b_states, "
		   "a.verdict <> b.verdict AS verdict_changed "
		   "FROM results a JOIN results b ON b.run_id = ?2 AND b.program_id = a.program_id "
		   "AND b.tracker = a.tracker JOIN programs p ON p.id = a.program_id "
		   "WHERE a.run_id = ?1 AND ?1 <> ?2 ORDER BY a.tracker, p.name",
		   rba, 2, err);
	if (n < 0)
		return -1;
	rows[F_BEFORE_AFTER] = (uint64_t)n;

	int64_t rb1[1] = {runs->bench};
	n = export(db, dir, rb_plot_files[F_BENCH].name,
		   "SELECT o.op, printf('%.3f', o.ns_per_op) AS old_ns, printf('%.3f', c.ns_per_op) AS cnum_ns, "
		   "printf('%.4f', c.ns_per_op / o.ns_per_op) AS ratio "
		   "FROM bench o JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND c.tracker = 'cnum' "
		   "WHERE o.run_id = ?1 AND o.tracker = 'old' AND o.ns_per_op > 0 "
		   "ORDER BY c.ns_per_op / o.ns_per_op DESC, o.op",
		   rb1, 1, err);
	if (n < 0)
		return -1;
	rows[F_BENCH] = (uint64_t)n;
	return 0;
}
