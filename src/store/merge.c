/* merge.c — one results database merged into another (see merge.h). */
#include "store/merge.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/shards.h"
#include "store/store_impl.h"
#include "util/array_size.h"

static const char *const tables[] = {"runs", "programs", "results", "census", "bench"};

static int sql_err(sqlite3 *db, struct rb_err *err, const char *path, const char *what)
{
	return rb_errf(err, "merge %s: %s: %s", path, what, sqlite3_errmsg(db));
}

/* "a,b,c" column list of a table in schema `schema` ("main" or "src"),
 * skipping the columns named in skip (comma-separated, surrounded by commas) */
static int columns(sqlite3 *db, const char *schema, const char *table, const char *skip, char *out, size_t len)
{
	char sql[160];
	snprintf(sql, sizeof(sql), "PRAGMA %s.table_info(%s)", schema, table);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	out[0] = 0;
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		char key[80];
		snprintf(key, sizeof(key), ",%s,", name);
		if (skip && strstr(skip, key)) {
			n++;
			continue;
		}
		size_t l = strlen(out);
		snprintf(out + l, len - l, "%s%s", l ? "," : "", name);
		n++;
	}
	sqlite3_finalize(s);
	return n;
}

/* the input must look like this rangebench's database */
static int check_schema(sqlite3 *db, const char *path, struct rb_err *err)
{
	sqlite3_stmt *s;
	int64_t ver = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA src.user_version", -1, &s, NULL) != SQLITE_OK)
		return sql_err(db, err, path, "reading its schema version");
	if (sqlite3_step(s) == SQLITE_ROW)
		ver = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (ver != RB_SCHEMA_VERSION)
		return rb_errf(err,
			       "merge %s: schema version %lld, this rangebench's is %d: incompatible "
			       "(open it once with this rangebench, e.g. 'rangebench query --db FILE', to upgrade an "
			       "older one; a newer one needs a newer rangebench)",
			       path, (long long)ver, RB_SCHEMA_VERSION);
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		char a[2048], b[2048];
		int na = columns(db, "main", tables[i], NULL, a, sizeof(a));
		int nb = columns(db, "src", tables[i], NULL, b, sizeof(b));
		if (nb <= 0)
			return rb_errf(err, "merge %s: not a rangebench results database (no table '%s')", path,
				       tables[i]);
		if (na != nb || strcmp(a, b))
			return rb_errf(err, "merge %s: table '%s' has columns (%s), expected (%s): incompatible schema",
				       path, tables[i], b, a);
	}
	return 0;
}

static int64_t one_int(sqlite3 *db, const char *sql, int64_t a)
{
	sqlite3_stmt *s;
	int64_t v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(s, 1, a);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static int exec1(sqlite3 *db, const char *sql, int64_t a, int64_t b, uint64_t *changes)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(s, 1, a);
	sqlite3_bind_int64(s, 2, b);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return -1;
	if (changes)
		*changes += (uint64_t)sqlite3_changes(db);
	return 0;
}

/* Output run `dst` after input run `src_id` was merged into it. A shard
 * run: its list is the union of both lists (a shard complete on either
 * side is complete: the rows are the union), its status complete when
 * it lists all N shards complete, its times widened. Another run: the
 * input's status when that is 'complete' (every row of the run is now
 * here), otherwise as it was. */
static int update_run(sqlite3 *db, int64_t dst, int64_t src_id, const struct rb_shards *in)
{
	sqlite3_stmt *s;
	char *opts = NULL;
	const char *status = NULL;
	if (in->n) {
		if (sqlite3_prepare_v2(db, "SELECT options FROM main.runs WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_int64(s, 1, dst);
		struct rb_shards have = {0};
		int rc = 0;
		if (sqlite3_step(s) == SQLITE_ROW)
			rc = rb_shards_read((const char *)sqlite3_column_text(s, 0), false, &have);
		if (rc == 0 && have.n == in->n) {
			for (unsigned k = 1; k <= in->n; k++)
				if (in->state[k] > have.state[k])
					have.state[k] = in->state[k];
			opts = rb_shards_options((const char *)sqlite3_column_text(s, 0), &have);
			status = rb_shards_complete(&have) ? "complete" : "incomplete";
		}
		rb_shards_free(&have);
		sqlite3_finalize(s);
		if (rc < 0 || !opts)
			return -1;
	}
	if (sqlite3_prepare_v2(db,
			       "UPDATE main.runs SET options = coalesce(?1, options), pid = NULL, "
			       "status = coalesce(?2, CASE WHEN (SELECT status FROM src.runs WHERE id = ?3) = 'complete' "
			       "THEN 'complete' ELSE status END), "
			       "trackers = CASE WHEN (SELECT status FROM src.runs WHERE id = ?3) = 'complete' AND ?1 IS NULL "
			       "THEN (SELECT trackers FROM src.runs WHERE id = ?3) ELSE trackers END, "
			       "started_at = min(started_at, (SELECT started_at FROM src.runs WHERE id = ?3)), "
			       "ended_at = CASE WHEN (SELECT ended_at FROM src.runs WHERE id = ?3) IS NULL THEN ended_at "
			       "WHEN ended_at IS NULL THEN (SELECT ended_at FROM src.runs WHERE id = ?3) "
			       "ELSE max(ended_at, (SELECT ended_at FROM src.runs WHERE id = ?3)) END "
			       "WHERE id = ?4",
			       -1, &s, NULL) != SQLITE_OK) {
		free(opts);
		return -1;
	}
	if (opts)
		sqlite3_bind_text(s, 1, opts, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, 1);
	if (status)
		sqlite3_bind_text(s, 2, status, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, 2);
	sqlite3_bind_int64(s, 3, src_id);
	sqlite3_bind_int64(s, 4, dst);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	free(opts);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The output run that input run `src_id` goes to (found or created),
 * with its shard list (if any) in *in. */
static int64_t target_run(sqlite3 *db, int64_t src_id, struct rb_shards *in, struct rb_merge_stats *st)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT kind, label, options, status FROM src.runs WHERE id = ?", -1, &s, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(s, 1, src_id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		return -1;
	}
	char kind[32], label[512];
	snprintf(kind, sizeof(kind), "%s", (const char *)sqlite3_column_text(s, 0));
	snprintf(label, sizeof(label), "%s", (const char *)sqlite3_column_text(s, 1));
	const char *status = (const char *)sqlite3_column_text(s, 3);
	bool running = !strcmp(status, "running");
	int rrc = rb_shards_read((const char *)sqlite3_column_text(s, 2), !strcmp(status, "complete"), in);
	sqlite3_finalize(s);
	if (rrc < 0)
		return -1;
	/* a run still being written: what is here of its shards is partial */
	for (unsigned k = 1; running && k <= in->n; k++)
		if (in->state[k])
			in->state[k] = 1;
	int64_t id = 0;
	if (in->n) {
		/* shards: the latest output run of the same kind, label and N */
		if (sqlite3_prepare_v2(db, "SELECT id, options FROM main.runs WHERE kind = ? AND label = ? ORDER BY id DESC",
				       -1, &s, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_text(s, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, label, -1, SQLITE_STATIC);
		while (!id && sqlite3_step(s) == SQLITE_ROW) {
			size_t hl;
			const char *h = rb_shard_arg((const char *)sqlite3_column_text(s, 1), &hl);
			const char *slash = h ? memchr(h, '/', hl) : NULL;
			if (slash && strtoul(slash + 1, NULL, 10) == in->n)
				id = sqlite3_column_int64(s, 0);
		}
		sqlite3_finalize(s);
	} else {
		/* the same run: kind, label, start and host (not the pid: a
		 * running run's is cleared when it ends) */
		id = one_int(db,
			     "SELECT m.id FROM main.runs m, src.runs r WHERE r.id = ?1 AND m.kind = r.kind AND "
			     "m.label = r.label AND m.started_at = r.started_at AND m.host IS r.host "
			     "ORDER BY m.id LIMIT 1",
			     src_id);
		if (id < 0)
			id = 0;
	}
	if (id > 0) {
		st->runs_joined++;
		return id;
	}
	/* a new run: the input's, a running one as 'incomplete' (rows of
	 * it may still come: a later merge of its finished database makes
	 * it complete); a shard run's list starts empty (update_run) */
	char cols[2048], sql[4400];
	if (columns(db, "src", "runs", ",id,", cols, sizeof(cols)) <= 0)
		return -1;
	snprintf(sql, sizeof(sql), "INSERT INTO main.runs (%s) SELECT %s FROM src.runs WHERE id = ?1 AND ?2 = ?2", cols,
		 cols);
	if (exec1(db, sql, src_id, 0, NULL) < 0)
		return -1;
	id = sqlite3_last_insert_rowid(db);
	if (exec1(db,
		  "UPDATE main.runs SET pid = NULL, status = CASE WHEN status = 'running' THEN 'incomplete' ELSE status "
		  "END WHERE id = ?1 AND ?2 = ?2",
		  id, 0, NULL) < 0)
		return -1;
	if (in->n) {
		/* its list starts empty ("/N"): update_run adds the input's */
		struct rb_shards none = {in->n, calloc(in->n + 1, 1)};
		char *o = NULL;
		sqlite3_stmt *q;
		if (none.state && sqlite3_prepare_v2(db, "SELECT options FROM main.runs WHERE id = ?", -1, &q, NULL) ==
					  SQLITE_OK) {
			sqlite3_bind_int64(q, 1, id);
			if (sqlite3_step(q) == SQLITE_ROW)
				o = rb_shards_options((const char *)sqlite3_column_text(q, 0), &none);
			sqlite3_finalize(q);
		}
		rb_shards_free(&none);
		int rc = -1;
		if (o && sqlite3_prepare_v2(db, "UPDATE main.runs SET options = ?1 WHERE id = ?2", -1, &q, NULL) ==
			     SQLITE_OK) {
			sqlite3_bind_text(q, 1, o, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int64(q, 2, id);
			rc = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
			sqlite3_finalize(q);
		}
		free(o);
		if (rc < 0)
			return -1;
	}
	st->runs_new++;
	return id;
}

static int merge_rows(sqlite3 *db, const char *path, struct rb_merge_stats *st, struct rb_err *err)
{
	char cols[2048], sql[6000];
	uint64_t before = (uint64_t)one_int(db, "SELECT count(*) FROM main.programs WHERE ?1 = ?1", 0);
	if (columns(db, "src", "programs", ",id,", cols, sizeof(cols)) <= 0)
		return sql_err(db, err, path, "programs");
	snprintf(sql, sizeof(sql), "INSERT OR IGNORE INTO main.programs (%s) SELECT %s FROM src.programs ORDER BY id",
		 cols, cols);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_err(db, err, path, "merging programs");
	st->programs_new += (uint64_t)one_int(db, "SELECT count(*) FROM main.programs WHERE ?1 = ?1", 0) - before;

	sqlite3_stmt *runs;
	if (sqlite3_prepare_v2(db, "SELECT id FROM src.runs ORDER BY id", -1, &runs, NULL) != SQLITE_OK)
		return sql_err(db, err, path, "listing runs");
	int rc = 0;
	while (rc == 0 && sqlite3_step(runs) == SQLITE_ROW) {
		int64_t src_id = sqlite3_column_int64(runs, 0);
		struct rb_shards in;
		int64_t dst = target_run(db, src_id, &in, st);
		if (dst <= 0 || update_run(db, dst, src_id, &in) < 0) {
			rb_shards_free(&in);
			rc = sql_err(db, err, path, "merging a run");
			break;
		}
		rb_shards_free(&in);
		/* results: program ids through the program identity */
		char rcols[2048], sel[2400];
		columns(db, "src", "results", ",run_id,program_id,", rcols, sizeof(rcols));
		size_t l = 0;
		sel[0] = 0;
		char tmp[2048];
		snprintf(tmp, sizeof(tmp), "%s", rcols);
		for (char *save = NULL, *c = strtok_r(tmp, ",", &save); c; c = strtok_r(NULL, ",", &save))
			l += (size_t)snprintf(sel + l, sizeof(sel) - l, ",r.%s", c);
		snprintf(sql, sizeof(sql),
			 "INSERT OR IGNORE INTO main.results (run_id,program_id,%s) SELECT ?2, p.id%s FROM src.results r "
			 "JOIN src.programs sp ON sp.id = r.program_id JOIN main.programs p ON p.obj_sha256 = "
			 "sp.obj_sha256 AND p.section = sp.section AND p.name = sp.name AND p.ordinal = sp.ordinal "
			 "WHERE r.run_id = ?1",
			 rcols, sel);
		if (exec1(db, sql, src_id, dst, &st->results_new) < 0) {
			rc = sql_err(db, err, path, "merging results");
			break;
		}
		const char *per_run[2] = {"census", "bench"};
		uint64_t *cnt[2] = {&st->census_new, &st->bench_new};
		for (int t = 0; t < 2 && rc == 0; t++) {
			columns(db, "src", per_run[t], ",run_id,", rcols, sizeof(rcols));
			snprintf(sql, sizeof(sql),
				 "INSERT OR IGNORE INTO main.%s (run_id,%s) SELECT ?2,%s FROM src.%s WHERE run_id = ?1",
				 per_run[t], rcols, rcols, per_run[t]);
			if (exec1(db, sql, src_id, dst, cnt[t]) < 0)
				rc = sql_err(db, err, path, per_run[t]);
		}
	}
	sqlite3_finalize(runs);
	return rc;
}

int rb_store_merge(struct rb_store *out, const char *in_path, struct rb_merge_stats *stats, struct rb_err *err)
{
	sqlite3 *db = out->db;
	if (!strcmp(in_path, out->path))
		return rb_errf(err, "merge %s: is the output database itself", in_path);
	/* read-only: the input is never modified (nor upgraded) */
	FILE *f = fopen(in_path, "rb");
	if (!f)
		return rb_errf(err, "merge %s: cannot open: %m", in_path);
	char magic[16] = {0};
	size_t got = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	if (got < 16 || memcmp(magic, "SQLite format 3", 16))
		return rb_errf(err, "merge %s: not an SQLite database", in_path);
	char *uri = sqlite3_mprintf("file:%s?mode=ro", in_path);
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db, "ATTACH DATABASE ? AS src", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(s, 1, uri, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_finalize(s);
	}
	sqlite3_free(uri);
	if (rc != SQLITE_OK)
		return sql_err(db, err, in_path, "cannot attach");
	int r = check_schema(db, in_path, err);
	if (r == 0) {
		struct rb_merge_stats st = {0};
		if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
			r = sql_err(db, err, in_path, "begin");
		} else if ((r = merge_rows(db, in_path, &st, err)) == 0 &&
			   sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK) {
			if (stats) {
				stats->runs_new += st.runs_new;
				stats->runs_joined += st.runs_joined;
				stats->programs_new += st.programs_new;
				stats->results_new += st.results_new;
				stats->census_new += st.census_new;
				stats->bench_new += st.bench_new;
			}
		} else {
			if (r == 0)
				r = sql_err(db, err, in_path, "commit");
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		}
	}
	sqlite3_exec(db, "DETACH DATABASE src", NULL, NULL, NULL);
	return r;
}
