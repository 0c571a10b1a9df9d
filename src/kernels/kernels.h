/* kernels.h — the kernel rows of the tracker registry: verifiers that are
 * a real Linux kernel, not the userspace engine. One is built in, the
 * running kernel (RB_KERNEL_RUNNING, through bpf()); the others are named
 * kernel images, one line each in the project's kernels.conf (format in
 * that file), run in a guest (src/guest/). Names share one namespace with
 * the engine's trackers (src/tracker/registry.c).
 *
 * The configuration is read on every call (no global state): from
 * $RB_KERNELS_CONF if set, else <project root>/kernels.conf if present,
 * else the copy embedded in the binary at build time. */
#ifndef RB_KERNELS_KERNELS_H
#define RB_KERNELS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

/* the running kernel's tracker name */
#define RB_KERNEL_RUNNING "kernel"
/* at most this many kernels in a configuration */
#define RB_KERNELS_MAX 32

enum rb_kernel_backend {
	RB_KBACK_RUNNING, /* the running kernel, through bpf() */
	RB_KBACK_QEMU,    /* a kernel image booted in QEMU (src/guest/) */
};

struct rb_kernel {
	char name[16];          /* tracker name */
	enum rb_kernel_backend backend;
	char image[512];        /* "debian:SUITE/PACKAGE" or a bzImage path; "" when running */
	char suite[32], package[160]; /* a debian: image split up; "" otherwise */
	unsigned mem_mib;       /* guest memory */
	char where[600];        /* "FILE:LINE" of its definition; "built in" */
};

/* Is `name` the running kernel? */
bool rb_kernel_is_running(const char *name);
/* Is `name` a kernel row (running or configured)? false if the
 * configuration cannot be read. */
bool rb_kernel_known(const char *name);
/* The kernel named `name`: 0, or -1 with err (unknown name, or a broken
 * configuration, naming the file and line). */
int rb_kernel_find(const char *name, struct rb_kernel *out, struct rb_err *err);
/* Every kernel, the running one first, then the configuration's lines in
 * order: 0 and *n, or -1 with err. */
int rb_kernels_list(struct rb_kernel *out, size_t cap, size_t *n, struct rb_err *err);
/* The configuration in use: a path, or "(embedded)". */
void rb_kernels_conf_source(char *out, size_t len);
/* Parse a configuration text (`where` names it in errors); for tests and
 * the functions above. 0, or -1 with err. */
int rb_kernels_parse(const char *text, const char *where, struct rb_kernel *out, size_t cap, size_t *n,
		     struct rb_err *err);

/* The kernel cache: $RB_KERNEL_CACHE, else <project root>/build/kernels. */
void rb_kernel_cache_dir(char *out, size_t len);
/* A kernel's directory in the cache: <cache>/<package> for a debian:
 * image, <cache>/<name> for a path image (whose vmlinuz is used in
 * place). Holds vmlinuz (debian: images), version (the package's version
 * and release, written by `make kernels`), and inputs/ (what the guest
 * copied out of that kernel: btf, kallsyms, config, uname, helpers.csv). */
void rb_kernel_dir(const struct rb_kernel *k, char *out, size_t len);
/* The bzImage to boot: 0 and out, or -1 with err saying how to get it. */
int rb_kernel_image(const struct rb_kernel *k, char *out, size_t len, struct rb_err *err);

#endif
