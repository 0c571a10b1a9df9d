/* old/tracker.c — the "old" tracker (Linux 6.18 scalar bounds) behind the
 * tracker interface: construction, queries, set operations and the
 * vtable. The transfer functions live in alu.c and branch.c, the bounds
 * sync in sync.c; printing is the shared rb_print_bounds (print_bounds.c).
 *
 * The reference is the running kernel, 6.18.44 stable, whose verifier
 * carries mainline changes from after 6.18.0; all of these were measured
 * on it (log level 2 states of tiny programs, then `rangebench opdiff`):
 *   - three __reg_deduce_bounds rounds per sync; the s64 and s32
 *     "crosses the sign boundary" deductions; a u64 range and var_off
 *     with a single common value make a constant;
 *   - JEQ/JNE decided by disagreeing known bits (tnum_overlap);
 *   - BPF_END tracked through var_off (scalar_byte_swap);
 *   - tnum_mul as bit-serial partial products summed with tnum_add;
 *   - sign extension (MOVSX64, LDSX) from the s32 range when it fits;
 *   - <<32 maps the s32 range to s64 for either sign;
 *   - a refinement breaking the bounds invariants resets that
 *     register's bounds and the outcome is still explored;
 *   - AND/OR with a constant into s[-1, 0] forks the path in the kernel:
 *     not reproduced (see alu.c).
 */
#include <linux/bpf.h>
#include <string.h>

#include "tracker/bounds.h"
#include "tracker/old/repr.h"

#define old_vtable RB_SYM(rb_old_tracker)
extern const struct rb_concrete RB_SYM(rb_concrete);
extern const struct rb_tracker old_vtable;

static void t_unknown(rb_val *v)
{
	memset(v, 0, sizeof(*v));
	old_mark_unknown(old_of(v));
}

static void t_constant(rb_val *v, uint64_t c)
{
	memset(v, 0, sizeof(*v));
	old_mark_known(old_of(v), c);
}

static void t_from_fields(rb_val *v, const struct rb_bounds *b)
{
	struct old_reg *r;
	t_unknown(v);
	r = old_of(v);
	r->umin = wtrunc(b->umin);
	r->umax = wtrunc(b->umax);
	r->smin = wsext((uint64_t)b->smin);
	r->smax = wsext((uint64_t)b->smax);
	set_u32(&r->u32_min, b->u32_min);
	set_u32(&r->u32_max, b->u32_max);
	set_s32(&r->s32_min, hsext((uint64_t)b->s32_min));
	set_s32(&r->s32_max, hsext((uint64_t)b->s32_max));
	r->var_off.value = wtrunc(b->var_off.value & ~b->var_off.mask);
	r->var_off.mask = wtrunc(b->var_off.mask);
}

static void t_from_bounds(rb_val *v, const struct rb_bounds *b)
{
	t_from_fields(v, b);
	old_bounds_sync(old_of(v));
}

static void t_from_set(rb_val *v, const uint64_t *vals, size_t n)
{
	struct old_reg *r;
	memset(v, 0, sizeof(*v));
	r = old_of(v);
	if (n == 0) {
		/* empty: an inverted range */
		old_mark_unknown(r);
		r->umin = W_UMAX;
		r->umax = 0;
		return;
	}
	uint64_t x = wtrunc(vals[0]);
	r->umin = r->umax = x;
	r->smin = r->smax = wsext(x);
	uint64_t u32lo = htrunc(x), u32hi = htrunc(x);
	int64_t s32lo = hsext(x), s32hi = hsext(x);
	for (size_t i = 1; i < n; i++) {
		x = wtrunc(vals[i]);
		r->umin = umin64(r->umin, x);
		r->umax = umax64(r->umax, x);
		r->smin = smin64(r->smin, wsext(x));
		r->smax = smax64(r->smax, wsext(x));
		u32lo = umin64(u32lo, htrunc(x));
		u32hi = umax64(u32hi, htrunc(x));
		s32lo = smin64(s32lo, hsext(x));
		s32hi = smax64(s32hi, hsext(x));
	}
	set_u32(&r->u32_min, u32lo);
	set_u32(&r->u32_max, u32hi);
	set_s32(&r->s32_min, s32lo);
	set_s32(&r->s32_max, s32hi);
	r->var_off = tnum_from_set(vals, n);
}

static void t_bounds(const rb_val *v, struct rb_bounds *out)
{
	old_to_bounds(old_cof(v), out);
}

static bool t_contains(const rb_val *v, uint64_t x)
{
	const struct old_reg *r = old_cof(v);
	x = wtrunc(x);
	int64_t s = wsext(x), s32 = hsext(x);
	uint64_t u32 = htrunc(x);
	return tnum_contains(r->var_off, x) && r->umin <= x && x <= r->umax && r->smin <= s &&
	       s <= r->smax && r->u32_min <= u32 && u32 <= r->u32_max && r->s32_min <= s32 &&
	       s32 <= r->s32_max;
}

static bool t_is_const(const rb_val *v)
{
	return tnum_is_const(old_cof(v)->var_off);
}

static bool t_is_empty(const rb_val *v)
{
	const struct old_reg *r = old_cof(v);
	struct tnum t32 = tnum_subreg(r->var_off);
	return old_range_violation(r) || tnum_umin(r->var_off) > r->umax ||
	       tnum_umax(r->var_off) < r->umin || tnum_umin(t32) > r->u32_max ||
	       tnum_umax(t32) < r->u32_min;
}

static bool t_equal(const rb_val *a, const rb_val *b)
{
	const struct old_reg *x = old_cof(a), *y = old_cof(b);
	return tnum_equal(x->var_off, y->var_off) && x->smin == y->smin && x->smax == y->smax &&
	       x->umin == y->umin && x->umax == y->umax && x->s32_min == y->s32_min &&
	       x->s32_max == y->s32_max && x->u32_min == y->u32_min && x->u32_max == y->u32_max;
}

/* regsafe() for two scalars: range_within() && tnum_in() */
static bool t_is_subset(const rb_val *old, const rb_val *cur)
{
	const struct old_reg *o = old_cof(old), *c = old_cof(cur);
	return o->umin <= c->umin && o->umax >= c->umax && o->smin <= c->smin &&
	       o->smax >= c->smax && o->u32_min <= c->u32_min && o->u32_max >= c->u32_max &&
	       o->s32_min <= c->s32_min && o->s32_max >= c->s32_max &&
	       tnum_in(o->var_off, c->var_off);
}

/* the 6.18 log's field list, printed from the fields as they are */
static int t_print(const rb_val *v, char *buf, size_t len)
{
	struct rb_bounds b;
	old_to_bounds(old_cof(v), &b);
	return rb_print_bounds(&b, buf, len);
}

static void t_alu(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	old_alu(old_of(dst), old_cof(src), op);
}

static void t_truncate(rb_val *v, unsigned size_bits, bool sext)
{
	if (sext)
		old_coerce_to_size_sx(old_of(v), size_bits / 8);
	else
		old_coerce_to_size(old_of(v), size_bits / 8);
}

static int t_branch_taken(const rb_val *a, const rb_val *b, uint8_t jop, bool is32)
{
	return old_branch_taken(old_cof(a), old_cof(b), jop, is32);
}

static bool t_branch_refine(rb_val *a, rb_val *b, uint8_t jop, bool is32)
{
	return old_branch_refine(old_of(a), old_of(b), jop, is32);
}

static bool t_branch_refine_report(rb_val *a, rb_val *b, uint8_t jop, bool is32, char why[2][RB_VIOLATION_LEN])
{
	return old_branch_refine_report(old_of(a), old_of(b), jop, is32, why);
}

static bool t_sanity_report(rb_val *v, char why[RB_VIOLATION_LEN])
{
	return old_sanity_report(old_of(v), why);
}

/* not a kernel operation: both sets of bounds and tnums intersected, then
 * synced (as the kernel's JEQ refinement does for one register) */
static bool t_intersect(rb_val *a, const rb_val *b)
{
	struct old_reg *x = old_of(a);
	const struct old_reg *y = old_cof(b);
	/* known bits that disagree: nothing is in both */
	if ((x->var_off.value ^ y->var_off.value) & ~x->var_off.mask & ~y->var_off.mask)
		return false;
	x->umin = umax64(x->umin, y->umin);
	x->umax = umin64(x->umax, y->umax);
	x->smin = smax64(x->smin, y->smin);
	x->smax = smin64(x->smax, y->smax);
	set_u32(&x->u32_min, umax64(x->u32_min, y->u32_min));
	set_u32(&x->u32_max, umin64(x->u32_max, y->u32_max));
	set_s32(&x->s32_min, smax64(x->s32_min, y->s32_min));
	set_s32(&x->s32_max, smin64(x->s32_max, y->s32_max));
	x->var_off = tnum_intersect(x->var_off, y->var_off);
	if (old_range_violation(x))
		return false;
	old_bounds_sync(x);
	return old_sanity_ok(x) && !t_is_empty(a);
}

const struct rb_tracker old_vtable = {
	.name = "old",
	.follows = "Linux 6.18",
	.build_flags = "",
	.bits = W_BITS,
	.subbits = H_BITS,
	/* var_off (2 words) + four full-width bounds + four half-width bounds */
	.val_size = (2 * W_BITS + 4 * W_BITS + 4 * H_BITS) / 8,
	.concrete = &RB_SYM(rb_concrete),
	.unknown = t_unknown,
	.constant = t_constant,
	.from_bounds = t_from_bounds,
	.from_fields = t_from_fields,
	.from_set = t_from_set,
	.from_set_best = true,
	.bounds = t_bounds,
	.contains = t_contains,
	.is_const = t_is_const,
	.is_empty = t_is_empty,
	.equal = t_equal,
	.is_subset = t_is_subset,
	.print = t_print,
	.alu = t_alu,
	.truncate = t_truncate,
	.branch_taken = t_branch_taken,
	.branch_refine = t_branch_refine,
	.intersect = t_intersect,
	.branch_refine_report = t_branch_refine_report,
	.sanity_report = t_sanity_report,
};
