/* filter.h — the program filter of `run` and `compare`: a glob matched
 * against "program" or "object-basename/program". */
#ifndef RB_UTIL_FILTER_H
#define RB_UTIL_FILTER_H

#include <stdbool.h>

/* true when glob is NULL or matches the program name or basename(object)/program */
bool rb_filter_match(const char *glob, const char *object, const char *program);

#endif
