/* old/repr.h — the Linux 6.18 scalar representation ("old" tracker).
 *
 * Mirrors the value-tracking part of 6.18's struct bpf_reg_state: var_off
 * plus signed/unsigned bounds of the full register and of the 32-bit
 * subregister, here width-generic (the "64-bit" fields are W_BITS wide,
 * the "32-bit" ones H_BITS wide; see width.h). Signed fields hold
 * sign-extended values, unsigned fields truncated ones.
 *
 * Internal to src/tracker/old/: the rest of the project sees the tracker
 * only through tracker.h.
 */
#ifndef RB_TRACKER_OLD_REPR_H
#define RB_TRACKER_OLD_REPR_H

#include <stdbool.h>
#include <stdint.h>

#include "tracker/tnum.h"
#include "tracker/tracker.h"
#include "tracker/width.h"

struct old_reg {
	struct tnum var_off;
	int64_t smin, smax;
	uint64_t umin, umax;
	int32_t s32_min, s32_max; /* H_BITS wide, sign-extended */
	uint32_t u32_min, u32_max;
};

_Static_assert(sizeof(struct old_reg) <= sizeof(rb_val), "old_reg must fit rb_val");

/* sign bits of the two widths */
#define W_SIGN (UINT64_C(1) << (W_BITS - 1))
#define H_SIGN (UINT64_C(1) << (H_BITS - 1))

static inline struct old_reg *old_of(rb_val *v) { return (struct old_reg *)(void *)v; }
static inline const struct old_reg *old_cof(const rb_val *v)
{
	return (const struct old_reg *)(const void *)v;
}

static inline int64_t smax64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t smin64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline uint64_t umax64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t umin64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* the kernel's view: the fields as they are (tracker.h struct rb_bounds) */
static inline void old_to_bounds(const struct old_reg *r, struct rb_bounds *out)
{
	out->umin = r->umin;
	out->umax = r->umax;
	out->smin = r->smin;
	out->smax = r->smax;
	out->u32_min = r->u32_min;
	out->u32_max = r->u32_max;
	out->s32_min = r->s32_min;
	out->s32_max = r->s32_max;
	out->var_off.value = r->var_off.value;
	out->var_off.mask = r->var_off.mask;
}

/* 32-bit field setters keep the representation normalised */
static inline void set_s32(int32_t *f, int64_t s) { *f = (int32_t)hsext((uint64_t)s); }
static inline void set_u32(uint32_t *f, uint64_t u) { *f = (uint32_t)htrunc(u); }

#define old_mark_known RB_SYM(old_mark_known)
#define old_mark_known32 RB_SYM(old_mark_known32)
#define old_mark_unbounded RB_SYM(old_mark_unbounded)
#define old_mark_unbounded64 RB_SYM(old_mark_unbounded64)
#define old_mark_unbounded32 RB_SYM(old_mark_unbounded32)
#define old_mark_unknown RB_SYM(old_mark_unknown)
#define old_update_bounds RB_SYM(old_update_bounds)
#define old_update_bounds32 RB_SYM(old_update_bounds32)
#define old_update_bounds64 RB_SYM(old_update_bounds64)
#define old_deduce_bounds RB_SYM(old_deduce_bounds)
#define old_bound_offset RB_SYM(old_bound_offset)
#define old_bounds_sync RB_SYM(old_bounds_sync)
#define old_bounds_sync_ref RB_SYM(old_bounds_sync_ref)
#define old_deduce_settled RB_SYM(old_deduce_settled)
#define old_range_violation RB_SYM(old_range_violation)
#define old_sanity_ok RB_SYM(old_sanity_ok)
#define old_sanity_msg RB_SYM(old_sanity_msg)
#define old_sanity_report RB_SYM(old_sanity_report)
#define old_assign_32_into_64 RB_SYM(old_assign_32_into_64)
#define old_zext_32_to_64 RB_SYM(old_zext_32_to_64)
#define old_coerce_to_size RB_SYM(old_coerce_to_size)
#define old_coerce_to_size_sx RB_SYM(old_coerce_to_size_sx)
#define old_coerce_subreg_to_size_sx RB_SYM(old_coerce_subreg_to_size_sx)
#define old_alu RB_SYM(old_alu)
#define old_branch_taken RB_SYM(old_branch_taken)
#define old_branch_refine RB_SYM(old_branch_refine)
#define old_branch_refine_report RB_SYM(old_branch_refine_report)

/* sync.c: construction and reg_bounds_sync() with its parts */
void old_mark_known(struct old_reg *r, uint64_t imm);   /* ___mark_reg_known */
void old_mark_known32(struct old_reg *r, uint64_t imm); /* __mark_reg32_known */
void old_mark_unbounded(struct old_reg *r);
void old_mark_unbounded64(struct old_reg *r);
void old_mark_unbounded32(struct old_reg *r);
void old_mark_unknown(struct old_reg *r); /* tnum unknown, unbounded */
void old_update_bounds(struct old_reg *r);
void old_update_bounds32(struct old_reg *r);
void old_update_bounds64(struct old_reg *r);
void old_deduce_bounds(struct old_reg *r);
void old_bound_offset(struct old_reg *r);
/* reg_bounds_sync(): old_bounds_sync_ref() is the kernel's sequence step
 * by step, old_bounds_sync() the same result with less work (sync.c) */
void old_bounds_sync(struct old_reg *r);
void old_bounds_sync_ref(struct old_reg *r);
/* states on which old_deduce_bounds() can change nothing but var_off, and
 * that only to var_off ∩ tnum_range(umin, umax) (sync.c) */
bool old_deduce_settled(const struct old_reg *r);
/* some min > max (the kernel's range_bounds_violation()) */
bool old_range_violation(const struct old_reg *r);
/* reg_bounds_sanity_check() passes */
bool old_sanity_ok(const struct old_reg *r);
/* why it does not (the kernel's message), or NULL when it passes */
const char *old_sanity_msg(const struct old_reg *r);
/* reg_bounds_sanity_check(): see rb_tracker.sanity_report */
bool old_sanity_report(struct old_reg *r, char *why);
void old_assign_32_into_64(struct old_reg *r);
void old_zext_32_to_64(struct old_reg *r);

/* alu.c */
/* coerce_reg_to_size(): zero-extending narrowing to nbytes BPF bytes */
void old_coerce_to_size(struct old_reg *r, unsigned nbytes);
/* coerce_reg_to_size_sx(): sign-extending narrowing (1, 2, 4 bytes) */
void old_coerce_to_size_sx(struct old_reg *r, unsigned nbytes);
/* coerce_subreg_to_size_sx(): 32-bit MOVSX (1, 2 bytes) */
void old_coerce_subreg_to_size_sx(struct old_reg *r, unsigned nbytes);
void old_alu(struct old_reg *dst, const struct old_reg *src, const struct rb_alu *op);

/* branch.c (the decision from the bounds alone is rb_bounds_branch_taken,
 * tracker/bounds.h) */
int old_branch_taken(const struct old_reg *a, const struct old_reg *b, uint8_t jop, bool is32);
bool old_branch_refine(struct old_reg *a, struct old_reg *b, uint8_t jop, bool is32);
/* the same, describing invariant violations (why may be NULL) */
bool old_branch_refine_report(struct old_reg *a, struct old_reg *b, uint8_t jop, bool is32,
			      char why[2][RB_VIOLATION_LEN]);

#endif
