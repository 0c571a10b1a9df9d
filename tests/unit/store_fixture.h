/* store_fixture.h — helpers for the store, compare and driver tests:
 * temporary databases, one-value queries and hand-made result rows. */
#ifndef RB_TEST_STORE_FIXTURE_H
#define RB_TEST_STORE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

/* a fresh, not yet existing database path under /tmp */
static inline void fx_tmp_db(char *path, size_t len)
{
	static int seq;
	snprintf(path, len, "/tmp/rb_test_%d_%d.sqlite", (int)getpid(), seq++);
	unlink(path);
}

static inline void fx_rm_db(const char *path)
{
	char p[300];
	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

/* a store opened on a fresh temporary database whose path goes to path */
static inline struct rb_store *fx_open_tmp(char *path, size_t len, struct rb_err *err)
{
	struct rb_store *st;
	fx_tmp_db(path, len);
	assert_int_equal(rb_store_open(path, &st, err), 0);
	return st;
}

/* the integer in the first column of the one row sql returns */
static inline int64_t fx_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* the text in the first column of the one row sql returns ("(null)" for NULL) */
static inline void fx_text(sqlite3 *db, const char *sql, char *out, size_t len)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	const unsigned char *t = sqlite3_column_text(s, 0);
	snprintf(out, len, "%s", t ? (const char *)t : "(null)");
	sqlite3_finalize(s);
}

static inline char *fx_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static inline void fx_row(struct rb_result_row *r, int64_t run, const char *path, const char *sha,
			  const char *prog, const char *tracker, enum rb_verdict v, uint64_t insns,
			  uint64_t states)
{
	memset(r, 0, sizeof(*r));
	r->run_id = run;
	snprintf(r->prog.obj_path, sizeof(r->prog.obj_path), "%s", path);
	snprintf(r->prog.obj_sha256, sizeof(r->prog.obj_sha256), "%s", sha);
	snprintf(r->prog.section, sizeof(r->prog.section), "xdp");
	snprintf(r->prog.name, sizeof(r->prog.name), "%s", prog);
	snprintf(r->prog.source, sizeof(r->prog.source), "test");
	r->prog.prog_type = 6;
	snprintf(r->tracker, sizeof(r->tracker), "%s", tracker);
	r->res.verdict = v;
	r->res.err_insn = -1;
	r->res.insns_processed = insns;
	r->res.total_states = states;
	r->res.peak_states = states;
	r->res.verify_us = (double)insns * 0.5;
	r->repeats = 1;
}

#endif
