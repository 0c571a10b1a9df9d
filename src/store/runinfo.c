/* runinfo.c — git commit, kernel, host. */
#include "store/runinfo.h"

#include "loader/sha256.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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

/* the whole output of cmd (malloc'd, NUL-terminated), NULL on failure */
static char *all_output(const char *cmd, size_t *len)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b, cap *= 2;
		}
		size_t k = fread(buf + n, 1, cap - n - 1, p);
		if (!k)
			break;
		n += k;
	}
	if (pclose(p) != 0 && buf) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

/* the uncommitted diff of the checkout against HEAD: hash and text */
static void read_diff(struct rb_runinfo *info, const char *root)
{
	char cmd[PATH_MAX + 128];
	snprintf(cmd, sizeof(cmd), "git -C '%s' diff --binary --no-color --no-ext-diff HEAD 2>/dev/null", root);
	size_t len = 0;
	char *d = all_output(cmd, &len);
	if (!d)
		return;
	if (!len) {
		free(d);
		return;
	}
	rb_sha256_hex(d, len, info->diff_sha256);
	info->diff_len = len;
	if (len > RB_RUNINFO_DIFF_MAX)
		d[RB_RUNINFO_DIFF_MAX] = 0;
	info->diff = d;
}

void rb_runinfo_free(struct rb_runinfo *info)
{
	free(info->diff);
	info->diff = NULL;
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
		read_diff(info, root);
	}
}
