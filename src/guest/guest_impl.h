/* guest_impl.h — the guest runner's parts (guest.h): guest.c runs the
 * batches, boot.c starts and watches QEMU, collect.c turns what a guest
 * wrote (or the cache holds) into rows. Internal to src/guest/. */
#ifndef RB_GUEST_GUEST_IMPL_H
#define RB_GUEST_GUEST_IMPL_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "guest/guest.h"

#define MAX_PORTS 3
#define DEF_BOOT_S 300
#define DEF_IDLE_S 900
#define KVM_BOOT_S 60
#define TCG_BOOT_CPU_S 40 /* QEMU CPU seconds a TCG guest may use before its report (a boot uses 3-10) */
#define BATCH_MAX 250 /* objects per guest */
#define MAX_BOOTS 2   /* a batch whose guest did not boot is booted again once */

/* what became of one object of a batch */
struct obj_state {
	char sha256[65];  /* of the host file; "" unreadable */
	bool begun, ended, have_exit, cached;
	int exit_code;
};

struct guest {
	pid_t pid;
	size_t *batch, nbatch;
	char dir[PATH_MAX];
	char accel[8];
	bool dump_inputs;
	double started, last_output;
	off_t sizes[MAX_PORTS + 1]; /* console, then ports */
	bool killed_idle, killed_boot, stopped;
	bool reported;              /* its "RBG uname" line seen on ttyS1 */
	bool killed_cpu;            /* killed_boot for its CPU budget (TCG) */
	bool done;                  /* ended for good (not to be started again) */
	unsigned boots;             /* times this batch was booted */
	unsigned vcpus;             /* this guest's: the runner's, at most one per object of its batch */
};

struct runner {
	const struct rb_kernel *k;
	const struct rb_guest_obj *objs;
	size_t n;
	const struct rb_guest_opts *o;
	rb_guest_row_fn fn;
	void *ctx;
	struct rb_guest_stats *st;
	struct obj_state *os;
	char image[PATH_MAX], boot[PATH_MAX + 32]; /* kernels.conf's image; the file booted (pvh.h) */
	char kdir[PATH_MAX], cache[PATH_MAX + 64], exe[PATH_MAX], qemu[PATH_MAX];
	char pkgver[64];
	unsigned vcpus;
	bool kvm_broken;
	bool cb_failed;
};

double rb_gst_now_s(void);
bool rb_gst_find_in_path(const char *name, char *out, size_t len);
/* boot.c: write the initramfs and start QEMU for g's batch */
int rb_gst_start_guest(struct runner *r, struct guest *g, struct rb_err *err);
bool rb_gst_file_has(const char *path, const char *needle);
/* output seen since the last look? (console and ports) */
bool rb_gst_grew(struct guest *g);
/* the console's line saying why the guest kernel died ("" if none), and its last line */
void rb_gst_crash_line(const char *dir, char *out, size_t len, char *last, size_t lastlen);
void rb_gst_rm_dir(const char *dir);
/* collect.c: a guest ended (1: run the batch again, under TCG or after a
 * failed boot; 0; -1 the callback failed) */
int rb_gst_finish_guest(struct runner *r, struct guest *g, int status);
/* object i from the cache: 0 and *hit, or -1 (callback failed) */
int rb_gst_from_cache(struct runner *r, size_t i, bool *hit);
/* the (object) row of object i, msg = fmt(kernel name, why) */
int rb_gst_object_row(struct runner *r, size_t i, enum rb_verdict v, const char *accel, const char *release,
		      const char *fmt, const char *why);

#endif
