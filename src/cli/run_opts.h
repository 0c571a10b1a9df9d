/* run_opts.h — the command line of `rangebench run` (run_opts.c): its
 * options, inputs and the trackers that can run here. */
#ifndef RB_CLI_RUN_OPTS_H
#define RB_CLI_RUN_OPTS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "driver/driver.h"
#include "driver/keep_logs.h"
#include "store/store.h"

struct run_cli {
	char root[PATH_MAX]; /* the project root (default paths) */
	char db_default[PATH_MAX + 32], corpus_default[PATH_MAX + 32];
	const char *trackers_arg, *db, *label;
	const char *shard_costs; /* --shard-costs DB: shards balanced by the costs there */
	enum rb_keep_logs keep_logs; /* --keep-logs: which programs' logs to store (driver/keep_logs.h) */
	uint64_t keep_logs_mib;      /* --keep-logs-head: each kept log's first MiB */
	struct rb_driver_opts o; /* o.trackers point into tnames */
	int census;              /* -1: not said, 0 no, 1 yes */
	int quiet;
	uint64_t census_pairs, census_sets;
	const char *const *inputs;
	size_t ninputs;
	const char *def_inputs[1];
	char ran[256]; /* the trackers that run, comma-separated */
	char tnames[RB_DRIVER_MAX_TRACKERS][32];
	const char *kernel_inputs_arg; /* --kernel-inputs DIR|none */
	char tinputs[RB_DRIVER_MAX_TRACKERS][1024]; /* o.kernel_inputs point here */
	/* kernel images (src/kernels/): verified in guests (src/guest/) after
	 * the driver's trackers, not by the driver */
	char guests[RB_DRIVER_MAX_TRACKERS][16];
	unsigned nguests;
};

/* Parse argv into *c (which must stay where it is: it points into itself).
 * Returns -1 to go on, else the exit code (0 after --help, 2 after an
 * error, which it has printed). */
int rb_run_cli_parse(int argc, char **argv, struct run_cli *c);

/* The kernel images of the run (c->guests), each through its guests
 * (run_guests.c), rows stored under run_id: 0, or -1 with why (" (...)")
 * when a kernel could not run or the rows could not be stored. */
int rb_run_guests(struct rb_store *st, const struct run_cli *c, const struct rb_joblist *jobs, int64_t run_id,
		  volatile sig_atomic_t *stop, char *why, size_t whylen);

#endif
