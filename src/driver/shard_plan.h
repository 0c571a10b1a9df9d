/* shard_plan.h — shards balanced by cost (`run --shard K/N --shard-costs DB`).
 *
 * A hash of each program's identity gives every shard the same number of
 * programs but not the same work (one 1,000,000-instruction program weighs
 * as much as a hundred small ones). A plan reads what each program cost in
 * an earlier run (store/costs.h) and deals the programs out largest first,
 * each to the shard with the least work so far (the LPT rule: the slowest
 * shard is within 4/3 of the best possible). Programs the database does
 * not know keep their hash shard. The plan depends only on the database's
 * content and N, never on paths or the order objects are opened in, so
 * every machine given the same database picks the same programs. */
#ifndef RB_DRIVER_SHARD_PLAN_H
#define RB_DRIVER_SHARD_PLAN_H

#include <stdint.h>

#include "util/err.h"

struct rb_shard_plan;

/* the plan for n shards from the costs in the database at path */
int rb_shard_plan_load(const char *path, unsigned n, struct rb_shard_plan **out, struct rb_err *err);
void rb_shard_plan_free(struct rb_shard_plan *p);
/* the shard (1..n) of a program identity; 0 when the plan does not know it */
unsigned rb_shard_plan_of(const struct rb_shard_plan *p, const char *sha256, const char *section, const char *name);
/* programs planned, and the expected work of shard k (1..n) */
uint64_t rb_shard_plan_programs(const struct rb_shard_plan *p);
uint64_t rb_shard_plan_cost(const struct rb_shard_plan *p, unsigned k);

/* the hash shards use for a program identity (sha256, section, name) */
uint64_t rb_shard_identity_hash(const char *sha256, const char *section, const char *name);

#endif
