/* verify.h — the front door: verify one program of an opened object with
 * one verifier ("old" or "cnum": the userspace engine with that tracker;
 * the running kernel, RB_KERNEL_RUNNING, through bpf(); kernel images
 * verify in guests, src/guest/). Used by `rangebench verify`,
 * `kdiff` and the driver. */
#ifndef RB_VERIFY_VERIFY_H
#define RB_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/vmlinux.h"
#include "loader/object.h"
#include "util/err.h"
#include "result/result.h"

struct rb_helper_source;
struct rb_engine_recorder;
struct rb_profile;
struct rb_ksyms;

struct rb_verify_opts {
	const char *tracker;    /* an engine tracker, or the running kernel (RB_KERNEL_RUNNING) */
	uint64_t insn_limit;    /* 0 = the kernel's 1,000,000 */
	double time_limit_s;    /* 0 = none */
	FILE *log;              /* non-NULL: write a level-2 style per-instruction log here */
	size_t log_head;        /* the running kernel: only the log's first log_head bytes (0: all; oracle/kload.h) */
	struct rb_vmlinux *vmlinux; /* shared vmlinux BTF for the engine (engine/vmlinux.h); NULL: per program */
	const struct rb_helper_source *helpers; /* the running kernel's helper sets; NULL: compiled-in */
	const struct rb_engine_recorder *rec;   /* engine only: an observer of the exploration (engine.h) */
	/* engine only: the profile to follow in place of the row's (a profile
	 * built between two, explain/switches.h); NULL: the row's */
	const struct rb_profile *profile;
	/* the running kernel: sample its exploration time (oracle/ksample.h);
	 * NULL: the log's verification time only */
	const struct rb_ksyms *ksyms;
	/* engine only: the states' memory, kept from one verification to the
	 * next (util/pool.h; one verification at a time); NULL: its own */
	struct rb_pool *pool;
};

/* The kernel inputs (loader/kernel_inputs.h: that kernel's BTF,
 * configuration and uname) an object is opened with for row `tracker`: for
 * an engine row of a profile after 6.18 ("cnum-mainline@7.2"), `given` when
 * set ("none": the running kernel's, NULL returned), else the inputs the
 * kernel cache holds for the profile's own kernel image, kernel-P of
 * kernels.conf (<cache>/<package>/inputs when its btf is there, as the
 * guest copied it out of that kernel: libbpf inside that kernel prepares
 * the kernel-P row's objects from the same inputs); NULL for every other
 * row (6.18 profile, kernels: the running kernel's). Returns out or NULL. */
const char *rb_verify_row_inputs(const char *tracker, const char *given, char *out, size_t len);

/* Returns 0 and fills res (whatever the verdict); < 0 only when the call
 * itself is wrong (unknown tracker, bad program index). */
int rb_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_verify_opts *opts,
	      struct rb_result *res, struct rb_err *err);

#endif
