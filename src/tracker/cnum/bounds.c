/* bounds.c — the cnum tracker's state as the kernel's eight bounds, and
 * printed through them.
 *
 * The arcs are shown through the conversions (mainline reg_umin() etc.:
 * the eight min/max values a 6.18 kernel would hold for the same sets).
 * Printing is the shared Linux 6.18 log syntax (rb_print_bounds,
 * print_bounds.c), so logs of the two trackers and of the kernel compare
 * character for character; a state with an empty arc prints "empty".
 */
#include <stdio.h>

#include "tracker/bounds.h"
#include "tracker/cnum/reg.h"

void creg_bounds(const struct creg *r, struct rb_bounds *out)
{
	creg_conv_bounds(r, true, true, out);
	if (cnum_is_empty(r->r64, RW)) { /* inverted bounds: no value */
		out->umin = W_UMAX;
		out->umax = 0;
		out->smin = W_SMAX;
		out->smax = W_SMIN;
	}
	if (cnum_is_empty(r->r32, RH)) {
		out->u32_min = H_UMAX;
		out->u32_max = 0;
		out->s32_min = H_SMAX;
		out->s32_max = H_SMIN;
	}
}

int creg_print(const struct creg *r, char *buf, size_t len)
{
	if (creg_violation(r))
		return snprintf(buf, len, "empty");
	struct rb_bounds b;
	creg_bounds(r, &b);
	return rb_print_bounds(&b, buf, len);
}
