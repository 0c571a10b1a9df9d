/* root.c — the project root (see root.h). */
#include "util/root.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rb_project_root(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	snprintf(out, len, ".");
	if (n <= 0)
		return;
	exe[n] = 0;
	for (int up = 0; up < 4; up++) {
		char *slash = strrchr(exe, '/');
		if (!slash || slash == exe)
			return;
		*slash = 0;
		char probe[PATH_MAX + 32];
		struct stat sb;
		snprintf(probe, sizeof(probe), "%s/db/schema.sql", exe);
		if (stat(probe, &sb) == 0) {
			snprintf(out, len, "%s", exe);
			return;
		}
	}
}
