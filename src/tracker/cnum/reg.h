/* reg.h — the cnum tracker's scalar state and its internal operations.
 *
 * A scalar is a tnum plus one arc per width, as mainline Linux (2026)
 * struct bpf_reg_state keeps it: var_off, r64 (cnum64, here the full
 * register width W_BITS) and r32 (cnum32, the subregister H_BITS).
 * Internal to src/tracker/cnum/; the rest of the project uses tracker.h.
 */
#ifndef RB_TRACKER_CNUM_REG_H
#define RB_TRACKER_CNUM_REG_H

#include "tracker/cnum/arc.h"
#include "tracker/tnum.h"
#include "tracker/tracker.h"

struct creg {
	struct tnum var_off;
	struct cnum r64; /* width W_BITS */
	struct cnum r32; /* width H_BITS */
};

#define RW W_BITS
#define RH H_BITS

/* rb_val layout: w[0..1] tnum, w[2..3] r64, w[4] r32 (base low half,
 * size high half; H_BITS <= 32). 40 bytes at RB_BITS=64. */
static inline struct creg creg_load(const rb_val *v)
{
	struct creg r = {
		.var_off = {v->w[0], v->w[1]},
		.r64 = {v->w[2], v->w[3]},
		.r32 = {v->w[4] & 0xffffffffu, v->w[4] >> 32},
	};
	return r;
}

static inline void creg_store(rb_val *v, const struct creg *r)
{
	/* the 40 bytes of val_size only: the engine's slot may be no larger */
	v->w[0] = r->var_off.value;
	v->w[1] = r->var_off.mask;
	v->w[2] = r->r64.base;
	v->w[3] = r->r64.size;
	v->w[4] = r->r32.base | (r->r32.size << 32);
}

/* *d = *s, one 8-byte word at a time: a struct copy is compiled to
 * 16-byte moves, and a 16-byte load of two words just stored one by one
 * (as every operation here stores them) cannot be forwarded from the
 * store buffer; measured: ~2 ns per ALU operation */
static inline void creg_copy(struct creg *d, const struct creg *s)
{
	d->var_off.value = s->var_off.value;
	d->var_off.mask = s->var_off.mask;
	d->r64.base = s->r64.base;
	d->r64.size = s->r64.size;
	d->r32.base = s->r32.base;
	d->r32.size = s->r32.size;
}

/* bounds through the conversions (mainline reg_umin() etc.) */
static inline uint64_t reg_umin(const struct creg *r) { return cnum_umin(r->r64, RW); }
static inline uint64_t reg_umax(const struct creg *r) { return cnum_umax(r->r64, RW); }
static inline int64_t reg_smin(const struct creg *r) { return cnum_smin(r->r64, RW); }
static inline int64_t reg_smax(const struct creg *r) { return cnum_smax(r->r64, RW); }
static inline uint64_t reg_u32_min(const struct creg *r) { return cnum_umin(r->r32, RH); }
static inline uint64_t reg_u32_max(const struct creg *r) { return cnum_umax(r->r32, RH); }
static inline int64_t reg_s32_min(const struct creg *r) { return cnum_smin(r->r32, RH); }
static inline int64_t reg_s32_max(const struct creg *r) { return cnum_smax(r->r32, RH); }

static inline void reg_set_urange64(struct creg *r, uint64_t lo, uint64_t hi)
{
	r->r64 = cnum_from_urange(lo, hi, RW);
}
static inline void reg_set_srange64(struct creg *r, int64_t lo, int64_t hi)
{
	r->r64 = cnum_from_srange(lo, hi, RW);
}
static inline void reg_set_urange32(struct creg *r, uint64_t lo, uint64_t hi)
{
	r->r32 = cnum_from_urange(lo, hi, RH);
}
static inline void reg_set_srange32(struct creg *r, int64_t lo, int64_t hi)
{
	r->r32 = cnum_from_srange(lo, hi, RH);
}

/* var_off and the bounds through the conversions, read as mainline's
 * reg_umin() etc. read them (an empty arc reads as whatever they return
 * for it): the full-width four if full, the subregister four if sub, the
 * others 0 */
static inline void creg_conv_bounds(const struct creg *r, bool full, bool sub, struct rb_bounds *out)
{
	*out = (struct rb_bounds){.var_off = {r->var_off.value, r->var_off.mask}};
	if (full) {
		out->umin = reg_umin(r);
		out->umax = reg_umax(r);
		out->smin = reg_smin(r);
		out->smax = reg_smax(r);
	}
	if (sub) {
		out->u32_min = reg_u32_min(r);
		out->u32_max = reg_u32_max(r);
		out->s32_min = reg_s32_min(r);
		out->s32_max = reg_s32_max(r);
	}
}

/* mainline range_bounds_violation(): an arc became empty */
static inline bool creg_violation(const struct creg *r)
{
	return cnum_is_empty(r->r64, RW) || cnum_is_empty(r->r32, RH);
}

#define creg_unknown CN_SYM(creg_unknown)
#define creg_known CN_SYM(creg_known)
#define creg_update_bounds32 CN_SYM(creg_update_bounds32)
#define creg_update_bounds64 CN_SYM(creg_update_bounds64)
#define creg_update_bounds CN_SYM(creg_update_bounds)
#define creg_sync CN_SYM(creg_sync)
#define creg_sync_updated CN_SYM(creg_sync_updated)
#define creg_sync_ref CN_SYM(creg_sync_ref)
#define creg_deduce_bounds CN_SYM(creg_deduce_bounds)
#define creg_zext CN_SYM(creg_zext)
#define creg_zext_sync CN_SYM(creg_zext_sync)
#define creg_coerce CN_SYM(creg_coerce)
#define creg_coerce_ref CN_SYM(creg_coerce_ref)
#define creg_coerce_low CN_SYM(creg_coerce_low)
#define creg_coerce_sx CN_SYM(creg_coerce_sx)
#define creg_coerce_sx_val CN_SYM(creg_coerce_sx_val)
#define creg_coerce_val CN_SYM(creg_coerce_val)
#define creg_coerce_subreg_sx CN_SYM(creg_coerce_subreg_sx)
#define creg_alu CN_SYM(creg_alu)
#define creg_refine CN_SYM(creg_refine)
#define creg_branch_taken_val CN_SYM(creg_branch_taken_val)
#define creg_branch_taken_same_val CN_SYM(creg_branch_taken_same_val)
/* bounds.c: shared by both builds, as arc.c (arc.h) */
#define creg_print RB_SYM(creg_print)
#define creg_bounds RB_SYM(creg_bounds)

/* sync.c */
/* unknown: every value (inline: DIV/MOD and failed checks return it) */
static inline struct creg creg_unknown(void)
{
	return (struct creg){TNUM_C(0, W_MASK), {0, cn_mask(RW)}, {0, cn_mask(RH)}};
}
/* mainline ___mark_reg_known(): tnum and both arcs the constant */
void creg_known(struct creg *r, uint64_t c);
/* tnum -> arcs (mainline __update_reg32_bounds / __update_reg64_bounds) */
void creg_update_bounds32(struct creg *r);
void creg_update_bounds64(struct creg *r);
void creg_update_bounds(struct creg *r);
/* mainline reg_bounds_sync(): the six directions tnum <-> r64 <-> r32;
 * creg_sync_ref() is the same step by step, creg_sync() with fast paths
 * (same results, tests/unit/test_cnum_fast.c) */
void creg_sync(struct creg *r);
void creg_sync_ref(struct creg *r);
/* creg_sync() right after creg_update_bounds(), whose work it skips */
void creg_sync_updated(struct creg *r);
/* mainline __reg_deduce_bounds (r64 -> r32, then r32 -> r64); true if an
 * arc changed */
bool creg_deduce_bounds(struct creg *r);
/* mainline zext_32_to_64() */
void creg_zext(struct creg *r);
/* creg_zext() then creg_sync(), in fewer steps where the 32-bit arc does
 * not wrap (test_cnum_fast.c compares the two) */
void creg_zext_sync(struct creg *r);
/* mainline coerce_reg_to_size(), size in BPF bits (8/16/32);
 * creg_coerce_ref() is the same step by step, creg_coerce() with the sync
 * worked out below the subregister (test_cnum_fast.c compares them);
 * creg_coerce_low() is creg_coerce() for a size below 32, true if
 * creg_sync() would leave its result as it is */
void creg_coerce(struct creg *r, unsigned size_bits);
void creg_coerce_ref(struct creg *r, unsigned size_bits);
bool creg_coerce_low(struct creg *r, unsigned size_bits);
/* the same on a stored value */
void creg_coerce_val(rb_val *v, unsigned size_bits);
/* mainline coerce_reg_to_size_sx() and coerce_subreg_to_size_sx() */
void creg_coerce_sx(struct creg *r, unsigned size_bits);
/* the same on a stored value: dst := src sign-extended, unpacked and
 * packed inside (dst may be src) */
void creg_coerce_sx_val(rb_val *dst, const rb_val *src, unsigned size_bits);
void creg_coerce_subreg_sx(struct creg *r, unsigned size_bits);

/* alu.c: mainline adjust_scalar_min_max_vals() and check_alu_op()'s MOV */
void creg_alu(struct creg *dst, const struct creg *src, const struct rb_alu *op);

/* branch.c: mainline is_scalar_branch_taken() and regs_refine_cond_op() +
 * reg_bounds_sync(); jop as in tracker.h (RB_JSET_FALSE for "not JSET") */
bool creg_refine(struct creg *a, struct creg *b, uint8_t jop, bool is32);
int creg_branch_taken_val(const rb_val *a, const rb_val *b, uint8_t jop, bool is32);
#ifdef RB_CNUM_MAINLINE_ALGOS
/* Linux 7.2.13 is_scalar_branch_taken() with reg1 == reg2 */
int creg_branch_taken_same_val(const rb_val *a, uint8_t jop, bool is32);
#endif

/* bounds.c */
/* the same, with an empty arc shown as inverted bounds (min > max) */
void creg_bounds(const struct creg *r, struct rb_bounds *out);
/* the Linux 6.18 log's field list (rb_print_bounds), "empty" for no value */
int creg_print(const struct creg *r, char *buf, size_t len);

#endif
