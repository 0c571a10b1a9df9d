/* bounds.h — logic both trackers share over the kernel's view of a scalar
 * (struct rb_bounds: the eight min/max bounds plus var_off, tracker.h).
 *
 * The old tracker holds these bounds directly; the cnum tracker derives
 * them from its arcs through the conversions (mainline reg_umin() etc.).
 * Where Linux 6.18 and mainline's cnum code do the same thing with those
 * values, one width-generic implementation here serves both:
 *   rb_print_bounds           the verifier log's field list (log.c of 6.18)
 *   rb_tnum_refine_*          regs_refine_cond_op()'s work on var_off
 *   rb_tnum_single_in_urange  __update_reg64_bounds()'s one-common-value test
 * and, inline in branch_taken.h, is_scalar_branch_taken()'s range and
 * tnum tests (rb_bounds_branch_taken).
 * Internal to src/tracker/; symbols carry the width suffix (RB_SYM).
 */
#ifndef RB_TRACKER_BOUNDS_H
#define RB_TRACKER_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracker/tnum.h"
#include "tracker/tracker.h"
#include "tracker/width.h"

#define rb_print_bounds RB_SYM(rb_print_bounds)
#define rb_tnum_refine_eq RB_SYM(rb_tnum_refine_eq)
#define rb_tnum_refine_jset RB_SYM(rb_tnum_refine_jset)
#define rb_tnum_refine_jset_false RB_SYM(rb_tnum_refine_jset_false)

/* Linux 6.18 print_reg_state()/print_scalar_ranges() (kernel/bpf/log.c)
 * for a scalar: a constant var_off as the bare number, otherwise the
 * field list "smin=...,smax=umax=...,var_off=(...)"; snprintf conventions
 * (buf may be NULL when len is 0). See print_bounds.c. */
int rb_print_bounds(const struct rb_bounds *b, char *buf, size_t len);

/* regs_refine_cond_op() on var_off, the same in Linux 6.18 and mainline
 * (tnum_refine.c); is32 works on the subregister halves only:
 * JEQ: both var_offs become their intersection */
void rb_tnum_refine_eq(struct tnum *a, struct tnum *b, bool is32);
/* JSET against the constant val: a single-bit val is known set in t */
struct tnum rb_tnum_refine_jset(struct tnum t, uint64_t val, bool is32);
/* JSET false against the constant val: the bits of val are known clear */
struct tnum rb_tnum_refine_jset_false(struct tnum t, uint64_t val, bool is32);

/* Do the unsigned range [umin, umax] and t share exactly one value? Then
 * return true with *c that value. The test __update_reg64_bounds() makes
 * with tnum_step() (6.18.44 stable and mainline, from 2026): the only
 * common value is umin, or t's largest member, or the one member strictly
 * inside. */
static inline bool rb_tnum_single_in_urange_steps(struct tnum t, uint64_t umin, uint64_t umax, uint64_t *c)
{
	uint64_t tmax = t.value | t.mask;
	uint64_t next = tnum_step(t, umin);
	bool umin_in = tnum_contains(t, umin);

	if (umin_in && next > umax)
		*c = umin; /* only umin is in both */
	else if (!umin_in && next == tmax)
		*c = tmax; /* only the tnum's maximum can be */
	else if (!umin_in && next <= umax && tnum_step(t, next) > umax)
		*c = next; /* exactly one member strictly inside */
	else
		return false;
	return true;
}

/* The same answer, inline for every bounds sync: when both ends are
 * members of t they are two common values, and the steps would answer
 * false (test_old_sync compares the two on every such 8-bit case). */
static inline bool rb_tnum_single_in_urange(struct tnum t, uint64_t umin, uint64_t umax, uint64_t *c)
{
	if (umin < umax && tnum_contains(t, umin) && tnum_contains(t, umax))
		return false;
	return rb_tnum_single_in_urange_steps(t, umin, umax, c);
}

#endif
