/* product.c — arc2 values to and from the old and cnum trackers'
 * representations (see arc2.h). */
#include <string.h>

#include "tracker/arc2/arc2.h"
#include "tracker/cnum/reg.h"
#include "tracker/old/repr.h"

bool a2_bounds_of(const struct a2reg *r, struct a2_bounds *b64, struct a2_bounds *b32)
{
	struct a2_list l;
	a2_pieces(r->a, r->b, W_BITS, &l);
	if (!a2_list_bounds(&l, r->t, W_BITS, b64))
		return false;
	a2_pieces(r->a32, r->b32, H_BITS, &l);
	return a2_list_bounds(&l, tnum_subreg(r->t), H_BITS, b32);
}

void a2_to_old(const struct a2reg *r, rb_val *out)
{
	struct a2_bounds b64, b32;
	memset(out, 0, sizeof(*out));
	if (!a2_bounds_of(r, &b64, &b32)) {
		a2_old()->from_set(out, NULL, 0);
		return;
	}
	struct old_reg *o = old_of(out);
	o->var_off = r->t;
	o->umin = b64.umin;
	o->umax = b64.umax;
	o->smin = b64.smin;
	o->smax = b64.smax;
	set_u32(&o->u32_min, b32.umin);
	set_u32(&o->u32_max, b32.umax);
	set_s32(&o->s32_min, b32.smin);
	set_s32(&o->s32_max, b32.smax);
	/* each width's bounds learn from the other's (old's own sync; it
	 * keeps the exact bounds of a set, so equal inputs convert equally) */
	old_bounds_sync(o);
}

void a2_to_cnum(const struct a2reg *r, rb_val *out)
{
	struct a2_list l64, l32;
	struct creg c = {.var_off = r->t};
	a2_pieces(r->a, r->b, W_BITS, &l64);
	a2_pieces(r->a32, r->b32, H_BITS, &l32);
	c.r64 = a2_hull(&l64, W_BITS);
	c.r32 = a2_hull(&l32, H_BITS);
	if (!creg_violation(&c))
		creg_sync(&c);
	creg_store(out, &c);
}

static void empty(struct a2reg *r)
{
	r->t = tnum_unknown();
	r->a = r->b = cnum_empty(W_BITS);
	r->a32 = r->b32 = cnum_empty(H_BITS);
}

void a2_meet(struct a2reg *r, const rb_val *ov, const rb_val *cv)
{
	const struct old_reg *o = old_cof(ov);
	struct creg c = creg_load(cv);
	if (a2_old()->is_empty(ov) || a2_cnum()->is_empty(cv) || o->umin > o->umax || o->smin > o->smax ||
	    o->u32_min > o->u32_max || o->s32_min > o->s32_max || !tnum_overlap(o->var_off, c.var_off)) {
		empty(r);
		return;
	}
	struct a2_list l;
	r->t = tnum_intersect(o->var_off, c.var_off);
	a2_pieces(cnum_from_urange(o->umin, o->umax, W_BITS), cnum_from_srange(o->smin, o->smax, W_BITS), W_BITS,
		  &l);
	a2_list_meet_arc(&l, c.r64, W_BITS);
	struct a2_ctx cx = {.t = r->t};
	a2_canon(&l, W_BITS, &cx, &r->a, &r->b);
	struct a2_list l64;
	a2_pieces(r->a, r->b, W_BITS, &l64);
	a2_pieces(cnum_from_urange(o->u32_min, o->u32_max, H_BITS), cnum_from_srange(o->s32_min, o->s32_max, H_BITS),
		  H_BITS, &l);
	a2_list_meet_arc(&l, c.r32, H_BITS);
	struct a2_ctx cx32 = {.t = tnum_subreg(r->t), .outer = &l64, .outer_bits = W_BITS};
	a2_canon(&l, H_BITS, &cx32, &r->a32, &r->b32);
}
