/* valset.h — a finite set of concrete values at one width, as the
 * trackers' best-abstraction constructors (cnum_from_set, a2_from_set)
 * take it: masked to the width, sorted, each value once. Header-only, so
 * it is the same in every width build. */
#ifndef RB_TRACKER_VALSET_H
#define RB_TRACKER_VALSET_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline int rb_valset_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* vals[0..n) & mask, ascending and distinct, into a new array *out (the
 * caller frees it); returns how many, 0 when n is 0 (*out NULL), or -1 when
 * out of memory */
static inline long rb_valset_sorted(const uint64_t *vals, size_t n, uint64_t mask, uint64_t **out)
{
	*out = NULL;
	if (n == 0)
		return 0;
	uint64_t *v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = vals[i] & mask;
	qsort(v, n, sizeof(*v), rb_valset_cmp);
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[k - 1])
			v[k++] = v[i];
	*out = v;
	return (long)k;
}

#endif
