/* cpio.c — a newc cpio writer for the guest's initramfs (see cpio.h). */
#include "guest/cpio.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file.h"

int rb_cpio_open(struct rb_cpio *c, const char *path, struct rb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->ino = 1;
	c->f = fopen(path, "wb");
	if (!c->f)
		return rb_errf(err, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

static void pad4(struct rb_cpio *c)
{
	long pos = ftell(c->f);
	while (pos >= 0 && pos % 4) {
		fputc(0, c->f);
		pos++;
	}
}

/* one entry: the 110-byte header, the name, the data, each 4-aligned */
static int entry_dev(struct rb_cpio *c, const char *name, unsigned mode, const void *data, size_t len,
		     unsigned rmaj, unsigned rmin)
{
	size_t nl = strlen(name) + 1;
	if (fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", c->ino++, mode, 0u,
		    0u, 1u, 0u, len, 0u, 0u, rmaj, rmin, nl, 0u) != 110 ||
	    fwrite(name, 1, nl, c->f) != nl)
		c->failed = 1;
	pad4(c);
	if (len && fwrite(data, 1, len, c->f) != len)
		c->failed = 1;
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

int rb_cpio_file(struct rb_cpio *c, const char *name, const char *host_path, unsigned mode, struct rb_err *err)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	/* the largest file an initramfs takes here: a kernel-sized object */
	if (rb_read_file(host_path, (size_t)1 << 30, &buf, &len, err) < 0)
		return -1;
	int rc = rb_cpio_data(c, name, mode, buf, len);
	free(buf);
	return rc < 0 ? rb_errf(err, "%s: write failed", c->path) : 0;
}

int rb_cpio_close(struct rb_cpio *c, struct rb_err *err)
{
	entry(c, "TRAILER!!!", 0, NULL, 0);
	int bad = c->failed | (fclose(c->f) != 0);
	c->f = NULL;
	return bad ? rb_errf(err, "%s: write failed", c->path) : 0;
}
