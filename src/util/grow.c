/* grow.c — capacity doubling for realloc'd arrays (see grow.h). */
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* arrp points to the array's pointer (any object pointer type: read and
 * written through memcpy) */
int rb_grow(void *arrp, size_t elem, size_t need, size_t *cap, size_t initial)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : (initial ? initial : 1);
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (elem && c > SIZE_MAX / elem)
		return -1;
	void *old;
	memcpy(&old, arrp, sizeof(old));
	void *n = realloc(old, c * elem);
	if (!n)
		return -1;
	memcpy(arrp, &n, sizeof(n));
	*cap = c;
	return 0;
}

int rb_grow_int(void *arrp, size_t elem, int need, int *cap, int initial)
{
	if (need < 0 || *cap < 0 || initial < 0)
		return -1;
	size_t c = (size_t)*cap;
	if (rb_grow(arrp, elem, (size_t)need, &c, (size_t)initial) < 0 || c > INT32_MAX)
		return -1;
	*cap = (int)c;
	return 0;
}
