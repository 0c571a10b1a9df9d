/* kdiff_trace.h — kdiff --trace (kdiff_trace.c): where two verifiers'
 * explored paths part, for many programs, one line each (tab-separated). */
#ifndef RB_CLI_KDIFF_TRACE_H
#define RB_CLI_KDIFF_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "guest/guest.h"
#include "loader/object.h"
#include "result/result.h"

/* each program's level-2 log and result from one verifier */
struct rb_kdiff_logs {
	char **log;             /* per program; NULL: none */
	struct rb_result *res;  /* per program */
	bool *got;
	unsigned jobs;          /* a kernel image's guests at once (0: 1) */
	FILE *progress;         /* its guests' progress lines, NULL: quiet */
	size_t log_head;        /* a kernel's logs: only their first log_head bytes (0: all) */
};

int rb_kdiff_logs_alloc(struct rb_kdiff_logs *s, int n);
void rb_kdiff_logs_free(struct rb_kdiff_logs *s, int n);
/* verify objs[i].prog of objs[i].path (objs[i].prog_type for programs
 * libbpf does not type) with `name` (an engine tracker, the running kernel,
 * or a kernel image: all in its guests) with a level-2 log each; a
 * program that does not verify is left !got (said on stderr). -1 when a
 * kernel image's guests cannot run. */
int rb_kdiff_logs(const char *name, const struct rb_guest_obj *objs, int n, const struct rb_load_opts *lo,
		  struct rb_kdiff_logs *s);

/* a and b: engine trackers or kernels; args: OBJ:PROG. Exit code: 0 the
 * same everywhere, 1 a difference, 2 an error. */
int rb_kdiff_trace(const char *a, const char *b, int n, char **args, const struct rb_load_opts *lo);

#endif
