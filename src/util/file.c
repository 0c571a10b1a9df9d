/* file.c — see file.h */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *rb_path_shown(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	if (n < 240 || len < 240)
		return path;
	snprintf(buf, len, "%.80s...%s", path, path + n - 110);
	return buf;
}

int rb_open_file(const char *path_in, size_t max_size, int *fdp, size_t *len, struct rb_err *err)
{
	char sbuf[256];
	const char *path = rb_path_shown(path_in, sbuf, sizeof(sbuf));
	/* O_NONBLOCK: a FIFO or a terminal must not block the open; only a
	 * regular file is read (and reads of those never block) */
	int fd = open(path_in, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return rb_errf(err, "%s: cannot open: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return rb_errf(err, "%s: cannot stat: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return rb_errf(err, "%s: not a regular file (%s)", path,
			       S_ISDIR(st.st_mode)    ? "a directory"
			       : S_ISFIFO(st.st_mode) ? "a FIFO"
			       : S_ISCHR(st.st_mode)  ? "a character device"
			       : S_ISBLK(st.st_mode)  ? "a block device"
			       : S_ISSOCK(st.st_mode) ? "a socket"
						      : "not a file");
	}
	if ((uint64_t)st.st_size > max_size) {
		close(fd);
		return rb_errf(err, "%s: file too large (%lld bytes, limit %zu)", path, (long long)st.st_size,
			       max_size);
	}
	*fdp = fd;
	*len = (size_t)st.st_size;
	return 0;
}

int rb_read_file(const char *path_in, size_t max_size, uint8_t **buf, size_t *len, struct rb_err *err)
{
	char sbuf[256];
	const char *path = rb_path_shown(path_in, sbuf, sizeof(sbuf));
	int fd;
	size_t n, got = 0;
	if (rb_open_file(path_in, max_size, &fd, &n, err) < 0)
		return -1;
	uint8_t *b = malloc(n ? n : 1);
	if (!b) {
		close(fd);
		return rb_errf(err, "%s: out of memory", path);
	}
	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(b);
			close(fd);
			return rb_errf(err, "%s: read failed after %zu of %zu bytes", path, got, n);
		}
		got += (size_t)r;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

char *rb_proc_stat_fields(pid_t pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = len > 1 ? fopen(path, "r") : NULL;
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	return p ? p + 1 : NULL;
}
