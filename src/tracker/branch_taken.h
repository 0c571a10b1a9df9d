/* branch_taken.h — is a conditional jump between two scalars decided by
 * their bounds and var_off alone? Shared by both trackers.
 *
 * These are the tests of Linux 6.18's is_scalar_branch_taken()
 * (kernel/bpf/verifier.c; 6.18.44 stable includes the tnum_overlap test
 * for JEQ/JNE taken from mainline), which mainline's cnum verifier keeps,
 * reading the same eight bounds through its conversions. What follows
 * differs per tracker and stays with it: the old tracker stops here
 * (old/branch.c), the cnum tracker can go on to mainline's
 * simulate_both_branches_taken() (cnum/branch.c).
 *
 * Returns RB_BR_ALWAYS / NEVER / UNKNOWN for "a jop b". jop is an
 * operation code (BPF_JEQ..BPF_JSLE, or RB_JSET_FALSE); is32 compares the
 * subregisters. Reads var_off, the bounds of the compared width and, for
 * a full-width JEQ/JNE, the subregister bounds too; nothing else. The
 * parts (rb_utaken, rb_staken, rb_eq_excluded, rb_jset_taken) serve a
 * tracker that computes its bounds as it reads them (cnum/branch.c). Inline,
 * so that the old tracker reads its fields in place and the call costs
 * what the per-tracker code did. Width-generic: "64" is W_BITS, "32" is
 * H_BITS.
 */
#ifndef RB_TRACKER_BRANCH_TAKEN_H
#define RB_TRACKER_BRANCH_TAKEN_H

#include <linux/bpf.h>

#include "tracker/tnum.h"
#include "tracker/tracker.h"

/* the ordering jumps on one pair of ranges, [min1, max1] jop [min2, max2]:
 * unsigned (JGT, JGE, JLT, JLE) and signed (JSGT, JSGE, JSLT, JSLE); a
 * tracker that holds no bounds fields computes just these four values */
static inline int rb_utaken(uint8_t jop, uint64_t umin1, uint64_t umax1, uint64_t umin2, uint64_t umax2)
{
	switch (jop) {
	case BPF_JGT:
		if (umin1 > umax2)
			return RB_BR_ALWAYS;
		if (umax1 <= umin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JLT:
		if (umax1 < umin2)
			return RB_BR_ALWAYS;
		if (umin1 >= umax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JGE:
		if (umin1 >= umax2)
			return RB_BR_ALWAYS;
		if (umax1 < umin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JLE:
		if (umax1 <= umin2)
			return RB_BR_ALWAYS;
		if (umin1 > umax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	default:
		return RB_BR_UNKNOWN;
	}
}

static inline int rb_staken(uint8_t jop, int64_t smin1, int64_t smax1, int64_t smin2, int64_t smax2)
{
	switch (jop) {
	case BPF_JSGT:
		if (smin1 > smax2)
			return RB_BR_ALWAYS;
		if (smax1 <= smin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSLT:
		if (smax1 < smin2)
			return RB_BR_ALWAYS;
		if (smin1 >= smax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSGE:
		if (smin1 >= smax2)
			return RB_BR_ALWAYS;
		if (smax1 < smin2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	case BPF_JSLE:
		if (smax1 <= smin2)
			return RB_BR_ALWAYS;
		if (smin1 > smax2)
			return RB_BR_NEVER;
		return RB_BR_UNKNOWN;
	default:
		return RB_BR_UNKNOWN;
	}
}

/* JEQ/JNE: do one width's unsigned or signed ranges exclude equality? */
static inline bool rb_eq_excluded(uint64_t umin1, uint64_t umax1, int64_t smin1, int64_t smax1,
				  uint64_t umin2, uint64_t umax2, int64_t smin2, int64_t smax2)
{
	return umin1 > umax2 || umax1 < umin2 || smin1 > smax2 || smax1 < smin2;
}

/* JSET and RB_JSET_FALSE on the compared width's tnums: decided only
 * against a constant mask (either side) */
static inline int rb_jset_taken(struct tnum t1, struct tnum t2, uint8_t jop)
{
	int r = RB_BR_UNKNOWN;
	if (!tnum_is_const(t2)) {
		struct tnum t = t1;
		t1 = t2;
		t2 = t;
	}
	if (!tnum_is_const(t2))
		return RB_BR_UNKNOWN;
	if ((~t1.mask & t1.value) & t2.value)
		r = RB_BR_ALWAYS;
	else if (!((t1.mask | t1.value) & t2.value))
		r = RB_BR_NEVER;
	if (r != RB_BR_UNKNOWN && jop == RB_JSET_FALSE)
		r = !r;
	return r;
}

static inline int rb_bounds_branch_taken(const struct rb_bounds *a, const struct rb_bounds *b,
					 uint8_t jop, bool is32)
{
	uint64_t umin1 = is32 ? a->u32_min : a->umin, umax1 = is32 ? a->u32_max : a->umax;
	uint64_t umin2 = is32 ? b->u32_min : b->umin, umax2 = is32 ? b->u32_max : b->umax;
	int64_t smin1 = is32 ? a->s32_min : a->smin, smax1 = is32 ? a->s32_max : a->smax;
	int64_t smin2 = is32 ? b->s32_min : b->smin, smax2 = is32 ? b->s32_max : b->smax;
	struct tnum t1 = TNUM_C(a->var_off.value, a->var_off.mask);
	struct tnum t2 = TNUM_C(b->var_off.value, b->var_off.mask);
	if (is32) {
		t1 = tnum_subreg(t1);
		t2 = tnum_subreg(t2);
	}

	switch (jop) {
	case BPF_JEQ:
	case BPF_JNE: {
		/* "equal is impossible" -> JEQ never, JNE always */
		int eq_never = jop == BPF_JEQ ? RB_BR_NEVER : RB_BR_ALWAYS;
		if (tnum_is_const(t1) && tnum_is_const(t2))
			return (t1.value == t2.value) == (jop == BPF_JEQ);
		if (rb_eq_excluded(umin1, umax1, smin1, smax1, umin2, umax2, smin2, smax2))
			return eq_never;
		/* the subregister ranges may still exclude equality */
		if (!is32 && rb_eq_excluded(a->u32_min, a->u32_max, a->s32_min, a->s32_max, b->u32_min,
					    b->u32_max, b->s32_min, b->s32_max))
			return eq_never;
		/* known bits that disagree (in 6.18 stable, from mainline; the
		 * kernel tests this first: every test here gives the same
		 * answer, and testing it last reads the bounds before any call) */
		if (!tnum_overlap(t1, t2))
			return eq_never;
		return RB_BR_UNKNOWN;
	}
	case BPF_JSET:
	case RB_JSET_FALSE:
		return rb_jset_taken(t1, t2, jop);
	case BPF_JGT:
	case BPF_JGE:
	case BPF_JLT:
	case BPF_JLE:
		return rb_utaken(jop, umin1, umax1, umin2, umax2);
	case BPF_JSGT:
	case BPF_JSGE:
	case BPF_JSLT:
	case BPF_JSLE:
		return rb_staken(jop, smin1, smax1, smin2, smax2);
	default:
		return RB_BR_UNKNOWN;
	}
}

#endif
