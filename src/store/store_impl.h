/* store_impl.h — internals shared by the store's source files. */
#ifndef RB_STORE_IMPL_H
#define RB_STORE_IMPL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

enum rb_stmt_id {
	STMT_RUN_BEGIN,
	STMT_RUN_END,
	STMT_PROGRAM,
	STMT_RESULT,
	STMT_CENSUS,
	STMT_BENCH,
	STMT_COUNT
};

struct rb_store {
	sqlite3 *db;
	char path[4096];
	sqlite3_stmt *stmt[STMT_COUNT]; /* prepared on first use */
	bool readonly;
	bool immutable; /* a reader of a WAL file it could not share (reopen_immutable) */
	/* the last failed rb_store_exec was SQLITE_BUSY/LOCKED (kept because a
	 * ROLLBACK after it resets sqlite3_errcode) */
	bool last_busy;
	/* test builds: RB_TEST_STORE_FAULT (see rb_store_test_fault) */
	uint64_t fault_at, fault_ops, fault_end;
};

/* Test builds only: with RB_TEST_STORE_FAULT=N in the environment, every
 * SQLite statement of this connection fails (SQLITE_INTERRUPT, through
 * the progress handler) once N virtual-machine steps have run in total:
 * a writer that fails at an arbitrary statement, as on a full disk. With
 * RB_TEST_STORE_FAULT=end+K the count starts at the run's final status
 * update: a small K fails it before its commit, a larger one after it
 * (SQLite calls the progress handler once more after a statement has
 * committed, and then reports SQLITE_INTERRUPT for a committed update). */
void rb_store_test_fault(struct rb_store *st);

/* the cached statement `id` (prepared from sql on first use), reset */
int rb_store_prepare(struct rb_store *st, enum rb_stmt_id id, const char *sql, sqlite3_stmt **out,
		     struct rb_err *err);
/* bind text, NULL for a NULL pointer */
void rb_bind_text(sqlite3_stmt *s, int i, const char *v);

#endif
