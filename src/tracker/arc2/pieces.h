/* pieces.h — sets of n-bit values held as the intersection of two wrapped
 * arcs, width-generic (the "arc2" tracker's representation per width).
 *
 * An arc is the cnum tracker's struct cnum ({base, size}, size excluding
 * the base; full and empty sentinels as in cnum/arc.h). The intersection
 * of two arcs is empty, one arc, or two disjoint arcs ("pieces"), and any
 * such set has exactly one canonical pair:
 *   no piece      (empty, empty)
 *   one piece P   (P, full)            (full, full) for the full circle
 *   pieces P < Q  ([P.base .. Q.end], [Q.base .. P.end])
 * so equal sets have equal representations. The pair can hold what the
 * old tracker's unsigned range intersected with its signed range holds,
 * and what cnum's single arc holds.
 *
 * Every function takes the width `bits` (1..64). Internal to
 * src/tracker/arc2/; symbols carry the build's width suffix (RB_SYM).
 */
#ifndef RB_TRACKER_ARC2_PIECES_H
#define RB_TRACKER_ARC2_PIECES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracker/cnum/arc.h"
#include "tracker/tnum.h"
#include "tracker/width.h"

/* at most this many pieces in a working list (4 arcs intersect in <= 4) */
#define A2_MAX_PIECES 8

struct a2_list {
	unsigned n;
	struct cnum p[A2_MAX_PIECES];
};

#define a2_pieces RB_SYM(a2_pieces)
#define a2_list_meet_arc RB_SYM(a2_list_meet_arc)
#define a2_canon RB_SYM(a2_canon)
#define a2_from_set RB_SYM(a2_from_set)
#define a2_hull RB_SYM(a2_hull)
#define a2_hulls RB_SYM(a2_hulls)
#define a2_first_in RB_SYM(a2_first_in)
#define a2_last_in RB_SYM(a2_last_in)

/* the pieces of a ∩ b (0, 1 or 2, disjoint, not adjacent) */
void a2_pieces(struct cnum a, struct cnum b, unsigned bits, struct a2_list *out);
/* l := l ∩ c */
void a2_list_meet_arc(struct a2_list *l, struct cnum c, unsigned bits);
/* What else is known of the set when a list is canonicalised: the tnum
 * at the list's width and the pieces of the other width (for the
 * subregister the full-width ones, "outer"; for the full width the
 * subregister ones, "inner"; NULL when unknown). */
struct a2_ctx {
	struct tnum t;
	const struct a2_list *outer;
	unsigned outer_bits;
	const struct a2_list *inner;
	unsigned inner_bits;
	/* when every gap may hold a member, the one given up is the
	 * smallest inside a piece of keep and one of keep2 (the gaps of
	 * both stay), else the smallest inside a piece of keep, if any */
	const struct a2_list *keep, *keep2;
};
/* the canonical pair of a list; more than two pieces are first merged
 * across a gap holding no member (by cx, if given), else across the
 * smallest gap (the smallest over-approximation) */
void a2_canon(const struct a2_list *l, unsigned bits, const struct a2_ctx *cx, struct cnum *a, struct cnum *b);
/* a small pair holding every vals[i] (truncated to bits): the complement
 * of two of their circular gaps, the largest (the one cnum_from_set
 * drops) and, of the others, the one holding the most members of the
 * values' tnum, or with cx (the subregister: cx->t the full-width tnum,
 * cx->outer the full-width pieces), the most full-width members. Not
 * always the smallest pair (the domain has no unique best). False only
 * when memory ran out (then the full pair). */
bool a2_from_set(const uint64_t *vals, size_t n, unsigned bits, const struct a2_ctx *cx, struct cnum *a,
		 struct cnum *b);
/* the smallest single arc holding the list (cnum's view of it) */
struct cnum a2_hull(const struct a2_list *l, unsigned bits);
/* every smallest single arc holding the list (two when the two largest
 * gaps between its pieces are equal): out[0..return-1] */
unsigned a2_hulls(const struct a2_list *l, unsigned bits, struct cnum out[2]);

/* the circular range lo .. hi (mask m; hi < lo: through 0) as one or two
 * unsigned runs r[i] = {first, last}, the one from lo first: how many */
static inline unsigned a2_circ_runs(uint64_t lo, uint64_t hi, uint64_t m, uint64_t r[2][2])
{
	r[0][0] = lo;
	if (lo <= hi) {
		r[0][1] = hi;
		return 1;
	}
	r[0][1] = m;
	r[1][0] = 0, r[1][1] = hi;
	return 2;
}

/* the arc p (width bits) as a2_circ_runs; the full arc is one run [0, max] */
static inline unsigned a2_arc_runs(struct cnum p, unsigned bits, uint64_t r[2][2])
{
	const uint64_t m = cn_mask(bits);
	if (p.size == m) {
		r[0][0] = 0, r[0][1] = m;
		return 1;
	}
	return a2_circ_runs(p.base, cnum_end(p, bits), m, r);
}

/* the least / greatest member of t (width bits) in [lo, hi] (lo <= hi), if any */
bool a2_first_in(struct tnum t, uint64_t lo, uint64_t hi, uint64_t *x);
bool a2_last_in(struct tnum t, uint64_t lo, uint64_t hi, unsigned bits, uint64_t *x);

/* exact unsigned and signed bounds of a set */
struct a2_bounds {
	uint64_t umin, umax;
	int64_t smin, smax;
};

#endif
