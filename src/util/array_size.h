/* array_size.h — ARRAY_SIZE(a): the number of elements of an array. It
 * refuses to compile when given a pointer (where sizeof would quietly
 * divide the pointer's size), as the kernel's ARRAY_SIZE does with
 * __must_be_array. */
#ifndef RB_UTIL_ARRAY_SIZE_H
#define RB_UTIL_ARRAY_SIZE_H

/* 0, or a compile error (a negative bit-field width) when a is a pointer */
#define RB_MUST_BE_ARRAY(a) \
	(0 * sizeof(struct { int must_be_array : 1 - 2 * __builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])); }))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + RB_MUST_BE_ARRAY(a))

#endif
