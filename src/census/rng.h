/* rng.h — the census's deterministic random numbers (splitmix64): every
 * work item seeds its own generator from (seed, op, chunk), so results do
 * not depend on the number of threads. */
#ifndef RB_CENSUS_RNG_H
#define RB_CENSUS_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}
/* uniform in [0, n), n > 0 (the tiny modulo bias is irrelevant here) */
static inline uint64_t rng_below(struct rng *r, uint64_t n) { return rng_next(r) % n; }
static inline struct rng rng_seed(uint64_t a, uint64_t b, uint64_t c)
{
	struct rng r = {a ^ 0x243f6a8885a308d3u};
	(void)rng_next(&r);
	r.s ^= b * 0x13198a2e03707344u;
	(void)rng_next(&r);
	r.s ^= c * 0xa4093822299f31d0u;
	(void)rng_next(&r);
	return r;
}

#endif
