/* valset.h — a finite set of concrete values at one width, as the
 * trackers' best-abstraction constructors (cnum_from_set, a2_from_set)
 * take it: masked to the width, sorted, each value once. Header-only, so
 * it is the same in every width build. */
#ifndef RB_TRACKER_VALSET_H
#define RB_TRACKER_VALSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline int rb_valset_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* the values a caller's stack buffer holds (a set at width 8 fits) */
#define RB_VALSET_BUF 256

/* vals[0..n) & mask, ascending and distinct, into buf when n <= RB_VALSET_BUF
 * (buf holds RB_VALSET_BUF values), else into a new array; *out is where
 * they are (release it with rb_valset_release). Returns how many, 0 when n
 * is 0 (*out NULL), or -1 when out of memory. A set already in ascending
 * order (as a bitmap lists it) is not sorted again. */
static inline long rb_valset_sorted(const uint64_t *vals, size_t n, uint64_t mask, uint64_t *buf,
				    uint64_t **out)
{
	*out = NULL;
	if (n == 0)
		return 0;
	uint64_t *v = n <= RB_VALSET_BUF ? buf : malloc(n * sizeof(*v));
	if (!v)
		return -1;
	bool ascending = true;
	for (size_t i = 0; i < n; i++) {
		v[i] = vals[i] & mask;
		if (i && v[i] < v[i - 1])
			ascending = false;
	}
	if (!ascending && mask < 256) {
		/* values below 256 (a width-8 set, or its 4-bit half, as
		 * arc2's from_set masks it): ascending and distinct through a
		 * 256-bit map, no qsort (a third of the CPU of a width-8
		 * census of arc2 under the sanitizers, with its buffer) */
		uint64_t bits[4] = {0, 0, 0, 0};
		for (size_t i = 0; i < n; i++)
			bits[v[i] >> 6] |= (uint64_t)1 << (v[i] & 63);
		size_t k = 0;
		for (unsigned w = 0; w < 4; w++)
			for (uint64_t b = bits[w]; b; b &= b - 1)
				v[k++] = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(b);
		*out = v;
		return (long)k;
	}
	if (!ascending)
		qsort(v, n, sizeof(*v), rb_valset_cmp);
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[k - 1])
			v[k++] = v[i];
	*out = v;
	return (long)k;
}

static inline void rb_valset_release(uint64_t *v, const uint64_t *buf)
{
	if (v != buf)
		free(v);
}

#endif
