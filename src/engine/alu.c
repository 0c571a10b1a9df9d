/* alu.c — ALU instructions on scalars and pointers (Linux 6.18
 * check_alu_op, adjust_reg_min_max_vals, adjust_ptr_min_max_vals), for a
 * privileged loader (allow_ptr_leaks, bypass_spec_v1). */
#include <string.h>

#include "engine/alu.h"
#include "engine/arena.h"
#include "engine/backtrack.h"
#include "engine/log.h"
#include "engine/profile.h"

static const char *alu_str(uint8_t op)
{
	static const char *const names[16] = {"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
					      "neg", "%=", "^=", "=", "s>>=", "endian", "?", "?"};
	return names[op >> 4];
}

/* get_reg_width: bits needed for the unsigned maximum */
static int reg_width(struct rb_env *env, const struct rb_reg *r)
{
	struct rb_bounds b;
	rb_reg_bounds(env, r, &b);
	return b.umax ? 64 - __builtin_clzll(b.umax) : 0;
}

void rb_assign_id_before_mov(struct rb_env *env, struct rb_reg *src)
{
	if (src->type != RT_SCALAR)
		return;
	if (src->id & RB_ADD_CONST) {
		src->id = 0;
		src->off = 0;
	}
	if (!src->id && !env->t->is_const(&src->val))
		src->id = ++env->id_gen;
}

static void scalar_op(struct rb_env *env, struct rb_reg *dst, const rb_val *src, uint8_t code, int16_t off,
		      int32_t imm)
{
	struct rb_alu op = {.code = code, .off = off, .imm = imm};
	env->t->alu(&dst->val, src, &op);
}

/* check_reg_sane_offset (6.18): a scalar's off is the delta of a linked
 * copy, no pointer offset, and is not checked (only its value and bounds) */
static bool sane_offset(struct rb_env *env, const struct rb_reg *r, const struct rb_reg *ptr)
{
	char tn[48]; /* the pointer's type, named only in a message */
	struct rb_bounds b;
	if (env->prof->ptr_off_in_var && r->type != RT_SCALAR) {
		/* 7.2 check_reg_sane_offset_ptr: the whole offset */
		rb_ptr_whole_bounds(env, r, &b);
		int64_t v = b.var_off.mask ? b.smin : (int64_t)b.var_off.value;
		if (!b.var_off.mask && (v >= RB_MAX_VAR_OFF || v <= -RB_MAX_VAR_OFF))
			return rb_reject(env, "%s pointer offset %lld is not allowed", rb_rtype_name(ptr, tn, sizeof(tn)),
					 (long long)v), false;
		if (b.smin >= RB_MAX_VAR_OFF || b.smin <= -RB_MAX_VAR_OFF)
			return rb_reject(env, "%s pointer offset %lld is not allowed", rb_rtype_name(ptr, tn, sizeof(tn)),
					 (long long)b.smin), false;
		return true;
	}
	rb_reg_bounds(env, r, &b);
	bool known = env->t->is_const(&r->val);
	int64_t val = (int64_t)b.var_off.value;
	if (known && (val >= RB_MAX_VAR_OFF || val <= -RB_MAX_VAR_OFF)) {
		rb_reject(env, "math between %s pointer and %lld is not allowed", rb_rtype_name(ptr, tn, sizeof(tn)), (long long)val);
		return false;
	}
	if (r->type != RT_SCALAR && (r->off >= RB_MAX_VAR_OFF || r->off <= -RB_MAX_VAR_OFF)) {
		rb_reject(env, "%s pointer offset %d is not allowed", rb_rtype_name(ptr, tn, sizeof(tn)), r->off);
		return false;
	}
	if (b.smin == INT64_MIN) {
		rb_reject(env, "math between %s pointer and register with unbounded min value is not allowed",
			  rb_rtype_name(ptr, tn, sizeof(tn)));
		return false;
	}
	if (b.smin >= RB_MAX_VAR_OFF || b.smin <= -RB_MAX_VAR_OFF) {
		rb_reject(env, "value %lld makes %s pointer be out of bounds", (long long)b.smin, rb_rtype_name(ptr, tn, sizeof(tn)));
		return false;
	}
	return true;
}

/* the variable offset of a pointer keeps no 32-bit bounds of its own */
static void ptr_var_sync(struct rb_env *env, struct rb_reg *r)
{
	struct rb_bounds b;
	rb_reg_bounds(env, r, &b);
	b.u32_min = 0;
	b.u32_max = UINT32_MAX;
	b.s32_min = INT32_MIN;
	b.s32_max = INT32_MAX;
	env->t->from_bounds(&r->val, &b);
}

static int adjust_ptr(struct rb_env *env, const struct bpf_insn *insn, const struct rb_reg *ptr,
		      const struct rb_reg *offr, bool dst_is_off)
{
	struct rb_reg *dst = &rb_cur_regs(env)[insn->dst_reg];
	uint8_t op = BPF_OP(insn->code);
	char tn[48]; /* the pointer's type, named only in a message */
	bool known = env->t->is_const(&offr->val);
	struct rb_bounds ob;
	rb_reg_bounds(env, offr, &ob);
	int64_t smin_val = ob.smin;

	if (BPF_CLASS(insn->code) != BPF_ALU64) {
		if (op == BPF_SUB) {
			rb_reg_unknown(env, dst);
			return 0;
		}
		return rb_reject(env, "R%d 32-bit pointer arithmetic prohibited", insn->dst_reg);
	}
	if (ptr->flags & RF_MAYBE_NULL)
		return rb_reject(env, "R%d pointer arithmetic on %s prohibited, null-check it first", insn->dst_reg,
				 rb_rtype_name(ptr, tn, sizeof(tn)));
	/* 6.18 adjust_ptr_min_max_vals: untrusted memory is read by probe
	 * loads, its offset is not tracked; the destination stays as it was
	 * (a pointer keeps its offset, a scalar plus the pointer its value) */
	if (ptr->type == RT_MEM && (ptr->flags & RF_UNTRUSTED))
		return 0;
	switch (ptr->type) {
	case RT_CTX:
	case RT_MAP_VALUE:
	case RT_MAP_KEY:
	case RT_STACK:
	case RT_PKT_META:
	case RT_PKT:
	case RT_TP_BUFFER:
	case RT_MEM:
	case RT_BUF:
	case RT_BTF_ID:
	case RT_CONST_DYNPTR:
		break;
	case RT_FLOW_KEYS:
		if (known)
			break;
		/* fallthrough */
	case RT_MAP_PTR:
		if (known && smin_val == 0 && op == BPF_ADD)
			break;
		/* fallthrough */
	default:
		return rb_reject(env, "R%d pointer arithmetic on %s prohibited", insn->dst_reg,
				 rb_rtype_name(ptr, tn, sizeof(tn)));
	}
	struct rb_reg p = *ptr, o = *offr;
	if (!sane_offset(env, &o, ptr) || !sane_offset(env, &p, ptr))
		return RB_E_REJECT;
	struct rb_reg res = p;
	res.precise = 0;
	switch (op) {
	case BPF_ADD:
		if (known && (int64_t)p.off + smin_val == (int64_t)(int32_t)(p.off + (int32_t)smin_val)) {
			res.off = p.off + (int32_t)smin_val;
			/* 7.2: arithmetic clears AT_PKT_END / BEYOND_PKT_END */
			if (env->prof->ptr_off_in_var && (p.type == RT_PKT || p.type == RT_PKT_META) && res.range < 0)
				res.range = 0;
			break;
		}
		scalar_op(env, &res, &o.val, BPF_ALU64 | BPF_ADD | BPF_X, 0, 0);
		ptr_var_sync(env, &res);
		if (p.type == RT_PKT || p.type == RT_PKT_META) {
			res.id = ++env->id_gen;
			res.range = 0;
		}
		break;
	case BPF_SUB:
		if (dst_is_off)
			return rb_reject(env, "R%d tried to subtract pointer from scalar", insn->dst_reg);
		if (p.type == RT_STACK)
			return rb_reject(env, "R%d subtraction from stack pointer prohibited", insn->dst_reg);
		if (known && (int64_t)p.off - smin_val == (int64_t)(int32_t)(p.off - (int32_t)smin_val)) {
			res.off = p.off - (int32_t)smin_val;
			if (env->prof->ptr_off_in_var && (p.type == RT_PKT || p.type == RT_PKT_META) && res.range < 0)
				res.range = 0;
			break;
		}
		scalar_op(env, &res, &o.val, BPF_ALU64 | BPF_SUB | BPF_X, 0, 0);
		ptr_var_sync(env, &res);
		if (p.type == RT_PKT || p.type == RT_PKT_META) {
			res.id = ++env->id_gen;
			if (smin_val < 0 || (env->prof->ptr_off_in_var && res.range < 0))
				res.range = 0;
		}
		break;
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		return rb_reject(env, "R%d bitwise operator %s on pointer prohibited", insn->dst_reg, alu_str(op));
	default:
		return rb_reject(env, "R%d pointer arithmetic with %s operator prohibited", insn->dst_reg,
				 alu_str(op));
	}
	if (!sane_offset(env, &res, ptr))
		return RB_E_REJECT;
	*dst = res;
	return 0;
}

struct rb_vstate *rb_push_branch(struct rb_env *env, int insn_idx, int prev_idx);

/* r with its low 32 bits known to be c (the kernel's __mark_reg32_known:
 * the upper half of var_off and the 64-bit bounds are kept, nothing is
 * synced: "from N to N:" prints the 64-bit bounds as they were) */
static void mark_reg32_known(struct rb_env *env, struct rb_reg *r, uint32_t c)
{
	struct rb_bounds b;
	rb_reg_bounds(env, r, &b);
	b.var_off.value = (b.var_off.value & ~0xffffffffULL) | c;
	b.var_off.mask &= ~0xffffffffULL;
	b.u32_min = b.u32_max = c;
	b.s32_min = b.s32_max = (int32_t)c;
	if (env->t->from_fields)
		env->t->from_fields(&r->val, &b);
	else
		env->t->from_bounds(&r->val, &b);
}

/* 6.18.44 maybe_fork_scalars(): "r &= K" / "r |= K" (K a constant) on a
 * destination whose signed range is [-1, 0] (64-bit, else 32-bit) forks:
 * a pushed state re-executes this instruction with the destination 0
 * ("from N to N:" in the log), this path goes on with it -1. */
static int maybe_fork_scalars(struct rb_env *env, const struct bpf_insn *insn, struct rb_reg *dst)
{
	struct rb_bounds b;
	rb_reg_bounds(env, dst, &b);
	bool alu32;
	if (b.smin == -1 && b.smax == 0)
		alu32 = false;
	else if (b.s32_min == -1 && b.s32_max == 0)
		alu32 = true;
	else
		return 0;
	struct rb_vstate *other = rb_push_branch(env, env->insn_idx, env->insn_idx);
	if (!other)
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	struct rb_reg *odst = &other->frame[other->curframe]->regs[insn->dst_reg];
	dst = &rb_cur_regs(env)[insn->dst_reg];
	if (alu32) {
		mark_reg32_known(env, odst, 0);
		mark_reg32_known(env, dst, UINT32_MAX);
	} else {
		uint8_t precise = odst->precise;
		rb_reg_const(env, odst, 0);
		odst->precise = precise;
		precise = dst->precise;
		rb_reg_const(env, dst, UINT64_MAX);
		dst->precise = precise;
	}
	return 0;
}

static int adjust_reg(struct rb_env *env, const struct bpf_insn *insn)
{
	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_reg *dst = &regs[insn->dst_reg];
	uint8_t op = BPF_OP(insn->code);
	bool alu32 = BPF_CLASS(insn->code) != BPF_ALU64;
	int err;
	struct rb_reg kreg;

	/* 7.2.13 adjust_reg_min_max_vals: an arena operand (arena.c) */
	if (rb_arena_alu(env, insn))
		return 0;
	const struct rb_reg *src;
	if (BPF_SRC(insn->code) == BPF_X) {
		src = &regs[insn->src_reg];
		if (src->type != RT_SCALAR) {
			if (dst->type != RT_SCALAR) {
				if (op == BPF_SUB) {
					rb_reg_unknown(env, dst);
					return 0;
				}
				return rb_reject(env, "R%d pointer %s pointer prohibited", insn->dst_reg, alu_str(op));
			}
			err = rb_mark_chain_precision(env, insn->dst_reg);
			if (err)
				return err;
			struct rb_reg p = *src, o = *dst;
			return adjust_ptr(env, insn, &p, &o, true);
		} else if (dst->type != RT_SCALAR) {
			err = rb_mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
			struct rb_reg p = *dst, o = *src;
			return adjust_ptr(env, insn, &p, &o, false);
		} else if (dst->precise) {
			err = rb_mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
		}
	} else {
		rb_reg_const(env, &kreg, (uint64_t)(int64_t)insn->imm);
		src = &kreg;
		if (dst->type != RT_SCALAR) {
			struct rb_reg p = *dst;
			return adjust_ptr(env, insn, &p, &kreg, false);
		}
	}
	/* two scalars */
	if ((op == BPF_AND || op == BPF_OR) && env->t->is_const(&src->val)) {
		err = maybe_fork_scalars(env, insn, dst);
		if (err)
			return err;
		regs = rb_cur_regs(env);
		dst = &regs[insn->dst_reg];
		if (BPF_SRC(insn->code) == BPF_X)
			src = &regs[insn->src_reg];
	}
	rb_val sv = src->val;
	bool src_const = env->t->is_const(&sv);
	uint64_t src_c = src_const ? rb_reg_const_val(env, src) : 0;
	/* linked scalars "rX += const" / "rX -= const", 64- and 32-bit (as the
	 * running 6.18.44 does: negative offsets, BPF_SUB and alu32; a 32-bit
	 * operation links only a destination whose umax before the operation
	 * is <= U32_MAX, since otherwise the zero extension changes the value).
	 * The bounds are read only where they decide: ADD/SUB of a linked
	 * destination (the operation leaves dst->id alone) */
	bool link = (op == BPF_ADD || op == BPF_SUB) && dst->id;
	struct rb_bounds dst_before = {0}, sb = {0};
	if (link)
		rb_reg_bounds(env, dst, &dst_before);
	if (alu32 && BPF_SRC(insn->code) == BPF_K)
		env->t->constant(&sv, (uint64_t)(uint32_t)insn->imm);
	scalar_op(env, dst, &sv, insn->code, insn->off, insn->imm);
	bool k32 = false;
	uint64_t kval = src_c;
	if (alu32) {
		/* after the operation, as before (src may be dst) */
		if (link)
			rb_reg_bounds(env, src, &sb);
		k32 = BPF_SRC(insn->code) == BPF_K || sb.u32_min == sb.u32_max;
		kval = BPF_SRC(insn->code) == BPF_K ? (uint64_t)(uint32_t)insn->imm : sb.u32_min;
	}
	if (link && (alu32 ? k32 : src_const)) {
		int64_t v = alu32 ? (int64_t)(int32_t)(uint32_t)kval : (int64_t)kval;
		bool bad = (dst->id & RB_ADD_CONST) || v > INT32_MAX || v < INT32_MIN ||
			   (op == BPF_SUB && v == INT32_MIN);
#ifndef RB_FAULT_ALU32_LINK /* execcheck's fault-injection test builds without it (issue 10 cause A) */
		bad = bad || (alu32 && dst_before.umax > UINT32_MAX);
#endif
		if (bad) {
			dst->off = 0;
			dst->id = 0;
		} else {
			dst->id |= RB_ADD_CONST | (alu32 ? RB_ADD_CONST32 : 0);
			dst->off = (int32_t)(op == BPF_SUB ? -v : v);
		}
	} else {
		dst->id = 0;
		dst->off = 0;
	}
	return 0;
}

/* 6.18.44 reg_bounds_sanity_check(): a scalar whose bounds broke their
 * invariants is logged ("verifier bug: REG INVARIANTS VIOLATION (ctx)")
 * and forgets its bounds; exploration goes on */
void rb_reg_sanity(struct rb_env *env, struct rb_reg *r, const char *ctx)
{
	char why[RB_VIOLATION_LEN];
	if (r->type != RT_SCALAR || !env->t->sanity_report || !env->t->sanity_report(&r->val, why))
		return;
	rb_log(env, "verifier bug: REG INVARIANTS VIOLATION (%s): %s\n", ctx, why);
}

static int check_alu_op(struct rb_env *env, const struct bpf_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);
	bool alu64 = BPF_CLASS(insn->code) == BPF_ALU64;
	struct rb_reg *regs = rb_cur_regs(env);
	int err;

	if (op == BPF_END || op == BPF_NEG) {
		if (op == BPF_NEG) {
			if (BPF_SRC(insn->code) != BPF_K || insn->src_reg || insn->off || insn->imm)
				return rb_reject(env, "BPF_NEG uses reserved fields");
		} else if (insn->src_reg || insn->off || (insn->imm != 16 && insn->imm != 32 && insn->imm != 64) ||
			   (alu64 && BPF_SRC(insn->code) != BPF_TO_LE)) {
			return rb_reject(env, "BPF_END uses reserved fields");
		}
		if ((err = rb_check_reg_read(env, insn->dst_reg)) || (err = rb_check_reg_write(env, insn->dst_reg)))
			return err;
		struct rb_reg *dst = &regs[insn->dst_reg];
		if (dst->type == RT_SCALAR) {
			rb_val zero;
			env->t->constant(&zero, 0);
			scalar_op(env, dst, &zero, insn->code, insn->off, insn->imm);
			/* 6.18.44 scalar_byte_swap(): only a value that changes
			 * loses its link; "le64" is a no-op on little-endian */
			bool noop = insn->code == (BPF_ALU | BPF_END | BPF_TO_LE) && insn->imm == 64;
			if (!noop) {
				dst->id = 0;
				dst->off = 0;
			}
		} else {
			rb_reg_unknown(env, dst);
		}
		return 0;
	}
	if (op == BPF_MOV) {
		if (BPF_SRC(insn->code) == BPF_X) {
			if (!alu64) {
				if ((insn->off != 0 && insn->off != 8 && insn->off != 16) || insn->imm)
					return rb_reject(env, "BPF_MOV uses reserved fields");
			} else if (insn->off == 1) { /* BPF_ADDR_SPACE_CAST, 6.18 check_alu_op() */
				if (insn->imm != 1 && insn->imm != 1 << 16)
					return rb_reject(env, "addr_space_cast insn can only convert between "
							      "address space 1 and 0");
				if (!rb_prog_uses_arena(env))
					return rb_reject(env, "addr_space_cast insn can only be used in a program "
							      "that has an associated arena");
				return rb_arena_cast(env, insn);
			} else if ((insn->off != 0 && insn->off != 8 && insn->off != 16 && insn->off != 32) || insn->imm) {
				return rb_reject(env, "BPF_MOV uses reserved fields");
			}
			if ((err = rb_check_reg_read(env, insn->src_reg)))
				return err;
		} else if (insn->src_reg || insn->off) {
			return rb_reject(env, "BPF_MOV uses reserved fields");
		}
		if ((err = rb_check_reg_write(env, insn->dst_reg)))
			return err;
		struct rb_reg *dst = &regs[insn->dst_reg];
		if (BPF_SRC(insn->code) == BPF_X) {
			struct rb_reg *src = &regs[insn->src_reg];
			if (alu64) {
				if (insn->off == 0) {
					rb_assign_id_before_mov(env, src);
					*dst = *src;
				} else if (src->type == RT_SCALAR) {
					struct rb_bounds b;
					rb_reg_bounds(env, src, &b);
					bool no_sext = b.umax < (1ULL << (insn->off - 1));
					if (no_sext)
						rb_assign_id_before_mov(env, src);
					*dst = *src;
					if (!no_sext) {
						/* clear_scalar_id(): the delta goes too */
						dst->id = 0;
						dst->off = 0;
					}
					rb_val sv = src->val;
					scalar_op(env, dst, &sv, insn->code, insn->off, insn->imm);
				} else {
					rb_reg_unknown(env, dst);
				}
			} else {
				if (src->type == RT_SCALAR) {
					bool keep;
					if (insn->off == 0) {
						keep = reg_width(env, src) <= 32;
					} else {
						struct rb_bounds b;
						rb_reg_bounds(env, src, &b);
						keep = b.umax < (1ULL << (insn->off - 1));
					}
					if (keep)
						rb_assign_id_before_mov(env, src);
					rb_val sv = src->val;
					*dst = *src;
					if (!keep) {
						/* clear_scalar_id(): the delta goes too */
						dst->id = 0;
						dst->off = 0;
					}
					scalar_op(env, dst, &sv, insn->code, insn->off, insn->imm);
				} else {
					/* a pointer's low half (privileged): unknown, then
					 * zero-extended as every 32-bit mov (zext_32_to_64) */
					rb_reg_unknown(env, dst);
					rb_val sv = dst->val;
					scalar_op(env, dst, &sv, BPF_ALU | BPF_MOV | BPF_X, 0, 0);
				}
			}
		} else {
			rb_reg_const(env, dst, alu64 ? (uint64_t)(int64_t)insn->imm : (uint64_t)(uint32_t)insn->imm);
		}
		return 0;
	}
	if (op > BPF_END)
		return rb_reject(env, "invalid BPF_ALU opcode %x", op);
	if (BPF_SRC(insn->code) == BPF_X) {
		if (insn->imm || (insn->off != 0 && insn->off != 1) ||
		    (insn->off == 1 && op != BPF_MOD && op != BPF_DIV))
			return rb_reject(env, "BPF_ALU uses reserved fields");
		if ((err = rb_check_reg_read(env, insn->src_reg)))
			return err;
	} else if (insn->src_reg || (insn->off != 0 && insn->off != 1) ||
		   (insn->off == 1 && op != BPF_MOD && op != BPF_DIV)) {
		return rb_reject(env, "BPF_ALU uses reserved fields");
	}
	if ((err = rb_check_reg_read(env, insn->dst_reg)))
		return err;
	if ((op == BPF_MOD || op == BPF_DIV) && BPF_SRC(insn->code) == BPF_K && insn->imm == 0)
		return rb_reject(env, "div by zero");
	if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) && BPF_SRC(insn->code) == BPF_K) {
		int size = alu64 ? 64 : 32;
		if (insn->imm < 0 || insn->imm >= size)
			return rb_reject(env, "invalid shift %d", insn->imm);
	}
	if ((err = rb_check_reg_write(env, insn->dst_reg)))
		return err;
	return adjust_reg(env, insn);
}

/* 6.18.44 check_alu_op(): every ALU insn ends with the sanity check of
 * its destination ("alu"), e.g. a copy of a register whose bounds were
 * forgotten after a violation, its var_off still constant in 32 bits */
int rb_check_alu(struct rb_env *env, const struct bpf_insn *insn)
{
	int err = check_alu_op(env, insn);
	if (err)
		return err;
	rb_reg_sanity(env, &rb_cur_regs(env)[insn->dst_reg], "alu");
	return 0;
}
