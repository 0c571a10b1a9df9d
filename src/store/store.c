/* store.c — open, create, migrate the results database; runs and lookups. */
#include "store/store.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/schema_sql.h"
#include "store/store_impl.h"

static int db_err(struct rb_store *st, struct rb_err *err, const char *what)
{
	return rb_errf(err, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

int rb_store_exec(struct rb_store *st, const char *sql, struct rb_err *err)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		rb_errf(err, "%s: %s", st->path, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* exec `sql` inside BEGIN IMMEDIATE ... COMMIT */
static int exec_tx(struct rb_store *st, const char *sql, struct rb_err *err)
{
	if (rb_store_exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (rb_store_exec(st, sql, err) < 0) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return rb_store_exec(st, "COMMIT", err);
}

static int query_int(struct rb_store *st, const char *sql, int64_t *out, struct rb_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, sql);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_err(st, err, sql);
	return rc == SQLITE_ROW ? 1 : 0;
}

/* Bring the schema to RB_SCHEMA_VERSION. The version is re-read inside the
 * write transaction, so two processes opening a new file at once do not
 * both create it. */
static int upgrade(struct rb_store *st, struct rb_err *err)
{
	for (;;) {
		if (rb_store_exec(st, "BEGIN IMMEDIATE", err) < 0)
			return -1;
		int64_t v = 0, tables = 0;
		if (query_int(st, "PRAGMA user_version", &v, err) < 0 ||
		    query_int(st, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", &tables,
			      err) < 0)
			goto fail;
		const char *sql = NULL;
		if (v == RB_SCHEMA_VERSION) {
			return rb_store_exec(st, "COMMIT", err);
		} else if (v > RB_SCHEMA_VERSION) {
			rb_errf(err, "%s: schema version %lld is newer than this rangebench (%d)",
				st->path, (long long)v, RB_SCHEMA_VERSION);
			goto fail;
		} else if (v == 0 && tables == 0) {
			sql = rb_sql_schema;
		} else if (v == 0) {
			rb_errf(err, "%s: not a rangebench database (tables but no schema version)",
				st->path);
			goto fail;
		} else {
			for (unsigned i = 0; i < rb_migration_count; i++)
				if (rb_migrations[i].version == v + 1)
					sql = rb_migrations[i].sql;
			if (!sql) {
				rb_errf(err, "%s: no migration from schema version %lld", st->path,
					(long long)v);
				goto fail;
			}
		}
		if (rb_store_exec(st, sql, err) < 0)
			goto fail;
		int64_t nv = 0;
		if (query_int(st, "PRAGMA user_version", &nv, err) < 0)
			goto fail;
		if (nv <= v) {
			rb_errf(err, "%s: migration from version %lld did not raise the version",
				st->path, (long long)v);
			goto fail;
		}
		if (rb_store_exec(st, "COMMIT", err) < 0)
			goto fail;
	}
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int rb_store_open(const char *path, struct rb_store **out, struct rb_err *err)
{
	*out = NULL;
	struct rb_store *st = calloc(1, sizeof(*st));
	if (!st)
		return rb_errf(err, "%s: out of memory", path);
	snprintf(st->path, sizeof(st->path), "%s", path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rb_errf(err, "%s: cannot open database: %s", path,
			st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 30000);
	sqlite3_extended_result_codes(st->db, 1);
	/* WAL: readers never block the writer; NORMAL sync is durable across
	 * process crashes (not power loss), which is what a benchmark needs */
	if (rb_store_exec(st, "PRAGMA journal_mode = WAL", err) < 0 ||
	    rb_store_exec(st, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", err) < 0)
		goto fail;
	if (upgrade(st, err) < 0)
		goto fail;
	if (exec_tx(st, rb_sql_views, err) < 0)
		goto fail;
	if (rb_store_reap_stale(st, err) < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	rb_store_close(st);
	return -1;
}

void rb_store_close(struct rb_store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < sizeof(st->stmt) / sizeof(st->stmt[0]); i++)
		sqlite3_finalize(st->stmt[i]);
	sqlite3_close(st->db);
	free(st);
}

sqlite3 *rb_store_db(struct rb_store *st) { return st->db; }
const char *rb_store_path(const struct rb_store *st) { return st->path; }

int rb_store_prepare(struct rb_store *st, enum rb_stmt_id id, const char *sql, sqlite3_stmt **out,
		     struct rb_err *err)
{
	if (!st->stmt[id] && sqlite3_prepare_v2(st->db, sql, -1, &st->stmt[id], NULL) != SQLITE_OK)
		return db_err(st, err, "prepare");
	sqlite3_reset(st->stmt[id]);
	sqlite3_clear_bindings(st->stmt[id]);
	*out = st->stmt[id];
	return 0;
}

void rb_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

int rb_store_run_begin(struct rb_store *st, const struct rb_run_info *info, int64_t *run_id,
		       struct rb_err *err)
{
	if (!info->label || !*info->label)
		return rb_errf(err, "%s: a run needs a label", st->path);
	sqlite3_stmt *s;
	if (rb_store_prepare(st, STMT_RUN_BEGIN,
			     "INSERT INTO runs (kind, label, started_at, git_commit, git_dirty, "
			     "kernel_release, host, options, trackers, status, pid) VALUES "
			     "(?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?3, ?4, ?5, ?6, ?7, ?8, "
			     "'running', ?9)",
			     &s, err) < 0)
		return -1;
	rb_bind_text(s, 1, info->kind ? info->kind : "verify");
	rb_bind_text(s, 2, info->label);
	rb_bind_text(s, 3, info->git_commit);
	if (info->git_dirty >= 0)
		sqlite3_bind_int(s, 4, info->git_dirty);
	rb_bind_text(s, 5, info->kernel_release);
	rb_bind_text(s, 6, info->host);
	rb_bind_text(s, 7, info->options);
	rb_bind_text(s, 8, info->trackers);
	sqlite3_bind_int64(s, 9, (int64_t)getpid());
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_err(st, err, "insert run");
	*run_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int rb_store_run_set_trackers(struct rb_store *st, int64_t run_id, const char *trackers,
			      struct rb_err *err)
{
	sqlite3_stmt *s;
	if (rb_store_prepare(st, STMT_RUN_TRACKERS, "UPDATE runs SET trackers = ?2 WHERE id = ?1",
			     &s, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	rb_bind_text(s, 2, trackers);
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_err(st, err, "update run");
	return 0;
}

int rb_store_run_end(struct rb_store *st, int64_t run_id, const char *status, struct rb_err *err)
{
	if (strcmp(status, "complete") && strcmp(status, "incomplete"))
		return rb_errf(err, "%s: bad run status '%s'", st->path, status);
	sqlite3_stmt *s;
	if (rb_store_prepare(st, STMT_RUN_END,
			     "UPDATE runs SET status = ?2, pid = NULL, "
			     "ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
			     &s, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	rb_bind_text(s, 2, status);
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_err(st, err, "update run");
	if (sqlite3_changes(st->db) != 1)
		return rb_errf(err, "%s: no run %lld", st->path, (long long)run_id);
	return 0;
}

int rb_store_reap_stale(struct rb_store *st, struct rb_err *err)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT id, pid FROM runs WHERE status = 'running' AND host = ?1 "
			       "AND pid IS NOT NULL",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "select running runs");
	sqlite3_bind_text(s, 1, host, -1, SQLITE_STATIC);
	int64_t dead[64];
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW && n < 64) {
		pid_t pid = (pid_t)sqlite3_column_int64(s, 1);
		if (pid > 0 && pid != getpid() && kill(pid, 0) < 0 && errno == ESRCH)
			dead[n++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	for (int i = 0; i < n; i++)
		if (rb_store_run_end(st, dead[i], "incomplete", err) < 0)
			return -1;
	return n;
}

int rb_store_find_run(struct rb_store *st, const char *spec, const char *kind, int64_t *run_id,
		      struct rb_err *err)
{
	char *end;
	long long id = strtoll(spec, &end, 10);
	sqlite3_stmt *s;
	bool numeric = *spec && !*end;
	const char *sql = numeric ? "SELECT id FROM runs WHERE id = ?1 AND (?2 IS NULL OR kind = ?2)"
				  : "SELECT max(id) FROM runs WHERE label = ?1 AND (?2 IS NULL OR kind = ?2) "
				    "HAVING max(id) IS NOT NULL";
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "find run");
	if (numeric)
		sqlite3_bind_int64(s, 1, id);
	else
		sqlite3_bind_text(s, 1, spec, -1, SQLITE_STATIC);
	rb_bind_text(s, 2, kind);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return rb_errf(err, "%s: no %s%srun '%s'", st->path, kind ? kind : "", kind ? " " : "",
			       spec);
	return 0;
}

int rb_store_latest_run(struct rb_store *st, const char *kind, int64_t *run_id, struct rb_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT max(id) FROM runs WHERE (?1 IS NULL OR kind = ?1) "
			       "HAVING max(id) IS NOT NULL",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "latest run");
	rb_bind_text(s, 1, kind);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return rb_errf(err, "%s: no %s run yet", st->path, kind ? kind : "");
	return 0;
}

static const char *const verdict_names[] = {
	[RB_ACCEPT] = "accept",           [RB_REJECT] = "reject",   [RB_UNSUPPORTED] = "unsupported",
	[RB_REFUSED] = "refused",         [RB_UNAVAILABLE] = "unavailable", [RB_LIMIT] = "limit",
	[RB_LOAD_ERROR] = "load_error",
};

const char *rb_store_verdict_name(enum rb_verdict v)
{
	if ((unsigned)v < sizeof(verdict_names) / sizeof(verdict_names[0]) && verdict_names[v])
		return verdict_names[v];
	return "unknown";
}

int rb_store_verdict_parse(const char *s)
{
	for (unsigned i = 0; i < sizeof(verdict_names) / sizeof(verdict_names[0]); i++)
		if (verdict_names[i] && !strcmp(verdict_names[i], s))
			return (int)i;
	return -1;
}
