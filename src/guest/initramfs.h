/* initramfs.h — the initramfs of one guest: busybox, the rangebench
 * binary and the shared libraries `ldd` names for it, a batch of objects
 * and the init script that verifies them (the protocol is rowtext.h). */
#ifndef RB_GUEST_INITRAMFS_H
#define RB_GUEST_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>

#include "guest/guest.h"
#include "util/err.h"

struct rb_initramfs_spec {
	const char *exe;                /* the rangebench binary */
	const struct rb_guest_obj *objs; /* the whole list */
	const size_t *batch;            /* indexes into objs of this guest's objects */
	size_t nbatch;
	unsigned workers;               /* verifying loops = data ports ttyS1.. */
	bool want_log;
	size_t log_head;                /* want_log: each log's first log_head bytes (0: all) */
	bool log_digest;                /* want_log: each log's summary instead (guest.h) */
	bool dump_inputs;               /* copy the kernel's BTF, kallsyms, config, uname to ttyS1 first */
	const char *config;             /* the kernel's config (make kernels), put at
	                                 * /boot/config-RELEASE for libbpf; NULL: none */
};

/* busybox on this machine (static, from busybox-static): 0 and path, or
 * -1 with err */
int rb_initramfs_busybox(char *out, size_t len, struct rb_err *err);
/* write the archive to path */
int rb_initramfs_write(const char *path, const struct rb_initramfs_spec *s, struct rb_err *err);

#endif
