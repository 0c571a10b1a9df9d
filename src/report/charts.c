/* charts.c — the chart rows (see charts.h) and their export. */
#include "report/charts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/profile.h"
#include "kernels/kernels.h"
#include "tracker/tracker.h"

/* SQL: the tracker column names no kernel row (temp.chart_trackers.kernel) */
#define RB_NOT_KERNEL(col) col " NOT IN (SELECT name FROM temp.chart_trackers WHERE kernel > 0)"

/* the baseline (?3) and the candidate (?4) side by side, per program of run
 * ?1: the tracker_pairs view (src/store/pairs.c) */
#define PAIR_WHERE "FROM tracker_pairs WHERE run_id = ?1 AND base_tracker = ?3 AND cand_tracker = ?4"
#define PAIR_SQL                                                                                   \
	"SELECT program, base_insns, cand_insns, base_states, cand_states, base_time AS base_us, "     \
	"cand_time AS cand_us, base_verdict <> cand_verdict AS verdict_differs, base_verdict, "      \
	"cand_verdict " PAIR_WHERE " ORDER BY program"
#define PAIR_NEEDS "a run with both the baseline and the candidate tracker"

/* optimal share per op and tracker (pivot: one column per tracker) */
#define CENSUS_SQL(cmp)                                                                           \
	"SELECT op, seq AS ord, tracker, printf('%.2f', 100.0 * optimal / max(cases, 1)) AS value "  \
	"FROM census WHERE run_id = ?1 AND optimal IS NOT NULL "                                     \
	"AND width = (SELECT min(width) FROM census WHERE run_id = ?1) "                             \
	"AND op NOT LIKE '%\\_imm' ESCAPE '\\' AND coalesce(kind, '') " cmp " 'jmp'"

const struct rb_chart rb_charts[] = {
	{
		.name = "scatter_insns",
		.title = "instructions per program, candidate vs baseline",
		.runs = RB_CHART_RUN,
		.file = {"pair.tsv"},
		.query = {PAIR_SQL},
		/* log-log: both sides must be positive */
		.points = "SELECT count(*) " PAIR_WHERE " AND base_insns > 0 AND cand_insns > 0",
		.needs = PAIR_NEEDS,
	},
	{
		.name = "scatter_states",
		.title = "states per program, candidate vs baseline",
		.runs = RB_CHART_RUN,
		.file = {"pair.tsv"},
		.query = {PAIR_SQL},
		.points = "SELECT count(*) " PAIR_WHERE " AND base_states > 0 AND cand_states > 0",
		.needs = "a run with both the baseline and the candidate tracker and programs with states",
	},
	{
		.name = "cdf_time_ratio",
		.title = "CDF of the verification-time ratio of every tracker to the baseline",
		.runs = RB_CHART_RUN,
		.file = {"time_ratio_cdf.tsv"},
		/* empirical CDF per userspace tracker (the kernel's time is a
		 * bpf() call's, not comparable): its i-th smallest ratio has
		 * cumulative share i/N; one block per tracker (registry order),
		 * blocks separated by two blank lines (gnuplot's "index") */
		.query = {"WITH r AS (SELECT cand_tracker AS tracker, t.ord, cand_time / base_time AS ratio "
			  "FROM tracker_pairs JOIN chart_trackers t ON t.name = cand_tracker WHERE run_id = ?1 "
			  "AND base_tracker = ?3 AND " RB_NOT_KERNEL("cand_tracker") " AND base_time > 0 AND cand_time > 0) "
			  "SELECT tracker, printf('%.6g', ratio) AS ratio, "
			  "printf('%.6f', 1.0 * row_number() OVER (PARTITION BY tracker ORDER BY ratio) / "
			  "count(*) OVER (PARTITION BY tracker)) AS cum_share FROM r ORDER BY ord, r.ratio"},
		.points = "SELECT count(*) FROM tracker_pairs WHERE run_id = ?1 AND base_tracker = ?3 AND "
			  RB_NOT_KERNEL("cand_tracker") " AND base_time > 0 AND cand_time > 0",
		.needs = "a run with the baseline and another userspace tracker",
		.blocks = 1,
	},
	{
		.name = "state_bytes",
		.title = "bytes per register state and per stored state",
		.runs = RB_CHART_RUN,
		.file = {"state_bytes.tsv"},
		/* value-tracking bytes of every tracker (val_size at 64 bits)
		 * and of the kernel's 6.18 bpf_reg_state bounds (64 of its 112
		 * bytes; a 1280-byte bpf_func_state), read from the 6.18.44 BTF
		 * (docs/kernel-facts.md, "Sizes of the kernel's verifier
		 * state"); a run's rows give the register and state sizes where
		 * it has them (the engine's as allocated, the kernel's from its
		 * BTF). Then "kernel-cnum": the kernel's structs with its eight
		 * bounds (48 bytes) replaced by cnum64 + cnum32 (24 bytes), as
		 * mainline holds them (oracle/kstruct.c). Last column, measured:
		 * peak_state_mem (bytes of verifier states alive at once, as
		 * allocated) summed over the programs every userspace tracker of
		 * the run accepted, in MiB */
		.query = {"WITH m AS (SELECT tracker, max(reg_state_bytes) AS reg, max(state_bytes) AS st FROM results "
			  "WHERE run_id = ?1 GROUP BY tracker), "
			  "u AS (SELECT count(DISTINCT tracker) AS n FROM results WHERE run_id = ?1 AND " RB_NOT_KERNEL("tracker") "), "
			  "ok AS (SELECT program_id FROM results WHERE run_id = ?1 AND " RB_NOT_KERNEL("tracker") " GROUP BY program_id "
			  "HAVING count(*) = (SELECT n FROM u) AND sum(verdict <> 'success') = 0), "
			  "p AS (SELECT tracker, sum(peak_state_mem) AS mem FROM results WHERE run_id = ?1 AND " RB_NOT_KERNEL("tracker") " "
			  "AND program_id IN ok GROUP BY tracker), "
			  "rows AS (SELECT t.ord, t.name AS tracker, t.val_size AS value_bytes, "
			  "coalesce(nullif(m.reg, 0), t.reg_bytes) AS reg_state_bytes, "
			  "coalesce(nullif(m.st, 0), t.state_bytes) AS state_bytes, "
			  "CASE WHEN p.mem IS NOT NULL THEN printf('%.2f', p.mem / 1048576.0) END AS state_mib "
			  "FROM chart_trackers t LEFT JOIN m ON m.tracker = t.name LEFT JOIN p ON p.tracker = t.name "
			  "WHERE t.kernel < 2 OR m.tracker IS NOT NULL) "
			  "SELECT tracker, value_bytes, reg_state_bytes, state_bytes, state_mib FROM (SELECT * FROM rows "
			  "UNION ALL SELECT 1000000, 'kernel-cnum', 40, reg_state_bytes - 24, state_bytes - 11 * 24, NULL "
			  "FROM rows WHERE tracker IN (SELECT name FROM temp.chart_trackers WHERE kernel = 1)) ORDER BY ord"},
		.points = "SELECT count(*) FROM chart_trackers",
		.needs = "nothing",
	},
	{
		.name = "agreement",
		.title = "verdict agreement with the kernel per corpus source",
		.runs = RB_CHART_RUN,
		.file = {"agreement.tsv"},
		/* one row per source (its label says how many programs were
		 * compared, at most), one column per tracker: agreement share */
		.query = {"WITH a AS (SELECT coalesce(source, 'unknown') AS source, tracker, count(agree) AS n, "
			  "sum(agree) AS ok FROM tracker_vs_kernel WHERE run_id = ?1 GROUP BY 1, 2) "
			  "SELECT source || ' (n=' || max(n) OVER (PARTITION BY source) || ')' AS source, "
			  "source AS ord, tracker, CASE WHEN n > 0 THEN printf('%.2f', 100.0 * ok / n) END AS value "
			  "FROM a WHERE source IN (SELECT source FROM a GROUP BY source HAVING max(n) > 0)"},
		.points = "SELECT count(*) FROM tracker_vs_kernel WHERE run_id = ?1 AND agree IS NOT NULL",
		.needs = "a run with the kernel and at least one userspace tracker",
		.pivot = RB_CHART_PIVOT(0),
	},
	{
		.name = "kernels",
		.title = "programs verified exactly as the run's kernel image does, per corpus source",
		.runs = RB_CHART_RUN,
		.file = {"kernels.tsv"},
		/* the reference: the run's first kernel image (src/kernels/,
		 * e.g. kernel-7.2); one row per source, one column per other
		 * tracker of the run (the running kernel, the engine's): the
		 * share of programs with the reference's verdict and
		 * instruction count, over those both verified */
		.query = {"WITH ref AS (SELECT name FROM temp.chart_trackers t WHERE kernel = 2 AND EXISTS "
			  "(SELECT 1 FROM results r WHERE r.run_id = ?1 AND r.tracker = t.name) ORDER BY ord LIMIT 1), "
			  "a AS (SELECT coalesce(p.source, 'unknown') AS source, t.tracker, count(*) AS n, "
			  "sum(t.verdict = k.verdict AND t.insns_processed = k.insns_processed) AS ok FROM results k "
			  "JOIN results t ON t.run_id = k.run_id AND t.program_id = k.program_id AND t.tracker <> k.tracker "
			  "AND t.verdict IN ('success', 'failure') JOIN programs p ON p.id = k.program_id "
			  "WHERE k.run_id = ?1 AND k.tracker = (SELECT name FROM ref) AND k.verdict IN ('success', 'failure') "
			  "GROUP BY 1, 2) "
			  "SELECT source || ' (n=' || max(n) OVER (PARTITION BY source) || ')' AS source, source AS ord, "
			  "tracker, printf('%.2f', 100.0 * ok / n) AS value FROM a"},
		.points = "SELECT count(*) FROM results WHERE run_id = ?1 AND verdict IN ('success', 'failure') AND "
			  "tracker IN (SELECT name FROM temp.chart_trackers WHERE kernel = 2)",
		.needs = "a run with a kernel image (e.g. --trackers kernel,cnum-mainline,kernel-7.2)",
		.pivot = RB_CHART_PIVOT(0),
	},
	{
		.name = "kernels_attribution",
		.title = "programs two kernels of the run differ on, by explain's class or the logs' mechanism, per source",
		.runs = RB_CHART_RUN,
		.file = {"kernels_attribution.tsv"},
		/* one row per source. `rangebench explain --db`'s classes for
		 * the pair of kernels with the most explanations stored (table
		 * explanations): a profile switch, the tracker (one engine step
		 * explained by value sets), the kernel inputs, two or more
		 * steps; a program explain left unexplained (or, without
		 * explanations, every program) by `rangebench attribute`'s
		 * mechanism where the kernels' logs part (kernel_attributions,
		 * the same pair), 'unnamed' without one */
		.query = {"WITH k AS (SELECT name FROM temp.chart_trackers WHERE kernel > 0), "
			  "ep AS (SELECT baseline, candidate FROM explanations WHERE run_id = ?1 AND baseline IN k "
			  "AND candidate IN k GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2 LIMIT 1), "
			  "ap AS (SELECT * FROM ep UNION ALL SELECT * FROM (SELECT baseline, candidate FROM kernel_attributions "
			  "WHERE run_id = ?1 AND NOT EXISTS (SELECT 1 FROM ep) GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2 LIMIT 1)), "
			  "e AS (SELECT e.program_id, CASE WHEN NOT e.explained THEN NULL WHEN e.class LIKE 'switch %' THEN 'switch' "
			  "WHEN e.class LIKE 'kernel inputs:%' THEN 'inputs' WHEN e.class LIKE '%; %' THEN 'steps' ELSE 'tracker' END "
			  "AS cls FROM explanations e JOIN ep USING (baseline, candidate) WHERE e.run_id = ?1), "
			  "a AS (SELECT a.program_id, a.mechanism FROM kernel_attributions a JOIN ap USING (baseline, candidate) "
			  "WHERE a.run_id = ?1), "
			  "x AS (SELECT coalesce(p.source, 'unknown') AS source, coalesce(e.cls, '') AS cls, CASE WHEN e.cls IS NULL "
			  "THEN coalesce(a.mechanism, 'other') ELSE '' END AS mech FROM (SELECT program_id FROM e UNION SELECT program_id FROM a "
			  "WHERE NOT EXISTS (SELECT 1 FROM e)) g JOIN programs p ON p.id = g.program_id "
			  "LEFT JOIN e USING (program_id) LEFT JOIN a USING (program_id)) "
			  "SELECT source || ' (n=' || count(*) || ')' AS source, sum(cls = 'switch') AS switch, "
			  "sum(cls = 'tracker') AS tracker, sum(cls = 'inputs') AS kernel_inputs, sum(cls = 'steps') AS two_steps, "
			  "sum(mech = 'const_fold') AS const_fold, "
			  "sum(mech = 'prune_earlier') AS prune_earlier, sum(mech = 'prune_later') AS prune_later, "
			  "sum(mech = 'branch') AS branch, sum(mech = 'path_ends') AS path_ends, "
			  "sum(mech = 'rejects_upfront') AS rejects_upfront, sum(mech = 'explores_now') AS explores_now, "
			  "sum(mech = 'stops_earlier') AS stops_earlier, sum(mech = 'stops_later') AS stops_later, "
			  "sum(mech = 'checkpoints') AS checkpoints, sum(mech = 'insn_rewrite') AS insn_rewrite, "
			  "sum(mech IN ('other', 'no_log', 'too_large', 'beyond_head', 'ends')) AS unnamed FROM x "
			  "GROUP BY source ORDER BY 1"},
		.points = "SELECT (SELECT count(*) FROM kernel_attributions WHERE run_id = ?1) + (SELECT count(*) FROM "
			  "explanations WHERE run_id = ?1 AND baseline IN (SELECT name FROM temp.chart_trackers WHERE kernel > 0) "
			  "AND candidate IN (SELECT name FROM temp.chart_trackers WHERE kernel > 0))",
		.needs = "a run with two kernels and `rangebench explain --db` or `rangebench attribute` (e.g. --trackers "
			 "old,cnum-mainline,old@7.2,cnum-mainline@7.2,kernel,kernel-7.2)",
	},
	{
		.name = "metric_ratios",
		.title = "geometric-mean ratio of every metric, each tracker to the baseline",
		.runs = RB_CHART_RUN,
		.file = {"metric_ratios.tsv"},
		/* one row per metric of src/result/metrics.h (registry order;
		 * a new metric is a new row, with no change here or in the
		 * script), one column per other tracker: the geometric mean of
		 * tracker / baseline over the programs both verified with the
		 * figure > 0 on both sides (tracker_pair_metrics, one row per
		 * program and metric of the tracker_pairs view) */
		.query = {"SELECT metric, ord, cand_tracker AS tracker, printf('%.4f', exp(avg(ln(1.0 * cand / base)))) "
			  "AS value FROM tracker_pair_metrics WHERE run_id = ?1 AND base_tracker = ?3 AND base > 0 "
			  "AND cand > 0 AND base_verdict IN ('success', 'failure') AND cand_verdict IN ('success', "
			  "'failure') GROUP BY metric, cand_tracker"},
		.points = "SELECT count(*) FROM tracker_pair_metrics WHERE run_id = ?1 AND base_tracker = ?3 AND "
			  "base > 0 AND cand > 0 AND base_verdict IN ('success', 'failure') AND cand_verdict IN "
			  "('success', 'failure')",
		.needs = "a run with the baseline and another tracker",
		.pivot = RB_CHART_PIVOT(0),
	},
	{
		.name = "profile_matrix",
		.title = "the 2x2 matrix: engine profile {6.18, 7.2} x tracker {old, cnum-mainline}, per corpus source",
		.runs = RB_CHART_RUN,
		.file = {"profile_matrix.tsv"},
		/* one block per metric (index 0..4: instructions, states, engine
		 * time, peak state memory, accepted %), one row per source over
		 * the programs all four rows verified; the first four metrics
		 * relative to the 6.18 old cell (db/queries/profile_matrix.sql
		 * has the absolute figures); native times only */
		.query = {"WITH four AS (SELECT o.program_id, coalesce(p.source, 'unknown') AS source FROM results o "
			  "JOIN programs p ON p.id = o.program_id "
			  "JOIN results n ON n.run_id = o.run_id AND n.program_id = o.program_id AND n.tracker = 'cnum-mainline' "
			  "JOIN results o7 ON o7.run_id = o.run_id AND o7.program_id = o.program_id AND o7.tracker = 'old@7.2' "
			  "JOIN results n7 ON n7.run_id = o.run_id AND n7.program_id = o.program_id "
			  "AND n7.tracker = 'cnum-mainline@7.2' WHERE o.run_id = ?1 AND o.tracker = 'old' "
			  "AND o.verdict IN ('success', 'failure') AND n.verdict IN ('success', 'failure') "
			  "AND o7.verdict IN ('success', 'failure') AND n7.verdict IN ('success', 'failure')), "
			  "cell(c, row) AS (VALUES (1, 'old'), (2, 'cnum-mainline'), (3, 'old@7.2'), (4, 'cnum-mainline@7.2')), "
			  "a AS (SELECT f.source, c.c, count(*) AS n, 100.0 * sum(r.verdict = 'success') / count(*) AS acc, "
			  "1.0 * sum(r.insns_processed) AS i, 1.0 * sum(r.total_states) AS s, "
			  "sum(CASE WHEN r.clock IS NULL THEN r.verify_us END) AS t, 1.0 * max(r.peak_state_mem) AS m "
			  "FROM four f CROSS JOIN cell c JOIN results r ON r.run_id = ?1 AND r.program_id = f.program_id "
			  "AND r.tracker = c.row GROUP BY 1, 2), "
			  "w AS (SELECT source || ' (n=' || max(n) || ')' AS source, "
			  "max(CASE c WHEN 1 THEN i END) AS i1, max(CASE c WHEN 2 THEN i END) AS i2, "
			  "max(CASE c WHEN 3 THEN i END) AS i3, max(CASE c WHEN 4 THEN i END) AS i4, "
			  "max(CASE c WHEN 1 THEN s END) AS s1, max(CASE c WHEN 2 THEN s END) AS s2, "
			  "max(CASE c WHEN 3 THEN s END) AS s3, max(CASE c WHEN 4 THEN s END) AS s4, "
			  "max(CASE c WHEN 1 THEN t END) AS t1, max(CASE c WHEN 2 THEN t END) AS t2, "
			  "max(CASE c WHEN 3 THEN t END) AS t3, max(CASE c WHEN 4 THEN t END) AS t4, "
			  "max(CASE c WHEN 1 THEN m END) AS m1, max(CASE c WHEN 2 THEN m END) AS m2, "
			  "max(CASE c WHEN 3 THEN m END) AS m3, max(CASE c WHEN 4 THEN m END) AS m4, "
			  "max(CASE c WHEN 1 THEN acc END) AS a1, max(CASE c WHEN 2 THEN acc END) AS a2, "
			  "max(CASE c WHEN 3 THEN acc END) AS a3, max(CASE c WHEN 4 THEN acc END) AS a4 FROM a GROUP BY a.source), "
			  "x(metric, mo, source, o618, n618, o72, n72) AS ("
			  "SELECT 'instructions', 1, source, 1.0, i2 / i1, i3 / i1, i4 / i1 FROM w WHERE i1 > 0 UNION ALL "
			  "SELECT 'states', 2, source, 1.0, s2 / s1, s3 / s1, s4 / s1 FROM w WHERE s1 > 0 UNION ALL "
			  "SELECT 'engine_time', 3, source, 1.0, t2 / t1, t3 / t1, t4 / t1 FROM w WHERE t1 > 0 UNION ALL "
			  "SELECT 'peak_state_memory', 4, source, 1.0, m2 / m1, m3 / m1, m4 / m1 FROM w WHERE m1 > 0 UNION ALL "
			  "SELECT 'accepted_pct', 5, source, a1, a2, a3, a4 FROM w) "
			  "SELECT metric, source, printf('%.4f', o618) AS o618, printf('%.4f', n618) AS n618, "
			  "printf('%.4f', o72) AS o72, printf('%.4f', n72) AS n72 FROM x ORDER BY mo, source"},
		/* programs the two 7.2 cells both verified: a run without
		 * old@7.2 has nothing to draw (its blocks would be empty) */
		.points = "SELECT count(*) FROM results n7 JOIN results o7 ON o7.run_id = n7.run_id "
			  "AND o7.program_id = n7.program_id AND o7.tracker = 'old@7.2' "
			  "AND o7.verdict IN ('success', 'failure') WHERE n7.run_id = ?1 "
			  "AND n7.tracker = 'cnum-mainline@7.2' AND n7.verdict IN ('success', 'failure')",
		.needs = "a run with the four rows (--trackers old,cnum-mainline,old@7.2,cnum-mainline@7.2)",
		.blocks = 1,
	},
	{
		.name = "census",
		.title = "operator precision census",
		.runs = RB_CHART_CENSUS,
		.file = {"census.tsv", "census_jmp.tsv"},
		.query = {CENSUS_SQL("<>"), CENSUS_SQL("=")},
		.points = "SELECT count(*) FROM census WHERE run_id = ?1 AND optimal IS NOT NULL "
			  "AND coalesce(kind, '') <> 'jmp'",
		.needs = "a census run (rangebench run --census)",
		.pivot = RB_CHART_PIVOT(0) | RB_CHART_PIVOT(1),
	},
	{
		.name = "before_after",
		.title = "before/after for two runs",
		.runs = RB_CHART_BEFORE_AFTER,
		.file = {"before_after.tsv"},
		/* one tracker in the two runs: the run_pairs view (src/store/pairs.c) */
		.query = {"SELECT program, tracker, base_insns AS a_insns, cand_insns AS b_insns, base_states AS a_states, "
			  "cand_states AS b_states, base_verdict <> cand_verdict AS verdict_changed, "
			  "CASE WHEN base_verdict = cand_verdict THEN (CASE WHEN base_insns = cand_insns AND "
			  "base_states = cand_states THEN 'same' ELSE 'counts' END) WHEN cand_verdict = 'success' "
			  "THEN 'accepted' WHEN base_verdict = 'success' THEN 'rejected' ELSE 'other' END AS verdict_way, "
			  "CASE WHEN base_verdict <> cand_verdict OR base_insns <> cand_insns OR "
			  "base_states <> cand_states THEN row_number() OVER (PARTITION BY base_verdict <> cand_verdict OR "
			  "base_insns <> cand_insns OR base_states <> cand_states ORDER BY "
			  "base_verdict = cand_verdict, coalesce(t.ord, 1000), tracker, program) ELSE 0 END AS change_no, "
			  "base_verdict AS a_verdict, cand_verdict AS b_verdict "
			  "FROM run_pairs LEFT JOIN chart_trackers t ON t.name = tracker "
			  "WHERE base_run = ?1 AND cand_run = ?2 ORDER BY coalesce(t.ord, 1000), tracker, program"},
		.points = "SELECT count(*) FROM run_pairs WHERE base_run = ?1 AND cand_run = ?2 "
			  "AND base_insns > 0 AND cand_insns > 0",
		.needs = "two verify runs",
	},
	{
		.name = "bench_ratio",
		.title = "micro-benchmark ratios of every tracker to the baseline",
		.runs = RB_CHART_BENCH,
		.file = {"bench.tsv", "bench_spread.tsv"},
		/* bench.tsv: one row per op, costliest for the candidate first;
		 * one column per tracker other than the baseline: its median
		 * ns/op over the baseline's. bench_spread.tsv: per op and
		 * tracker, the range of that ratio over any pair of the two
		 * trackers' repetitions (fastest over slowest, slowest over
		 * fastest), where the run stored the repetitions' spread */
		.query = {"SELECT o.op, -coalesce((SELECT c2.ns_per_op FROM bench c2 WHERE c2.run_id = o.run_id "
			  "AND c2.op = o.op AND c2.tracker = ?4), 0) / o.ns_per_op AS ord, c.tracker, "
			  "printf('%.4f', c.ns_per_op / o.ns_per_op) AS value "
			  "FROM bench o JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND c.tracker <> ?3 "
			  "WHERE o.run_id = ?1 AND o.tracker = ?3 AND o.ns_per_op > 0 AND c.ns_per_op > 0",
			  "SELECT c.op, c.tracker, printf('%.4f', c.ns_per_op / o.ns_per_op) AS ratio, "
			  "printf('%.4f', c.ns_min / o.ns_max) AS lo, printf('%.4f', c.ns_max / o.ns_min) AS hi "
			  "FROM bench o JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND c.tracker <> ?3 "
			  "WHERE o.run_id = ?1 AND o.tracker = ?3 AND o.ns_per_op > 0 AND c.ns_per_op > 0 "
			  "AND o.ns_min > 0 AND o.ns_max > 0 AND c.ns_min > 0 AND c.ns_max > 0 ORDER BY c.op, c.tracker"},
		.points = "SELECT count(*) FROM bench o JOIN bench c ON c.run_id = o.run_id AND c.op = o.op AND "
			  "c.tracker <> ?3 WHERE o.run_id = ?1 AND o.tracker = ?3 AND o.ns_per_op > 0 AND "
			  "c.ns_per_op > 0",
		.needs = "a bench run with the baseline and another tracker (make bench BENCH_ARGS='--db FILE')",
		.pivot = RB_CHART_PIVOT(0),
	},
	{NULL},
};

/* TEMP chart_trackers: every registry tracker (registry order), then the
 * kernels (src/kernels/: kernel 1 the running one, 2 an image of
 * kernels.conf), with the register and state sizes a row without its own
 * stands for (the running kernel's 6.18 structs) */
static int fill_trackers(sqlite3 *db, struct rb_err *err)
{
	if (sqlite3_exec(db,
			 "CREATE TEMP TABLE IF NOT EXISTS chart_trackers (name TEXT PRIMARY KEY, ord INTEGER, "
			 "val_size INTEGER, kernel INTEGER, reg_bytes INTEGER, state_bytes INTEGER); "
			 "DELETE FROM temp.chart_trackers;",
			 NULL, NULL, NULL) != SQLITE_OK)
		return rb_errf(err, "charts: %s", sqlite3_errmsg(db));
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.chart_trackers VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "charts: %s", sqlite3_errmsg(db));
	int ord = 0, rc = SQLITE_DONE;
	for (const struct rb_tracker *const *t = rb_trackers(64); t && *t && rc == SQLITE_DONE; t++, ord++) {
		sqlite3_bind_text(s, 1, (*t)->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, ord);
		sqlite3_bind_int64(s, 3, (int64_t)(*t)->val_size);
		sqlite3_bind_int(s, 4, 0);
		rc = sqlite3_step(s);
		sqlite3_reset(s);
	}
	/* each registry tracker in each profile but the default one
	 * ("old@7.2"), where the database has its rows: the 2x2 matrix's
	 * off-default cells sit beside their trackers in every chart */
	char profs[128];
	rb_profile_names(profs, sizeof(profs), ",");
	for (char *save = NULL, *pn = strtok_r(profs, ",", &save); pn && rc == SQLITE_DONE;
	     pn = strtok_r(NULL, ",", &save)) {
		if (rb_profile_get(pn) == rb_profile_default())
			continue;
		for (const struct rb_tracker *const *t = rb_trackers(64); t && *t && rc == SQLITE_DONE; t++, ord++) {
			char row[96];
			snprintf(row, sizeof(row), "%s@%s", (*t)->name, pn);
			sqlite3_clear_bindings(s);
			sqlite3_bind_text(s, 1, row, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(s, 2, ord);
			sqlite3_bind_int64(s, 3, (int64_t)(*t)->val_size);
			sqlite3_bind_int(s, 4, 0);
			rc = sqlite3_step(s);
			sqlite3_reset(s);
		}
	}
	if (rc == SQLITE_DONE &&
	    sqlite3_exec(db, "DELETE FROM temp.chart_trackers WHERE name LIKE '%@%' AND name NOT IN "
			     "(SELECT DISTINCT tracker FROM results)", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return rb_errf(err, "charts: %s", sqlite3_errmsg(db));
	}
	struct rb_kernel ks[RB_KERNELS_MAX];
	size_t nk = 0;
	if (rb_kernels_list(ks, RB_KERNELS_MAX, &nk, err) < 0)
		nk = 0; /* a broken kernels.conf: the running kernel only */
	if (nk == 0) {
		nk = 1;
		rb_kernel_find(RB_KERNEL_RUNNING, &ks[0], NULL);
	}
	for (size_t i = 0; i < nk && rc == SQLITE_DONE; i++, ord++) {
		bool run = ks[i].backend == RB_KBACK_RUNNING;
		sqlite3_clear_bindings(s);
		sqlite3_bind_text(s, 1, ks[i].name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(s, 2, ord);
		sqlite3_bind_int(s, 4, run ? 1 : 2);
		if (run) {
			/* the running kernel's 6.18 bounds: 64 bytes of a 112-byte
			 * bpf_reg_state, a 1280-byte bpf_func_state (docs/kernel-facts.md) */
			sqlite3_bind_int64(s, 3, 64);
			sqlite3_bind_int64(s, 5, 112);
			sqlite3_bind_int64(s, 6, 1280);
		}
		rc = sqlite3_step(s);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return rb_errf(err, "charts: %s", sqlite3_errmsg(db));
	return 0;
}

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
		sqlite3_bind_text(s, 3, r->baseline ? r->baseline : RB_ROLE_BASELINE, -1, SQLITE_STATIC);
	if (n >= 4)
		sqlite3_bind_text(s, 4, r->candidate ? r->candidate : RB_ROLE_CANDIDATE, -1, SQLITE_STATIC);
	return 0;
}

/* The pivot of a (key, ord, tracker, value) query: one column per
 * tracker present (registry order), named after it. The names are the
 * registry's (with '@' and a profile) and the kernels' (src/kernels/):
 * letters, digits, '-', '_', '.' and '@' only, so they are quoted as they
 * are. */
static char *pivot_sql(sqlite3 *db, const struct rb_chart *c, const struct rb_chart_runs_ids *runs,
		       const char *sql, struct rb_err *err)
{
	char *q = sqlite3_mprintf("WITH q AS (%s) SELECT DISTINCT q.tracker FROM q JOIN temp.chart_trackers t "
				  "ON t.name = q.tracker ORDER BY t.ord",
				  sql);
	sqlite3_stmt *s = NULL;
	if (!q || sqlite3_prepare_v2(db, q, -1, &s, NULL) != SQLITE_OK) {
		rb_errf(err, "chart %s: %s", c->name, q ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_free(q);
		return NULL;
	}
	sqlite3_free(q);
	bind_runs(s, c, runs);
	/* the key column's name, from the query itself */
	sqlite3_stmt *k = NULL;
	char key[64] = "key";
	if (sqlite3_prepare_v2(db, sql, -1, &k, NULL) == SQLITE_OK && sqlite3_column_name(k, 0))
		snprintf(key, sizeof(key), "%s", sqlite3_column_name(k, 0));
	sqlite3_finalize(k);
	char *out = sqlite3_mprintf("WITH q AS (%s) SELECT q.\"%w\" AS \"%w\"", sql, key, key);
	int rc;
	while (out && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		bool ok = t && *t;
		for (const char *p = t; ok && *p; p++)
			ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			     *p == '-' || *p == '_' || *p == '.' || *p == '@';
		if (!ok)
			continue;
		char *next = sqlite3_mprintf("%s, max(CASE WHEN q.tracker = '%s' THEN q.value END) AS \"%s\"", out,
					     t, t);
		sqlite3_free(out);
		out = next;
	}
	sqlite3_finalize(s);
	if (out) {
		char *next = sqlite3_mprintf("%s FROM q GROUP BY q.\"%w\" ORDER BY min(q.ord), q.\"%w\"", out, key,
					     key);
		sqlite3_free(out);
		out = next;
	}
	if (!out)
		rb_errf(err, "chart %s: out of memory", c->name);
	return out;
}

/* the inside of a gnuplot single-quoted string: '' is a quote (s has no
 * control character) */
static void gp_body(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc(*s, f);
}

void rb_gp_string(FILE *f, const char *s)
{
	/* single quotes: gnuplot expands `...` (a shell command) inside
	 * double-quoted strings, never inside single-quoted ones; a control
	 * character (none fits in '...') is joined as a double-quoted octal
	 * escape */
	fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "'.\"\\%03o\".'", *p);
		else if (*p == '\'')
			fputs("''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* one text cell as gnuplot reads it, in a new string (NULL: out of
 * memory): a byte that would split the row or the cell (newline, tab,
 * any control character, a space, a double quote) becomes '_', and so
 * does a '#' opening a row (a comment) */
static char *clean_cell(const unsigned char *t, bool first)
{
	size_t n = t ? strlen((const char *)t) : 0;
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		out[i] = t[i] <= ' ' || t[i] == 0x7f || t[i] == '"' || (first && i == 0 && t[i] == '#') ? '_'
												      : (char)t[i];
	out[n] = 0;
	return out;
}

/* Write the rows of a query to dir/name as TSV with a '#' header, and to
 * vars (a gnuplot script) what the chart scripts need to know about it
 * without a shell: rowsN (data rows), trkN (the trackers: a pivot's
 * column names, else the values of a column named "tracker", in order)
 * and, for a pivot, keysN (the first column's values), N = idx. */
static int export(sqlite3 *db, const struct rb_chart *c, const struct rb_chart_runs_ids *runs, const char *dir,
		  const char *name, const char *sql, int idx, FILE *vars, struct rb_err *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *wide = NULL;
	const bool pivot = (c->pivot & RB_CHART_PIVOT(idx - 1)) != 0;
	if (pivot && !(sql = wide = pivot_sql(db, c, runs, sql, err)))
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		rb_errf(err, "chart %s: %s", c->name, sqlite3_errmsg(db));
		sqlite3_free(wide);
		return -1;
	}
	sqlite3_free(wide);
	bind_runs(s, c, runs);
	FILE *f = fopen(path, "w");
	if (!f) {
		sqlite3_finalize(s);
		return rb_errf(err, "%s: cannot write: %s", path, strerror(errno));
	}
	int ncol = sqlite3_column_count(s), tcol = -1;
	fputc('#', f);
	fprintf(vars, "trk%d = '", idx);
	for (int i = 0; i < ncol; i++) {
		const char *cn = sqlite3_column_name(s, i);
		fprintf(f, "%s%s", i ? "\t" : "", cn);
		if (pivot && i > 0) {
			/* pivot_sql's column names: letters, digits, '-', '_' */
			fputs(i > 1 ? " " : "", vars);
			gp_body(vars, cn);
		}
		if (!strcmp(cn, "tracker"))
			tcol = i;
	}
	fputc('\n', f);
	fputs("'\n", vars);
	if (pivot)
		fprintf(vars, "keys%d = '", idx);
	int rc;
	int64_t rows = 0;
	const unsigned char *block = NULL;
	char prev[128] = "";
	bool oom = false;
	while (!oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		/* a first column named "tracker" over several rows: blocks per
		 * tracker for gnuplot's "index" (two blank lines between) */
		if (c->blocks && (block = sqlite3_column_text(s, 0)) != NULL) {
			if (*prev && strcmp(prev, (const char *)block))
				fputs("\n\n", f);
			snprintf(prev, sizeof(prev), "%s", (const char *)block);
		}
		for (int i = 0; i < ncol && !oom; i++) {
			char *cell = clean_cell(sqlite3_column_text(s, i), i == 0);
			oom = !cell;
			if (i)
				fputc('\t', f);
			if (cell)
				fputs(cell, f);
			if (cell && i == 0 && pivot) {
				fputs(rows ? " " : "", vars);
				gp_body(vars, cell);
			}
			free(cell);
		}
		fputc('\n', f);
		rows++;
	}
	if (pivot)
		fputs("'\n", vars);
	/* the trackers of a long table, in file order (each tracker's rows
	 * are consecutive) */
	if (!pivot && tcol >= 0 && !oom && rc == SQLITE_DONE) {
		sqlite3_reset(s);
		fprintf(vars, "trk%d = '", idx);
		char *last = NULL;
		while (!oom && sqlite3_step(s) == SQLITE_ROW) {
			char *t = clean_cell(sqlite3_column_text(s, tcol), false);
			oom = !t;
			if (t && (!last || strcmp(t, last))) {
				fputs(last ? " " : "", vars);
				gp_body(vars, t);
				free(last);
				last = t;
			} else {
				free(t);
			}
		}
		free(last);
		fputs("'\n", vars);
	}
	fprintf(vars, "rows%d = %lld\n", idx, (long long)rows);
	sqlite3_finalize(s);
	bool werr = ferror(f) != 0;
	if (fclose(f) != 0)
		werr = true;
	if (oom)
		return rb_errf(err, "chart %s: out of memory", c->name);
	if (rc != SQLITE_DONE)
		return rb_errf(err, "chart %s: %s", c->name, sqlite3_errmsg(db));
	if (werr)
		return rb_errf(err, "%s: write failed: %s", path, strerror(errno));
	return 0;
}

int rb_chart_export(sqlite3 *db, const struct rb_chart *c, const struct rb_chart_runs_ids *runs,
		    const char *dir, int64_t *points, struct rb_err *err)
{
	*points = 0;
	if (fill_trackers(db, err) < 0)
		return -1;
	char vpath[4096];
	snprintf(vpath, sizeof(vpath), "%s/%s.vars.gp", dir, c->name);
	FILE *vars = fopen(vpath, "w");
	if (!vars)
		return rb_errf(err, "%s: cannot write: %s", vpath, strerror(errno));
	fprintf(vars, "# %s.vars.gp: written by rangebench plot beside the data files of chart %s\n", c->name,
		c->name);
	for (int i = 0; i < 2 && c->file[i]; i++)
		if (export(db, c, runs, dir, c->file[i], c->query[i], i + 1, vars, err) < 0) {
			fclose(vars);
			return -1;
		}
	bool werr = ferror(vars) != 0;
	if (fclose(vars) != 0 || werr)
		return rb_errf(err, "%s: write failed: %s", vpath, strerror(errno));
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
