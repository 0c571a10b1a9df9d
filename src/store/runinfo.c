/* runinfo.c — git commit, kernel, host. */
#include "store/runinfo.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* first line of a command's output, "" on failure */
static int first_line(const char *cmd, char *out, size_t len)
{
	out[0] = 0;
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	int lines = 0;
	char buf[512];
	while (fgets(buf, sizeof(buf), p)) {
		if (lines++ == 0) {
			buf[strcspn(buf, "\n")] = 0;
			snprintf(out, len, "%s", buf);
		}
	}
	int rc = pclose(p);
	return rc == 0 ? lines : -1;
}

void rb_runinfo_read(struct rb_runinfo *info, const char *root)
{
	memset(info, 0, sizeof(*info));
	info->git_dirty = -1;
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(info->kernel_release, sizeof(info->kernel_release), "%s", u.release);
	gethostname(info->host, sizeof(info->host) - 1);
	/* the root comes from our own executable's path; quote it for sh */
	if (strchr(root, '\''))
		return;
	char cmd[PATH_MAX + 128], line[512];
	snprintf(cmd, sizeof(cmd), "git -C '%s' rev-parse HEAD 2>/dev/null", root);
	if (first_line(cmd, line, sizeof(line)) > 0 && strlen(line) == 40) {
		snprintf(info->git_commit, sizeof(info->git_commit), "%.40s", line);
		snprintf(cmd, sizeof(cmd), "git -C '%s' status --porcelain --untracked-files=no 2>/dev/null",
			 root);
		int n = first_line(cmd, line, sizeof(line));
		if (n >= 0)
			info->git_dirty = n > 0;
	}
}
