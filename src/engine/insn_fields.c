/* insn_fields.c — the 7.2 profile's static instruction checks (profile.h
 * insn_fields_static): Linux 7.2.13 checks every instruction's register
 * numbers and reserved fields before exploring (verifier.c
 * check_and_resolve_insns -> check_insn_fields, check_alu_fields,
 * check_jmp_fields), so such a program fails having processed 0
 * instructions; 6.18.44 checked them when exploration reached the
 * instruction (alu.c, jmp.c, mem.c, insn.c keep those checks). Written
 * from 7.2.13's rules, in its order: the first failing check of the
 * first failing instruction wins. */
#include "engine/insn_fields.h"

/* 7.2 include/linux/filter.h: BPF_REG_PARAMS (= MAX_BPF_REG, R11) is
 * allowed as the base of stack-argument loads and stores only */
#define REG_PARAMS 11

static bool stack_arg_store(const struct bpf_insn *in)
{
	return (in->code == (BPF_ST | BPF_MEM | BPF_DW) || in->code == (BPF_STX | BPF_MEM | BPF_DW)) &&
	       in->dst_reg == REG_PARAMS && in->off < 0 && in->off % 8 == 0;
}

static bool stack_arg_load(const struct bpf_insn *in)
{
	return in->code == (BPF_LDX | BPF_MEM | BPF_DW) && in->src_reg == REG_PARAMS && in->off > 0 &&
	       in->off % 8 == 0;
}

int rb_insn_regs_72(struct rb_env *env, const struct bpf_insn *in)
{
	if (in->dst_reg >= REG_PARAMS && !stack_arg_store(in))
		return rb_reject(env, "R%d is invalid", in->dst_reg);
	if (in->src_reg >= REG_PARAMS && !stack_arg_load(in))
		return rb_reject(env, "R%d is invalid", in->src_reg);
	return 0;
}

/* off 0, or 1 for the signed DIV/MOD */
static bool alu_off_ok(const struct bpf_insn *in, uint8_t op)
{
	return in->off == 0 || (in->off == 1 && (op == BPF_DIV || op == BPF_MOD));
}

static int alu_fields(struct rb_env *env, const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	bool x = BPF_SRC(in->code) == BPF_X;
	switch (op) {
	case BPF_NEG:
		if (x || in->src_reg || in->off || in->imm)
			return rb_reject(env, "BPF_NEG uses reserved fields");
		return 0;
	case BPF_END:
		if (in->src_reg || in->off || (in->imm != 16 && in->imm != 32 && in->imm != 64) ||
		    (cls == BPF_ALU64 && x))
			return rb_reject(env, "BPF_END uses reserved fields");
		return 0;
	case BPF_MOV:
		if (!x) {
			if (in->src_reg || in->off)
				return rb_reject(env, "BPF_MOV uses reserved fields");
			return 0;
		}
		if (cls == BPF_ALU64 && in->off == 1) { /* BPF_ADDR_SPACE_CAST */
			if (in->imm != 1 && in->imm != 1 << 16)
				return rb_reject(env, "addr_space_cast insn can only convert between address space 1 and 0");
			return 0;
		}
		if ((in->off && in->off != 8 && in->off != 16 && (cls == BPF_ALU || in->off != 32)) || in->imm)
			return rb_reject(env, "BPF_MOV uses reserved fields");
		return 0;
	case BPF_ADD:
	case BPF_SUB:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
	case BPF_MUL:
	case BPF_DIV:
	case BPF_MOD:
		if ((x ? in->imm != 0 : in->src_reg != 0) || !alu_off_ok(in, op))
			return rb_reject(env, "BPF_ALU uses reserved fields");
		return 0;
	default:
		return rb_reject(env, "invalid BPF_ALU opcode %x", op);
	}
}

static int jmp_fields(struct rb_env *env, const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	bool x = BPF_SRC(in->code) == BPF_X;
	switch (op) {
	case BPF_CALL:
		if (x || (in->src_reg != BPF_PSEUDO_KFUNC_CALL && in->off) ||
		    (in->src_reg && in->src_reg != BPF_PSEUDO_CALL && in->src_reg != BPF_PSEUDO_KFUNC_CALL) ||
		    in->dst_reg || cls == BPF_JMP32)
			return rb_reject(env, "BPF_CALL uses reserved fields");
		return 0;
	case BPF_JA:
		if (x) {
			if (in->src_reg || in->imm || in->off)
				return rb_reject(env, "BPF_JA|BPF_X uses reserved fields");
		} else if (in->src_reg || in->dst_reg || (cls == BPF_JMP && in->imm) || (cls == BPF_JMP32 && in->off)) {
			return rb_reject(env, "BPF_JA uses reserved fields");
		}
		return 0;
	case BPF_EXIT:
		if (x || in->imm || in->src_reg || in->dst_reg || cls == BPF_JMP32)
			return rb_reject(env, "BPF_EXIT uses reserved fields");
		return 0;
	case 0xe0: /* BPF_JCOND: may_goto only */
		if (in->code != (BPF_JMP | 0xe0) || in->src_reg != 0 /* BPF_MAY_GOTO */ || in->dst_reg || in->imm)
			return rb_reject(env, "invalid may_goto imm %d", in->imm);
		return 0;
	default:
		if (x ? in->imm != 0 : in->src_reg != 0)
			return rb_reject(env, "BPF_JMP/JMP32 uses reserved fields");
		return 0;
	}
}

int rb_insn_fields_72(struct rb_env *env, const struct bpf_insn *in)
{
	uint8_t mode = BPF_MODE(in->code);
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		return alu_fields(env, in);
	case BPF_LDX:
		if ((mode != BPF_MEM && mode != BPF_MEMSX) || in->imm)
			return rb_reject(env, "BPF_LDX uses reserved fields");
		return 0;
	case BPF_STX:
		if (mode != BPF_ATOMIC && (mode != BPF_MEM || in->imm))
			return rb_reject(env, "BPF_STX uses reserved fields");
		return 0;
	case BPF_ST:
		if (mode != BPF_MEM || in->src_reg)
			return rb_reject(env, "BPF_ST uses reserved fields");
		return 0;
	case BPF_JMP:
	case BPF_JMP32:
		return jmp_fields(env, in);
	case BPF_LD:
		if (mode == BPF_ABS || mode == BPF_IND) {
			if (in->dst_reg || in->off || BPF_SIZE(in->code) == BPF_DW || (mode == BPF_ABS && in->src_reg))
				return rb_reject(env, "BPF_LD_[ABS|IND] uses reserved fields");
		} else if (mode != BPF_IMM) {
			return rb_reject(env, "invalid BPF_LD mode");
		}
		return 0;
	default:
		return rb_reject(env, "unknown insn class %d", BPF_CLASS(in->code));
	}
}
