/* store.h — the results database (SQLite, schema in db/schema.sql).
 *
 * rb_store_open() creates a new database from the embedded db/schema.sql,
 * or upgrades an older one through db/migrations/, re-creates the views of
 * db/views.sql, and switches the database to WAL mode. Each rb_store is
 * one connection and must be used by one thread at a time; writes from
 * parallel workers go through one rb_writer (writer.h).
 *
 * Every write function runs in one transaction: either all rows of a call
 * are stored or none.
 */
#ifndef RB_STORE_STORE_H
#define RB_STORE_STORE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "result/result.h"

/* The version db/schema.sql creates and the migrations end at. */
#define RB_SCHEMA_VERSION 12

struct rb_store;

/* For writers: creates the file if needed; refuses a foreign database
 * before writing anything; a new file that could not be given a schema
 * is removed again. */
int rb_store_open(const char *path, struct rb_store **out, struct rb_err *err);
/* For readers (query, compare, plot): opens read-only, never creates or
 * writes the file (so a read-only, immutable or other user's database
 * can be read); a missing file is an error. The views are TEMP views of
 * this connection, and `runs` is a TEMP view whose status is
 * 'incomplete' for a run whose writer process is gone. An older schema
 * is refused (a writer migrates it). */
int rb_store_open_read(const char *path, struct rb_store **out, struct rb_err *err);
void rb_store_close(struct rb_store *st);
sqlite3 *rb_store_db(struct rb_store *st);
const char *rb_store_path(const struct rb_store *st);

/* A run's description. NULL fields are stored as NULL. */
struct rb_run_info {
	const char *kind;  /* "verify" (default), "census", "bench" */
	const char *label; /* required */
	const char *git_commit;
	int git_dirty; /* 0/1, < 0 unknown */
	const char *kernel_release;
	const char *host;
	const char *options;
	const char *trackers;
	const char *helper_sets; /* verify runs: "kernel" or "compiled-6.18" */
	const char *diff_sha256, *diff_text; /* the checkout's uncommitted diff (runinfo.h), NULL if none */
};

/* Insert a run with status 'running' (and this process's pid and its
 * identity, runinfo.h's rb_proc_identity, so that a dead run is told from
 * a live one whatever later holds the pid). */
int rb_store_run_begin(struct rb_store *st, const struct rb_run_info *info, int64_t *run_id,
		       struct rb_err *err);
/* status: "complete" or "incomplete"; sets ended_at. A shard run
 * ("--shard K/N" in its options, store/shards.h) is stored 'incomplete'
 * even when its shard completed (the run is complete once all N are
 * merged); an interrupted one is marked "K!/N". */
int rb_store_run_end(struct rb_store *st, int64_t run_id, const char *status, struct rb_err *err);
/* Runs left 'running' by a process of this host that no longer exists
 * (its pid gone, or held by another process now) are marked 'incomplete'.
 * Returns how many (done by rb_store_open too). */
int rb_store_reap_stale(struct rb_store *st, struct rb_err *err);

/* Resolve "42" (a run id) or a label (its latest run of that kind) to a
 * run id; kind NULL = any kind. */
int rb_store_find_run(struct rb_store *st, const char *spec, const char *kind, int64_t *run_id,
		      struct rb_err *err);
/* A run's label and status ("running", "complete", "incomplete"; a
 * reader sees "incomplete" for a run whose writer died) and the trackers
 * that have results in it, comma-separated. */
int rb_store_run_describe(struct rb_store *st, int64_t run_id, char *label, size_t label_len,
			  char *status, size_t status_len, char *trackers, size_t trackers_len,
			  struct rb_err *err);
/* the newest verify run before run_id (*prev = -1 if none) */
int rb_store_previous_run(struct rb_store *st, int64_t run_id, int64_t *prev, struct rb_err *err);
/* the newest run of a kind (any status): 0 found, 1 none (err says so),
 * -1 a database error (err) */
int rb_store_latest_run(struct rb_store *st, const char *kind, int64_t *run_id, struct rb_err *err);

/* A program's identity: object content, section and name (whole: the
 * bounds of loader/object.h's rb_prog), and the program's ordinal among
 * the object's programs of that section and name (0 for the first, in
 * the object's order), so that two programs never share a row. */
struct rb_prog_ident {
	char obj_path[4096];
	char obj_sha256[65];
	char section[4096];
	char name[1024];
	uint32_t ordinal;
	char source[64]; /* "" = unknown */
	uint32_t prog_type;
	uint64_t insn_cnt;
};

/* One result row: a program verified by one tracker in one run. */
struct rb_result_row {
	int64_t run_id;
	struct rb_prog_ident prog;
	char tracker[32]; /* a registry row, "cnum-mainline@7.2" included */
	struct rb_result res;
	unsigned repeats;
	char kernel_release[96]; /* kernel rows: the exact release; "" = NULL */
	char clock[8];           /* "" native, "tcg"/"kvm": verify_us inside a guest */
};

/* Upsert the programs and insert the results, all in one transaction. A
 * second row for the same (run, program, tracker) replaces the first. */
int rb_store_results(struct rb_store *st, const struct rb_result_row *rows, size_t n,
		     struct rb_err *err);

/* One row of the operator census. */
struct rb_store_census_row {
	char tracker[16];
	unsigned width;
	char op[32];
	char kind[16]; /* "" = NULL */
	int sampled;   /* < 0: NULL */
	uint64_t cases, unsound;
	int64_t optimal; /* < 0: not measured (stored as NULL) */
	double mean_extra_log2;
	int64_t tighter, looser, equal, incomparable; /* < 0: NULL */
};
int rb_store_census(struct rb_store *st, int64_t run_id, const struct rb_store_census_row *rows, size_t n,
		    struct rb_err *err);

/* One micro-benchmark row. */
struct rb_bench_row {
	char op[48];
	char tracker[16];
	double ns_per_op; /* median of the repetitions */
	uint64_t iterations;
	double ns_min, ns_max; /* fastest and slowest repetition (0: unknown) */
};
int rb_store_bench(struct rb_store *st, int64_t run_id, const struct rb_bench_row *rows, size_t n,
		   struct rb_err *err);

/* Run SQL text (several statements) inside one transaction. */
int rb_store_exec(struct rb_store *st, const char *sql, struct rb_err *err);

#endif
