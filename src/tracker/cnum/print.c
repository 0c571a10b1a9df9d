/* print.c — the cnum tracker's state in the kernel's log syntax.
 *
 * The arcs are shown through the conversions (the eight min/max values a
 * 6.18 kernel would hold for the same sets), printed with Linux 6.18's
 * print_reg_state()/print_scalar_ranges() rules (kernel/bpf/log.c): a
 * known constant prints as a bare number; otherwise the non-default
 * fields in the order smin,smax,umin,umax,smin32,smax32,umin32,umax32,
 * each later field with the same value and sign merged into the first
 * ("smax=umax=8"), numbers in decimal when within the 16-bit range and in
 * hex otherwise (32-bit signed fields in hex without sign extension),
 * then var_off unless fully unknown. So logs of the two trackers and of
 * the kernel compare character for character.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tracker/cnum/reg.h"

void creg_bounds(const struct creg *r, struct rb_bounds *out)
{
	out->var_off = (struct rb_tnum){r->var_off.value, r->var_off.mask};
	if (cnum_is_empty(r->r64, RW)) { /* inverted bounds: no value */
		out->umin = W_UMAX;
		out->umax = 0;
		out->smin = W_SMAX;
		out->smax = W_SMIN;
	} else {
		out->umin = reg_umin(r);
		out->umax = reg_umax(r);
		out->smin = reg_smin(r);
		out->smax = reg_smax(r);
	}
	if (cnum_is_empty(r->r32, RH)) {
		out->u32_min = H_UMAX;
		out->u32_max = 0;
		out->s32_min = H_SMAX;
		out->s32_max = H_SMIN;
	} else {
		out->u32_min = reg_u32_min(r);
		out->u32_max = reg_u32_max(r);
		out->s32_min = reg_s32_min(r);
		out->s32_max = reg_s32_max(r);
	}
}

/* kernel log.c is_snum_decimal / is_unum_decimal */
static bool snum_decimal(int64_t v) { return v >= INT16_MIN && v <= INT16_MAX; }
static bool unum_decimal(uint64_t v) { return v <= UINT16_MAX; }

struct out {
	char *buf;
	size_t len;
	int n;
};

static void emit(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t used = (size_t)o->n < o->len ? (size_t)o->n : o->len;
	va_start(ap, fmt);
	int k = vsnprintf(o->buf ? o->buf + used : NULL, o->len - used, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += k;
}

int cnum_print_bounds(const struct rb_bounds *b, char *buf, size_t len)
{
	struct out o = {buf, buf ? len : 0, 0};
	if (o.len)
		o.buf[0] = 0;

	if (b->var_off.mask == 0) { /* print_reg_state: verbose_snum(value) */
		int64_t v = wsext(b->var_off.value);
		if (snum_decimal(v))
			emit(&o, "%" PRId64, v);
		else
			emit(&o, "0x%" PRIx64, wtrunc((uint64_t)v));
		return o.n;
	}

	/* Signed fields keep their sign extension only when printed in
	 * decimal (so smin=-2 and smin32=-2 merge). A full-register field
	 * printed in hex still counts as negative for the "don't mix
	 * negatives with positives" rule (the kernel's s64 is), a 32-bit one
	 * does not (the kernel prints it as its u32 bits). */
	struct field {
		const char *name;
		uint64_t val;
		bool omit, neg, sign;
	} f[8] = {
		{"smin", 0, b->smin == W_SMIN, b->smin < 0, true},
		{"smax", 0, b->smax == W_SMAX, b->smax < 0, true},
		{"umin", b->umin, b->umin == 0, false, false},
		{"umax", b->umax, b->umax == W_UMAX, false, false},
		{"smin32", 0, b->s32_min == H_SMIN, b->s32_min < 0, true},
		{"smax32", 0, b->s32_max == H_SMAX, b->s32_max < 0, true},
		{"umin32", b->u32_min, b->u32_min == 0, false, false},
		{"umax32", b->u32_max, b->u32_max == H_UMAX, false, false},
	};
	const int64_t sv[4] = {b->smin, b->smax, b->s32_min, b->s32_max};
	for (int i = 0; i < 4; i++) {
		int k = i < 2 ? i : i + 2;
		if (snum_decimal(sv[i])) {
			f[k].val = (uint64_t)sv[i];
		} else {
			f[k].val = i < 2 ? wbits(sv[i]) : hbits(sv[i]);
			if (i >= 2)
				f[k].neg = false;
		}
	}
	const char *sep = "";

	for (int i = 0; i < 8; i++) {
		if (f[i].omit)
			continue;
		emit(&o, "%s%s=", sep, f[i].name);
		sep = ",";
		/* same value, same sign: "smax=umax=..." */
		for (int j = i + 2; j < 8; j += 2) {
			if (f[j].omit || f[j].val != f[i].val || f[j].neg != f[i].neg)
				continue;
			f[j].omit = true;
			emit(&o, "%s=", f[j].name);
		}
		if (f[i].sign ? snum_decimal((int64_t)f[i].val) : false)
			emit(&o, "%" PRId64, (int64_t)f[i].val);
		else if (!f[i].sign && unum_decimal(f[i].val))
			emit(&o, "%" PRIu64, f[i].val);
		else
			emit(&o, "0x%" PRIx64, f[i].val);
	}
	if (wtrunc(~b->var_off.mask) != 0)
		emit(&o, "%svar_off=(0x%" PRIx64 "; 0x%" PRIx64 ")", sep, b->var_off.value,
		     b->var_off.mask);
	return o.n;
}

int creg_print(const struct creg *r, char *buf, size_t len)
{
	if (creg_violation(r))
		return snprintf(buf, len, "empty");
	struct rb_bounds b;
	creg_bounds(r, &b);
	return cnum_print_bounds(&b, buf, len);
}
