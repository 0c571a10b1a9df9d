/* merge.c — one results database merged into another (see merge.h). */
#include "store/merge.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"

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
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
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

/* "--shard K/N" or "--shard=K/N" in a run's options: pointer to "K/N"
 * (or to a merged list "1,2!,4/N") and its length; NULL when absent */
static const char *shard_arg(const char *opts, size_t *len)
{
	for (const char *p = opts ? strstr(opts, "--shard") : NULL; p; p = strstr(p + 1, "--shard")) {
		if ((p != opts && p[-1] != ' ') || (p[7] != ' ' && p[7] != '='))
			continue;
		const char *a = p + 8;
		*len = strcspn(a, " ");
		return a;
	}
	return NULL;
}

/* N of a shard argument, 0 when malformed */
static unsigned shard_n(const char *a, size_t len)
{
	const char *slash = memchr(a, '/', len);
	if (!slash)
		return 0;
	return (unsigned)strtoul(slash + 1, NULL, 10);
}

/* is shard k in the list "1,2!,4/N"? */
static bool shard_has(const char *a, size_t len, unsigned k, bool *complete)
{
	const char *end = memchr(a, '/', len);
	for (const char *p = a; p && p < end;) {
		char *q;
		unsigned v = (unsigned)strtoul(p, &q, 10);
		if (v == k) {
			if (complete)
				*complete = *q != '!';
			return true;
		}
		p = memchr(p, ',', (size_t)(end - p));
		if (p)
			p++;
	}
	return false;
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

/* Join shard run `src_id` (shard arg a/alen of N) to output run `dst`
 * holding shards `have`: add k to the list, widen the times, set status. */
static int join_shard(sqlite3 *db, int64_t dst, const char *have, size_t hlen, unsigned k, bool k_complete,
		      unsigned n, int64_t src_id)
{
	char list[4096] = "";
	size_t l = 0;
	bool all_complete = k_complete;
	unsigned count = 1;
	for (unsigned i = 1; i <= n && l + 16 < sizeof(list); i++) {
		bool c = false;
		bool present = i == k ? (c = k_complete, true) : shard_has(have, hlen, i, &c);
		if (!present)
			continue;
		if (i != k) {
			count++;
			all_complete = all_complete && c;
		}
		l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%u%s", l ? "," : "", i, c ? "" : "!");
	}
	snprintf(list + l, sizeof(list) - l, "/%u", n);
	/* the output run's options with its shard list replaced */
	const char *opts = NULL;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT options FROM main.runs WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(s, 1, dst);
	char nopts[8192] = "";
	if (sqlite3_step(s) == SQLITE_ROW && (opts = (const char *)sqlite3_column_text(s, 0))) {
		size_t alen;
		const char *a = shard_arg(opts, &alen);
		if (a)
			snprintf(nopts, sizeof(nopts), "%.*s%s%s", (int)(a - opts), opts, list, a + alen);
	}
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(db,
			       "UPDATE main.runs SET options = ?1, status = ?2, "
			       "started_at = min(started_at, (SELECT started_at FROM src.runs WHERE id = ?3)), "
			       "ended_at = CASE WHEN ended_at IS NULL OR (SELECT ended_at FROM src.runs WHERE id = ?3) "
			       "IS NULL THEN NULL ELSE max(ended_at, (SELECT ended_at FROM src.runs WHERE id = ?3)) END "
			       "WHERE id = ?4",
			       -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, nopts, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, count == n && all_complete ? "complete" : "incomplete", -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, src_id);
	sqlite3_bind_int64(s, 4, dst);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The output run that input run `src_id` goes to (found or created). */
static int64_t target_run(sqlite3 *db, int64_t src_id, struct rb_merge_stats *st)
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
	char kind[32], label[512], opts[8192];
	snprintf(kind, sizeof(kind), "%s", (const char *)sqlite3_column_text(s, 0));
	snprintf(label, sizeof(label), "%s", (const char *)sqlite3_column_text(s, 1));
	snprintf(opts, sizeof(opts), "%s", sqlite3_column_text(s, 2) ? (const char *)sqlite3_column_text(s, 2) : "");
	bool complete = !strcmp((const char *)sqlite3_column_text(s, 3), "complete");
	sqlite3_finalize(s);
	size_t alen;
	const char *a = shard_arg(opts, &alen);
	unsigned n = a ? shard_n(a, alen) : 0;
	unsigned k = a ? (unsigned)strtoul(a, NULL, 10) : 0;
	if (n > 1 && k >= 1 && k <= n) {
		/* a shard: the latest output run of the same kind, label and N */
		if (sqlite3_prepare_v2(db, "SELECT id, options FROM main.runs WHERE kind = ? AND label = ? ORDER BY id DESC",
				       -1, &s, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_text(s, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, label, -1, SQLITE_STATIC);
		int64_t found = 0;
		while (!found && sqlite3_step(s) == SQLITE_ROW) {
			const char *o = (const char *)sqlite3_column_text(s, 1);
			size_t hl;
			const char *h = shard_arg(o, &hl);
			if (!h || shard_n(h, hl) != n)
				continue;
			found = sqlite3_column_int64(s, 0);
			if (shard_has(h, hl, k, NULL)) {
				st->runs_joined++; /* merged before: its rows are ignored as duplicates */
			} else if (join_shard(db, found, h, hl, k, complete, n, src_id) < 0) {
				found = -1;
			} else {
				st->runs_joined++;
			}
		}
		sqlite3_finalize(s);
		if (found)
			return found;
	} else {
		int64_t id = one_int(db,
				     "SELECT m.id FROM main.runs m, src.runs r WHERE r.id = ?1 AND m.kind = r.kind AND "
				     "m.label = r.label AND m.started_at = r.started_at AND m.host IS r.host AND "
				     "m.pid IS r.pid ORDER BY m.id LIMIT 1",
				     src_id);
		if (id > 0) {
			st->runs_joined++;
			return id;
		}
	}
	/* a new run (a first shard keeps its own "--shard K/N" options) */
	char cols[2048], sql[4400];
	if (columns(db, "src", "runs", ",id,", cols, sizeof(cols)) <= 0)
		return -1;
	snprintf(sql, sizeof(sql), "INSERT INTO main.runs (%s) SELECT %s FROM src.runs WHERE id = ?1 AND ?2 = ?2", cols,
		 cols);
	if (exec1(db, sql, src_id, 0, NULL) < 0)
		return -1;
	int64_t id = sqlite3_last_insert_rowid(db);
	if (n > 1 && k >= 1 && k <= n && join_shard(db, id, "", 0, k, complete, n, src_id) < 0)
		return -1;
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
		int64_t dst = target_run(db, src_id, st);
		if (dst <= 0) {
			rc = sql_err(db, err, path, "merging a run");
			break;
		}
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
			 "sp.obj_sha256 AND p.section = sp.section AND p.name = sp.name WHERE r.run_id = ?1",
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
