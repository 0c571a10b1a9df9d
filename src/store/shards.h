/* shards.h — the shard list of a run's options: "--shard K/N" as `run`
 * writes it, "--shard 1,2!,4/N" once shards are merged into one run.
 * A shard listed without '!' is complete (every one of its programs
 * ran); '!' marks one that was interrupted. A run is complete when it
 * lists all N shards, none with '!': a lone shard (N > 1) never is. */
#ifndef RB_STORE_SHARDS_H
#define RB_STORE_SHARDS_H

#include <stdbool.h>
#include <stddef.h>

#define RB_SHARDS_MAX 100000u /* the largest N read */

struct rb_shards {
	unsigned n;           /* N, 0: no shard list */
	unsigned char *state; /* [1..n]: 0 absent, 1 interrupted, 2 complete */
};

/* "--shard K/N" or "--shard=K/N" in opts: pointer to its argument and
 * its length; NULL when absent */
const char *rb_shard_arg(const char *opts, size_t *len);

/* opts' shard list into *s (s->n = 0 when there is none or it is
 * malformed); status_complete: the run's status says complete (a run
 * written before '!' marks: all it lists are complete). 0, or -1 out of
 * memory. */
int rb_shards_read(const char *opts, bool status_complete, struct rb_shards *s);
void rb_shards_free(struct rb_shards *s);

/* all N listed, none interrupted */
bool rb_shards_complete(const struct rb_shards *s);

/* opts with its shard list replaced by s ("1,2!,4/N"), in a new string
 * (NULL: out of memory); opts as it is when it has no list */
char *rb_shards_options(const char *opts, const struct rb_shards *s);

#endif
