/* merge.h — `rangebench merge`: rows of other results databases into one.
 *
 * Each input is opened read-only, must have this rangebench's schema
 * version and the same columns in runs, programs, results, census and
 * bench (otherwise it is refused, naming the file, table and reason, and
 * nothing of it is merged). Programs are matched by their identity
 * (object sha256, section, name). Runs:
 *  - a shard of a sharded run (`run --shard K/N`, visible in the run's
 *    options, store/shards.h) joins the run of the output with the same
 *    kind, label and N: the shards become one run again, complete when
 *    all N shards were merged and each was complete; its options say
 *    which shards it holds ("--shard 1,2,4/4"; "3!" marks an incomplete
 *    shard). An input run that is itself merged shards ("1,2/4") brings
 *    each of them; a shard merged again after it completed is complete;
 *  - any other run is the same run as an output run with the same kind,
 *    label, start time and host, or else a new run; a run still running
 *    in the input is stored 'incomplete' (no pid), and becomes complete
 *    when its input is merged again once it is complete.
 * Rows already present (same run, program, tracker / op) are kept, so
 * merging the same input twice changes nothing. One transaction per
 * input. */
#ifndef RB_STORE_MERGE_H
#define RB_STORE_MERGE_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct rb_merge_stats {
	uint64_t runs_new, runs_joined, programs_new, results_new, census_new, bench_new;
};

int rb_store_merge(struct rb_store *out, const char *in_path, struct rb_merge_stats *stats, struct rb_err *err);

#endif
