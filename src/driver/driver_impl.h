/* driver_impl.h — the driver's internals, shared by driver.c (threads,
 * scan, bookkeeping) and child.c (verifying an object in a child process). */
#ifndef RB_DRIVER_IMPL_H
#define RB_DRIVER_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "driver/driver.h"
#include "driver/rss.h"
#include "engine/vmlinux.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "store/writer.h"
#include "verify/verify.h"

struct rb_pool;

struct prog_ref {
	size_t idx; /* index in rb_object.progs */
	/* identity, kept from the scan for every row (a verifier child
	 * reports results only): whole strings, owned by the obj_state in the
	 * driver, pointers into the open object in a child */
	char *name, *section;
	uint32_t ordinal; /* among the object's programs of equal section and name */
	uint32_t prog_type, attach_type; /* attach_type: libbpf's expected attach type */
	uint64_t insn_cnt;
	uint64_t helpers[4]; /* the helper ids it calls (rb_scan_helper_calls) */
};

struct obj_state {
	const struct rb_job_obj *job;
	char sha256[65];
	bool load_failed;
	bool duplicate; /* same content as an object earlier in path order */
	struct prog_ref *progs; /* the programs that pass the filter */
	size_t nprogs;
	char *early_err; /* opened (and failed) before the writer ran: its row's message, put once it runs */
};

/* A stretch of one object's (program, tracker) pairs, [next, end), that a
 * worker's verifier child is going through. When no object is left to
 * start, an idle worker takes the second half of the pairs not yet started
 * of the stretch with the most (rb_drv_next_work), in a child of its own: one
 * object of long verifications no longer keeps a single core busy at the
 * end of a run while the others wait (the main job's xdp_synproxy_kern:
 * ten pairs at the 1M-instruction limit, two thirds of the run's
 * verification time, had one core to itself). Every pair is still
 * verified, start to end, in one child, with the same repeats; only which
 * child does it changes. A share is taken only of a stretch whose pairs
 * not yet started are worth a child of their own: at the pace its child
 * has gone so far (the time since its first pair started, per pair
 * started), RB_STEAL_MIN_S or more of work; meanwhile the idle worker
 * waits. A sanitizer-built child costs ~50 ms of CPU to start and end,
 * and taking every share of two or more pairs made one 30-pair object of
 * the tests' 2-3 verifier children (up to 6 under strace, as halves of
 * halves were taken). Guarded by d->lock; at most one per worker. */
#define RB_STEAL_MIN_S 1.0
struct rb_stretch {
	size_t i;    /* the object, as an index into order */
	size_t next; /* its first pair not yet started */
	size_t end;  /* one past its last pair; lowered when another worker takes the rest */
	bool busy;
	bool paced;  /* a pair started: q0 and t0 are set */
	size_t q0;   /* the first pair started */
	double t0;   /* when (CLOCK_MONOTONIC seconds) */
};

struct rb_driver {
	struct rb_driver_opts opts;
	const struct rb_joblist *jobs;
	struct rb_store *st;
	struct rb_writer *w;
	struct rb_vmlinux *vmlinux; /* vmlinux BTF parsed once per process, shared by every program */
	struct rb_helper_probe *helpers; /* the running kernel's helper sets, probed on demand */
	struct rb_helper_source helper_src; /* the engine's view of them, through rb_drv_helper_set */
	bool measure_rss; /* a child verifying one program at a time: peak RSS per verification (rss.h) */
	struct rb_rss rss;
	int fault[RB_DRIVER_MAX_TRACKERS];
	struct obj_state *objs;
	size_t *order; /* phase 2: objects by descending program count */
	size_t norder;
	bool scanned_early; /* one object to open: opened by rb_driver_start itself (driver.c: scan_early) */
	struct rb_stretch *stretch; /* phase 2, with verifier children: one per worker */
	unsigned nstretch;
	pthread_t manager;
	struct timespec t0;
	/* counters, read and written with __atomic builtins */
	uint64_t next, scanned, total, done, not_accepted, load_errors;
	uint64_t duplicates; /* written by the manager before phase 2 */
	uint64_t scan_exits_bad;
	char scan_exit_why[128]; /* the first bad exit's, under lock */
	int scanning, idle, stopped;
	pthread_mutex_t lock; /* guards err, helpers and scan_exit_why */
	bool failed;
	struct rb_err err;
};

bool rb_drv_stop_requested(struct rb_driver *d);
void rb_drv_fail(struct rb_driver *d, const struct rb_err *e);
/* the running kernel's helper set of a pair, probed once per run by
 * whichever worker needs it first (the table is shared: under d->lock);
 * NULL where not measured */
void rb_drv_helper_source_init(struct rb_driver *d);
const uint64_t *rb_drv_helper_set(struct rb_driver *d, uint32_t prog_type, uint32_t attach_type);
/* the running kernel's answers for the helper ids in `ids` of a pair
 * (probed here if needed: rb_helper_probe_has), into set; false when the
 * pair is not measured */
bool rb_drv_helper_known(struct rb_driver *d, uint32_t prog_type, uint32_t attach_type, const uint64_t ids[4],
			 uint64_t set[4]);
/* the inputs directory of the first tracker that stands for a kernel
 * other than the running one (opts.kernel_inputs), or NULL */
const char *rb_drv_other_inputs(const struct rb_driver *d);
/* hand a finished row to the writer and count it */
void rb_drv_put(struct rb_driver *d, const struct rb_result_row *row);
/* the row identity of program k of an object, from the scan */
void rb_drv_ident(struct rb_prog_ident *id, const struct obj_state *os, size_t k);
/* one (program, tracker) being measured, repeat by repeat: its options,
 * program index and the times of the verifications so far */
struct rb_drv_meas {
	struct rb_verify_opts vo;
	const struct rb_object *obj;
	struct rb_pool *pool;
	size_t pidx;
	unsigned t, repeat, n;
	bool done;
	/* the three times of each verification: log or engine time, the
	 * exploration's wall and CPU time (result/metrics.h) */
	double times[3][64];
};
/* rb_drv_verify_one in steps, so that the repeats of several pairs can
 * alternate (run --interleave): begin fills row's identity and m (false:
 * nothing to verify, row says why), once verifies one more time (false:
 * no more repeats), end sets the median, least and most times */
bool rb_drv_meas_begin(struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
		       struct rb_vmlinux *vmlinux, struct rb_pool *pool, size_t k, unsigned t,
		       struct rb_result_row *row, struct rb_drv_meas *m);
bool rb_drv_meas_once(struct rb_driver *d, struct rb_drv_meas *m, struct rb_result_row *row);
void rb_drv_meas_end(struct rb_driver *d, struct rb_drv_meas *m, struct rb_result_row *row);
/* verify program k of an object with tracker t (repeat times) into row;
 * vmlinux: the BTF of the kernel the object was opened for (NULL:
 * d->vmlinux, the running kernel's); pool: the engine's state memory,
 * kept between verifications (util/pool.h; NULL: one per verification) */
void rb_drv_verify_one(struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
		       struct rb_vmlinux *vmlinux, struct rb_pool *pool, size_t k, unsigned t,
		       struct rb_result_row *row);
/* an object that can no longer be opened: its rows become one load error */
void rb_drv_object_failed(struct rb_driver *d, const struct obj_state *os, const struct rb_err *e,
			  bool was_counted);
/* verify the pairs of stretch s (rb_drv_next_work; NULL: every pair) of
 * object order[i] in child processes (child.c) */
void rb_drv_run_object(struct rb_driver *d, size_t i, struct rb_stretch *s);

/* the stretches (stretch.c): none without verifier children (or memory) */
bool rb_drv_stretches_init(struct rb_driver *d);
/* a worker's next work: the next object in order, order[*i], whole (its
 * stretch *s; NULL without stretches), or when none is left a share of
 * another worker's stretch (*s, of object order[*i]), waited for while a
 * stretch might yet be worth one; false: nothing left (or a stop) */
bool rb_drv_next_work(struct rb_driver *d, size_t *i, struct rb_stretch **s);
/* its end now (npairs when s is NULL) */
size_t rb_drv_stretch_end(struct rb_driver *d, struct rb_stretch *s, size_t npairs);
/* pair q started: false when it is no longer the stretch's (another worker took it) */
bool rb_drv_stretch_start(struct rb_driver *d, struct rb_stretch *s, size_t q);
/* nothing more of it to take: ends it at q; its end before */
size_t rb_drv_stretch_close(struct rb_driver *d, struct rb_stretch *s, size_t q, size_t npairs);
void rb_drv_stretch_free(struct rb_driver *d, struct rb_stretch *s);

#endif
