/* arc2.h — the "arc2" tracker's scalar state and its internal operations.
 *
 * A scalar is a tnum plus, per width, two arcs whose intersection is the
 * set (pieces.h). Operations run old's and cnum's own transfer functions
 * on converted inputs and intersect the results (product.c), so this
 * folder uses those two trackers' internal headers. Internal to
 * src/tracker/arc2/; the rest of the project uses tracker.h.
 */
#ifndef RB_TRACKER_ARC2_H
#define RB_TRACKER_ARC2_H

#include "tracker/arc2/pieces.h"
#include "tracker/tnum.h"
#include "tracker/tracker.h"

struct a2reg {
	struct tnum t;
	struct cnum a, b;     /* width W_BITS: the set is a ∩ b */
	struct cnum a32, b32; /* width H_BITS */
};

/* rb_val layout: w[0..1] tnum, w[2..5] a, b, w[6] a32, w[7] b32 (base
 * low half, size high half; H_BITS <= 32). 64 bytes at RB_BITS=64. */
static inline struct a2reg a2_load(const rb_val *v)
{
	struct a2reg r = {
		.t = {v->w[0], v->w[1]},
		.a = {v->w[2], v->w[3]},
		.b = {v->w[4], v->w[5]},
		.a32 = {v->w[6] & 0xffffffffu, v->w[6] >> 32},
		.b32 = {v->w[7] & 0xffffffffu, v->w[7] >> 32},
	};
	return r;
}

static inline void a2_store(rb_val *v, const struct a2reg *r)
{
	v->w[0] = r->t.value;
	v->w[1] = r->t.mask;
	v->w[2] = r->a.base;
	v->w[3] = r->a.size;
	v->w[4] = r->b.base;
	v->w[5] = r->b.size;
	v->w[6] = r->a32.base | (r->a32.size << 32);
	v->w[7] = r->b32.base | (r->b32.size << 32);
}

/* the two trackers whose transfer functions arc2 combines */
extern const struct rb_tracker RB_SYM(rb_old_tracker), RB_SYM(rb_cnum_tracker);
static inline const struct rb_tracker *a2_old(void) { return &RB_SYM(rb_old_tracker); }
static inline const struct rb_tracker *a2_cnum(void) { return &RB_SYM(rb_cnum_tracker); }

#define a2_bounds_of RB_SYM(a2_bounds_of)
#define a2_has_member RB_SYM(a2_has_member)
#define a2_to_old RB_SYM(a2_to_old)
#define a2_to_old_with RB_SYM(a2_to_old_with)
#define a2_to_cnum RB_SYM(a2_to_cnum)
#define a2_meet RB_SYM(a2_meet)
#define a2_to_cnums RB_SYM(a2_to_cnums)
#define a2_intersect RB_SYM(a2_intersect)

/* members.c: the exact bounds of the set's members at each width (the
 * tnum and both widths' pieces together); false if there is none */
bool a2_bounds_of(const struct a2reg *r, struct a2_bounds *b64, struct a2_bounds *b32);
/* is the set not empty? (a2_bounds_of's answer, found faster) */
bool a2_has_member(const struct a2reg *r);

/* product.c */
/* the same set in old's fields (its bounds exact) / in cnum's arcs
 * (the smallest arc holding each width's pieces) */
void a2_to_old(const struct a2reg *r, rb_val *out);
/* a2_to_old of a non-empty set whose a2_bounds_of are b64, b32 */
void a2_to_old_with(const struct a2reg *r, const struct a2_bounds *b64, const struct a2_bounds *b32, rb_val *out);
void a2_to_cnum(const struct a2reg *r, rb_val *out);
/* every cnum value holding the set with smallest arcs: one, or (when the
 * two gaps of a width's pieces are equal, so either arc is smallest)
 * one per choice; returns how many */
#define A2_MAX_CNUMS 4
unsigned a2_to_cnums(const struct a2reg *r, rb_val out[A2_MAX_CNUMS]);
/* r := an old value ∩ each of ncnum cnum values (∩ within, if not NULL:
 * a refinement's input) */
void a2_meet(struct a2reg *r, const rb_val *old, const rb_val *cnum, unsigned ncnum, const struct a2reg *within);
/* r := x ∩ y (a gap given up lies inside x's pieces, and y's if it can) */
void a2_intersect(struct a2reg *r, const struct a2reg *x, const struct a2reg *y);

#endif
