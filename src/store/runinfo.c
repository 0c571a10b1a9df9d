/* runinfo.c — git commit, kernel, host. */
#include "store/runinfo.h"

#include "loader/sha256.h"

#include <limits.h>
#include <stdlib.h>
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

int rb_proc_identity(pid_t pid, char *out, size_t len)
{
	char path[64], buf[1024], boot[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "pid (comm) state ppid ...": comm may hold spaces and ')' itself */
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* fields 3.. follow; the start time is field 22 */
	unsigned long long start = 0;
	int field = 2;
	for (char *save = NULL, *t = strtok_r(p + 1, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (++field == 22) {
			start = strtoull(t, NULL, 10);
			break;
		}
	if (field != 22)
		return -1;
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f) {
		if (!fgets(boot, sizeof(boot), f))
			boot[0] = 0;
		fclose(f);
		boot[strcspn(boot, "\n")] = 0;
	}
	snprintf(out, len, "%s:%llu", boot, start);
	return 0;
}
