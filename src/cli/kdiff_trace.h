/* kdiff_trace.h — kdiff --trace (kdiff_trace.c): where two verifiers'
 * explored paths part, for many programs, one line each (tab-separated). */
#ifndef RB_CLI_KDIFF_TRACE_H
#define RB_CLI_KDIFF_TRACE_H

#include "loader/object.h"

/* a and b: engine trackers or kernels; args: OBJ:PROG. Exit code: 0 the
 * same everywhere, 1 a difference, 2 an error. */
int rb_kdiff_trace(const char *a, const char *b, int n, char **args, const struct rb_load_opts *lo);

#endif
