/* print_bounds.c — a scalar's bounds in the syntax of the Linux 6.18
 * verifier log (kernel/bpf/log.c: print_reg_state for a scalar and
 * print_scalar_ranges), shared by both trackers: the old one prints its
 * own fields, the cnum one the bounds its arcs convert to, so the logs of
 * the two trackers and of the kernel compare character for character.
 *
 * A constant var_off prints as the bare number (the kernel's
 * "R1=5"/"R1=-1"/"R1=0x100000000"). Otherwise the field list inside
 * "scalar(...)": smin, smax, umin, umax, smin32, smax32, umin32, umax32 in
 * that order, each skipped when at its default (unbounded) value; a field
 * carries along every later field of the same kind (min or max) with an
 * equal printed value and the same sign ("smax=umax=smax32=umax32=8");
 * then var_off unless it is fully unknown. Numbers within the 16-bit
 * range print in decimal (is_snum_decimal / is_unum_decimal), others in
 * hex; a 32-bit signed bound printed in hex shows its 32-bit pattern (so
 * it never merges with a sign-extended 64-bit one, and does not count as
 * negative). The decimal/hex thresholds are the kernel's absolute ones at
 * every width.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "tracker/bounds.h"
#include "tracker/tnum.h"

static bool snum_decimal(int64_t s) { return s >= -32768 && s <= 32767; }
static bool unum_decimal(uint64_t u) { return u <= 0xffff; }

struct out {
	char *buf;
	size_t len;
	int n; /* characters that would have been written */
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t used = (size_t)o->n < o->len ? (size_t)o->n : o->len;
	va_start(ap, fmt);
	int k = vsnprintf(o->len ? o->buf + used : NULL, o->len - used, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += k;
}

/* a W-bit pattern read as signed */
static void put_snum(struct out *o, uint64_t v)
{
	int64_t s = wsext(v);
	if (snum_decimal(s))
		put(o, "%" PRId64, s);
	else
		put(o, "0x%" PRIx64, wtrunc(v));
}

static void put_unum(struct out *o, uint64_t v)
{
	if (unum_decimal(v))
		put(o, "%" PRIu64, v);
	else
		put(o, "0x%" PRIx64, v);
}

int rb_print_bounds(const struct rb_bounds *b, char *buf, size_t len)
{
	struct out o = {buf, buf ? len : 0, 0};
	if (o.len)
		buf[0] = 0;

	if (b->var_off.mask == 0) { /* tnum_is_const: verbose_snum(value) */
		put_snum(&o, b->var_off.value);
		return o.n;
	}

	struct field {
		const char *name;
		uint64_t val; /* W-bit pattern as the kernel would pass it */
		bool omit;
		bool is_signed;
	} f[8] = {
		{"smin", wbits(b->smin), b->smin == W_SMIN, true},
		{"smax", wbits(b->smax), b->smax == W_SMAX, true},
		{"umin", b->umin, b->umin == 0, false},
		{"umax", b->umax, b->umax == W_UMAX, false},
		{"smin32", snum_decimal(b->s32_min) ? wbits(b->s32_min) : hbits(b->s32_min),
		 b->s32_min == H_SMIN, true},
		{"smax32", snum_decimal(b->s32_max) ? wbits(b->s32_max) : hbits(b->s32_max),
		 b->s32_max == H_SMAX, true},
		{"umin32", b->u32_min, b->u32_min == 0, false},
		{"umax32", b->u32_max, b->u32_max == H_UMAX, false},
	};
	const char *sep = "";

	for (int i = 0; i < 8; i++) {
		if (f[i].omit)
			continue;
		bool neg1 = f[i].is_signed && wsext(f[i].val) < 0;
		put(&o, "%s%s=", sep, f[i].name);
		sep = ",";
		for (int j = i + 2; j < 8; j += 2) {
			if (f[j].omit || f[j].val != f[i].val)
				continue;
			bool neg2 = f[j].is_signed && wsext(f[j].val) < 0;
			if (neg1 != neg2)
				continue; /* never merge a negative with a positive */
			f[j].omit = true;
			put(&o, "%s=", f[j].name);
		}
		if (f[i].is_signed)
			put_snum(&o, f[i].val);
		else
			put_unum(&o, f[i].val);
	}
	struct tnum t = TNUM_C(b->var_off.value, b->var_off.mask);
	if (!tnum_is_unknown(t)) {
		char s[64];
		tnum_strn(s, sizeof(s), t);
		put(&o, "%svar_off=%s", sep, s);
	}
	return o.n;
}
