/* xorshift.h — the unit tests' random inputs: Marsaglia's xorshift64
 * (13, 7, 17), seeded per test so every run draws the same sequence.
 * Used by test_old.c, test_old_sync.c and test_cnum_fast.c. */
#ifndef RB_TESTS_XORSHIFT_H
#define RB_TESTS_XORSHIFT_H

#include <stdint.h>

struct rng {
	uint64_t s; /* never 0 */
};

static inline uint64_t rnd(struct rng *g)
{
	g->s ^= g->s << 13;
	g->s ^= g->s >> 7;
	g->s ^= g->s << 17;
	return g->s;
}

#endif
