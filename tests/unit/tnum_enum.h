/* tnum_enum.h — the exhaustive unit tests' enumeration of tnums at the
 * width they are built for (8 bits): tnum_nth(i) for i < 3^W_BITS gives
 * every tnum once, each bit's digit in base 3 choosing 0, 1 or unknown
 * (value and mask disjoint). Used by test_old_sync.c and test_cnum_fast.c. */
#ifndef RB_TESTS_TNUM_ENUM_H
#define RB_TESTS_TNUM_ENUM_H

#include <stdint.h>

#include "tracker/tnum.h" /* W_BITS: the includer sets RB_BITS first */

static inline struct tnum tnum_nth(unsigned i)
{
	uint64_t v = 0, m = 0;
	for (unsigned b = 0; b < W_BITS; b++, i /= 3) {
		if (i % 3 == 1)
			v |= UINT64_C(1) << b;
		else if (i % 3 == 2)
			m |= UINT64_C(1) << b;
	}
	return TNUM_C(v, m);
}

#endif
