/* tnum.h — tristate numbers ("var_off"), width-generic.
 *
 * A tnum describes the set of values whose bits agree with `value` at every
 * position where `mask` is 0; bits set in `mask` are unknown. Invariant:
 * value & mask == 0. Everything is truncated to the tracker width W_BITS
 * (see width.h); the "subregister" is the low H_BITS.
 *
 * The operations reproduce kernel/bpf/tnum.c of the running 6.18.44
 * stable kernel (written anew from its description; same algorithms, so
 * results match bit for bit at 64 bits; tnum_mul is the union-based
 * multiplication that kernel carries, checked against its logs). Shared
 * by the old and cnum trackers.
 */
#ifndef RB_TRACKER_TNUM_H
#define RB_TRACKER_TNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracker/width.h"

struct tnum {
	uint64_t value;
	uint64_t mask;
};

#define TNUM_C(v, m) ((struct tnum){.value = (v), .mask = (m)})

#define tnum_unknown RB_SYM(tnum_unknown)
#define tnum_const RB_SYM(tnum_const)
#define tnum_range RB_SYM(tnum_range)
#define tnum_lshift RB_SYM(tnum_lshift)
#define tnum_rshift RB_SYM(tnum_rshift)
#define tnum_arshift RB_SYM(tnum_arshift)
#define tnum_add RB_SYM(tnum_add)
#define tnum_sub RB_SYM(tnum_sub)
#define tnum_neg RB_SYM(tnum_neg)
#define tnum_and RB_SYM(tnum_and)
#define tnum_or RB_SYM(tnum_or)
#define tnum_xor RB_SYM(tnum_xor)
#define tnum_mul RB_SYM(tnum_mul)
#define tnum_mul_ref RB_SYM(tnum_mul_ref)
#define tnum_intersect RB_SYM(tnum_intersect)
#define tnum_union RB_SYM(tnum_union)
#define tnum_cast RB_SYM(tnum_cast)
#define tnum_cast_bits RB_SYM(tnum_cast_bits)
#define tnum_is_aligned RB_SYM(tnum_is_aligned)
#define tnum_in RB_SYM(tnum_in)
#define tnum_contains RB_SYM(tnum_contains)
#define tnum_subreg RB_SYM(tnum_subreg)
#define tnum_clear_subreg RB_SYM(tnum_clear_subreg)
#define tnum_with_subreg RB_SYM(tnum_with_subreg)
#define tnum_const_subreg RB_SYM(tnum_const_subreg)
#define tnum_bswap RB_SYM(tnum_bswap)
#define tnum_from_set RB_SYM(tnum_from_set)
#define tnum_strn RB_SYM(tnum_strn)
#define tnum_sbin RB_SYM(tnum_sbin)
#define tnum_overlap RB_SYM(tnum_overlap)
#define tnum_step RB_SYM(tnum_step)

/* every value of the width */
struct tnum tnum_unknown(void);
/* exactly one value */
static inline struct tnum tnum_const(uint64_t value) { return TNUM_C(wtrunc(value), 0); }
/* smallest tnum covering the unsigned range [min, max] (as the kernel
 * computes it: common high bits known, everything below them unknown) */
static inline struct tnum tnum_range(uint64_t min, uint64_t max)
{
	uint64_t chi = wtrunc(min ^ max);
	unsigned bits = chi ? 64 - (unsigned)__builtin_clzll(chi) : 0;

	/* every bit from the highest differing one down is unknown */
	if (bits >= W_BITS)
		return TNUM_C(0, W_MASK);
	uint64_t delta = (UINT64_C(1) << bits) - 1;
	return TNUM_C(wtrunc(min & ~delta), delta);
}

/* shifts by a constant amount (shift < W_BITS) */
struct tnum tnum_lshift(struct tnum a, unsigned shift);
struct tnum tnum_rshift(struct tnum a, unsigned shift);
/* arithmetic right shift of a value of `bits` bits (W_BITS or H_BITS,
 * i.e. the kernel's insn_bitness 64/32); result truncated to `bits` */
struct tnum tnum_arshift(struct tnum a, unsigned min_shift, unsigned bits);

struct tnum tnum_add(struct tnum a, struct tnum b);
struct tnum tnum_sub(struct tnum a, struct tnum b);
/* 0 - a */
struct tnum tnum_neg(struct tnum a);
struct tnum tnum_and(struct tnum a, struct tnum b);
static inline struct tnum tnum_or(struct tnum a, struct tnum b)
{
	uint64_t v = a.value | b.value;
	uint64_t mu = a.mask | b.mask;
	return TNUM_C(wtrunc(v), wtrunc(mu & ~v));
}
struct tnum tnum_xor(struct tnum a, struct tnum b);
/* the running 6.18.44 kernel's multiplication (bit-serial partial
 * products, an uncertain bit taking the union of both sums; sound) */
struct tnum tnum_mul(struct tnum a, struct tnum b);
/* the same, every step of 6.18.44's loop (tnum_mul stops early) */
struct tnum tnum_mul_ref(struct tnum a, struct tnum b);

/* values in both a and b (the kernel's variant: where a and b disagree
 * on a known bit the result claims a known 1; callers that care must
 * check for emptiness themselves) */
static inline struct tnum tnum_intersect(struct tnum a, struct tnum b)
{
	uint64_t v = a.value | b.value;
	uint64_t mu = a.mask & b.mask;
	return TNUM_C(wtrunc(v & ~mu), wtrunc(mu));
}
/* smallest tnum containing every value of a and of b */
struct tnum tnum_union(struct tnum a, struct tnum b);

/* keep the low `size` BPF bytes (1/2/4/8, scaled by W_SCALE) */
struct tnum tnum_cast(struct tnum a, unsigned size);
/* keep the low n bits (n in this width's bits, 1..W_BITS) */
static inline struct tnum tnum_cast_bits(struct tnum a, unsigned n)
{
	if (n >= W_BITS)
		return TNUM_C(wtrunc(a.value), wtrunc(a.mask));
	uint64_t m = (UINT64_C(1) << n) - 1;
	return TNUM_C(a.value & m, a.mask & m);
}
bool tnum_is_aligned(struct tnum a, uint64_t size);

/* is every value of b also in a? */
bool tnum_in(struct tnum a, struct tnum b);
/* is x one of a's values? */
static inline bool tnum_contains(struct tnum a, uint64_t x)
{
	return (wtrunc(x) & ~a.mask) == a.value;
}

/* low H_BITS of a */
static inline struct tnum tnum_subreg(struct tnum a)
{
	return TNUM_C(a.value & H_MASK, a.mask & H_MASK);
}
/* a with its low H_BITS known zero (a shifted right by H_BITS and back) */
static inline struct tnum tnum_clear_subreg(struct tnum a)
{
	return TNUM_C(a.value & W_MASK & ~H_MASK, a.mask & W_MASK & ~H_MASK);
}
/* high part of reg, low H_BITS of subreg */
struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg);
/* high part of a, low H_BITS the constant value */
struct tnum tnum_const_subreg(struct tnum a, uint64_t value);

/* byte swap of the low nbytes BPF bytes (2/4/8) of a, bitwise exact */
struct tnum tnum_bswap(struct tnum a, unsigned nbytes);

/* smallest tnum containing every vals[i] (n > 0) */
struct tnum tnum_from_set(const uint64_t *vals, size_t n);

/* "(0x<value>; 0x<mask>)" as the kernel log prints it; snprintf rules */
int tnum_strn(char *str, size_t size, struct tnum a);
/* W_BITS characters of 0/1/x, most significant first; snprintf rules */
int tnum_sbin(char *str, size_t size, struct tnum a);

/* Added for the cnum tracker (mainline after 6.18; see the end of tnum.c):
 * do a and b have a value in common? */
bool tnum_overlap(struct tnum a, struct tnum b);
/* the smallest value of t greater than z; t's largest value if there is
 * none, t's smallest if z is below it (mainline tnum_step).
 * Every member of t is t.value + s for a submask s of t.mask; find the
 * least submask s > d = z - t.value. If d has a 1 outside the mask, at
 * bit k the highest such, no submask agreeing with d above k can exceed
 * d, so fill d's bits 0..k and every non-mask bit with ones before adding
 * one: the carry then ripples through to the next mask bit. */
static inline uint64_t tnum_step(struct tnum t, uint64_t z)
{
	uint64_t tmax = t.value | t.mask;

	z = wtrunc(z);
	if (z >= tmax)
		return tmax;
	if (z < t.value)
		return t.value;
	uint64_t d = z - t.value;
	uint64_t outside = d & ~t.mask;
	uint64_t below = 0;
	if (outside) {
		unsigned k = 63 - (unsigned)__builtin_clzll(outside);
		below = k >= 63 ? UINT64_MAX : (UINT64_C(2) << k) - 1;
	}
	uint64_t filled = d | below | ~t.mask;
	return t.value | ((filled + 1) & t.mask);
}

static inline bool tnum_is_const(struct tnum a) { return a.mask == 0; }
static inline bool tnum_equals_const(struct tnum a, uint64_t b)
{
	return a.mask == 0 && a.value == wtrunc(b);
}
static inline bool tnum_is_unknown(struct tnum a) { return wtrunc(~a.mask) == 0; }
static inline bool tnum_equal(struct tnum a, struct tnum b)
{
	return a.value == b.value && a.mask == b.mask;
}
/* smallest / largest unsigned member */
static inline uint64_t tnum_umin(struct tnum a) { return a.value; }
static inline uint64_t tnum_umax(struct tnum a) { return a.value | a.mask; }

#endif
