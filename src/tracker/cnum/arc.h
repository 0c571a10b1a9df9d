/* arc.h — circular numbers ("cnums"): one wrapped range on the circle of
 * n-bit values, width-generic.
 *
 * The representation is the one mainline Linux merged in 2026 as
 * struct cnum64 / struct cnum32 (include/linux/cnum.h): an arc drawn
 * clockwise from `base`, covering base, base+1, ..., base+size (mod 2^n).
 * `size` EXCLUDES the base, so the full circle (2^n values) is size
 * 2^n - 1 and a constant is size 0. Two distinct sentinels:
 *   unbounded (full circle)  {0, 2^n - 1}
 *   empty                    {2^n - 1, 2^n - 1}
 * (A full circle is always kept with base 0 here, so that the empty
 * sentinel can never arise by accident and equal sets have equal
 * representations.)
 *
 * Every function takes the arc's width `bits` (1..64): the tracker uses
 * W_BITS for the full register ("cnum64" in the kernel) and H_BITS for the
 * subregister ("cnum32"). One implementation serves both widths at every
 * RB_BITS build; symbols get the build's width suffix through RB_SYM().
 * Signed values are passed sign-extended in int64_t, unsigned values
 * truncated to `bits`.
 *
 * Semantics follow mainline kernel/bpf/cnum_defs.h and kernel/bpf/cnum.c
 * (reimplemented from their description, not copied); the function
 * comments say which mainline function each one corresponds to.
 */
#ifndef RB_TRACKER_CNUM_ARC_H
#define RB_TRACKER_CNUM_ARC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracker/width.h"

struct cnum {
	uint64_t base;
	uint64_t size;
};

/* all-ones of the arc's width */
static inline uint64_t cn_mask(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}
/* largest / smallest signed value, as unsigned bits */
static inline uint64_t cn_smax_bits(unsigned bits) { return cn_mask(bits) >> 1; }
static inline uint64_t cn_smin_bits(unsigned bits) { return (cn_mask(bits) >> 1) + 1; }

static inline struct cnum cnum_full(unsigned bits)
{
	return (struct cnum){0, cn_mask(bits)};
}
static inline struct cnum cnum_empty(unsigned bits)
{
	return (struct cnum){cn_mask(bits), cn_mask(bits)};
}
static inline struct cnum cnum_const(uint64_t v, unsigned bits)
{
	return (struct cnum){v & cn_mask(bits), 0};
}
static inline bool cnum_is_empty(struct cnum a, unsigned bits)
{
	return a.base == cn_mask(bits) && a.size == cn_mask(bits);
}
static inline bool cnum_is_full(struct cnum a, unsigned bits)
{
	return a.size == cn_mask(bits) && a.base != cn_mask(bits);
}
static inline bool cnum_is_const(struct cnum a) { return a.size == 0; }
static inline bool cnum_equal(struct cnum a, struct cnum b)
{
	return a.base == b.base && a.size == b.size;
}
/* last value of a (non-empty) arc */
static inline uint64_t cnum_end(struct cnum a, unsigned bits)
{
	return (a.base + a.size) & cn_mask(bits);
}

#define cnum_from_urange RB_SYM(cnum_from_urange)
#define cnum_from_srange RB_SYM(cnum_from_srange)
#define cnum_umin RB_SYM(cnum_umin)
#define cnum_umax RB_SYM(cnum_umax)
#define cnum_smin RB_SYM(cnum_smin)
#define cnum_smax RB_SYM(cnum_smax)
#define cnum_contains RB_SYM(cnum_contains)
#define cnum_intersect RB_SYM(cnum_intersect)
#define cnum_hull RB_SYM(cnum_hull)
#define cnum_is_subset RB_SYM(cnum_is_subset)
#define cnum_add RB_SYM(cnum_add)
#define cnum_neg RB_SYM(cnum_neg)
#define cnum_sub RB_SYM(cnum_sub)
#define cnum_mul RB_SYM(cnum_mul)
#define cnum_narrow RB_SYM(cnum_narrow)
#define cnum_widen_intersect RB_SYM(cnum_widen_intersect)
#define cnum_from_set RB_SYM(cnum_from_set)

/* Unsigned range [min, max]; min > max gives the wrapping arc
 * min..2^n-1, 0..max (mainline cnum{T}_from_urange). */
struct cnum cnum_from_urange(uint64_t min, uint64_t max, unsigned bits);
/* Signed range [smin, smax]; smin > smax wraps through S_MAX -> S_MIN
 * (mainline cnum{T}_from_srange). */
struct cnum cnum_from_srange(int64_t smin, int64_t smax, unsigned bits);

/* The unsigned / signed bounds an arc implies: an arc that crosses the
 * 2^n-1 -> 0 point (resp. S_MAX -> S_MIN) gives the whole unsigned
 * (resp. signed) range (mainline cnum{T}_umin/umax/smin/smax). Undefined
 * for the empty arc (callers check first). */
uint64_t cnum_umin(struct cnum a, unsigned bits);
uint64_t cnum_umax(struct cnum a, unsigned bits);
int64_t cnum_smin(struct cnum a, unsigned bits);
int64_t cnum_smax(struct cnum a, unsigned bits);

bool cnum_contains(struct cnum a, uint64_t v, unsigned bits);

/* A superset of a ∩ b that is one arc: exact when the intersection is one
 * arc; when a and b meet in two separate arcs, the smaller of a and b (as
 * mainline cnum{T}_intersect does). */
struct cnum cnum_intersect(struct cnum a, struct cnum b, unsigned bits);
/* The smallest arc containing both a and b (a join; not in mainline). */
struct cnum cnum_hull(struct cnum a, struct cnum b, unsigned bits);
/* Is every value of `small` in `big`? Exact (mainline cnum{T}_is_subset). */
bool cnum_is_subset(struct cnum big, struct cnum small, unsigned bits);

/* a + b: bases add, sizes add; unbounded when the sizes overflow
 * (Shung-Hsi Yu's proposal; mainline cnum{T}_add). */
struct cnum cnum_add(struct cnum a, struct cnum b, unsigned bits);
/* 0 - a (mainline cnum{T}_negate) */
struct cnum cnum_neg(struct cnum a, unsigned bits);
/* a - b == a + (-b) (how mainline scalar_min_max_sub computes it) */
struct cnum cnum_sub(struct cnum a, struct cnum b, unsigned bits);
/* a * b through the unsigned and signed bounds (mainline has no cnum
 * multiply: scalar_min_max_mul multiplies the converted bounds, falls back
 * to unbounded on overflow and intersects the two results). */
struct cnum cnum_mul(struct cnum a, struct cnum b, unsigned bits);

/* The arc of the low `nbits` bits of the values of a `bits`-wide arc
 * (mainline cnum32_from_cnum64). */
struct cnum cnum_narrow(struct cnum a, unsigned bits, unsigned nbits);
/* The tightest sub-arc of `a` (width `bits`) holding every value of `a`
 * whose low `nbits` bits lie in `b` (mainline cnum64_cnum32_intersect). */
struct cnum cnum_widen_intersect(struct cnum a, unsigned bits, struct cnum b, unsigned nbits);

/* The smallest arc containing every vals[i] (truncated to `bits`): the
 * complement of the largest circular gap between them. Empty for n == 0.
 * Returns false only if memory ran out (then *out is the full circle). */
bool cnum_from_set(const uint64_t *vals, size_t n, unsigned bits, struct cnum *out);

#endif
