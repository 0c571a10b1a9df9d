/* bt_step.h — the backtracking step of an instruction decoded once per
 * program (bt_step.c) and taken without backtrack.c's backtrack_insn
 * where that is its whole effect (an engine shortcut: the effect is the
 * one Linux 6.18 backtrack_insn computes). */
#ifndef RB_ENGINE_BT_STEP_H
#define RB_ENGINE_BT_STEP_H

#include "engine/state.h"

/* r1-r5: a call's arguments */
#define ARGS_MASK 0x3e

/* The step of one instruction on the current frame's requested registers,
 * decoded once per program: if regs & trig, regs = (regs & ~clear) | set.
 * It is backtrack_insn's whole effect when no bit of slow is requested
 * (BT_ALWAYS: never) and the insn's history entry, if any, holds no linked
 * registers and no stack access; linked registers of the walk's frame are
 * synced around it (fast_step); with a stack access, a load (BT_LOAD) of
 * a requested register requests the slot instead, and a store (BT_STORE)
 * to a requested slot requests `set` (the stored register) instead.
 * Otherwise backtrack_insn runs. BT_LOAD and BT_STORE sit in slow above
 * every register: a requested register that high only means the slow way. */
struct rb_bt_desc {
	uint16_t trig, clear, set, slow;
};
#define BT_ALWAYS 0x8000u
#define BT_LOAD 0x4000u
#define BT_STORE 0x2000u

/* per insn, built on first use (env->bt_desc); NULL when out of memory */
const struct rb_bt_desc *rb_bt_descs(struct rb_env *env);

/* bt_sync_linked_regs on frame fr's requests (regs, stack) alone: false
 * when an entry is of another frame (backtrack_insn takes it) */
static inline bool rb_bt_linked_step(uint64_t linked, int fr, uint32_t *regs, uint64_t *stack)
{
	int cnt = (int)(linked >> 60);
	uint32_t lr = 0;
	uint64_t ls = 0;
	for (int k = 0; k < cnt; k++) {
		unsigned e = (unsigned)(linked >> (10 * k)) & 0x3ff;
		if ((int)(e & 7) != fr)
			return false;
		if (e & 8)
			lr |= 1u << (e >> 4);
		else
			ls |= 1ull << (e >> 4);
	}
	if ((*regs & lr) || (*stack & ls)) {
		*regs |= lr;
		*stack |= ls;
	}
	return true;
}

/* the decoded step of insn i on frame fr's requests (*regs, env->bt_stack[fr]);
 * h: its history entry or NULL. false: backtrack_insn must take it (nothing
 * changed). *stk: it reached a stack slot of frame (h's). Linked registers
 * of frame fr alone are synced before and after, as backtrack_insn does */
static inline bool rb_bt_fast_step(struct rb_env *env, const struct rb_bt_desc *d, const struct rb_hist *h, int fr,
			     uint32_t *regs, int *stk)
{
	if (!h || (!(h->flags & RB_HF_STACK) && !h->linked)) {
		if (((*regs | BT_ALWAYS) & d->slow))
			return false;
		if (*regs & d->trig)
			*regs = (*regs & ~(uint32_t)d->clear) | d->set;
		return true;
	}
	uint32_t r = *regs;
	uint64_t own = env->bt_stack[fr];
	if ((h->linked && !rb_bt_linked_step(h->linked, fr, &r, &own)) || ((r | BT_ALWAYS) & d->slow))
		return false;
	if (!(h->flags & RB_HF_STACK)) {
		if (r & d->trig)
			r = (r & ~(uint32_t)d->clear) | d->set;
	} else {
		int hfr = (int)((h->flags >> 1) & 7);
		if (!(d->slow & (BT_LOAD | BT_STORE)) || (h->linked && hfr != fr))
			return false;
		uint64_t *stack = hfr == fr ? &own : &env->bt_stack[hfr];
		uint64_t bit = 1ull << (h->flags >> 4);
		*stk = hfr;
		if (d->slow & BT_LOAD) {
			if (r & d->trig) {
				r &= ~(uint32_t)d->clear;
				*stack |= bit;
			}
		} else if (*stack & bit) {
			*stack &= ~bit;
			r |= d->set;
		}
	}
	if (h->linked)
		rb_bt_linked_step(h->linked, fr, &r, &own);
	*regs = r;
	env->bt_stack[fr] = own;
	return true;
}

#endif
