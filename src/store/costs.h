/* costs.h — what each program cost in earlier runs of a results
 * database: the work `run --shard K/N --shard-costs DB` balances shards by
 * (driver/shard_plan.h). */
#ifndef RB_STORE_COSTS_H
#define RB_STORE_COSTS_H

#include <stdint.h>

#include "util/err.h"

/* Called once per program identity (object sha256, section, name; the
 * programs of one identity summed) with its cost: the instructions its
 * rows of the latest run holding it processed (every tracker and kernel
 * of that run), plus RB_COST_PER_ROW per row for the work around a
 * verification (open, setup, storing). Return non-zero to stop. */
typedef int (*rb_cost_fn)(void *ctx, const char *sha256, const char *section, const char *name, uint64_t cost);

#define RB_COST_PER_ROW 2000

/* Read `path` (read-only, never created or migrated); -1 with err naming
 * the file when it cannot be read as a rangebench database. */
int rb_store_program_costs(const char *path, rb_cost_fn fn, void *ctx, struct rb_err *err);

#endif
