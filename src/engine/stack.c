/* stack.c — stack slots (Linux 6.18 check_stack_write_fixed_off,
 * check_stack_read_fixed_off, check_stack_access_within_bounds and the
 * stack part of check_helper_mem_access): spill/fill, misc/zero slots,
 * fixed and variable offsets, liveness marks. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/alu.h"
#include "engine/backtrack.h"
#include "engine/dynptr.h"
#include "engine/liveness.h"
#include "engine/log.h"
#include "engine/profile.h"
#include "engine/stack.h"
#include "engine/stack_depth.h"

/* stack helpers: slot index and byte position of "fp + off" */
static int grow_for(struct rb_env *env, struct rb_func *f, int min_off)
{
	int need = (-min_off + 7) / 8;
	if (need > f->nslots)
		rb_note_stack_depth(env, f, need * 8);
	if (rb_stack_grow(f, need))
		return RB_E_NOMEM;
	return 0;
}

static bool is_spill(const struct rb_slot *s) { return s->type[7] == SLOT_SPILL; }
/* is_stack_slot_special, for what a store over it scrubs: a spill or an
 * IRQ flag (iterators are kept as before; dynptrs are destroyed first) */
static bool is_special(const struct rb_slot *s) { return is_spill(s) || s->type[7] == SLOT_IRQ_FLAG; }

static bool spillable(const struct rb_reg *r)
{
	return r->type != RT_SCALAR && r->type != RT_NOT_INIT;
}

static void save_reg(struct rb_func *f, int spi, const struct rb_reg *reg, int size)
{
	struct rb_slot *s = &f->stack[spi];
	s->spilled = *reg;
	int i;
	for (i = 8; i > 8 - size; i--)
		s->type[i - 1] = SLOT_SPILL;
	for (; i; i--)
		if (s->type[i - 1] != SLOT_ZERO && s->type[i - 1] != SLOT_INVALID)
			s->type[i - 1] = SLOT_MISC;
}

/* scrub_spilled_slot: every initialised byte of a destroyed spill is misc */
static void scrub_special(struct rb_slot *s)
{
	for (int i = 0; i < 8; i++)
		if (s->type[i] != SLOT_INVALID)
			s->type[i] = SLOT_MISC;
}

static uint32_t stack_flags(int frameno, int spi)
{
	return RB_HF_STACK | ((uint32_t)frameno << 1) | ((uint32_t)spi << 4);
}


static int stack_write_fixed(struct rb_env *env, struct rb_func *f, int off, int size, int value_regno,
			     const struct bpf_insn *insn)
{
	int slot = -off - 1, spi = slot / 8;
	struct rb_reg *reg = value_regno >= 0 ? &rb_cur_regs(env)[value_regno] : NULL;
	struct rb_slot *s = &f->stack[spi];
	uint32_t hflags = stack_flags(f->frameno, spi);
	bool is_st = BPF_CLASS(insn->code) == BPF_ST;
	int err = rb_dynptr_destroy_slot(env, f, spi);
	if (err)
		return err;
	rb_scratch_slot(env, spi);
	/* 6.18 liveness: only a full 8-byte write kills the slot; a narrower
	 * one neither kills nor reads it */
	if (env->prof->stack_live_half_slots)
		rb_live_stack_bytes(env, f->frameno, off, size, true);
	else if (size == 8)
		rb_live_stack_access(env, f->frameno, spi, true);

	if (reg && !(off % 8) && reg->type == RT_SCALAR) {
		struct rb_bounds b;
		rb_reg_bounds(env, reg, &b);
		int width = b.umax ? 64 - __builtin_clzll(b.umax) : 0;
		bool fits = width <= 8 * size;
		if (fits)
			rb_assign_id_before_mov(env, reg);
		save_reg(f, spi, reg, size);
		if (!fits) {
			s->spilled.id = 0;
			s->spilled.off = 0;
		}
	} else if (!reg && !(off % 8) && is_st) {
		struct rb_reg tmp;
		rb_reg_const(env, &tmp, (uint64_t)(int64_t)insn->imm);
		save_reg(f, spi, &tmp, size);
	} else if (reg && spillable(reg)) {
		if (size != 8)
			return rb_reject(env, "invalid size of register spill");
		if (f != rb_cur_frame(env) && reg->type == RT_STACK)
			return rb_reject(env, "cannot spill pointers to stack into stack frame of the caller");
		save_reg(f, spi, reg, size);
	} else {
		uint8_t type = SLOT_MISC;
		memset(&s->spilled, 0, sizeof(s->spilled));
		if (is_special(s))
			scrub_special(s);
		bool zero = false;
		if (reg && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0)
			zero = true;
		if (!reg && is_st && insn->imm == 0)
			zero = true;
		if (zero) {
			if (reg) {
				err = rb_mark_chain_precision(env, value_regno);
				if (err)
					return err;
			}
			type = SLOT_ZERO;
		}
		for (int i = 0; i < size; i++)
			s->type[(slot - i) % 8] = type;
		hflags = 0;
	}
	if (hflags)
		return rb_push_hist(env, env->cur, hflags);
	return 0;
}

static int stack_read_fixed(struct rb_env *env, struct rb_func *f, int off, int size, int dst_regno, bool sext)
{
	int slot = -off - 1, spi = slot / 8;
	struct rb_slot *s = &f->stack[spi];
	struct rb_reg *regs = rb_cur_regs(env);
	uint32_t hflags = stack_flags(f->frameno, spi);
	rb_scratch_slot(env, spi);
	if (env->prof->stack_live_half_slots)
		rb_live_stack_bytes(env, f->frameno, off, size, false);
	else
		rb_live_stack_access(env, f->frameno, spi, false);
	if (is_spill(s)) {
		int spill_size = 1;
		for (int i = 7; i > 0 && s->type[i - 1] == SLOT_SPILL; i--)
			spill_size++;
		struct rb_reg *reg = &s->spilled;
		if (size != 8 || spill_size != 8) {
			if (reg->type != RT_SCALAR)
				return rb_reject(env, "invalid size of register fill");
			if (dst_regno < 0)
				return 0;
			/* bpf_stack_narrow_access_ok: little endian, reading the low bytes */
			if (size <= spill_size && (off % 8) == 0) {
				struct rb_bounds b;
				rb_reg_bounds(env, reg, &b);
				int width = b.umax ? 64 - __builtin_clzll(b.umax) : 0;
				if (size == 4 && spill_size == 4 && width <= 32)
					rb_assign_id_before_mov(env, reg);
				regs[dst_regno] = *reg;
				/* a narrowing fill breaks the link; so does a
				 * sign-extending one that may change the value
				 * (6.18.44 keeps the id of an LDSX fill only when
				 * the narrow value's sign bit is known clear) */
				if (width > size * 8 || (sext && width >= size * 8)) {
					regs[dst_regno].id = 0;
					regs[dst_regno].off = 0;
				}
			} else {
				int spill_cnt = 0, zero_cnt = 0;
				for (int i = 0; i < size; i++) {
					uint8_t t = s->type[(slot - i) % 8];
					if (t == SLOT_SPILL)
						spill_cnt++;
					else if (t == SLOT_ZERO)
						zero_cnt++;
				}
				if (spill_cnt == size && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0) {
					rb_reg_const(env, &regs[dst_regno], 0);
				} else if (zero_cnt == size) {
					rb_reg_const(env, &regs[dst_regno], 0);
					hflags = 0;
				} else {
					rb_reg_unknown(env, &regs[dst_regno]);
					hflags = 0;
				}
			}
		} else if (dst_regno >= 0) {
			/* 6.18.44 gives no id on a full fill (measured: a spilled
			 * scalar widened to unknown by a callback loop fills
			 * without one); a spill gave every non-constant one.
			 * 7.2.13 (profile.h fill_assigns_id) gives the slot one
			 * before the copy, so the two are linked */
			if (env->prof->fill_assigns_id)
				rb_assign_id_before_mov(env, reg);
			regs[dst_regno] = *reg;
		}
	} else {
		int zeros = 0;
		for (int i = 0; i < size; i++) {
			uint8_t t = s->type[(slot - i) % 8];
			if (t == SLOT_ZERO)
				zeros++;
			/* SLOT_INVALID is readable for a privileged loader
			 * (allow_uninit_stack); a dynptr's or iterator's bytes are not */
			if (t == SLOT_DYNPTR || t == SLOT_ITER || t == SLOT_IRQ_FLAG)
				return rb_reject(env, "invalid read from stack off %d+%d size %d", off, i, size);
		}
		if (dst_regno >= 0) {
			if (zeros == size)
				rb_reg_const(env, &regs[dst_regno], 0);
			else
				rb_reg_unknown(env, &regs[dst_regno]);
		}
		hflags = 0;
	}
	if (hflags)
		return rb_push_hist(env, env->cur, hflags);
	return 0;
}

/* check_stack_range_initialized's read of [min_off, min_off + n): a byte
 * of a dynptr or an iterator (not a spill, misc, zero or invalid byte) */
static int special_bytes(struct rb_env *env, int regno, const struct rb_reg *reg, const struct rb_func *f, int min_off,
			 int n)
{
	for (int i = 0; i < n; i++) {
		int slot = -(min_off + i) - 1;
		if (slot / 8 >= f->nslots)
			continue;
		uint8_t t = f->stack[slot / 8].type[slot % 8];
		if (t != SLOT_DYNPTR && t != SLOT_ITER && t != SLOT_IRQ_FLAG)
			continue;
		if (env->t->is_const(&reg->val))
			return rb_reject(env, "invalid read from stack R%d off %d+%d size %d", regno, min_off, i, n);
		struct rb_bounds b;
		rb_reg_bounds(env, reg, &b);
		char tn[48];
		return rb_reject(env, "invalid read from stack R%d var_off %s+%d size %d", regno,
				 rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn)), i, n);
	}
	return 0;
}

/* kind: 0 read, 1 write (the kernel's err_extra; 6.18 names helper
 * accesses by their direction too: "invalid read from stack") */
static int check_stack_bounds(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size,
			      int *min_off, int *max_off, int kind)
{
	static const char *const extra[] = {" read from", " write to"};
	char tn[64];
	if (env->t->is_const(&reg->val)) {
		int64_t o = (int64_t)rb_reg_const_val(env, reg) + off;
		if (o < -RB_MAX_STACK || o + size > 0 || size <= 0)
			return rb_reject(env, "invalid%s stack R%d off=%lld size=%d", extra[kind], regno, (long long)o,
					 size);
		*min_off = *max_off = (int)o;
		return 0;
	}
	struct rb_bounds b;
	if (env->prof->ptr_off_in_var) {
		/* 7.2 check_stack_access_within_bounds: the pointer's whole
		 * range and var_off (its constant included, profile.h
		 * ptr_off_in_var), off the instruction's alone; the same
		 * slots as 6.18's (off, value), worded as 7.2.13 */
		rb_ptr_whole_bounds(env, reg, &b);
		off -= reg->off;
	} else {
		rb_reg_bounds(env, reg, &b);
	}
	if (b.smax >= RB_MAX_VAR_OFF || b.smin <= -RB_MAX_VAR_OFF) {
		rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn));
		return rb_reject(env, "invalid unbounded variable-offset%s stack R%d", extra[kind], regno);
	}
	int64_t lo = b.smin + off, hi = b.smax + off;
	if (lo < -RB_MAX_STACK || hi + size > 0 || size <= 0) {
		rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn));
		return rb_reject(env, "invalid variable-offset%s stack R%d var_off=%s off=%d size=%d", extra[kind], regno,
				 tn, off, size);
	}
	*min_off = (int)lo;
	*max_off = (int)hi;
	return 0;
}

int rb_check_stack_access(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size,
			      bool write, int value_regno, bool sext, const struct bpf_insn *insn)
{
	struct rb_func *f = env->cur->frame[reg->frameno];
	int min_off, max_off, err;
	/* stack accesses must be aligned: the spill tracking relies on it */
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	if (size > 1) {
		uint64_t lowmask = (uint64_t)size - 1;
		if ((b.var_off.mask & lowmask) || ((b.var_off.value + (uint64_t)(int64_t)off) & lowmask)) {
			char tn[48];
			if (env->prof->ptr_off_in_var) {
				/* 7.2 check_generic_ptr_alignment prints the
				 * whole var_off and the instruction's offset */
				struct rb_bounds w;
				rb_ptr_whole_bounds(env, reg, &w);
				int64_t sv = (int64_t)w.var_off.value;
				if (!w.var_off.mask && w.var_off.value > 0xffff && sv >= INT16_MIN && sv <= INT16_MAX)
					/* 7.2 tnum_strn: a small negative constant in decimal */
					snprintf(tn, sizeof(tn), "%lld", (long long)sv);
				else
					rb_tnum_str(w.var_off.value, w.var_off.mask, tn, sizeof(tn));
				return rb_reject(env, "misaligned stack access off %s+%d size %d", tn, off - reg->off,
						 size);
			}
			rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn));
			return rb_reject(env, "misaligned stack access off %s+%d+%d size %d", tn, reg->off,
					 off - reg->off, size);
		}
	}
	if ((err = check_stack_bounds(env, regno, reg, off, size, &min_off, &max_off, write ? 1 : 0)))
		return err;
	if ((err = grow_for(env, f, min_off)))
		return err;
	if (min_off == max_off && env->t->is_const(&reg->val)) {
		if (write)
			return stack_write_fixed(env, f, min_off, size, value_regno, insn);
		return stack_read_fixed(env, f, min_off, size, value_regno, sext);
	}
	/* variable offset */
	struct rb_reg *regs = rb_cur_regs(env);
	if (write) {
		struct rb_reg *vreg = value_regno >= 0 ? &regs[value_regno] : NULL;
		/* 6.18.44 check_stack_write_var_off(): a zero is written by a
		 * known-zero register or by BPF_ST with imm 0; where it may land,
		 * bytes that were STACK_ZERO stay STACK_ZERO */
		bool writing_zero = (vreg && rb_reg_is_const(env, vreg) && rb_reg_const_val(env, vreg) == 0) ||
				    (!vreg && BPF_CLASS(insn->code) == BPF_ST && insn->imm == 0);
		bool zero_used = false;
		for (int i = min_off; i < max_off + size; i++)
			if ((err = rb_dynptr_destroy_slot(env, f, (-i - 1) / 8)))
				return err;
		for (int i = min_off; i < max_off + size; i++) {
			int slot = -i - 1, spi = slot / 8;
			struct rb_slot *sl = &f->stack[spi];
			uint8_t *st = &sl->type[slot % 8];
			/* 6.18.44 marks no liveness here: the write may miss the
			 * slot, so it is neither a sure write nor a read */
			rb_scratch_slot(env, spi);
			/* 6.18.44: zero written over a spilled constant 0 keeps the spill */
			if (writing_zero && *st == SLOT_SPILL && is_spill(sl) && sl->spilled.type == RT_SCALAR &&
			    rb_reg_is_const(env, &sl->spilled) && rb_reg_const_val(env, &sl->spilled) == 0) {
				zero_used = true;
				continue;
			}
			/* scrub_special_slot(): a spill the write goes over becomes misc
			 * data in all its initialised bytes */
			if (is_special(sl))
				scrub_special(sl);
			memset(&sl->spilled, 0, sizeof(struct rb_reg));
			uint8_t nt = SLOT_MISC;
			if (writing_zero && *st == SLOT_ZERO) {
				nt = SLOT_ZERO;
				zero_used = true;
			}
			*st = nt;
		}
		/* mark_chain_precision(env, -1) (the BPF_ST case) marks nothing */
		if (zero_used && value_regno >= 0)
			return rb_mark_chain_precision(env, value_regno);
		return 0;
	}
	int zeros = 0;
	if ((err = special_bytes(env, regno, reg, f, min_off, max_off + size - min_off)))
		return err;
	for (int i = min_off; i < max_off + size; i++) {
		int slot = -i - 1, spi = slot / 8;
		if (env->prof->stack_live_half_slots)
			rb_live_stack_bytes(env, f->frameno, i, 1, false);
		else
			rb_live_stack_access(env, f->frameno, spi, false);
	}
	/* 6.18.44 mark_reg_stack_read(): slots are scratched (logged) up to the
	 * first byte that is not STACK_ZERO */
	for (int i = min_off; i < max_off + size; i++) {
		int slot = -i - 1, spi = slot / 8;
		rb_scratch_slot(env, spi);
		if (f->stack[spi].type[slot % 8] != SLOT_ZERO)
			break;
		zeros++;
	}
	if (value_regno >= 0) {
		if (zeros == max_off + size - min_off)
			rb_reg_const(env, &regs[value_regno], 0);
		else
			rb_reg_unknown(env, &regs[value_regno]);
	}
	return 0;
}

/* the stack part of check_helper_mem_access: [reg + off, + sz) of the
 * stack is read, or written by the helper as `use` says */
int rb_check_stack_range(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int sz, bool zero_ok,
			 enum rb_mem_use use)
{
	struct rb_func *f = env->cur->frame[reg->frameno];
	int min_off, max_off, err;
	bool write_uninit = use != RB_MEM_READ;
	if (sz == 0 && zero_ok)
		return 0;
	if ((err = check_stack_bounds(env, regno, reg, off, sz, &min_off, &max_off, write_uninit ? 1 : 0)))
		return err;
	/* 6.18 check_stack_range_initialized: raw mode only at a constant
	 * offset (a variable one drops meta and is checked as a clobbering
	 * write) */
	bool raw = use == RB_MEM_RAW && env->t->is_const(&reg->val);
	/* check_stack_range_initialized: a helper writing raw memory may not
	 * overlap a dynptr; one reading may not read a dynptr's or an
	 * iterator's bytes */
	for (int i = min_off; write_uninit && i < max_off + sz; i++) {
		int slot = -i - 1;
		if (slot / 8 < f->nslots && f->stack[slot / 8].type[slot % 8] == SLOT_DYNPTR)
			return rb_reject(env, "potential write to dynptr at off=%d disallowed", i);
	}
	if (!write_uninit && (err = special_bytes(env, regno, reg, f, min_off, max_off + sz - min_off)))
		return err;
	if ((err = grow_for(env, f, min_off)))
		return err;
	for (int i = min_off; i < max_off + sz; i++) {
		int slot = -i - 1, spi = slot / 8;
		/* raw mode returns before the slots are read; the helper's
		 * writes after the call are one-byte stores, which mark no
		 * liveness (only a full 8-byte store is a write) */
		if (env->prof->stack_live_half_slots)
			/* 7.2's static pass: a helper's write of known size
			 * defines the half slots it covers */
			rb_live_stack_bytes(env, f->frameno, raw ? min_off : i, raw ? sz : 1, raw);
		else if (!raw)
			rb_live_stack_access(env, f->frameno, spi, false);
		if (write_uninit) {
			rb_scratch_slot(env, spi);
			/* the helper writes these bytes: they become misc data */
			uint8_t *t = &f->stack[spi].type[slot % 8];
			if (is_special(&f->stack[spi])) {
				scrub_special(&f->stack[spi]);
				memset(&f->stack[spi].spilled, 0, sizeof(struct rb_reg));
			}
			*t = SLOT_MISC;
		} else if (is_spill(&f->stack[spi]) && f->stack[spi].spilled.type == RT_SCALAR) {
			/* a spilled scalar read as memory becomes misc (privileged) */
		}
	}
	return 0;
}

int rb_stack_obj_spi(struct rb_env *env, const struct rb_reg *reg, const char *kind, int nr_slots, int *spi, int *off,
		     char *msg, size_t len)
{
	msg[0] = 0;
	if (!env->t->is_const(&reg->val)) {
		snprintf(msg, len, "%s has to be at a constant offset", kind);
		return -1;
	}
	*off = reg->off + (int)rb_reg_const_val(env, reg);
	*spi = (-*off - 1) / 8;
	if (*off % 8 || *spi + 1 < nr_slots) {
		snprintf(msg, len, "cannot pass in %s at an offset=%d", kind, *off);
		return -1;
	}
	const struct rb_func *f = env->cur->frame[reg->frameno];
	return *spi - nr_slots + 1 < 0 || *spi >= f->nslots ? 1 : 0;
}
