/* cpio.c — a newc cpio writer for the guest's initramfs (see cpio.h). */
#include "guest/cpio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "util/file.h"

/* the buffered bytes out to the archive's descriptor */
static void flush(struct rb_cpio *c)
{
	for (size_t w = 0; w < c->nbuf && !c->failed;) {
		ssize_t k = write(c->fd, c->buf + w, c->nbuf - w);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			c->failed = 1;
		else
			w += (size_t)k;
	}
	c->nbuf = 0;
}

static void put(struct rb_cpio *c, const void *data, size_t len)
{
	const uint8_t *p = data;
	while (len && !c->failed) {
		if (c->nbuf == sizeof(c->buf))
			flush(c);
		size_t k = sizeof(c->buf) - c->nbuf < len ? sizeof(c->buf) - c->nbuf : len;
		memcpy(c->buf + c->nbuf, p, k);
		c->nbuf += k;
		c->off += k;
		p += k;
		len -= k;
	}
}

static void pad4(struct rb_cpio *c)
{
	static const uint8_t zero[4];
	put(c, zero, (4 - c->off % 4) % 4);
}

int rb_cpio_open(struct rb_cpio *c, const char *path, struct rb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->ino = 1;
	c->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->fd < 0)
		return rb_errf(err, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

/* an entry's 110-byte header and its name, 4-aligned */
static void header(struct rb_cpio *c, const char *name, unsigned mode, size_t len, unsigned rmaj, unsigned rmin)
{
	size_t nl = strlen(name) + 1;
	char h[111];
	if (snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", c->ino++, mode, 0u,
		     0u, 1u, 0u, len, 0u, 0u, rmaj, rmin, nl, 0u) != 110)
		c->failed = 1;
	put(c, h, 110);
	put(c, name, nl);
	pad4(c);
}

/* one entry: the header, the name, the data, each 4-aligned */
static int entry_dev(struct rb_cpio *c, const char *name, unsigned mode, const void *data, size_t len,
		     unsigned rmaj, unsigned rmin)
{
	header(c, name, mode, len, rmaj, rmin);
	put(c, data, len);
	pad4(c);
	return c->failed ? -1 : 0;
}

static int entry(struct rb_cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	return entry_dev(c, name, mode, data, len, 0, 0);
}

int rb_cpio_chardev(struct rb_cpio *c, const char *name, unsigned major, unsigned minor)
{
	return entry_dev(c, name, 0020600, NULL, 0, major, minor);
}

int rb_cpio_dir(struct rb_cpio *c, const char *name)
{
	return entry(c, name, 0040755, NULL, 0);
}

int rb_cpio_symlink(struct rb_cpio *c, const char *name, const char *target)
{
	return entry(c, name, 0120777, target, strlen(target));
}

int rb_cpio_data(struct rb_cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	return entry(c, name, 0100000 | mode, data, len);
}

/* len bytes of `in` to the archive, copied by the kernel where it can
 * (copy_file_range, else sendfile), else through the buffer: never the
 * whole file in this process's memory (the executable and its libraries,
 * 23 MB for the sanitizer build, go into every guest's initramfs; read
 * whole into memory first, each page was a new page to fault in) */
static void copy_in(struct rb_cpio *c, int in, size_t len)
{
	flush(c);
	size_t left = len;
	while (left && !c->failed) {
		ssize_t n = copy_file_range(in, NULL, c->fd, NULL, left, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* not across file systems (Linux 5.19 on): sendfile */
		left -= (size_t)n;
	}
	while (left && !c->failed) {
		ssize_t n = sendfile(c->fd, in, NULL, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* nor that: read below */
		left -= (size_t)n;
	}
	while (left && !c->failed) {
		if (c->nbuf == sizeof(c->buf))
			flush(c);
		size_t room = sizeof(c->buf) - c->nbuf;
		ssize_t n = read(in, c->buf + c->nbuf, left < room ? left : room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			c->failed = 1; /* the file shrank, or a read error */
		else {
			c->nbuf += (size_t)n;
			left -= (size_t)n;
		}
	}
	c->off += len;
}

int rb_cpio_file(struct rb_cpio *c, const char *name, const char *host_path, unsigned mode, struct rb_err *err)
{
	int fd;
	size_t len;
	/* the largest file an initramfs takes here: a kernel-sized object */
	if (rb_open_file(host_path, (size_t)1 << 30, &fd, &len, err) < 0)
		return -1;
	header(c, name, 0100000 | mode, len, 0, 0);
	copy_in(c, fd, len);
	close(fd);
	pad4(c);
	return c->failed ? rb_errf(err, "%s: write failed (%s)", c->path, host_path) : 0;
}

int rb_cpio_close(struct rb_cpio *c, struct rb_err *err)
{
	entry(c, "TRAILER!!!", 0, NULL, 0);
	flush(c);
	int bad = c->failed | (close(c->fd) != 0);
	c->fd = -1;
	return bad ? rb_errf(err, "%s: write failed", c->path) : 0;
}
