/* cpio.h — writing an initramfs: a cpio archive in the "newc" format the
 * Linux kernel unpacks at boot (Documentation/driver-api/early-userspace/
 * buffer-format.rst), uncompressed. */
#ifndef RB_GUEST_CPIO_H
#define RB_GUEST_CPIO_H

#include <stddef.h>

#include "util/err.h"

struct rb_cpio {
	int fd;
	const char *path;
	unsigned ino;
	int failed;   /* a write failed: rb_cpio_close reports it */
	size_t off;   /* bytes of the archive so far */
	size_t nbuf;  /* of them, in buf yet */
	unsigned char buf[65536];
};

int rb_cpio_open(struct rb_cpio *c, const char *path, struct rb_err *err);
/* entries: name without a leading '/', e.g. "bin/sh" */
int rb_cpio_dir(struct rb_cpio *c, const char *name);
/* a character device node (mode 0600), e.g. dev/console 5:1 */
int rb_cpio_chardev(struct rb_cpio *c, const char *name, unsigned major, unsigned minor);
int rb_cpio_symlink(struct rb_cpio *c, const char *name, const char *target);
int rb_cpio_data(struct rb_cpio *c, const char *name, unsigned mode, const void *data, size_t len);
/* a host file's contents (symlinks followed), mode 0755 or 0644 */
int rb_cpio_file(struct rb_cpio *c, const char *name, const char *host_path, unsigned mode, struct rb_err *err);
/* the trailer, then close: 0, or -1 with err naming the archive */
int rb_cpio_close(struct rb_cpio *c, struct rb_err *err);

#endif
