/* bitmap.h — 256-bit sets of 8-bit values: the exact concretisations the
 * census computes at width 8. */
#ifndef RB_CENSUS_BITMAP_H
#define RB_CENSUS_BITMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct bm256 {
	uint64_t w[4];
} bm256;

static inline void bm_clear(bm256 *b) { memset(b, 0, sizeof(*b)); }
static inline void bm_set(bm256 *b, unsigned x) { b->w[(x >> 6) & 3] |= UINT64_C(1) << (x & 63); }
static inline bool bm_has(const bm256 *b, unsigned x) { return (b->w[(x >> 6) & 3] >> (x & 63)) & 1; }
static inline unsigned bm_count(const bm256 *b)
{
	return (unsigned)(__builtin_popcountll(b->w[0]) + __builtin_popcountll(b->w[1]) +
			  __builtin_popcountll(b->w[2]) + __builtin_popcountll(b->w[3]));
}
static inline bool bm_empty(const bm256 *b) { return !(b->w[0] | b->w[1] | b->w[2] | b->w[3]); }
static inline bool bm_eq(const bm256 *a, const bm256 *b)
{
	return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3];
}
/* a ⊆ b */
static inline bool bm_subset(const bm256 *a, const bm256 *b)
{
	return !((a->w[0] & ~b->w[0]) | (a->w[1] & ~b->w[1]) | (a->w[2] & ~b->w[2]) | (a->w[3] & ~b->w[3]));
}
static inline bool bm_intersects(const bm256 *a, const bm256 *b)
{
	return (a->w[0] & b->w[0]) | (a->w[1] & b->w[1]) | (a->w[2] & b->w[2]) | (a->w[3] & b->w[3]);
}
static inline bool bm_intersects_not(const bm256 *a, const bm256 *b) /* a ∩ ~b ≠ ∅ */
{
	return (a->w[0] & ~b->w[0]) | (a->w[1] & ~b->w[1]) | (a->w[2] & ~b->w[2]) | (a->w[3] & ~b->w[3]);
}
static inline void bm_or(bm256 *a, const bm256 *b)
{
	for (int i = 0; i < 4; i++)
		a->w[i] |= b->w[i];
}
/* the elements in increasing order; returns the count */
static inline unsigned bm_list(const bm256 *b, uint64_t *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < 4; i++)
		for (uint64_t w = b->w[i]; w; w &= w - 1)
			out[n++] = i * 64 + (unsigned)__builtin_ctzll(w);
	return n;
}
/* the first element of a ∩ ~b, or -1 */
static inline int bm_first_not_in(const bm256 *a, const bm256 *b)
{
	for (unsigned i = 0; i < 4; i++) {
		uint64_t w = a->w[i] & ~b->w[i];
		if (w)
			return (int)(i * 64 + (unsigned)__builtin_ctzll(w));
	}
	return -1;
}
static inline uint64_t bm_hash(const bm256 *b)
{
	uint64_t h = 0x9e3779b97f4a7c15u;
	for (int i = 0; i < 4; i++) {
		h ^= b->w[i];
		h *= 0xff51afd7ed558ccdu;
		h ^= h >> 33;
	}
	return h;
}

#endif
