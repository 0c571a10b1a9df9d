/* census_store.h — run the operator census (census/census.h) and store
 * its rows in the results database as a run of kind "census". */
#ifndef RB_DRIVER_CENSUS_STORE_H
#define RB_DRIVER_CENSUS_STORE_H

#include <signal.h>
#include <stdint.h>

#include "census/census.h"
#include "store/store.h"

/* info->kind is forced to "census". The run ends 'complete', or
 * 'incomplete' when *stop was set or the census failed. */
int rb_census_store(struct rb_store *st, const struct rb_census_opts *opts,
		    const struct rb_run_info *info, volatile sig_atomic_t *stop, int64_t *run_id,
		    struct rb_census_summary *sum, struct rb_err *err);

/* Store one census row of run_id (e.g. from `ops`'s own callback). */
int rb_census_store_row(struct rb_store *st, int64_t run_id, const struct rb_census_row *row,
			struct rb_err *err);

#endif
