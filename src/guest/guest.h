/* guest.h — verifying with a kernel image of kernels.conf: the guest
 * runner.
 *
 * The objects are split into batches of at most BATCH_MAX (guest_impl.h),
 * one per guest; each guest boots the image in QEMU once (KVM where it
 * works, else TCG: -accel tcg,thread=multi -cpu max) with an initramfs
 * holding busybox, this rangebench binary, the libraries it links and the
 * batch's objects; its init runs one `rangebench guest-verify --list`
 * (child.h), which parses the guest kernel's BTF once and forks a child
 * per object, each object to the first free vCPU's serial port (ttyS1,
 * ttyS2, ...; ttyS0 is the kernel's console). The lines
 * (rowtext.h) are parsed when the guest ends and handed to the caller as
 * result rows of tracker k->name, with the guest's kernel release and the
 * clock they were timed on ("tcg" or "kvm": never compared with native
 * times). Up to opts.jobs guests run at once.
 *
 * Guest failures become rows, never a hang: a guest that never reports
 * (boot failure: booted once more first) or whose kernel panics or oopses
 * gives every object it
 * had not finished an "(object)" row, verdict load_error, naming the
 * reason (the console's panic line); a guest silent for idle_timeout_s is
 * killed (verdict limit); a rangebench process that dies inside the guest
 * costs its object (load_error).
 *
 * Cache: <kernel dir>/results/<image sha256 prefix>/<object sha256>-<type>.rows
 * holds each finished object's lines, so an object verified once by an
 * image is not verified again (keyed by the kernel image's content and the
 * object's; the rangebench binary is not part of the key: remove the
 * directory after changing the loader). Logs are never cached.
 *
 * Inputs: the first guest of an image whose <kernel dir>/inputs/ is
 * missing copies the guest kernel's own inputs there: btf
 * (/sys/kernel/btf/vmlinux), kallsyms, config (/proc/config.gz, when the
 * kernel has it), uname (uname -a). */
#ifndef RB_GUEST_GUEST_H
#define RB_GUEST_GUEST_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "kernels/kernels.h"
#include "store/store.h"
#include "util/err.h"

struct rb_guest_obj {
	const char *path;      /* on the host */
	const char *source;    /* corpus source, NULL or "" if unknown */
	const char *prog_type; /* the type of programs libbpf does not know, NULL: none */
	const char *prog;      /* only this program, NULL: every program */
	const char *error;     /* the object cannot be opened (driver/jobs.h):
	                        * its load_error row says why, NULL if none */
};

struct rb_guest_opts {
	unsigned jobs;            /* guests at once; 0 = 1 */
	unsigned vcpus;           /* per guest; 0 = 2 (at most 3) */
	bool want_log;            /* each program's verifier log to the callback (no cache) */
	size_t log_head;          /* want_log: only each log's first log_head bytes (0: all) */
	bool log_digest;          /* want_log: each log's summary (rb_progdiff_sum_format:
	                           * digests of its trace and state lines) in its place;
	                           * what progdiff needs of a hundred thousand logs */
	bool no_cache;            /* neither read nor write the result cache */
	unsigned boot_timeout_s;  /* 0 = 300: no report from the guest by then: failed */
	unsigned idle_timeout_s;  /* 0 = 900: no output at all for this long: killed */
	const char *exe;          /* the rangebench put in the guest; NULL: /proc/self/exe */
	const char *filter;       /* glob on "program" or "object-basename/program"; NULL: all */
	volatile sig_atomic_t *stop; /* non-zero: guests killed, the rest not started */
	FILE *progress;           /* a line per guest started and ended; NULL: quiet */
};

struct rb_guest_stats {
	size_t objects, cached;   /* objects in all; answered from the cache */
	unsigned guests;          /* guests booted */
	char accel[8];            /* "tcg" or "kvm" (the last guest's) */
	char release[96];         /* the guest kernel's release (and package version) */
};

/* One row: tracker, kernel_release and clock set, prog.obj_path and
 * prog.source the host's; log the program's verifier log (want_log) or
 * NULL. Return < 0 to stop (err set by the caller's own means). */
typedef int (*rb_guest_row_fn)(void *ctx, const struct rb_result_row *row, const char *log);

/* 0 when every object has its rows (a guest failure is a row, not an
 * error); -1 with err when the runner itself cannot work (no image, no
 * QEMU, no busybox, cannot write the initramfs, the callback failed, or
 * stopped). */
int rb_guest_run(const struct rb_kernel *k, const struct rb_guest_obj *objs, size_t n,
		 const struct rb_guest_opts *o, rb_guest_row_fn fn, void *ctx, struct rb_guest_stats *st,
		 struct rb_err *err);

/* Can kernel k verify here (image downloaded, qemu and busybox found)?
 * false with why. */
bool rb_guest_available(const struct rb_kernel *k, char *why, size_t len);

#endif
