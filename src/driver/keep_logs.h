/* keep_logs.h — `run --keep-logs`: the level-2 verifier logs of a run's
 * programs stored with its rows (table result_logs), so that `explain
 * --run A --run-b B` can show where two runs' explorations part when the
 * build that made one of them is gone (a patch tried and reverted).
 *
 * After the run, each (program, tracker) pair chosen is verified once more
 * by a child process, `EXE verify --log --csv --tracker T OBJ:PROG` (an
 * object that crashes the loader costs its log, never the run), whose log
 * (its stderr) is cut at its last whole line within `head` bytes,
 * compressed with zlib and stored. Engine trackers (any profile) and the
 * running kernel; a kernel image's log needs a guest boot of its own and is
 * not kept (`kdiff --trace` and `attribute` take those). A program is named
 * OBJ:PROG, so of two programs with one section and name only the first
 * (ordinal 0) has its log kept. */
#ifndef RB_DRIVER_KEEP_LOGS_H
#define RB_DRIVER_KEEP_LOGS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

enum rb_keep_logs {
	RB_KEEP_NONE,
	RB_KEEP_CHANGED, /* programs whose rows of the run differ between its trackers
	                  * (verdict, instructions or states) */
	RB_KEEP_ALL,     /* every program the run verified (success or failure) */
};

/* "changed" / "all"; false for anything else */
bool rb_keep_logs_parse(const char *s, enum rb_keep_logs *out);

struct rb_keep_stats {
	unsigned stored, failed; /* logs stored; pairs whose child gave no log */
	uint64_t bytes;          /* uncompressed bytes stored */
};

/* Keep the logs of run run_id's pairs chosen by `which`, each cut to its
 * first `head` bytes; exe: this rangebench (e.g. /proc/self/exe). stop:
 * stops between pairs when set. -1 (err) only when the database fails. */
int rb_keep_logs(struct rb_store *st, int64_t run_id, const char *exe, enum rb_keep_logs which, size_t head,
		 volatile sig_atomic_t *stop, struct rb_keep_stats *ks, struct rb_err *err);

/* A stored log, uncompressed (malloc'ed, NUL-terminated), *cut as stored:
 * 1 found, 0 none, -1 error. */
int rb_keep_logs_get(struct rb_store *st, int64_t run_id, int64_t program_id, const char *tracker, char **log,
		     bool *cut, struct rb_err *err);

#endif
