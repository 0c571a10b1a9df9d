/* grow.h — growing an array by capacity doubling: the one helper behind
 * every "append to a realloc'd array" in the project.
 *
 *     if (RB_GROW(v->items, v->n + 1, &v->cap, 16) < 0)
 *             return out_of_memory;
 *     v->items[v->n++] = x;
 *
 * makes room for at least `need` elements, doubling the capacity from
 * `initial`; the capacity may be an int or a size_t. On failure the array
 * and the capacity are unchanged and -1 is returned. */
#ifndef RB_UTIL_GROW_H
#define RB_UTIL_GROW_H

#include <stddef.h>

int rb_grow(void *arrp, size_t elem, size_t need, size_t *cap, size_t initial);
int rb_grow_int(void *arrp, size_t elem, int need, int *cap, int initial);

#define RB_GROW(arr, need, cap, initial)                                                                   \
	_Generic((cap), int *: rb_grow_int, size_t *: rb_grow)(&(arr), sizeof(*(arr)), (need), (cap), (initial))

#endif
