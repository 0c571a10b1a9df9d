/* filter.c — the program filter (see filter.h). */
#include "util/filter.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

bool rb_filter_match(const char *glob, const char *object, const char *program)
{
	if (!glob || fnmatch(glob, program, 0) == 0)
		return true;
	const char *base = strrchr(object, '/');
	base = base ? base + 1 : object;
	char both[1024];
	snprintf(both, sizeof(both), "%s/%s", base, program);
	return fnmatch(glob, both, 0) == 0;
}
