/* inputs.c — concrete input set families for the census. */
#include <stdlib.h>

#include "census/inputs.h"
#include "util/array_size.h"

static uint64_t wmask(unsigned bits) { return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1; }

static bool arc_has(uint64_t base, uint64_t size, uint64_t m, uint64_t x)
{
	return ((x - base) & m) <= size;
}

bool census_set_has(const struct census_set *s, unsigned bits, uint64_t x)
{
	const uint64_t m = wmask(bits), hm = wmask(bits / 2);
	x &= m;
	switch (s->kind) {
	case SK_ARC: return arc_has(s->a, s->b, m, x);
	case SK_TNUM: return (x & ~s->b) == s->a;
	case SK_SUBREG: return arc_has(s->a, s->b, hm, x & hm) && arc_has(s->c, s->d, hm, x >> (bits / 2));
	case SK_UNION: return arc_has(s->a, s->b, m, x) || arc_has(s->c, s->d, m, x);
	default: return false;
	}
}

/* a value with a uniformly chosen bit length, at most max */
static uint64_t logrand(struct rng *r, uint64_t max)
{
	unsigned len = 64 - (unsigned)__builtin_clzll(max | 1);
	unsigned k = (unsigned)rng_below(r, len + 1);
	uint64_t v = k >= 64 ? rng_next(r) : rng_next(r) & ((UINT64_C(1) << k) - 1);
	return v > max ? v % (max + 1) : v;
}

uint64_t census_value(struct rng *r, unsigned bits)
{
	const uint64_t m = wmask(bits);
	const unsigned hb = bits / 2;
	if (rng_below(r, 4))
		return rng_next(r) & m;
	const uint64_t smin = UINT64_C(1) << (bits - 1), hsmin = UINT64_C(1) << (hb - 1);
	const uint64_t special[] = {
		0, m, smin, smin - 1, UINT64_C(1) << hb, (UINT64_C(1) << hb) - 1, hsmin, hsmin - 1,
		(m << (hb - 1)) & m, /* the sign-extended subregister minimum */
	};
	uint64_t v = special[rng_below(r, ARRAY_SIZE(special))];
	int64_t delta = (int64_t)rng_below(r, 7) - 3;
	return (v + (uint64_t)delta) & m;
}

static void arc(struct census_set *s, unsigned fam, uint64_t base, uint64_t size)
{
	s->kind = SK_ARC;
	s->family = (uint8_t)fam;
	s->a = base;
	s->b = size;
}

void census_set_gen(struct rng *r, unsigned fam, unsigned bits, struct census_set *s)
{
	const uint64_t m = wmask(bits), hm = wmask(bits / 2);
	const uint64_t half = UINT64_C(1) << (bits - 1); /* 2^(bits-1) = smin */
	*s = (struct census_set){0};
	switch (fam) {
	case FAM_CONST:
		arc(s, fam, census_value(r, bits), 0);
		return;
	case FAM_SMALL:
		arc(s, fam, census_value(r, bits), 1 + rng_below(r, 16));
		return;
	case FAM_UINT: {
		/* inside [0, smax] or [smin, umax]: no boundary crossed */
		uint64_t size = 17 + logrand(r, half - 18);
		uint64_t base = (rng_below(r, 2) ? half : 0) + rng_below(r, half - size);
		if (rng_below(r, 4) == 0) /* touch an end of the half */
			base = rng_below(r, 2) ? base - base % half : base - base % half + (half - 1 - size);
		arc(s, fam, base & m, size);
		return;
	}
	case FAM_SCROSS: {
		uint64_t k1 = 1 + logrand(r, half - 1), k2 = logrand(r, half - 1);
		arc(s, fam, (half - k1) & m, k1 + k2);
		return;
	}
	case FAM_UWRAP: {
		uint64_t k1 = 1 + logrand(r, half - 1), k2 = logrand(r, half - 1);
		arc(s, fam, (0 - k1) & m, (k1 + k2) & m);
		return;
	}
	case FAM_BOTH: {
		if (rng_below(r, 16) == 0) {
			arc(s, fam, census_value(r, bits), m); /* everything */
			return;
		}
		uint64_t j = 1 + logrand(r, half - 2);
		if (rng_below(r, 2))
			j = half - 1 - logrand(r, half - 2);
		uint64_t base = (half + j) & m;
		uint64_t end = (half + rng_below(r, j)) & m;
		arc(s, fam, base, (end - base) & m);
		return;
	}
	case FAM_TNUM: {
		uint64_t mask;
		switch (rng_below(r, 6)) {
		case 0: mask = rng_next(r) & rng_next(r) & rng_next(r); break;
		case 1: mask = rng_next(r) | rng_next(r); break;
		case 2: mask = (UINT64_C(1) << rng_below(r, bits)) - 1; break;
		case 3: mask = ((UINT64_C(1) << (1 + rng_below(r, bits / 2))) - 1) << rng_below(r, bits / 2); break;
		case 4: mask = UINT64_C(1) << rng_below(r, bits); break;
		default: mask = rng_next(r); break;
		}
		mask &= m;
		s->kind = SK_TNUM;
		s->family = (uint8_t)fam;
		s->a = census_value(r, bits) & ~mask;
		s->b = mask;
		return;
	}
	case FAM_SUBREG: {
		s->kind = SK_SUBREG;
		s->family = (uint8_t)fam;
		s->a = census_value(r, bits / 2) & hm;
		s->b = logrand(r, hm);
		switch (rng_below(r, 3)) {
		case 0: s->c = 0; s->d = hm; break;
		case 1: s->c = census_value(r, bits / 2) & hm; s->d = 0; break;
		default: s->c = census_value(r, bits / 2) & hm; s->d = logrand(r, hm); break;
		}
		return;
	}
	case FAM_UNION:
		s->kind = SK_UNION;
		s->family = (uint8_t)fam;
		s->a = census_value(r, bits);
		s->b = logrand(r, m >> 1);
		s->c = census_value(r, bits);
		s->d = logrand(r, m >> 1);
		return;
	case FAM_FEW:
	case FAM_DENSE:
	default:
		s->kind = SK_RANDOM;
		s->family = (uint8_t)(fam == FAM_DENSE ? FAM_DENSE : FAM_FEW);
		s->n = (uint32_t)(fam == FAM_DENSE ? 16 + rng_below(r, bits <= 8 ? 185 : 49) : 2 + rng_below(r, 7));
		s->a = census_value(r, bits);
		s->b = logrand(r, m);
		s->c = rng_next(r);
		return;
	}
}

unsigned census_family_pick(struct rng *r)
{
	/* weights in percent, FAM_CONST .. FAM_DENSE */
	static const unsigned char w[FAM_COUNT] = {10, 12, 10, 8, 8, 6, 14, 12, 10, 6, 4};
	unsigned x = (unsigned)rng_below(r, 100);
	for (unsigned f = 0; f < FAM_COUNT; f++) {
		if (x < w[f])
			return f;
		x -= w[f];
	}
	return FAM_CONST;
}

static unsigned random_members(const struct census_set *s, unsigned bits, uint64_t *out, unsigned max)
{
	struct rng g = {s->c};
	const uint64_t m = wmask(bits);
	unsigned n = 0;
	for (uint32_t i = 0; i < s->n && n < max; i++) {
		uint64_t v = (i & 1) ? census_value(&g, bits)
				     : (s->a + (s->b == m ? rng_next(&g) : rng_below(&g, s->b + 1))) & m;
		out[n++] = v;
	}
	return n;
}

/* the members of arc (base, size) of the 8-bit circle, set word by word */
static void arc_bits8(bm256 *out, uint64_t base, uint64_t size)
{
	unsigned lo = (unsigned)(base & 0xff), n = size >= 255 ? 256 : (unsigned)size + 1;
	for (unsigned w = 0; w < 4; w++) {
		/* the arc's part in w's 64 values: lo..lo+n-1 and, wrapped, 0..lo+n-257 */
		for (unsigned k = 0; k < 2; k++) {
			int a = k ? -256 + (int)lo : (int)lo, b = a + (int)n; /* [a, b) */
			int wa = a > (int)w * 64 ? a - (int)w * 64 : 0, wb = b < (int)w * 64 + 64 ? b - (int)w * 64 : 64;
			if (wa < wb)
				out->w[w] |= (wb - wa == 64 ? UINT64_MAX : ((UINT64_C(1) << (wb - wa)) - 1) << wa);
		}
	}
}

void census_set_bitmap8(const struct census_set *s, bm256 *out)
{
	bm_clear(out);
	switch (s->kind) {
	case SK_RANDOM: {
		uint64_t v[256];
		unsigned n = random_members(s, 8, v, 256);
		for (unsigned i = 0; i < n; i++)
			bm_set(out, (unsigned)v[i]);
		return;
	}
	/* census_set_has's members, built without asking it 256 times (the
	 * pool of ~100k sets is made per width-8 census) */
	case SK_ARC:
		arc_bits8(out, s->a, s->b);
		return;
	case SK_UNION:
		arc_bits8(out, s->a, s->b);
		arc_bits8(out, s->c, s->d);
		return;
	case SK_TNUM: {
		uint64_t mask = s->b & 0xff;
		if (s->a & ~(~s->b & 0xff))
			return; /* (x & ~b) == a has no 8-bit solution */
		for (uint64_t sub = mask;; sub = (sub - 1) & mask) { /* every submask */
			bm_set(out, (unsigned)(s->a | sub));
			if (!sub)
				break;
		}
		return;
	}
	case SK_SUBREG: {
		/* low nibble in arc (a, b), high nibble in arc (c, d), of 16 values */
		uint64_t low = 0;
		for (unsigned l = 0; l < 16; l++)
			if (arc_has(s->a, s->b, 15, l))
				low |= UINT64_C(1) << l;
		for (unsigned h = 0; h < 16; h++)
			if (arc_has(s->c, s->d, 15, h))
				out->w[h / 4] |= low << (16 * (h % 4));
		return;
	}
	default:
		for (unsigned x = 0; x < 256; x++)
			if (census_set_has(s, 8, x))
				bm_set(out, x);
	}
}

/* members of one arc: ends, neighbours, boundary points inside, random */
static unsigned arc_sample(uint64_t base, uint64_t size, unsigned bits, struct rng *r, uint64_t *out,
			   unsigned max)
{
	const uint64_t m = wmask(bits);
	unsigned n = 0;
#define PUT(v) do { if (n < max) out[n++] = (v) & m; } while (0)
	PUT(base);
	PUT(base + size);
	if (size >= 2) {
		PUT(base + 1);
		PUT(base + size - 1);
		PUT(base + size / 2);
	}
	const uint64_t half = UINT64_C(1) << (bits - 1);
	const uint64_t pts[] = {0, m, half, half - 1, UINT64_C(1) << (bits / 2), (UINT64_C(1) << (bits / 2)) - 1};
	for (size_t i = 0; i < ARRAY_SIZE(pts); i++)
		if (arc_has(base, size, m, pts[i]))
			PUT(pts[i]);
	while (n < max && size >= 2)
		PUT(base + (size == m ? rng_next(r) : rng_below(r, size + 1)));
#undef PUT
	return n;
}

unsigned census_set_sample(const struct census_set *s, unsigned bits, struct rng *r, uint64_t *out,
			   unsigned max)
{
	const uint64_t m = wmask(bits), hm = wmask(bits / 2);
	switch (s->kind) {
	case SK_ARC:
		return arc_sample(s->a, s->b, bits, r, out, max);
	case SK_TNUM: {
		unsigned n = 0;
		out[n++] = s->a;
		if (s->b && n < max)
			out[n++] = s->a | s->b;
		while (n < max && s->b) {
			uint64_t x = rng_below(r, 3) ? rng_next(r) : UINT64_C(1) << rng_below(r, bits);
			out[n++] = s->a | (x & s->b);
		}
		return n;
	}
	case SK_SUBREG: {
		uint64_t lo[16], hi[16];
		unsigned nl = arc_sample(s->a, s->b, bits / 2, r, lo, 16);
		unsigned nh = arc_sample(s->c, s->d, bits / 2, r, hi, 16);
		unsigned n = 0;
		for (unsigned i = 0; i < nl && n < max; i++)
			out[n++] = ((hi[i % nh] << (bits / 2)) | (lo[i] & hm)) & m;
		for (unsigned i = 0; i < nh && n < max; i++)
			out[n++] = ((hi[i] << (bits / 2)) | (lo[(i + 1) % nl] & hm)) & m;
		return n;
	}
	case SK_UNION: {
		unsigned n = arc_sample(s->a, s->b, bits, r, out, max / 2);
		return n + arc_sample(s->c, s->d, bits, r, out + n, max - n);
	}
	default:
		return random_members(s, bits, out, max);
	}
}

struct census_set *census_sets8(uint64_t seed, size_t *np)
{
	const size_t n_union = 8000, n_few = 4000, n_dense = 2000;
	size_t cap = 65536 + 6561 + 256 * 65 + n_union + n_few + n_dense, n = 0;
	struct census_set *v = calloc(cap, sizeof(*v));
	if (!v)
		return NULL;
	/* every arc of the 8-bit circle: constants, intervals, intervals
	 * crossing the signed or the unsigned boundary (or both) */
	for (unsigned size = 0; size < 256; size++)
		for (unsigned base = 0; base < 256; base++) {
			unsigned fam;
			bool sx = size && ((0x80 - base) & 0xff) >= 1 && ((0x80 - base) & 0xff) <= size;
			bool ux = size && ((0x100 - base) & 0xff) >= 1 && ((0x100 - base) & 0xff) <= size;
			if (size == 0)
				fam = FAM_CONST;
			else if (size <= 16)
				fam = FAM_SMALL;
			else if (sx && ux)
				fam = FAM_BOTH;
			else if (sx)
				fam = FAM_SCROSS;
			else if (ux)
				fam = FAM_UWRAP;
			else
				fam = FAM_UINT;
			arc(&v[n++], fam, base, size);
		}
	/* every tnum */
	for (unsigned mask = 0; mask < 256; mask++)
		for (unsigned val = 0; val < 256; val++)
			if (!(val & mask)) {
				v[n] = (struct census_set){.kind = SK_TNUM, .family = FAM_TNUM, .a = val, .b = mask};
				n++;
			}
	/* low nibble in any 4-bit arc; high nibble anything, one value, or
	 * an arc of 2, 4 or 8 values */
	for (unsigned lb = 0; lb < 16; lb++)
		for (unsigned ls = 0; ls < 16; ls++) {
			struct census_set s = {.kind = SK_SUBREG, .family = FAM_SUBREG, .a = lb, .b = ls};
			s.c = 0, s.d = 15;
			v[n++] = s;
			for (unsigned h = 0; h < 16; h++) {
				s.c = h, s.d = 0;
				v[n++] = s;
				for (unsigned d = 1; d <= 7; d = d * 2 + 1) {
					s.c = h, s.d = d;
					v[n++] = s;
				}
			}
		}
	struct rng r = rng_seed(seed, 0x5e75, 8);
	for (size_t i = 0; i < n_union; i++)
		census_set_gen(&r, FAM_UNION, 8, &v[n++]);
	for (size_t i = 0; i < n_few; i++)
		census_set_gen(&r, FAM_FEW, 8, &v[n++]);
	for (size_t i = 0; i < n_dense; i++)
		census_set_gen(&r, FAM_DENSE, 8, &v[n++]);
	*np = n;
	return v;
}
