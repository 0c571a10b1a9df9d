/* mem.c — loads and stores (Linux 6.18 check_mem_access and friends):
 * stack (spill/fill, misc/zero slots, fixed and variable offsets), ctx,
 * map values (read-only global data read as constants), packets, helper
 * memory. Privileged loader semantics (allow_uninit_stack, allow_ptr_leaks). */
#include <string.h>

#include "engine/alu.h"
#include "engine/backtrack.h"
#include "engine/btf.h"
#include "engine/ctx.h"
#include "engine/liveness.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/prog_types.h"


static int check_mem_region(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size,
			    uint32_t mem_size, bool zero_ok, const char *what)
{
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	if (b.smin < 0 && (b.smin == INT64_MIN || (int64_t)off + b.smin != (int64_t)(int32_t)(off + b.smin) ||
			   b.smin + off < 0))
		return rb_reject(env,
				 "R%d min value is negative, either use unsigned index or do a if (index >=0) check.",
				 regno);
	int64_t lo = b.smin + off;
	bool size_ok = size > 0 || (size == 0 && zero_ok);
	if (!(lo >= 0 && size_ok && (uint64_t)lo + (uint64_t)size <= mem_size)) {
		if (!strcmp(what, "map"))
			rb_log(env, "invalid access to map value, value_size=%u off=%lld size=%d\n", mem_size,
			       (long long)lo, size);
		else
			rb_log(env, "invalid access to memory, mem_size=%u off=%lld size=%d\n", mem_size,
			       (long long)lo, size);
		return rb_reject(env, "R%d min value is outside of the allowed memory range", regno);
	}
	if (b.umax >= RB_MAX_VAR_OFF)
		return rb_reject(env, "R%d unbounded memory access, make sure to bounds check any such access",
				 regno);
	uint64_t hi = b.umax + (uint64_t)(int64_t)off;
	if (!((int64_t)hi >= 0 && size_ok && hi + (uint64_t)size <= mem_size)) {
		if (!strcmp(what, "map"))
			rb_log(env, "invalid access to map value, value_size=%u off=%lld size=%d\n", mem_size,
			       (long long)hi, size);
		else
			rb_log(env, "invalid access to memory, mem_size=%u off=%lld size=%d\n", mem_size,
			       (long long)hi, size);
		return rb_reject(env, "R%d max value is outside of the allowed memory range", regno);
	}
	return 0;
}

static int check_packet(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size, bool zero_ok)
{
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	if (b.smin < 0)
		return rb_reject(env,
				 "R%d min value is negative, either use unsigned index or do a if (index >=0) check.",
				 regno);
	bool size_ok = size > 0 || (size == 0 && zero_ok);
	if (reg->range < 0 || !(off >= 0 && size_ok && (int64_t)off + size <= reg->range)) {
		rb_log(env, "invalid access to packet, off=%d size=%d, R%d(id=%u,off=%d,r=%d)\n", off, size, regno,
		       reg->id, reg->off, reg->range);
		return rb_reject(env, "R%d offset is outside of the packet", regno);
	}
	return 0;
}

/* stack helpers: slot index and byte position of "fp + off" */
static int grow_for(struct rb_env *env, struct rb_func *f, int min_off)
{
	int need = (-min_off + 7) / 8;
	if (rb_stack_grow(f, need))
		return RB_E_NOMEM;
	(void)env;
	return 0;
}

static bool is_spill(const struct rb_slot *s) { return s->type[7] == SLOT_SPILL; }

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
	rb_scratch_slot(env, spi);
	rb_live_stack_access(env, f->frameno, spi, size == 8);

	if (reg && !(off % 8) && reg->type == RT_SCALAR) {
		struct rb_bounds b;
		rb_reg_bounds(env, reg, &b);
		int width = b.umax ? 64 - __builtin_clzll(b.umax) : 0;
		bool fits = width <= 8 * size;
		if (fits)
			rb_assign_id_before_mov(env, reg);
		save_reg(f, spi, reg, size);
		if (!fits)
			s->spilled.id = 0;
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
		if (is_spill(s))
			scrub_special(s);
		bool zero = false;
		if (reg && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0)
			zero = true;
		if (!reg && is_st && insn->imm == 0)
			zero = true;
		if (zero) {
			if (reg) {
				int err = rb_mark_chain_precision(env, value_regno);
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
				if (width > size * 8 || (sext && width >= size * 8))
					regs[dst_regno].id = 0;
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
			rb_assign_id_before_mov(env, reg);
			regs[dst_regno] = *reg;
		}
	} else {
		int zeros = 0;
		for (int i = 0; i < size; i++) {
			uint8_t t = s->type[(slot - i) % 8];
			if (t == SLOT_ZERO)
				zeros++;
			/* SLOT_INVALID is readable for a privileged loader (allow_uninit_stack) */
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

/* kind: 0 read, 1 write, 2 helper (the kernel's err_extra) */
static int check_stack_bounds(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size,
			      int *min_off, int *max_off, int kind)
{
	static const char *const extra[] = {" read from", " write to", " indirect access to"};
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
	rb_reg_bounds(env, reg, &b);
	if (b.smax >= RB_MAX_VAR_OFF || b.smin <= -RB_MAX_VAR_OFF) {
		snprintf(tn, sizeof(tn), "(%#llx; %#llx)", (unsigned long long)b.var_off.value,
			 (unsigned long long)b.var_off.mask);
		return rb_reject(env, "invalid unbounded variable-offset%s stack R%d", extra[kind], regno);
	}
	int64_t lo = b.smin + off, hi = b.smax + off;
	if (lo < -RB_MAX_STACK || hi + size > 0 || size <= 0) {
		snprintf(tn, sizeof(tn), "(%#llx; %#llx)", (unsigned long long)b.var_off.value,
			 (unsigned long long)b.var_off.mask);
		return rb_reject(env, "invalid variable-offset%s stack R%d var_off=%s off=%d size=%d", extra[kind], regno,
				 tn, off, size);
	}
	*min_off = (int)lo;
	*max_off = (int)hi;
	return 0;
}

static int check_stack_access(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size,
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
			snprintf(tn, sizeof(tn), "(%#llx; %#llx)", (unsigned long long)b.var_off.value,
				 (unsigned long long)b.var_off.mask);
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
		bool writing_zero = vreg && rb_reg_is_const(env, vreg) && rb_reg_const_val(env, vreg) == 0;
		bool zero_used = false;
		for (int i = min_off; i < max_off + size; i++) {
			int slot = -i - 1, spi = slot / 8;
			uint8_t *st = &f->stack[spi].type[slot % 8];
			rb_scratch_slot(env, spi);
			rb_live_stack_access(env, f->frameno, spi, false);
			memset(&f->stack[spi].spilled, 0, sizeof(struct rb_reg));
			uint8_t nt = SLOT_MISC;
			if (writing_zero && *st == SLOT_ZERO) {
				nt = SLOT_ZERO;
				zero_used = true;
			}
			*st = nt;
		}
		if (zero_used)
			return rb_mark_chain_precision(env, value_regno);
		return 0;
	}
	int zeros = 0;
	for (int i = min_off; i < max_off + size; i++) {
		int slot = -i - 1, spi = slot / 8;
		rb_scratch_slot(env, spi);
		rb_live_stack_access(env, f->frameno, spi, false);
		if (f->stack[spi].type[slot % 8] == SLOT_ZERO)
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

int rb_check_mem_access(struct rb_env *env, int insn_idx, int regno, int off, int size, bool write,
			int value_regno, bool sext, bool unused)
{
	(void)unused;
	(void)insn_idx;
	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_reg reg = regs[regno];
	const struct bpf_insn *insn = &env->insns[env->insn_idx];
	char tn[48];
	int err = 0;
	off += reg.off;
	rb_rtype_str(&reg, tn, sizeof(tn));

	if (reg.flags & RF_MAYBE_NULL)
		return rb_reject(env, "R%d invalid mem access '%s'", regno, tn);

	switch (reg.type) {
	case RT_MAP_VALUE: {
		const struct rb_map *m = &env->obj->maps[reg.map_idx];
		bool rdonly = (m->map_flags & BPF_F_RDONLY_PROG) != 0;
		if (write && rdonly)
			return rb_reject(env, "write into map forbidden, value_size=%u off=%d size=%d", m->value_size,
					 off, size);
		if ((err = check_mem_region(env, regno, &reg, off, size, m->value_size, false, "map")))
			return err;
		if (!write && value_regno >= 0) {
			if (rdonly && m->frozen && m->init && env->t->is_const(&reg.val)) {
				uint64_t o = rb_reg_const_val(env, &reg) + (uint64_t)(int64_t)off;
				if (o + (uint64_t)size <= m->init_size) {
					uint64_t v = 0;
					memcpy(&v, m->init + o, (size_t)size);
					if (sext) {
						int sh = 64 - 8 * size;
						v = (uint64_t)((int64_t)(v << sh) >> sh);
					}
					rb_reg_const(env, &regs[value_regno], v);
					return 0;
				}
			}
			rb_reg_unknown(env, &regs[value_regno]);
		}
		break;
	}
	case RT_MEM: {
		if (write && (reg.flags & RF_RDONLY))
			return rb_reject(env, "R%d cannot write into %s", regno, tn);
		if ((err = check_mem_region(env, regno, &reg, off, size, (uint32_t)reg.range, false, "mem")))
			return err;
		if (!write && value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	}
	case RT_CTX: {
		if (reg.off)
			return rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno, reg.off);
		if (!env->t->is_const(&reg.val) || rb_reg_const_val(env, &reg) != 0) {
			struct rb_bounds b;
			rb_reg_bounds(env, &reg, &b);
			return rb_reject(env, "variable ctx access var_off=(%#llx; %#llx) disallowed",
					 (unsigned long long)b.var_off.value, (unsigned long long)b.var_off.mask);
		}
		if (env->ptype->flags & PT_BTF_CTX) {
			struct rb_reg v;
			if ((err = rb_btf_ctx_access(env, off, size, write, &v)))
				return err;
			if (value_regno >= 0)
				regs[value_regno] = v;
			break;
		}
		struct rb_ctx_access ca;
		if ((err = rb_ctx_access(env, off, size, write, &ca)))
			return err;
		if (!write && value_regno >= 0) {
			if (ca.reg_type == RT_SCALAR) {
				rb_reg_unknown(env, &regs[value_regno]);
			} else {
				rb_reg_ptr(env, &regs[value_regno], ca.reg_type);
				regs[value_regno].flags = ca.flags;
				if (ca.flags & RF_MAYBE_NULL)
					regs[value_regno].id = ++env->id_gen;
			}
		}
		break;
	}
	case RT_STACK:
		err = check_stack_access(env, regno, &reg, off, size, write, value_regno, sext, insn);
		if (err)
			return err;
		break;
	case RT_PKT:
	case RT_PKT_META: {
		if (write && !(env->ptype->flags & PT_PKT_WRITE))
			return rb_reject(env, "cannot write into packet");
		if ((err = check_packet(env, regno, &reg, off, size, false)))
			return err;
		if (!write && value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	}
	case RT_XDP_SOCK:
		/* struct bpf_xdp_sock: only the u32 queue_id at offset 0 is readable */
		if (write || off != 0 || size != 4)
			return rb_reject(env, "invalid xdp_sock access off=%d size=%d", off, size);
		if (value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_BTF_ID: {
		struct rb_reg v;
		if ((err = rb_btf_load(env, &reg, regno, off, size, write, &v)))
			return err;
		if (value_regno >= 0)
			regs[value_regno] = v;
		break;
	}
	case RT_MAP_PTR:
		/* reads of struct bpf_map fields through BTF (6.18 check_map_ptr_access) */
		return rb_unsupported(env, "map pointer field access");
	case RT_SOCKET:
	case RT_SOCK_COMMON:
		if ((err = rb_sock_field_access(env, regno, tn, reg.type == RT_SOCK_COMMON, off, size, write)))
			return err;
		if (value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_FLOW_KEYS:
		/* check_flow_keys_access: inside struct bpf_flow_keys, read and write */
		if (write && value_regno >= 0 && rb_is_pointer(&regs[value_regno]))
			return rb_unsupported(env, "pointer stored into flow keys");
		if (size < 0 || off < 0 || (uint64_t)off + (uint64_t)size > sizeof(struct bpf_flow_keys))
			return rb_reject(env, "invalid access to flow keys off=%d size=%d", off, size);
		if (!write && value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_TP_BUFFER:
	case RT_TCP_SOCK:
		return rb_unsupported(env, "memory access through %s", tn);
	default:
		return rb_reject(env, "R%d invalid mem access '%s'", regno, tn);
	}
	if (!write && size < 8 && value_regno >= 0 && regs[value_regno].type == RT_SCALAR)
		env->t->truncate(&regs[value_regno].val, (unsigned)size * 8, sext);
	return 0;
}

static int bpf_size(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static int check_atomic(struct rb_env *env, const struct bpf_insn *insn)
{
	int size = bpf_size(insn->code), err;
	switch (insn->imm) {
	case BPF_ADD:
	case BPF_ADD | BPF_FETCH:
	case BPF_AND:
	case BPF_AND | BPF_FETCH:
	case BPF_OR:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR:
	case BPF_XOR | BPF_FETCH:
	case BPF_XCHG:
	case BPF_CMPXCHG:
		break;
	default:
		return rb_unsupported(env, "atomic op %#x", insn->imm);
	}
	if (size != 4 && size != 8)
		return rb_reject(env, "invalid atomic operand size");
	if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_read(env, insn->dst_reg)))
		return err;
	struct rb_reg *regs = rb_cur_regs(env);
	if (insn->imm == BPF_CMPXCHG && (err = rb_check_reg_read(env, 0)))
		return err;
	if (rb_is_pointer(&regs[insn->src_reg]))
		return rb_reject(env, "R%d leaks addr into mem", insn->src_reg);
	uint8_t t = regs[insn->dst_reg].type;
	if (t == RT_CTX || t == RT_PKT || t == RT_PKT_META || t == RT_FLOW_KEYS)
		return rb_reject(env, "BPF_ATOMIC stores into R%d %s is not allowed", insn->dst_reg, "ctx");
	int load_reg = -1;
	if (insn->imm & BPF_FETCH)
		load_reg = insn->imm == BPF_CMPXCHG ? 0 : insn->src_reg;
	if (load_reg >= 0 && (err = rb_check_reg_write(env, load_reg)))
		return err;
	/* read then write of the same location */
	if ((err = rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, false, load_reg, false,
				       true)))
		return err;
	if (load_reg >= 0 && rb_is_pointer(&regs[load_reg]))
		rb_reg_unknown(env, &regs[load_reg]);
	return rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, true, -1, false, true);
}

int rb_check_ldst(struct rb_env *env, const struct bpf_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);
	int size = bpf_size(insn->code), err;
	if (cls == BPF_LDX) {
		if (mode != BPF_MEM && mode != BPF_MEMSX)
			return rb_reject(env, "BPF_LDX uses reserved fields");
		if (insn->imm)
			return rb_reject(env, "BPF_LDX uses reserved fields");
		if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_write(env, insn->dst_reg)))
			return err;
		return rb_check_mem_access(env, env->insn_idx, insn->src_reg, insn->off, size, false, insn->dst_reg,
					   mode == BPF_MEMSX, true);
	}
	if (cls == BPF_STX) {
		if (mode == BPF_ATOMIC)
			return check_atomic(env, insn);
		if (mode != BPF_MEM || insn->imm != 0)
			return rb_reject(env, "BPF_STX uses reserved fields");
		if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_read(env, insn->dst_reg)))
			return err;
		return rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, true, insn->src_reg,
					   false, true);
	}
	/* BPF_ST */
	if (mode != BPF_MEM || insn->src_reg != 0)
		return rb_reject(env, "BPF_ST uses reserved fields");
	if ((err = rb_check_reg_read(env, insn->dst_reg)))
		return err;
	return rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, true, -1, false, true);
}

/* check_helper_mem_access: [reg, reg + size) is readable (or, when
 * write_uninit, writable as fresh memory) */
int rb_check_mem_range(struct rb_env *env, int regno, int size_regno, uint64_t size, bool zero_ok,
		       bool write_uninit)
{
	(void)size_regno;
	struct rb_reg reg = rb_cur_regs(env)[regno];
	char tn[48];
	rb_rtype_str(&reg, tn, sizeof(tn));
	int off = reg.off;
	int sz = (int)size;
	if (size > (1u << 29))
		return rb_reject(env, "R%d unbounded memory access", regno);
	switch (reg.type) {
	case RT_PKT:
	case RT_PKT_META:
		if (write_uninit && !(env->ptype->flags & PT_PKT_WRITE))
			return rb_reject(env, "cannot write into packet");
		return check_packet(env, regno, &reg, off, sz, zero_ok);
	case RT_MAP_VALUE: {
		const struct rb_map *m = &env->obj->maps[reg.map_idx];
		if (write_uninit && (m->map_flags & BPF_F_RDONLY_PROG))
			return rb_reject(env, "write into map forbidden, value_size=%u off=%d size=%d", m->value_size,
					 off, sz);
		return check_mem_region(env, regno, &reg, off, sz, m->value_size, zero_ok, "map");
	}
	case RT_MEM:
		if (write_uninit && (reg.flags & RF_RDONLY))
			return rb_reject(env, "R%d cannot write into %s", regno, tn);
		return check_mem_region(env, regno, &reg, off, sz, (uint32_t)reg.range, zero_ok, "mem");
	case RT_STACK: {
		struct rb_func *f = env->cur->frame[reg.frameno];
		int min_off, max_off, err;
		if (sz == 0 && zero_ok)
			return 0;
		if ((err = check_stack_bounds(env, regno, &reg, off, sz, &min_off, &max_off, 2)))
			return err;
		if ((err = grow_for(env, f, min_off)))
			return err;
		for (int i = min_off; i < max_off + sz; i++) {
			int slot = -i - 1, spi = slot / 8;
			rb_live_stack_access(env, f->frameno, spi, false);
			if (write_uninit) {
				rb_scratch_slot(env, spi);
				/* the helper writes these bytes: they become misc data */
				uint8_t *t = &f->stack[spi].type[slot % 8];
				if (is_spill(&f->stack[spi])) {
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
	case RT_CTX:
		return rb_unsupported(env, "ctx memory passed to a helper");
	default:
		if (sz == 0 && zero_ok && reg.type == RT_SCALAR && rb_reg_is_const(env, &reg) &&
		    rb_reg_const_val(env, &reg) == 0)
			return 0;
		return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
				 regno, tn);
	}
}
