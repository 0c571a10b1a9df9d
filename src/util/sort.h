/* sort.h — rb_sort(): qsort for arrays that may be empty. C11 (7.22.5)
 * asks for a valid base pointer even when the count is zero, and glibc
 * declares qsort's base nonnull, so qsort(NULL, 0, ...) is undefined
 * behaviour (the sanitizer build traps on it: `run` of an empty directory
 * died there). An array of fewer than two elements is already sorted. */
#ifndef RB_UTIL_SORT_H
#define RB_UTIL_SORT_H

#include <stddef.h>
#include <stdlib.h>

static inline void rb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif
