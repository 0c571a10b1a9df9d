/* width.h — width-generic machine arithmetic for the trackers.
 *
 * Every file under src/tracker/ (except registry.c) is compiled once per
 * register width: RB_BITS = 64 (production: 64-bit register, 32-bit
 * subregister), 32, 16 and 8 (an 8-bit "register" with a 4-bit
 * subregister, small enough to enumerate every concrete value in tests).
 *
 * Values are always carried in uint64_t: an unsigned value is kept
 * truncated to its width, a signed value is kept sign-extended in int64_t.
 * At RB_BITS == 64 every mask below is all-ones and the helpers compile to
 * plain machine arithmetic.
 *
 * Exported functions of width-generic modules get a width suffix through
 * RB_SYM(), so the four builds link into one binary side by side.
 */
#ifndef RB_TRACKER_WIDTH_H
#define RB_TRACKER_WIDTH_H

#include <stdbool.h>
#include <stdint.h>

#ifndef RB_BITS
#error "width-generic tracker code needs -DRB_BITS=64|32|16|8"
#endif
#if RB_BITS != 64 && RB_BITS != 32 && RB_BITS != 16 && RB_BITS != 8
#error "RB_BITS must be 64, 32, 16 or 8"
#endif

#define RB_CAT2(a, b) a##b
#define RB_CAT(a, b) RB_CAT2(a, b)
#define RB_SYM(name) RB_CAT(name, RB_CAT(_w, RB_BITS))

/* full register ("64-bit") and subregister ("32-bit") widths */
#define W_BITS RB_BITS
#define H_BITS (RB_BITS / 2)

#if RB_BITS == 64
#define W_MASK UINT64_MAX
#else
#define W_MASK ((UINT64_C(1) << W_BITS) - 1)
#endif
#define H_MASK ((UINT64_C(1) << H_BITS) - 1)

#define W_UMAX W_MASK
#define W_SMAX ((int64_t)(W_MASK >> 1))
#define W_SMIN (-W_SMAX - 1)
#define H_UMAX H_MASK
#define H_SMAX ((int64_t)(H_MASK >> 1))
#define H_SMIN (-H_SMAX - 1)

/* Scale a BPF size in bits (8/16/32/64) to this width: a "byte" is
 * RB_BITS/8 bits wide, so a 64-bit quantity is always the full register. */
#define W_SCALE(bpf_bits) ((unsigned)(bpf_bits) * RB_BITS / 64)

static inline uint64_t wtrunc(uint64_t x) { return x & W_MASK; }
static inline uint64_t htrunc(uint64_t x) { return x & H_MASK; }

/* sign-extend the low n bits of x (1 <= n <= 64) */
static inline int64_t sext_bits(uint64_t x, unsigned n)
{
	if (n >= 64)
		return (int64_t)x;
	/* the machine's widths as one sign-extending move (n is a constant
	 * wherever it matters; GCC converts to a signed type modulo 2^n) */
	if (n == 32)
		return (int32_t)(uint32_t)x;
	if (n == 16)
		return (int16_t)(uint16_t)x;
	if (n == 8)
		return (int8_t)(uint8_t)x;
	uint64_t m = UINT64_C(1) << (n - 1);
	x &= (UINT64_C(1) << n) - 1;
	return (int64_t)((x ^ m) - m);
}

static inline int64_t wsext(uint64_t x) { return sext_bits(x, W_BITS); }
static inline int64_t hsext(uint64_t x) { return sext_bits(x, H_BITS); }
/* signed view -> stored unsigned bits */
static inline uint64_t wbits(int64_t s) { return wtrunc((uint64_t)s); }
static inline uint64_t hbits(int64_t s) { return htrunc((uint64_t)s); }

/* Overflow-checked arithmetic at the full width (w_) and subregister
 * width (h_). The result is always written (wrapped); the return value
 * tells whether the mathematical result left the range. */
static inline bool w_uadd_ov(uint64_t a, uint64_t b, uint64_t *r)
{
#if RB_BITS == 64
	return __builtin_add_overflow(a, b, r);
#else
	uint64_t s = a + b;
	*r = wtrunc(s);
	return s > W_UMAX;
#endif
}
static inline bool w_usub_ov(uint64_t a, uint64_t b, uint64_t *r)
{
	*r = wtrunc(a - b);
	return a < b;
}
static inline bool w_umul_ov(uint64_t a, uint64_t b, uint64_t *r)
{
#if RB_BITS == 64
	return __builtin_mul_overflow(a, b, r);
#elif RB_BITS == 32
	uint64_t p = a * b;
	*r = wtrunc(p);
	return p > W_UMAX;
#else
	uint64_t p = a * b;
	*r = wtrunc(p);
	return p > W_UMAX;
#endif
}
static inline bool w_sadd_ov(int64_t a, int64_t b, int64_t *r)
{
#if RB_BITS == 64
	return __builtin_add_overflow(a, b, r);
#else
	int64_t s = a + b;
	*r = wsext((uint64_t)s);
	return s < W_SMIN || s > W_SMAX;
#endif
}
static inline bool w_ssub_ov(int64_t a, int64_t b, int64_t *r)
{
#if RB_BITS == 64
	return __builtin_sub_overflow(a, b, r);
#else
	int64_t s = a - b;
	*r = wsext((uint64_t)s);
	return s < W_SMIN || s > W_SMAX;
#endif
}
static inline bool w_smul_ov(int64_t a, int64_t b, int64_t *r)
{
#if RB_BITS == 64
	return __builtin_mul_overflow(a, b, r);
#else
	int64_t p;
	bool ov = __builtin_mul_overflow(a, b, &p);
	*r = wsext((uint64_t)p);
	return ov || p < W_SMIN || p > W_SMAX;
#endif
}
/* subregister width is at most 32 bits: int64 arithmetic never overflows */
static inline bool h_uadd_ov(uint64_t a, uint64_t b, uint64_t *r)
{
	uint64_t s = a + b;
	*r = htrunc(s);
	return s > H_UMAX;
}
static inline bool h_usub_ov(uint64_t a, uint64_t b, uint64_t *r)
{
	*r = htrunc(a - b);
	return a < b;
}
static inline bool h_umul_ov(uint64_t a, uint64_t b, uint64_t *r)
{
	uint64_t p = a * b;
	*r = htrunc(p);
	return p > H_UMAX;
}
static inline bool h_sadd_ov(int64_t a, int64_t b, int64_t *r)
{
	int64_t s = a + b;
	*r = hsext((uint64_t)s);
	return s < H_SMIN || s > H_SMAX;
}
static inline bool h_ssub_ov(int64_t a, int64_t b, int64_t *r)
{
	int64_t s = a - b;
	*r = hsext((uint64_t)s);
	return s < H_SMIN || s > H_SMAX;
}
static inline bool h_smul_ov(int64_t a, int64_t b, int64_t *r)
{
	int64_t p = a * b;
	*r = hsext((uint64_t)p);
	return p < H_SMIN || p > H_SMAX;
}

/* byte swap of the low nbytes "bytes" (each RB_BITS/8 bits wide) */
static inline uint64_t w_bswap(uint64_t x, unsigned nbytes)
{
#if RB_BITS == 64
	switch (nbytes) {
	case 2: return __builtin_bswap16((uint16_t)x);
	case 4: return __builtin_bswap32((uint32_t)x);
	case 8: return __builtin_bswap64(x);
	}
#endif
	const unsigned bb = RB_BITS / 8;
	const uint64_t bm = (UINT64_C(1) << bb) - 1;
	uint64_t r = 0;
	for (unsigned i = 0; i < nbytes; i++)
		r |= ((x >> (i * bb)) & bm) << ((nbytes - 1 - i) * bb);
	return r;
}

#endif
