/* runinfo.c — git commit, kernel, host. */
#include "store/runinfo.h"

#include "loader/sha256.h"
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* the output of `git -C root ARGS...` (malloc'd, NUL-terminated; its
 * length in *len), git's stderr to /dev/null; NULL when git could not be
 * started or did not exit 0. git is started directly (posix_spawnp), not
 * through sh: a run asked sh to start it three times (issue 26). */
static char *git_output(const char *root, const char *const *args, size_t *len)
{
	const char *argv[16] = {"git", "-C", root};
	size_t n = 3;
	for (size_t i = 0; args[i] && n + 1 < sizeof(argv) / sizeof(argv[0]); i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return NULL;
	}
	size_t got = 0, cap = 4096;
	char *buf = malloc(cap);
	for (;;) {
		if (buf && got + 1 >= cap) {
			char *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
			} else {
				buf = b, cap *= 2;
			}
		}
		char sink[4096];
		ssize_t k = buf ? read(fds[0], buf + got, cap - got - 1) : read(fds[0], sink, sizeof(sink));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (buf)
			got += (size_t)k;
	}
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	if (!buf || st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	*len = got;
	return buf;
}

/* lines of text, and the first of them in out ("" when none) */
static int count_lines(const char *text, size_t len, char *out, size_t outlen)
{
	int lines = 0;
	out[0] = 0;
	for (const char *p = text; p < text + len;) {
		const char *e = memchr(p, '\n', (size_t)(text + len - p));
		size_t l = e ? (size_t)(e - p) : (size_t)(text + len - p);
		if (lines++ == 0)
			snprintf(out, outlen, "%.*s", (int)l, p);
		p += l + (e != NULL);
	}
	return lines;
}

static bool is_commit(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

/* the uncommitted diff of the checkout against HEAD: hash and text */
static void read_diff(struct rb_runinfo *info, const char *root)
{
	size_t len = 0;
	char *d = git_output(root, (const char *const[]){"diff", "--binary", "--no-color", "--no-ext-diff", "HEAD", NULL},
			     &len);
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

/* commit, dirty flag and diff one question at a time: rev-parse HEAD
 * (nothing more without a commit), status, diff */
static void read_git_apart(struct rb_runinfo *info, const char *root)
{
	char line[512];
	size_t len = 0;
	char *o = git_output(root, (const char *const[]){"rev-parse", "HEAD", NULL}, &len);
	int n = o ? count_lines(o, len, line, sizeof(line)) : -1;
	free(o);
	if (n <= 0 || strlen(line) != 40)
		return;
	snprintf(info->git_commit, sizeof(info->git_commit), "%.40s", line);
	o = git_output(root, (const char *const[]){"status", "--porcelain", "--untracked-files=no", NULL}, &len);
	n = o ? count_lines(o, len, line, sizeof(line)) : -1;
	free(o);
	if (n >= 0)
		info->git_dirty = n > 0;
	read_diff(info, root);
}

/* The same answers from one git command in a clean checkout: status
 * --porcelain=v2 --branch names the commit ("# branch.oid") before the
 * changed tracked files (one line each, as --porcelain lists them), and
 * with none the diff against HEAD is empty (index and work tree are
 * HEAD's), so it is asked for only when there are. A git that cannot
 * answer so (before 2.17: --no-ahead-behind) is asked one question at a
 * time. */
static void read_git(struct rb_runinfo *info, const char *root)
{
	size_t len = 0;
	char *o = git_output(
		root, (const char *const[]){"status", "--porcelain=v2", "--branch", "--no-ahead-behind", "--untracked-files=no", NULL},
		&len);
	if (!o) {
		read_git_apart(info, root);
		return;
	}
	char oid[64] = "";
	int changed = 0;
	for (const char *p = o; p < o + len;) {
		const char *e = memchr(p, '\n', (size_t)(o + len - p));
		size_t l = e ? (size_t)(e - p) : (size_t)(o + len - p);
		if (l > 13 && !strncmp(p, "# branch.oid ", 13))
			snprintf(oid, sizeof(oid), "%.*s", (int)(l - 13), p + 13);
		else if (!(l >= 2 && p[0] == '#' && p[1] == ' '))
			changed++;
		p += l + (e != NULL);
	}
	free(o);
	if (!is_commit(oid)) /* "(initial)": no commit yet, as rev-parse HEAD fails */
		return;
	snprintf(info->git_commit, sizeof(info->git_commit), "%.40s", oid);
	info->git_dirty = changed > 0;
	if (changed)
		read_diff(info, root);
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
	/* the root comes from our own executable's path (one with a quote
	 * was never asked: it could not be quoted for sh) */
	if (strchr(root, '\''))
		return;
	read_git(info, root);
}

int rb_proc_identity(pid_t pid, char *out, size_t len)
{
	char buf[1024], boot[64] = "";
	/* fields 3.. ("pid (comm) state ppid ..."); the start time is field 22 */
	char *p = rb_proc_stat_fields(pid, buf, sizeof(buf));
	if (!p)
		return -1;
	unsigned long long start = 0;
	int field = 2;
	for (char *save = NULL, *t = strtok_r(p, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (++field == 22) {
			start = strtoull(t, NULL, 10);
			break;
		}
	if (field != 22)
		return -1;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f) {
		if (!fgets(boot, sizeof(boot), f))
			boot[0] = 0;
		fclose(f);
		boot[strcspn(boot, "\n")] = 0;
	}
	snprintf(out, len, "%s:%llu", boot, start);
	return 0;
}
