/* store.c — open, create, migrate the results database; runs and lookups. */
#include "store/store.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/pairs.h"
#include "store/runinfo.h"
#include "store/schema_sql.h"
#include "store/shards.h"
#include "store/store_impl.h"
#include "util/array_size.h"

static int db_err(struct rb_store *st, struct rb_err *err, const char *what)
{
	/* kept: a ROLLBACK after the failure resets sqlite3_errcode */
	int c = sqlite3_errcode(st->db) & 0xff;
	st->last_busy = c == SQLITE_BUSY || c == SQLITE_LOCKED;
	return rb_errf(err, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

int rb_store_exec(struct rb_store *st, const char *sql, struct rb_err *err)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int c = sqlite3_errcode(st->db) & 0xff;
		st->last_busy = c == SQLITE_BUSY || c == SQLITE_LOCKED;
		rb_errf(err, "%s: %s", st->path, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
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

/* the schema version and the number of tables, read by one statement so
 * both come from the same snapshot: two separate statements can straddle
 * another connection's commit of a new schema and see "tables but no
 * version" (seen: 5 in 120 runs of two connections creating one file) */
static int schema_state(struct rb_store *st, int64_t *version, int64_t *tables, struct rb_err *err)
{
	static const char sql[] = "SELECT (SELECT user_version FROM pragma_user_version), "
				  "(SELECT count(*) FROM sqlite_master WHERE type = 'table')";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "read schema version");
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(s, 0);
		*tables = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return db_err(st, err, "read schema version");
	return 0;
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
		if (schema_state(st, &v, &tables, err) < 0)
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

/* a busy/locked error: another process holds the database for a moment
 * (SQLite does not call the busy handler for every lock, e.g. switching
 * a new file to WAL while another process creates it) */
static bool is_busy(struct rb_store *st)
{
	int c = sqlite3_errcode(st->db) & 0xff;
	return c == SQLITE_BUSY || c == SQLITE_LOCKED || st->last_busy;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* "foreign": tables but no schema version, or a newer schema: refused
 * before anything is written (not even the journal mode) */
static int check_foreign(struct rb_store *st, struct rb_err *err)
{
	int64_t v = 0, tables = 0;
	if (schema_state(st, &v, &tables, err) < 0)
		return -1;
	if (v == 0 && tables > 0)
		return rb_errf(err, "%s: not a rangebench database (tables but no schema version)",
			       st->path);
	if (v > RB_SCHEMA_VERSION)
		return rb_errf(err, "%s: schema version %lld is newer than this rangebench (%d)", st->path,
			       (long long)v, RB_SCHEMA_VERSION);
	return 0;
}

static int setup_writer(struct rb_store *st, struct rb_err *err)
{
	if (check_foreign(st, err) < 0)
		return -1;
	/* WAL: readers never block the writer; NORMAL sync is durable across
	 * process crashes (not power loss), which is what a benchmark needs */
	if (rb_store_exec(st, "PRAGMA journal_mode = WAL", err) < 0 ||
	    rb_store_exec(st, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", err) < 0)
		return -1;
	if (upgrade(st, err) < 0)
		return -1;
	/* the metric registry's columns (result/metrics.h: a metric newer than
	 * the database is a column added here, never a migration), the views,
	 * and the pair view made from the registry */
	if (rb_store_exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (rb_results_add_metric_columns(st->db, err) < 0 || rb_store_exec(st, rb_sql_views, err) < 0 ||
	    rb_pair_view_create(st->db, false, err) < 0) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (rb_store_exec(st, "COMMIT", err) < 0)
		return -1;
	if (rb_store_reap_stale(st, err) < 0)
		return -1;
	return 0;
}

static off_t file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? sb.st_size : -1;
}

int rb_store_open(const char *path, struct rb_store **out, struct rb_err *err)
{
	*out = NULL;
	struct rb_store *st = calloc(1, sizeof(*st));
	if (!st)
		return rb_errf(err, "%s: out of memory", path);
	snprintf(st->path, sizeof(st->path), "%s", path);
	bool existed = file_size(path) >= 0;
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rb_errf(err, "%s: cannot open database: %s", path,
			st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 30000);
	sqlite3_extended_result_codes(st->db, 1);
	rb_store_test_fault(st);
	/* retried for 30 s while another process holds a lock the busy
	 * handler does not wait for */
	for (unsigned waited = 0;; waited += 50) {
		st->last_busy = false;
		if (setup_writer(st, err) == 0)
			break;
		if (!is_busy(st) || waited >= 30000)
			goto fail;
		nap_ms(50);
	}
	*out = st;
	return 0;
fail:
	rb_store_close(st);
	/* a file this call created and could not even give a schema (disk
	 * full, say) is not left behind as an empty "database" */
	if (!existed && file_size(path) == 0) {
		char side[sizeof(st->path) + 8];
		off_t wal;
		snprintf(side, sizeof(side), "%s-wal", path);
		wal = file_size(side);
		if (wal <= 0) {
			unlink(path);
			unlink(side);
			snprintf(side, sizeof(side), "%s-shm", path);
			unlink(side);
		}
	}
	return -1;
}

/* Is the process that writes a 'running' run (host, pid and its identity
 * when the run began, rb_proc_identity) still there? A run of another
 * host is taken as alive (nothing here can tell). On this host: no such
 * pid, or a pid now held by another process (another start time or boot),
 * is dead; without a stored identity (runs of schema 7 and before), only a
 * pid that no longer exists is. */
static bool run_alive(const char *host, pid_t pid, const char *identity)
{
	char here[256] = "";
	gethostname(here, sizeof(here) - 1);
	if (!host || strcmp(host, here) || pid <= 0)
		return true;
	if (identity && *identity) {
		char now[128];
		return rb_proc_identity(pid, now, sizeof(now)) == 0 && !strcmp(now, identity);
	}
	return pid == getpid() || !(kill(pid, 0) < 0 && errno == ESRCH);
}

/* rb_run_alive(host, pid, pid_start): run_alive() for SQL */
static void fn_run_alive(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	bool alive = sqlite3_value_type(argv[1]) == SQLITE_NULL ||
		     run_alive((const char *)sqlite3_value_text(argv[0]), (pid_t)sqlite3_value_int64(argv[1]),
			       (const char *)sqlite3_value_text(argv[2]));
	sqlite3_result_int(ctx, alive);
}

/* The reader's views: the runs table as a TEMP view whose status says
 * 'incomplete' for a run whose writer died (what a writer's open would
 * store), and every view of db/views.sql re-created in TEMP, so a reader
 * sees the views of this rangebench without writing anything. */
static int reader_views(struct rb_store *st, struct rb_err *err)
{
	if (sqlite3_create_function(st->db, "rb_run_alive", 3, SQLITE_UTF8, NULL, fn_run_alive, NULL,
				    NULL) != SQLITE_OK)
		return db_err(st, err, "register function");
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT name FROM pragma_table_info('runs', 'main')", -1, &s,
			       NULL) != SQLITE_OK)
		return db_err(st, err, "runs columns");
	size_t cap = 4096, len = 0;
	char *sql = malloc(cap);
	if (!sql) {
		sqlite3_finalize(s);
		return rb_errf(err, "%s: out of memory", st->path);
	}
	len = (size_t)snprintf(sql, cap, "CREATE TEMP VIEW runs AS SELECT ");
	int cols = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(s, 0);
		char item[512];
		if (!strcmp(c, "status"))
			snprintf(item, sizeof(item),
				 "%sCASE WHEN status = 'running' AND NOT rb_run_alive(host, pid, pid_start) "
				 "THEN 'incomplete' ELSE status END AS status",
				 cols ? ", " : "");
		else
			snprintf(item, sizeof(item), "%s\"%s\"", cols ? ", " : "", c);
		size_t k = strlen(item);
		if (len + k + 64 > cap) {
			char *n = realloc(sql, cap *= 2);
			if (!n) {
				free(sql);
				sqlite3_finalize(s);
				return rb_errf(err, "%s: out of memory", st->path);
			}
			sql = n;
		}
		memcpy(sql + len, item, k + 1);
		len += k;
		cols++;
	}
	sqlite3_finalize(s);
	snprintf(sql + len, cap - len, " FROM main.runs");
	int rc = cols ? rb_store_exec(st, sql, err) : rb_errf(err, "%s: no runs table", st->path);
	free(sql);
	if (rc < 0)
		return -1;
	/* db/views.sql with CREATE VIEW -> CREATE TEMP VIEW, DROPs left out */
	size_t vn = strlen(rb_sql_views);
	char *v = malloc(2 * vn + 1);
	if (!v)
		return rb_errf(err, "%s: out of memory", st->path);
	size_t o = 0;
	for (const char *p = rb_sql_views; *p;) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
		if (!strncmp(p, "DROP VIEW", 9)) {
			p += n;
			continue;
		}
		if (!strncmp(p, "CREATE VIEW", 11)) {
			memcpy(v + o, "CREATE TEMP VIEW", 16);
			o += 16;
			memcpy(v + o, p + 11, n - 11);
			o += n - 11;
		} else {
			memcpy(v + o, p, n);
			o += n;
		}
		p += n;
	}
	v[o] = 0;
	rc = rb_store_exec(st, v, err);
	free(v);
	return rc < 0 ? -1 : rb_pair_view_create(st->db, true, err);
}

/* A file in WAL mode whose directory this user cannot write: SQLite
 * needs to create PATH-shm even to read, and fails ("attempt to write a
 * readonly database"). With no PATH-wal file (or an empty one) nothing
 * but the main file holds data, so it is read as an immutable file
 * (SQLite's immutable=1: no locks, no -shm). 0 reopened, -1 otherwise
 * (err kept, with a hint). */
static int reopen_immutable(struct rb_store *st, struct rb_err *err)
{
	int c = sqlite3_errcode(st->db) & 0xff;
	if (c != SQLITE_READONLY && c != SQLITE_CANTOPEN)
		return -1;
	char side[sizeof(st->path) + 8];
	snprintf(side, sizeof(side), "%s-wal", st->path);
	if (file_size(side) > 0) {
		size_t l = strlen(err->msg);
		snprintf(err->msg + l, sizeof(err->msg) - l,
			 " (the database is in WAL mode with a live -wal file and its directory is not writable "
			 "here: read it where it can be written, or after its writer has closed it)");
		return -1;
	}
	/* file: URI, every byte but unreserved ones and '/' percent-encoded */
	char uri[3 * sizeof(st->path) + 32];
	size_t o = (size_t)snprintf(uri, sizeof(uri), "file:");
	for (const unsigned char *p = (const unsigned char *)st->path; *p; p++) {
		bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			     strchr("/-._~", *p);
		o += (size_t)snprintf(uri + o, sizeof(uri) - o, plain ? "%c" : "%%%02X", *p);
	}
	snprintf(uri + o, sizeof(uri) - o, "?immutable=1");
	sqlite3_close(st->db);
	st->db = NULL;
	if (sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
		return rb_errf(err, "%s: cannot open database: %s", st->path,
			       st->db ? sqlite3_errmsg(st->db) : "out of memory");
	sqlite3_extended_result_codes(st->db, 1);
	st->immutable = true;
	return 0;
}

int rb_store_open_read(const char *path, struct rb_store **out, struct rb_err *err)
{
	*out = NULL;
	struct stat sb;
	if (stat(path, &sb) < 0)
		return rb_errf(err, "%s: no such database: %s (a run creates it)", path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return rb_errf(err, "%s: not a database file", path);
	struct rb_store *st = calloc(1, sizeof(*st));
	if (!st)
		return rb_errf(err, "%s: out of memory", path);
	snprintf(st->path, sizeof(st->path), "%s", path);
	st->readonly = true;
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rb_errf(err, "%s: cannot open database: %s", path,
			st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 30000);
	sqlite3_extended_result_codes(st->db, 1);
	int64_t v = 0, tables = 0;
	if (schema_state(st, &v, &tables, err) < 0 && reopen_immutable(st, err) < 0)
		goto fail;
	if (st->immutable && schema_state(st, &v, &tables, err) < 0)
		goto fail;
	if (v == 0 && tables == 0) {
		rb_errf(err, "%s: an empty database (no runs yet)", path);
		goto fail;
	}
	if (check_foreign(st, err) < 0)
		goto fail;
	if (v < RB_SCHEMA_VERSION) {
		rb_errf(err, "%s: schema version %lld is older than this rangebench's (%d): a 'rangebench "
			     "run' on it migrates it",
			path, (long long)v, RB_SCHEMA_VERSION);
		goto fail;
	}
	if (reader_views(st, err) < 0)
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
	for (size_t i = 0; i < ARRAY_SIZE(st->stmt); i++)
		sqlite3_finalize(st->stmt[i]);
	/* A writer leaves the file in rollback-journal mode: WAL needs the
	 * -shm file, which a reader who cannot write the directory cannot
	 * create (the next writer switches back to WAL). Only possible when
	 * no other connection has the file open; then the last writer to
	 * close does it. No waiting for that. */
	if (st->db && !st->readonly) {
		sqlite3_busy_timeout(st->db, 0);
		sqlite3_progress_handler(st->db, 0, NULL, NULL);
		sqlite3_exec(st->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
	}
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
			     "kernel_release, host, options, trackers, status, pid, helper_sets, diff_sha256, "
			     "diff_text, pid_start) VALUES "
			     "(?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?3, ?4, ?5, ?6, ?7, ?8, "
			     "'running', ?9, ?10, ?11, ?12, ?13)",
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
	rb_bind_text(s, 10, info->helper_sets);
	rb_bind_text(s, 11, info->diff_sha256);
	rb_bind_text(s, 12, info->diff_text);
	char me[128];
	rb_bind_text(s, 13, rb_proc_identity(getpid(), me, sizeof(me)) == 0 ? me : NULL);
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_err(st, err, "insert run");
	*run_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

#ifdef RB_TEST_BUILD
static int fault_progress(void *arg)
{
	struct rb_store *st = arg;
	return ++st->fault_ops >= st->fault_at;
}
#endif

int rb_store_run_end(struct rb_store *st, int64_t run_id, const char *status, struct rb_err *err)
{
	if (strcmp(status, "complete") && strcmp(status, "incomplete"))
		return rb_errf(err, "%s: bad run status '%s'", st->path, status);
	/* a shard run (store/shards.h): an interrupted shard is marked '!'
	 * in the list; the run is complete only when it lists all N shards
	 * complete, so a lone shard ends 'incomplete' (until merged) */
	sqlite3_stmt *s;
	char *opts = NULL;
	if (sqlite3_prepare_v2(st->db, "SELECT options FROM runs WHERE id = ?1", -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "read run options");
	sqlite3_bind_int64(s, 1, run_id);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
		struct rb_shards sh;
		if (rb_shards_read((const char *)sqlite3_column_text(s, 0), false, &sh) == 0 && sh.n) {
			if (!strcmp(status, "incomplete"))
				for (unsigned k = 1; k <= sh.n; k++)
					sh.state[k] = sh.state[k] ? 1 : 0;
			else if (!rb_shards_complete(&sh))
				status = "incomplete";
			opts = rb_shards_options((const char *)sqlite3_column_text(s, 0), &sh);
		}
		rb_shards_free(&sh);
	}
	sqlite3_finalize(s);
	if (rb_store_prepare(st, STMT_RUN_END,
			     "UPDATE runs SET status = ?2, pid = NULL, options = coalesce(?3, options), "
			     "ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
			     &s, err) < 0) {
		free(opts);
		return -1;
	}
	sqlite3_bind_int64(s, 1, run_id);
	rb_bind_text(s, 2, status);
	if (opts)
		sqlite3_bind_text(s, 3, opts, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, 3);
	free(opts);
#ifdef RB_TEST_BUILD
	if (st->fault_end) {
		st->fault_ops = 0;
		st->fault_at = st->fault_end;
		sqlite3_progress_handler(st->db, 1, fault_progress, st);
	}
#endif
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
			       "SELECT id, pid, pid_start FROM runs WHERE status = 'running' AND host = ?1 "
			       "AND pid IS NOT NULL",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "select running runs");
	sqlite3_bind_text(s, 1, host, -1, SQLITE_STATIC);
	int64_t dead[64];
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW && n < 64) {
		if (!run_alive(host, (pid_t)sqlite3_column_int64(s, 1), (const char *)sqlite3_column_text(s, 2)))
			dead[n++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	for (int i = 0; i < n; i++)
		if (rb_store_run_end(st, dead[i], "incomplete", err) < 0)
			return -1;
	return n;
}

/* the run with id `id` (by_id) or the latest with label `spec`; 1 found,
 * 0 not, -1 error */
static int find_one(struct rb_store *st, const char *spec, bool by_id, const char *kind,
		    int64_t *run_id, struct rb_err *err)
{
	const char *sql = by_id ? "SELECT id FROM runs WHERE id = ?1 AND (?2 IS NULL OR kind = ?2)"
				: "SELECT max(id) FROM runs WHERE label = ?1 AND (?2 IS NULL OR kind = ?2) "
				  "HAVING max(id) IS NOT NULL";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "find run");
	if (by_id)
		sqlite3_bind_int64(s, 1, strtoll(spec, NULL, 10));
	else
		sqlite3_bind_text(s, 1, spec, -1, SQLITE_STATIC);
	rb_bind_text(s, 2, kind);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_err(st, err, "find run");
	return rc == SQLITE_ROW;
}

int rb_store_find_run(struct rb_store *st, const char *spec, const char *kind, int64_t *run_id,
		      struct rb_err *err)
{
	const char *what = spec;
	int mode = 0; /* 0 either, 1 id, 2 label */
	if (!strncmp(spec, "id:", 3)) {
		mode = 1;
		spec += 3;
	} else if (!strncmp(spec, "label:", 6)) {
		mode = 2;
		spec += 6;
	}
	char *end;
	strtoll(spec, &end, 10);
	bool numeric = *spec && !*end;
	if (mode == 1 && !numeric)
		return rb_errf(err, "%s: '%s' is not a run id", st->path, what);
	int64_t by_id = -1, by_label = -1;
	int fi = 0, fl = 0;
	if (mode != 2 && numeric && (fi = find_one(st, spec, true, kind, &by_id, err)) < 0)
		return -1;
	if (mode != 1 && (fl = find_one(st, spec, false, kind, &by_label, err)) < 0)
		return -1;
	if (fi && fl && by_id != by_label)
		return rb_errf(err, "%s: '%s' is both run id %lld and the label of run %lld: say id:%s or label:%s",
			       st->path, spec, (long long)by_id, (long long)by_label, spec, spec);
	if (fi || fl) {
		*run_id = fi ? by_id : by_label;
		return 0;
	}
	return rb_errf(err, "%s: no %s%srun '%s'", st->path, kind ? kind : "", kind ? " " : "", what);
}

int rb_store_run_describe(struct rb_store *st, int64_t run_id, char *label, size_t label_len,
			  char *status, size_t status_len, char *trackers, size_t trackers_len,
			  struct rb_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT label, status, (SELECT group_concat(tracker, ',') FROM (SELECT DISTINCT "
			       "tracker FROM results WHERE run_id = ?1 ORDER BY tracker)) FROM runs WHERE id = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "describe run");
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const char *l = (const char *)sqlite3_column_text(s, 0);
		const char *t = (const char *)sqlite3_column_text(s, 1);
		const char *tr = (const char *)sqlite3_column_text(s, 2);
		snprintf(label, label_len, "%s", l ? l : "");
		snprintf(status, status_len, "%s", t ? t : "");
		snprintf(trackers, trackers_len, "%s", tr ? tr : "");
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? rb_errf(err, "%s: no run %lld", st->path, (long long)run_id)
					 : db_err(st, err, "describe run");
	return 0;
}

int rb_store_previous_run(struct rb_store *st, int64_t run_id, int64_t *prev, struct rb_err *err)
{
	*prev = -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT max(id) FROM runs WHERE kind = 'verify' AND id < ?1", -1,
			       &s, NULL) != SQLITE_OK)
		return db_err(st, err, "previous run");
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
		*prev = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return db_err(st, err, "previous run");
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
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		/* a real error (a corrupt file: "database disk image is
		 * malformed") is not "no run yet" */
		db_err(st, err, "latest run");
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW) {
		rb_errf(err, "%s: no %s%srun yet", st->path, kind ? kind : "", kind ? " " : "");
		return 1;
	}
	return 0;
}

void rb_store_test_fault(struct rb_store *st)
{
#ifdef RB_TEST_BUILD
	const char *e = getenv("RB_TEST_STORE_FAULT");
	if (!e || !*e)
		return;
	if (!strncmp(e, "end+", 4)) {
		st->fault_end = strtoull(e + 4, NULL, 10);
		return;
	}
	st->fault_at = strtoull(e, NULL, 10);
	if (st->fault_at)
		sqlite3_progress_handler(st->db, 1, fault_progress, st);
#else
	(void)st;
#endif
}
