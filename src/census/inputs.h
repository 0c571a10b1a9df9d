/* inputs.h — the census's concrete input sets: descriptors of the set
 * families the issue asks for, enumerable at width 8 (bitmaps) and
 * sampleable at any width. */
#ifndef RB_CENSUS_INPUTS_H
#define RB_CENSUS_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "census/bitmap.h"
#include "census/rng.h"

enum census_family {
	FAM_CONST,  /* one value */
	FAM_SMALL,  /* arcs of 2..17 values, any position */
	FAM_UINT,   /* larger unsigned intervals inside one signed half */
	FAM_SCROSS, /* intervals crossing the signed boundary (smax -> smin) */
	FAM_UWRAP,  /* intervals crossing the unsigned boundary (umax -> 0),
	             * i.e. signed intervals around zero */
	FAM_BOTH,   /* arcs crossing both boundaries (the full set too) */
	FAM_TNUM,   /* tnum-shaped sets {value | m : m ⊆ mask} */
	FAM_SUBREG, /* constrained on the subregister: low half in one arc,
	             * high half in another (full, constant or an arc) */
	FAM_UNION,  /* union of two arcs */
	FAM_FEW,    /* 2..8 random values */
	FAM_DENSE,  /* many random values */
	FAM_COUNT
};

enum census_set_kind { SK_ARC, SK_TNUM, SK_SUBREG, SK_UNION, SK_RANDOM };

/* ARC    {a, a+1, ..., a+b} (mod 2^bits): base a, size b (size excludes base)
 * TNUM   value a, mask b
 * SUBREG low half in the half-width arc (a, b), high half in arc (c, d)
 * UNION  arc (a, b) ∪ arc (c, d)
 * RANDOM n values from the generator seeded with c, half of them inside
 *        the window arc (a, b), half anywhere (biased to boundaries) */
struct census_set {
	uint8_t kind, family;
	uint32_t n;
	uint64_t a, b, c, d;
};

/* membership (not for SK_RANDOM, whose members are only listed) */
bool census_set_has(const struct census_set *s, unsigned bits, uint64_t x);
/* every member, at width 8 */
void census_set_bitmap8(const struct census_set *s, bm256 *out);
/* up to max members (endpoints, boundary points inside, random members) */
unsigned census_set_sample(const struct census_set *s, unsigned bits, struct rng *r, uint64_t *out,
			   unsigned max);
/* a random set of one family */
void census_set_gen(struct rng *r, unsigned fam, unsigned bits, struct census_set *out);
/* a family drawn with the pair-mixing weights */
unsigned census_family_pick(struct rng *r);
/* a value biased towards the interesting boundaries of the width */
uint64_t census_value(struct rng *r, unsigned bits);

/* The width-8 input list: every arc (all constants, intervals, signed
 * and wrapping intervals), every tnum, subregister-constrained sets, and
 * seeded random unions and sets. Returns a malloc'ed array (caller frees)
 * or NULL on allocation failure; *n gets the count (duplicates included;
 * the pool removes them). */
struct census_set *census_sets8(uint64_t seed, size_t *n);

#endif
