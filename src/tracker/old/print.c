/* old/print.c — the old tracker's state in the syntax of the Linux 6.18
 * verifier log (kernel/bpf/log.c: print_reg_state for a scalar and
 * print_scalar_ranges).
 *
 * A constant var_off prints as the bare number (the kernel's
 * "R1=5"/"R1=-1"/"R1=0x100000000"). Otherwise the field list inside
 * "scalar(...)": smin, smax, umin, umax, smin32, smax32, umin32, umax32 in
 * that order, each skipped when at its default (unbounded) value; a field
 * carries along every later field of the same kind (min or max) with an
 * equal printed value and the same sign ("smax=umax=smax32=umax32=8");
 * then var_off unless it is fully unknown. Numbers within the 16-bit
 * range print in decimal, others in hex; a 32-bit signed bound printed in
 * hex shows its 32-bit pattern (so it never merges with a sign-extended
 * 64-bit one). The decimal/hex thresholds are the kernel's absolute ones
 * at every width.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "tracker/old/repr.h"

struct field {
	const char *name;
	uint64_t val; /* W-bit pattern as the kernel would pass it */
	bool omit;
	bool is_signed;
};

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
	size_t used = (size_t)o->n;
	va_start(ap, fmt);
	int k = vsnprintf(used < o->len ? o->buf + used : NULL, used < o->len ? o->len - used : 0,
			  fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += k;
}

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

int old_print(const struct old_reg *r, char *buf, size_t len)
{
	struct out o = {buf, len, 0};
	if (len)
		buf[0] = 0;

	if (tnum_is_const(r->var_off)) {
		put_snum(&o, r->var_off.value);
		return o.n;
	}

	int64_t s32min = r->s32_min, s32max = r->s32_max;
	struct field f[8] = {
		{"smin", wbits(r->smin), r->smin == W_SMIN, true},
		{"smax", wbits(r->smax), r->smax == W_SMAX, true},
		{"umin", r->umin, r->umin == 0, false},
		{"umax", r->umax, r->umax == W_UMAX, false},
		{"smin32", snum_decimal(s32min) ? wbits(s32min) : hbits(s32min), s32min == H_SMIN, true},
		{"smax32", snum_decimal(s32max) ? wbits(s32max) : hbits(s32max), s32max == H_SMAX, true},
		{"umin32", r->u32_min, r->u32_min == 0, false},
		{"umax32", r->u32_max, r->u32_max == H_UMAX, false},
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
	if (!tnum_is_unknown(r->var_off)) {
		char t[64];
		tnum_strn(t, sizeof(t), r->var_off);
		put(&o, "%svar_off=%s", sep, t);
	}
	return o.n;
}
