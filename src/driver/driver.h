/* driver.h — the run loop: every program of a job list through each
 * tracker, in parallel, into the results database.
 *
 * rb_driver_start() starts the worker threads (and the store's writer
 * thread) and returns at once (with one object to open: once it has opened
 * it, driver.c: scan_early); the caller polls rb_driver_progress() to
 * show progress and sets *opts->stop (from a signal handler, say) to stop
 * early; rb_driver_finish() waits, stores what finished and says whether
 * the run completed. The driver's threads block SIGINT, SIGTERM, SIGHUP
 * and SIGPIPE, so those signals reach the caller's thread.
 *
 * No object is ever opened in the driver's own process (with child_exe):
 * the loader runs on untrusted files. Two phases: a scan opens every
 * object (in parallel, each worker through a scan child of its own that
 * opens object after object, scan.h; a run's only object to open is
 * opened by rb_driver_start itself, before any thread, its child forked)
 * and lists the programs that pass the filter, so the total is known; an
 * object whose scan child dies (a loader crash) becomes one load_error row
 * naming the signal, and a new child goes on with the next object. Then
 * each object is opened again, in the child of one worker, which verifies
 * its programs with every
 * tracker (objects with the most programs first) in a child process (a
 * fresh exec of opts.child_exe, never a bare fork of this threaded
 * process) that pipes the rows back (child.c): a verifier crash costs one
 * row, and a verification past the time budget is killed and recorded as
 * "limit".
 * An object whose content (sha256) equals an earlier one's is verified
 * once. */
#ifndef RB_DRIVER_DRIVER_H
#define RB_DRIVER_DRIVER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "driver/jobs.h"
#include "oracle/ksample.h"
#include "store/store.h"
#include "util/err.h"

#define RB_DRIVER_MAX_TRACKERS 8
/* default resident-memory cap of one verifier child (MiB) */
#define RB_DRIVER_MEM_LIMIT_MIB 4096

struct rb_shard_plan;

struct rb_driver_opts {
	const char *trackers[RB_DRIVER_MAX_TRACKERS]; /* engine trackers and the running kernel */
	/* per tracker: the kernel inputs its objects are opened with
	 * (loader/kernel_inputs.h; verify.h rb_verify_row_inputs), NULL or
	 * "": the running kernel's */
	const char *kernel_inputs[RB_DRIVER_MAX_TRACKERS];
	unsigned ntrackers;
	unsigned jobs;        /* worker threads, >= 1 */
	unsigned repeat;      /* verifications per (program, tracker); median time kept
	                       * (accepted and rejected programs only) */
	const char *filter;   /* glob on "program" or "object-basename/program"; NULL = all */
	unsigned shard_k, shard_n; /* shard_n > 1: only the programs of shard shard_k (1..n),
	                       * chosen by a hash of (object sha256, section, name):
	                       * the same on every machine, whatever the paths */
	const struct rb_shard_plan *shard_plan; /* with shard_n > 1: programs it knows go
	                       * to its shard (balanced by cost, shard_plan.h), the
	                       * others by the hash; NULL: the hash for all */
	uint64_t insn_limit;  /* per program; 0 = the kernel's 1,000,000 */
	double time_limit_s;  /* per program (passed to the verifier; the child
	                       * is killed at repeat * limit + slack); 0 = none */
	uint64_t mem_limit_mib; /* resident memory of one verifier child: past
	                       * it the child is killed and the verification
	                       * recorded as 'limit'; 0 = none (in-process runs
	                       * are not limited) */
	int64_t run_id;       /* the run the rows belong to */
	volatile sig_atomic_t *stop; /* set non-zero to stop; may be NULL */
	const char *fault;    /* test builds only: see fault.h; NULL = none */
	/* the rangebench executable: each object is verified by a fresh
	 * process "EXE run --child ..." (rb_driver_child_main); NULL: in the
	 * worker threads, without that isolation */
	const char *child_exe;
	/* program type for programs whose section libbpf does not know, for
	 * objects whose manifest row names none (loader/prog_type.h); NULL = none */
	const char *prog_type;
	/* helper sets from the compiled-in 6.18 tables, not the running kernel */
	bool compiled_helpers;
	/* the running kernel's exploration time sampled (oracle/ksample.h) with
	 * these function addresses (run --explore-time) */
	bool explore_time;
	struct rb_ksyms ksyms;
	/* with repeat > 1: each program's trackers verified in rounds, one
	 * repeat of each per round, instead of one tracker's repeats after
	 * the other's (run --interleave) */
	bool interleave;
};

/* The type option an object of the run is opened with: its manifest's
 * prog_type, else the run's; NULL if neither. */
const char *rb_driver_job_prog_type(const struct rb_driver_opts *o, const struct rb_job_obj *job);

struct rb_progress {
	bool scanning;           /* phase 1: opening objects */
	uint64_t objects, objects_scanned;
	uint64_t total, done;    /* (program, tracker) verifications */
	uint64_t not_accepted;   /* done with a verdict other than accept */
	uint64_t load_errors;    /* objects that could not be opened */
	uint64_t duplicates;     /* objects skipped: same content as another path */
	double elapsed_s;
	/* scan children that crashed, failed or hung at their exit, after
	 * their last answer (scan.h: rb_scan_end), and how the first ended */
	uint64_t scan_exits_bad;
	char scan_exit_why[128];
};

struct rb_driver;

int rb_driver_start(const struct rb_driver_opts *opts, const struct rb_joblist *jobs,
		    struct rb_store *st, struct rb_driver **out, struct rb_err *err);
void rb_driver_progress(struct rb_driver *d, struct rb_progress *p);
/* all workers finished (or stopped)? */
bool rb_driver_idle(struct rb_driver *d);
/* Join every thread, store the rest, free d. *complete is true when every
 * job ran (not stopped). Returns rows stored or < 0 (err). */
int64_t rb_driver_finish(struct rb_driver *d, bool *complete, struct rb_err *err);

/* The child side: `rangebench run --child ...` (argv as the parent built
 * it) verifies the programs it names and writes the rows to stdout.
 * Returns the process exit code. */
int rb_driver_child_main(int argc, char **argv);

/* Shard (1..n) of a program identity: FNV-1a of "sha256\0section\0name"
 * modulo n, plus one. */
unsigned rb_driver_shard_of(const char *sha256, const char *section, const char *name, unsigned n);

/* Is this verifier usable here? Verifies a two-instruction program
 * (r0 = 0; exit) and requires "success"; otherwise why not in `why`. */
bool rb_driver_tracker_available(const char *tracker, char *why, size_t len);

#endif
