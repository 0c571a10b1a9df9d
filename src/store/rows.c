/* rows.c — storing programs, results, census and benchmark rows; each call
 * is one transaction. */
#include <stdio.h>
#include <string.h>

#include "store/store.h"
#include "store/store_impl.h"

static int fail_rollback(struct rb_store *st, struct rb_err *err, const char *what)
{
	rb_errf(err, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Upsert without its own transaction. */
static int put_program(struct rb_store *st, const struct rb_prog_ident *p, int64_t *id,
		       struct rb_err *err)
{
	sqlite3_stmt *s;
	/* the first path and source seen are kept; a later run may fill a
	 * source that was unknown */
	if (rb_store_prepare(st, STMT_PROGRAM,
			     "INSERT INTO programs (obj_sha256, section, name, prog_type, insn_cnt, "
			     "obj_path, source, ordinal) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
			     "ON CONFLICT (obj_sha256, section, name, ordinal) DO UPDATE SET "
			     "source = coalesce(programs.source, excluded.source), "
			     "insn_cnt = coalesce(programs.insn_cnt, excluded.insn_cnt) "
			     "RETURNING id",
			     &s, err) < 0)
		return -1;
	rb_bind_text(s, 1, p->obj_sha256);
	rb_bind_text(s, 2, p->section);
	rb_bind_text(s, 3, p->name);
	sqlite3_bind_int64(s, 4, p->prog_type);
	if (p->insn_cnt)
		sqlite3_bind_int64(s, 5, (int64_t)p->insn_cnt);
	rb_bind_text(s, 6, p->obj_path);
	rb_bind_text(s, 7, p->source[0] ? p->source : NULL);
	sqlite3_bind_int64(s, 8, p->ordinal);
	if (sqlite3_step(s) != SQLITE_ROW)
		return rb_errf(err, "%s: insert program %s: %s", st->path, p->name,
			       sqlite3_errmsg(st->db));
	*id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return 0;
}

static void bind_u64(sqlite3_stmt *s, int i, uint64_t v) { sqlite3_bind_int64(s, i, (int64_t)v); }

/* the results INSERT: the row's identity and outcome (?1..?11), then one
 * column per metric (?12.., result/metrics.h order) */
#define RESULT_FIXED 11
static void result_sql(char *sql, size_t len)
{
	size_t n = (size_t)snprintf(sql, len,
				    "INSERT OR REPLACE INTO results (run_id, program_id, tracker, verdict, "
				    "err_insn, sys_errno, msg, repeats, obj_path, kernel_release, clock");
	for (int m = 0; m < RB_METRIC_COUNT && n < len; m++)
		n += (size_t)snprintf(sql + n, len - n, ", %s", rb_metrics[m].column);
	for (int i = 1; i <= RESULT_FIXED + RB_METRIC_COUNT && n < len; i++)
		n += (size_t)snprintf(sql + n, len - n, "%s?%d", i == 1 ? ") VALUES (" : ", ", i);
	if (n < len)
		snprintf(sql + n, len - n, ")");
}

int rb_store_results(struct rb_store *st, const struct rb_result_row *rows, size_t n,
		     struct rb_err *err)
{
	if (rb_store_exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	char sql[2048];
	result_sql(sql, sizeof(sql));
	for (size_t i = 0; i < n; i++) {
		const struct rb_result_row *r = &rows[i];
		int64_t pid = 0;
		if (put_program(st, &r->prog, &pid, err) < 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		sqlite3_stmt *s;
		if (rb_store_prepare(st, STMT_RESULT, sql, &s, err) < 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		const struct rb_result *res = &r->res;
		sqlite3_bind_int64(s, 1, r->run_id);
		sqlite3_bind_int64(s, 2, pid);
		rb_bind_text(s, 3, r->tracker);
		rb_bind_text(s, 4, rb_verdict_name(res->verdict));
		if (res->err_insn >= 0)
			sqlite3_bind_int(s, 5, res->err_insn);
		sqlite3_bind_int(s, 6, res->sys_errno);
		rb_bind_text(s, 7, res->msg[0] ? res->msg : NULL);
		sqlite3_bind_int(s, 8, r->repeats ? (int)r->repeats : 1);
		rb_bind_text(s, 9, r->prog.obj_path);
		rb_bind_text(s, 10, r->kernel_release[0] ? r->kernel_release : NULL);
		rb_bind_text(s, 11, r->clock[0] ? r->clock : NULL);
		for (int m = 0; m < RB_METRIC_COUNT; m++) {
			double v = rb_metric_get(res, (enum rb_metric)m);
			int col = RESULT_FIXED + 1 + m;
			if (v == 0 && (rb_metrics[m].flags & RB_MF_NULL_ZERO))
				continue;
			if (rb_metrics[m].real)
				sqlite3_bind_double(s, col, v);
			else
				sqlite3_bind_int64(s, col, (int64_t)v);
		}
		if (sqlite3_step(s) != SQLITE_DONE)
			return fail_rollback(st, err, "insert result");
	}
	return rb_store_exec(st, "COMMIT", err);
}

static void bind_opt(sqlite3_stmt *s, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

int rb_store_census(struct rb_store *st, int64_t run_id, const struct rb_store_census_row *rows, size_t n,
		    struct rb_err *err)
{
	if (rb_store_exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct rb_store_census_row *r = &rows[i];
		sqlite3_stmt *s;
		if (rb_store_prepare(st, STMT_CENSUS,
				     "INSERT OR REPLACE INTO census (run_id, tracker, width, op, cases, "
				     "unsound, optimal, mean_extra_log2, tighter, looser, equal, "
				     "incomparable, kind, sampled, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
				     "?8, ?9, ?10, ?11, ?12, ?13, ?14, (SELECT coalesce(max(seq), -1) + 1 "
				     "FROM census WHERE run_id = ?1 AND tracker = ?2))",
				     &s, err) < 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		sqlite3_bind_int64(s, 1, run_id);
		rb_bind_text(s, 2, r->tracker);
		sqlite3_bind_int(s, 3, (int)r->width);
		rb_bind_text(s, 4, r->op);
		bind_u64(s, 5, r->cases);
		bind_u64(s, 6, r->unsound);
		bind_opt(s, 7, r->optimal);
		if (r->optimal >= 0)
			sqlite3_bind_double(s, 8, r->mean_extra_log2);
		bind_opt(s, 9, r->tighter);
		bind_opt(s, 10, r->looser);
		bind_opt(s, 11, r->equal);
		bind_opt(s, 12, r->incomparable);
		rb_bind_text(s, 13, r->kind[0] ? r->kind : NULL);
		bind_opt(s, 14, r->sampled);
		if (sqlite3_step(s) != SQLITE_DONE)
			return fail_rollback(st, err, "insert census row");
	}
	return rb_store_exec(st, "COMMIT", err);
}

int rb_store_bench(struct rb_store *st, int64_t run_id, const struct rb_bench_row *rows, size_t n,
		   struct rb_err *err)
{
	if (rb_store_exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		sqlite3_stmt *s;
		if (rb_store_prepare(st, STMT_BENCH,
				     "INSERT OR REPLACE INTO bench (run_id, op, tracker, ns_per_op, "
				     "iterations, ns_min, ns_max) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
				     &s, err) < 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		sqlite3_bind_int64(s, 1, run_id);
		rb_bind_text(s, 2, rows[i].op);
		rb_bind_text(s, 3, rows[i].tracker);
		sqlite3_bind_double(s, 4, rows[i].ns_per_op);
		bind_u64(s, 5, rows[i].iterations);
		if (rows[i].ns_min > 0 && rows[i].ns_max > 0) {
			sqlite3_bind_double(s, 6, rows[i].ns_min);
			sqlite3_bind_double(s, 7, rows[i].ns_max);
		} else {
			sqlite3_bind_null(s, 6);
			sqlite3_bind_null(s, 7);
		}
		if (sqlite3_step(s) != SQLITE_DONE)
			return fail_rollback(st, err, "insert bench row");
	}
	return rb_store_exec(st, "COMMIT", err);
}
