/* states.c — checkpoint comparison (Linux 6.18's kernel/bpf/states.c
 * part of verifier.c: states_equal, regsafe, stacksafe, refsafe with id
 * maps); their storage is states_store.c. */
#include <string.h>

#include "engine/dynptr.h"
#include "engine/irq_flags.h"
#include "engine/locks.h"
#include "engine/profile.h"
#include "engine/states.h"

#define IDMAP_SIZE 600
struct idmap {
	uint32_t old[IDMAP_SIZE], cur[IDMAP_SIZE];
	int n;
	uint32_t tmp;
};

/* two ids, neither 0, through the map */
static bool map_ids(struct idmap *m, uint32_t o, uint32_t c)
{
	for (int i = 0; i < m->n; i++) {
		if (m->old[i] == o)
			return m->cur[i] == c;
		if (m->cur[i] == c)
			return false;
	}
	if (m->n == IDMAP_SIZE)
		return false;
	m->old[m->n] = o;
	m->cur[m->n] = c;
	m->n++;
	return true;
}

/* 6.18 check_ids: 0 only with 0 (inline: most registers have no id) */
static inline bool check_ids(struct idmap *m, uint32_t o, uint32_t c)
{
	return !o || !c ? !o && !c : map_ids(m, o, c);
}

/* 6.18.44 (stable backports of "bpf: Relax scalar id equivalence for state
 * pruning" and "bpf: Enforce regsafe base id consistency for BPF_ADD_CONST
 * scalars"): an old register without id is independent, anything matches
 * it; a linked (ADD_CONST) id must also map its base id consistently */
static bool check_scalar_ids(struct idmap *m, uint32_t o, uint32_t c)
{
	if (!o)
		return true;
	c = c ? c : (m->tmp++ | 0x20000000u);
	if (!check_ids(m, o, c))
		return false;
	if ((o & RB_ADD_CONST) && !check_ids(m, o & RB_ID_MASK, c & RB_ID_MASK))
		return false;
	return true;
}

static bool same_nonval(const struct rb_reg *a, const struct rb_reg *b)
{
	return a->type == b->type && a->flags == b->flags && a->off == b->off && a->range == b->range &&
	       a->map_idx == b->map_idx && (a->type != RT_STACK || a->frameno == b->frameno);
}

static bool regs_exact(struct rb_env *env, const struct rb_reg *o, const struct rb_reg *c, struct idmap *m)
{
	if (o->type == RT_NOT_INIT && c->type == RT_NOT_INIT)
		return true;
	return same_nonval(o, c) && env->t->equal(&o->val, &c->val) && check_ids(m, o->id, c->id) &&
	       check_ids(m, o->ref_obj_id, c->ref_obj_id);
}

/* 7.2 (profile.h ptr_off_in_var): range_within && tnum_in on the pointers'
 * whole offsets */
static bool whole_subset(struct rb_env *env, const struct rb_reg *o, const struct rb_reg *c)
{
	if (o->off == c->off && (!o->off || env->t->equal(&o->val, &c->val)))
		return env->t->is_subset(&o->val, &c->val); /* the same constant added to both */
	rb_val ov, cv;
	rb_ptr_whole_val(env, o, &ov);
	rb_ptr_whole_val(env, c, &cv);
	return env->t->is_subset(&ov, &cv);
}

/* the start of a whole offset's range, as a cnum64's base: its smallest
 * value, or its signed minimum when the range crosses zero */
static uint64_t whole_base(struct rb_env *env, const struct rb_reg *r)
{
	struct rb_bounds b;
	rb_ptr_whole_bounds(env, r, &b);
	return b.smin < 0 && b.smax >= 0 ? (uint64_t)b.smin : b.umin;
}

static bool regsafe(struct rb_env *env, const struct rb_reg *o, const struct rb_reg *c, struct idmap *m, int exact)
{
	if (exact == EXACT)
		return regs_exact(env, o, c, m);
	if (o->type == RT_NOT_INIT) /* the old state cannot have used it */
		return true;
	if (o->type != c->type || o->flags != c->flags)
		return false;
	switch (o->type) {
	case RT_SCALAR:
		if (!o->precise && exact == NOT_EXACT)
			return true;
		/* linking: an old id without ADD_CONST cannot match a current
		 * ADD_CONST one and vice versa; offsets must agree */
		if ((o->id & RB_ADD_CONST) && !(c->id & RB_ADD_CONST))
			return false;
		if (o->id && !(o->id & RB_ADD_CONST) && (c->id & RB_ADD_CONST))
			return false;
		if ((o->id & RB_ADD_CONST) && o->off != c->off)
			return false;
		if (!check_scalar_ids(m, o->id, c->id))
			return false;
		return env->t->is_subset(&o->val, &c->val);
	case RT_MAP_KEY:
	case RT_MAP_VALUE:
	case RT_MEM:
	case RT_TP_BUFFER:
	case RT_BUF: {
		struct rb_reg os, cs;
		if (o->type == RT_MEM && env->prof->dynptr_parent_ids) {
			/* 7.2: a slice's dynptr (its parent_id) through the id
			 * map, not exactly (profile.h dynptr_parent_ids) */
			if (!check_ids(m, (uint32_t)RB_SLICE_DYNPTR_ID(o), (uint32_t)RB_SLICE_DYNPTR_ID(c)))
				return false;
			os = *o;
			cs = *c;
			RB_SLICE_DYNPTR_ID(&os) = RB_SLICE_DYNPTR_ID(&cs) = 0;
			o = &os;
			c = &cs;
		}
		if (env->prof->ptr_off_in_var) {
			/* 7.2: no fixed offset to compare, the constants are
			 * in the ranges */
			struct rb_reg o2 = *o, c2 = *c;
			o2.off = c2.off = 0;
			return same_nonval(&o2, &c2) && whole_subset(env, o, c) && check_ids(m, o->id, c->id) &&
			       check_ids(m, o->ref_obj_id, c->ref_obj_id);
		}
		return same_nonval(o, c) && env->t->is_subset(&o->val, &c->val) && check_ids(m, o->id, c->id) &&
		       check_ids(m, o->ref_obj_id, c->ref_obj_id);
	}
	case RT_ARENA: /* 7.2.13 regsafe: any two arena pointers */
		return true;
	case RT_PKT:
	case RT_PKT_META:
		if (o->range < 0 || c->range < 0) {
			if (o->range != c->range)
				return false;
		} else if (o->range > c->range) {
			return false;
		}
		if (env->prof->ptr_off_in_var) {
			/* 7.2: ids kept, and pointers sharing one keep their
			 * displacement (the start of the whole range, r64.base) */
			if (!check_ids(m, o->id, c->id))
				return false;
			if (o->id && whole_base(env, o) != whole_base(env, c))
				return false;
			return whole_subset(env, o, c);
		}
		if (o->off != c->off)
			return false;
		if (!check_ids(m, o->id, c->id))
			return false;
		return env->t->is_subset(&o->val, &c->val);
	default:
		return regs_exact(env, o, c, m);
	}
}

/* the unbound scalar misc bytes stand for (the kernel's env->fake_reg
 * of scalar_reg_for_stack), made once per verification */
static const struct rb_reg *unbound_reg(struct rb_env *env)
{
	if (!env->unbound_ready) {
		rb_reg_unknown(env, &env->unbound);
		env->unbound_ready = true;
	}
	return &env->unbound;
}

/* a slot's byte types as one word (all invalid or misc: no bit outside MISC8) */
#define SPILL8 (0x0101010101010101ull * SLOT_SPILL)
#define MISC8 (0x0101010101010101ull * SLOT_MISC)
_Static_assert(SLOT_INVALID == 0 && SLOT_MISC == 2, "slot type values");
static inline uint64_t type_word(const uint8_t type[8])
{
	uint64_t w;
	return memcpy(&w, type, 8), w;
}

static const struct rb_reg *slot_scalar(struct rb_env *env, const struct rb_slot *s)
{
	/* scalar_reg_for_stack: a 64-bit scalar spill, or 8 misc bytes (an unknown
	 * scalar; is_stack_all_misc: invalid counts as misc, privileged) */
	uint64_t w = type_word(s->type);
	if (w == SPILL8)
		return s->spilled.type == RT_SCALAR ? &s->spilled : NULL;
	return w & ~MISC8 ? NULL : unbound_reg(env);
}

/* 7.2 scalar_reg_for_stack(stack, im), for the half slot starting at
 * byte b (0 or 4): a scalar spill whose byte b is spilled, or bytes b..7
 * all misc (or invalid: allow_uninit_stack), an unknown scalar */
static const struct rb_reg *half_scalar(struct rb_env *env, const struct rb_slot *s, int b)
{
	if (s->type[b] == SLOT_SPILL)
		return s->spilled.type == RT_SCALAR ? &s->spilled : NULL;
	/* bytes b..7 (little-endian: the word's high 8 * (8 - b) bits) */
	return (type_word(s->type) >> (8 * b)) & ~MISC8 ? NULL : unbound_reg(env);
}

/* a spilled scalar or misc bytes on both sides, compared as registers
 * (regsafe, so scalar ids are checked): 6.18 for whole 8-byte slots
 * only; 7.2 (profile.h stacksafe_half_scalars) per four-byte half, so a
 * 32-bit spill matches misc bytes. *skip: the bytes compared after i.
 * The registers are pointed to, not copied (as the kernel's are). */
static bool scalar_slots(struct rb_env *env, const struct rb_slot *os, const struct rb_slot *cs, int b,
			 const struct rb_reg **or_, const struct rb_reg **cr, int *skip)
{
	if (env->prof->stacksafe_half_scalars) {
		*skip = b == 0 ? 7 : 3;
		return (b == 0 || b == 4) && (*or_ = half_scalar(env, os, b)) && (*cr = half_scalar(env, cs, b));
	}
	*skip = 7 - b;
	return (*or_ = slot_scalar(env, os)) && (*cr = slot_scalar(env, cs));
}

/* 6.18 stacksafe's bytes of one slot (cs NULL: past the current stack) */
static bool slot_safe(struct rb_env *env, const struct rb_slot *os, const struct rb_slot *cs, struct idmap *m,
		      int exact)
{
	for (int b = 0; b < 8; b++) {
		uint8_t ot = os->type[b];
		uint8_t ct = cs ? cs->type[b] : SLOT_INVALID;
		/* 6.18.44: slot types must agree only for EXACT; within a
		 * loop (RANGE_WITHIN) an invalid or misc old slot matches
		 * anything, as outside ("bpf: allow states pruning for
		 * misc/invalid slots in iterator loops", in 6.18 stable;
		 * measured: strobemeta_bpf_loop's log equals the kernel's
		 * only so) */
		if (exact == EXACT && (!cs || ot != ct))
			return false;
		if (ot == SLOT_INVALID)
			continue;
		if (ot == SLOT_MISC) /* allow_uninit_stack: misc matches anything */
			continue;
		if (!cs)
			return false;
		const struct rb_reg *or_, *cr;
		int skip;
		if (scalar_slots(env, os, cs, b, &or_, &cr, &skip)) {
			if (!regsafe(env, or_, cr, m, exact))
				return false;
			b += skip;
			continue;
		}
		if (ot != ct)
			return false;
		if (b != 7)
			continue;
		if (ot == SLOT_SPILL && !regsafe(env, &os->spilled, &cs->spilled, m, exact))
			return false;
		if (ot == SLOT_DYNPTR) {
			/* the dynptr's type, which slot it is and its reference */
			const struct rb_reg *orr = &os->spilled, *crr = &cs->spilled;
			if (orr->map_idx != crr->map_idx || orr->range != crr->range ||
			    !check_ids(m, orr->ref_obj_id, crr->ref_obj_id))
				return false;
			/* 7.2: and its id (profile.h dynptr_parent_ids) */
			if (env->prof->dynptr_parent_ids && !check_ids(m, orr->id, crr->id))
				return false;
		}
		if (ot == SLOT_IRQ_FLAG) {
			/* the flag's reference and the kfuncs that saved it */
			const struct rb_reg *orr = &os->spilled, *crr = &cs->spilled;
			if (!check_ids(m, orr->id, crr->id) || RB_IRQ_CLASS(orr) != RB_IRQ_CLASS(crr))
				return false;
		}
		if (ot == SLOT_ITER) {
			/* the iterator's type, state and reference (not its depth) */
			const struct rb_reg *orr = &os->spilled, *crr = &cs->spilled;
			if (orr->map_idx != crr->map_idx || orr->range != crr->range ||
			    !check_ids(m, orr->ref_obj_id, crr->ref_obj_id))
				return false;
		}
	}
	return true;
}

static bool stacksafe(struct rb_env *env, const struct rb_func *o, const struct rb_func *c, struct idmap *m,
		      int exact)
{
	for (int spi = 0; spi < o->nslots; spi++) {
		const struct rb_slot *os = &o->stack[spi], *cs = spi < c->nslots ? &c->stack[spi] : NULL;
		/* old bytes all invalid or misc: as byte by byte (EXACT: the same types), at once */
		uint64_t ow = type_word(os->type);
		if (!(ow & ~MISC8)) {
			if (exact == EXACT && (!cs || type_word(cs->type) != ow))
				return false;
			continue;
		}
		/* 6.18, a whole spill (the bytes as below, in fewer steps): a
		 * scalar against a scalar (spilled or misc) as registers; any
		 * other spill only against a whole spill, its register */
		if (ow == SPILL8 && cs && !env->prof->stacksafe_half_scalars) {
			const struct rb_reg *cr;
			if (os->spilled.type != RT_SCALAR) {
				if (type_word(cs->type) != SPILL8 || !regsafe(env, &os->spilled, &cs->spilled, m, exact))
					return false;
				continue;
			}
			if (exact == EXACT && cs->type[0] != SLOT_SPILL)
				return false;
			if ((cr = slot_scalar(env, cs))) {
				if (!regsafe(env, &os->spilled, cr, m, exact))
					return false;
				continue;
			}
		}
		if (!slot_safe(env, os, cs, m, exact))
			return false;
	}
	return true;
}

static bool refsafe(const struct rb_vstate *o, const struct rb_vstate *c, struct idmap *m)
{
	/* 6.18 active_rcu_lock, 7.2 active_rcu_locks, active_preempt_locks:
	 * equal (active_irq_id, the last IRQ entry's id, is checked with
	 * the entries) */
	if (o->nrefs != c->nrefs || o->active_rcu != c->active_rcu || o->active_preempt != c->active_preempt)
		return false;
	for (int i = 0; i < o->nrefs; i++) {
		if (!check_ids(m, o->refs[i], c->refs[i]))
			return false;
		/* the same type (REF_TYPE_PTR, REF_TYPE_IRQ, a lock); a held
		 * lock: the same kind of lock of the same map
		 * (REF_TYPE_LOCK, REF_TYPE_RES_LOCK[_IRQ] and their ptr) */
		if (RB_REF_IS_IRQ(o->ref_insns[i]) != RB_REF_IS_IRQ(c->ref_insns[i]))
			return false;
		bool ol = RB_REF_IS_LOCK(o->ref_insns[i]), cl = RB_REF_IS_LOCK(c->ref_insns[i]);
		if (ol != cl || (ol && o->ref_insns[i] != c->ref_insns[i]) ||
		    (o->ref_insns[i] == RB_REF_LOCK && o->lock_map != c->lock_map))
			return false;
	}
	return true;
}

bool rb_states_equal(struct rb_env *env, const struct rb_vstate *o, const struct rb_vstate *c, int exact)
{
	/* only the count and the temporary ids are reset (6.18
	 * reset_idmap_scratch): entries past m->n are never read; clearing the
	 * whole 4.8 KB map on every comparison cost more than the comparison */
	struct idmap map, *m = &map;
	m->n = 0;
	m->tmp = 0;
	bool ok = o->curframe == c->curframe && refsafe(o, c, m);
	for (int fr = 0; ok && fr <= o->curframe; fr++) {
		const struct rb_func *of = o->frame[fr], *cf = c->frame[fr];
		if (of->callsite != cf->callsite || of->callback_depth > cf->callback_depth) {
			ok = false;
			break;
		}
		uint16_t live = env->aux[rb_frame_insn_idx(o, fr)].live_regs;
		for (int i = 0; i < RB_MAX_REG && ok; i++)
			if (((1u << i) & live) && !regsafe(env, &of->regs[i], &cf->regs[i], m, exact))
				ok = false;
		if (ok && !stacksafe(env, of, cf, m, exact))
			ok = false;
	}
	return ok;
}

/* widen_imprecise_scalars (6.18): a scalar of cur that is imprecise in both
 * states and not exactly old's becomes unknown (registers and spilled
 * slots of every frame, one id map for the whole state). 7.2
 * (profile.h widen_ignores_ids): "exactly" is scalars_exact_for_widen,
 * everything before the id (value, delta), the ids themselves ignored */
static void maybe_widen_reg(struct rb_env *env, const struct rb_reg *o, struct rb_reg *c, struct idmap *m)
{
	if (o->type != RT_SCALAR || c->type != RT_SCALAR)
		return;
	if (o->precise || c->precise)
		return;
	if (env->prof->widen_ignores_ids ? same_nonval(o, c) && env->t->equal(&o->val, &c->val)
					 : regs_exact(env, o, c, m))
		return;
	rb_reg_unknown(env, c);
}

void rb_widen_imprecise_scalars(struct rb_env *env, const struct rb_vstate *old, struct rb_vstate *cur)
{
	struct idmap map, *m = &map;
	m->n = 0;
	m->tmp = 0;
	for (int fr = old->curframe; fr >= 0; fr--) {
		const struct rb_func *fo = old->frame[fr];
		struct rb_func *fc = cur->frame[fr];
		for (int i = 0; i < RB_MAX_REG; i++)
			maybe_widen_reg(env, &fo->regs[i], &fc->regs[i], m);
		int n = fo->nslots < fc->nslots ? fo->nslots : fc->nslots;
		for (int s = 0; s < n; s++)
			if (fo->stack[s].type[7] == SLOT_SPILL && fc->stack[s].type[7] == SLOT_SPILL)
				maybe_widen_reg(env, &fo->stack[s].spilled, &fc->stack[s].spilled, m);
	}
}

/* 6.18.44 states_maybe_looping(): the registers compare up to (not
 * including) frameno, so the precise flag is not part of it */
bool rb_states_maybe_looping(struct rb_env *env, const struct rb_vstate *o, const struct rb_vstate *c)
{
	if (o->curframe != c->curframe)
		return false;
	const struct rb_func *of = o->frame[o->curframe], *cf = c->frame[c->curframe];
	for (int i = 0; i < RB_MAX_REG; i++) {
		const struct rb_reg *a = &of->regs[i], *b = &cf->regs[i];
		if (a->type != b->type || a->id != b->id || !same_nonval(a, b) ||
		    a->ref_obj_id != b->ref_obj_id || !env->t->equal(&a->val, &b->val))
			return false;
	}
	return true;
}
