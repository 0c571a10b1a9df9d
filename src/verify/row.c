/* row.c — tracker rows with a kernel profile (see row.h). */
#include "verify/row.h"

#include <stdio.h>
#include <string.h>

#include "engine/profile.h"
#include "tracker/tracker.h"

bool rb_row_known(const char *row, bool with_kernel)
{
	if (rb_tracker_known(row, with_kernel))
		return true;
	char base[64];
	return row && strchr(row, '@') && rb_profile_split(row, base, sizeof(base)) && rb_tracker_get(base, 64);
}

int rb_row_names(char *buf, size_t len, const char *sep, bool with_kernel)
{
	int n = rb_tracker_names(buf, len, sep, with_kernel);
	int k = snprintf(len > (size_t)n ? buf + n : NULL, len > (size_t)n ? len - (size_t)n : 0,
			 "; an engine tracker may name a kernel profile: NAME@");
	n += k > 0 ? k : 0;
	k = rb_profile_names(len > (size_t)n ? buf + n : NULL, len > (size_t)n ? len - (size_t)n : 0, "|");
	return n + (k > 0 ? k : 0);
}
