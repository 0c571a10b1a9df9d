/* file.c — see file.h */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rb_read_file(const char *path, size_t max_size, uint8_t **buf, size_t *len, struct rb_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
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
		return rb_errf(err, "%s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > max_size) {
		close(fd);
		return rb_errf(err, "%s: file too large (%lld bytes, limit %zu)", path, (long long)st.st_size,
			       max_size);
	}
	size_t n = (size_t)st.st_size, got = 0;
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
