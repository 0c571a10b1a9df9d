/* keep_logs.c — see keep_logs.h */
#include "driver/keep_logs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "driver/spawn.h"
#include "kernels/kernels.h"
#include "loader/prog_type.h"

extern char **environ;

bool rb_keep_logs_parse(const char *s, enum rb_keep_logs *out)
{
	if (!strcmp(s, "changed"))
		*out = RB_KEEP_CHANGED;
	else if (!strcmp(s, "all"))
		*out = RB_KEEP_ALL;
	else
		return false;
	return true;
}

/* the pairs to keep: program id, path, name, section, type, tracker */
static const char pairs_sql[] =
	"SELECT p.id, p.obj_path, p.name, p.section, p.prog_type, r.tracker FROM results r "
	"JOIN programs p ON p.id = r.program_id "
	"WHERE r.run_id = ?1 AND r.verdict IN ('success', 'failure') AND p.ordinal = 0 "
	"AND (?2 = 0 OR EXISTS (SELECT 1 FROM results o WHERE o.run_id = r.run_id AND o.program_id = r.program_id "
	"AND o.verdict IN ('success', 'failure') AND (o.verdict <> r.verdict OR "
	"o.insns_processed <> r.insns_processed OR o.total_states <> r.total_states))) "
	"ORDER BY p.obj_path, p.name, r.tracker";

/* The log a child prints on its stderr for one pair, its first head bytes
 * (the rest read and dropped, so the child never blocks). NULL when the
 * child could not be started or died of a signal (its log may stop short
 * anywhere: counted as failed, never stored as if whole). */
static char *child_log(const char *exe, const char *tracker, const char *prog_type, const char *target, size_t head,
		       size_t *len, bool *cut)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	char *argv[12];
	int ac = 0;
	argv[ac++] = (char *)exe;
	argv[ac++] = "verify";
	argv[ac++] = "--log";
	argv[ac++] = "--csv";
	argv[ac++] = "--tracker";
	argv[ac++] = (char *)tracker;
	if (prog_type) {
		argv[ac++] = "--prog-type";
		argv[ac++] = (char *)prog_type;
	}
	argv[ac++] = (char *)target;
	argv[ac] = NULL;
	pid_t pid;
	int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return NULL;
	}
	char *buf = malloc(head + 1);
	size_t n = 0;
	*cut = false;
	for (;;) {
		char tmp[65536];
		ssize_t r = read(fds[0], tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t take = buf && n < head ? ((size_t)r < head - n ? (size_t)r : head - n) : 0;
		if (take)
			memcpy(buf + n, tmp, take);
		n += take;
		*cut |= take < (size_t)r;
	}
	close(fds[0]);
	/* a child killed by a signal printed part of a log at most: none kept */
	int status = rb_wait_child(pid);
	if (!buf || WIFSIGNALED(status)) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	if (*cut) {
		/* end at the last whole line: a half line is no entry */
		char *nl = strrchr(buf, '\n');
		if (nl)
			nl[1] = 0;
	}
	*len = strlen(buf);
	return buf;
}

static int store_log(sqlite3 *db, int64_t run, int64_t prog, const char *tracker, const char *log, size_t len,
		     bool cut)
{
	uLongf zl = compressBound((uLong)len);
	Bytef *z = malloc(zl ? zl : 1);
	if (!z || compress2(z, &zl, (const Bytef *)log, (uLong)len, 6) != Z_OK) {
		free(z);
		return -1;
	}
	sqlite3_stmt *s;
	int rc = -1;
	if (sqlite3_prepare_v2(db,
			       "INSERT OR REPLACE INTO result_logs (run_id, program_id, tracker, bytes, cut, log) "
			       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			       -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, run);
		sqlite3_bind_int64(s, 2, prog);
		sqlite3_bind_text(s, 3, tracker, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)len);
		sqlite3_bind_int(s, 5, cut);
		sqlite3_bind_blob(s, 6, z, (int)zl, SQLITE_STATIC);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(s);
	}
	free(z);
	return rc;
}

struct pair {
	int64_t prog;
	char *target, *tracker, *prog_type;
};

int rb_keep_logs(struct rb_store *st, int64_t run_id, const char *exe, enum rb_keep_logs which, size_t head,
		 volatile sig_atomic_t *stop, struct rb_keep_stats *ks, struct rb_err *err)
{
	memset(ks, 0, sizeof(*ks));
	if (which == RB_KEEP_NONE)
		return 0;
	sqlite3 *db = rb_store_db(st);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, pairs_sql, -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "keeping logs: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int(s, 2, which == RB_KEEP_CHANGED);
	/* the pairs first, so that no statement is open while children run
	 * and rows are written */
	struct pair *pv = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *tracker = (const char *)sqlite3_column_text(s, 5);
		if (!tracker || (rb_kernel_known(tracker) && !rb_kernel_is_running(tracker)))
			continue; /* a kernel image: its log needs a guest */
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			struct pair *np = realloc(pv, cap * sizeof(*pv));
			if (!np)
				break;
			pv = np;
		}
		const char *path = (const char *)sqlite3_column_text(s, 1), *name = (const char *)sqlite3_column_text(s, 2);
		const char *sec = (const char *)sqlite3_column_text(s, 3);
		size_t tl = strlen(path ? path : "") + strlen(name ? name : "") + 2;
		struct pair *p = &pv[n++];
		p->prog = sqlite3_column_int64(s, 0);
		p->target = malloc(tl);
		if (p->target)
			snprintf(p->target, tl, "%s:%s", path ? path : "", name ? name : "");
		p->tracker = strdup(tracker);
		const char *pt =
			rb_prog_type_rerun(sec, sqlite3_column_type(s, 4) != SQLITE_NULL, (uint32_t)sqlite3_column_int(s, 4));
		p->prog_type = pt ? strdup(pt) : NULL;
	}
	sqlite3_finalize(s);
	int out = rc == SQLITE_DONE ? 0 : rb_errf(err, "keeping logs: %s", sqlite3_errmsg(db));
	for (size_t i = 0; out == 0 && i < n && !(stop && *stop); i++) {
		if (!pv[i].target || !pv[i].tracker) {
			ks->failed++;
			continue;
		}
		size_t len = 0;
		bool cut = false;
		char *log = child_log(exe, pv[i].tracker, pv[i].prog_type, pv[i].target, head, &len, &cut);
		if (!log || !len) {
			ks->failed++;
		} else if (store_log(db, run_id, pv[i].prog, pv[i].tracker, log, len, cut) < 0) {
			out = rb_errf(err, "keeping logs: %s", sqlite3_errmsg(db));
		} else {
			ks->stored++;
			ks->bytes += len;
		}
		free(log);
	}
	for (size_t i = 0; i < n; i++) {
		free(pv[i].target);
		free(pv[i].tracker);
		free(pv[i].prog_type);
	}
	free(pv);
	return out;
}

int rb_keep_logs_get(struct rb_store *st, int64_t run_id, int64_t program_id, const char *tracker, char **log,
		     bool *cut, struct rb_err *err)
{
	sqlite3 *db = rb_store_db(st);
	sqlite3_stmt *s;
	*log = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT bytes, cut, log FROM result_logs WHERE run_id = ?1 AND program_id = ?2 AND "
			       "tracker = ?3",
			       -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "%s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, program_id);
	sqlite3_bind_text(s, 3, tracker, -1, SQLITE_STATIC);
	int rc = 0;
	if (sqlite3_step(s) == SQLITE_ROW) {
		sqlite3_int64 bytes = sqlite3_column_int64(s, 0);
		*cut = sqlite3_column_int(s, 1) != 0;
		const void *z = sqlite3_column_blob(s, 2);
		int zl = sqlite3_column_bytes(s, 2);
		/* a stored length past 1 GiB is not one this code wrote */
		uLongf ul = bytes > 0 && bytes < ((sqlite3_int64)1 << 30) ? (uLongf)bytes : 0;
		char *buf = ul ? malloc(ul + 1) : NULL;
		if (buf && z && uncompress((Bytef *)buf, &ul, z, (uLong)zl) == Z_OK && ul == (uLongf)bytes) {
			buf[ul] = 0;
			*log = buf;
			rc = 1;
		} else {
			free(buf);
			rc = rb_errf(err, "run %lld: the stored log of program %lld (%s) does not decompress",
				     (long long)run_id, (long long)program_id, tracker);
		}
	}
	sqlite3_finalize(s);
	return rc;
}
