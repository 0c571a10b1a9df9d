/* arena.c — BPF arenas, following Linux 7.2.13 kernel/bpf/verifier.c (the
 * same rules as 6.18.44): an arena variable's address (ld_imm64 of an
 * arena map value, check_ld_imm) is an unknown scalar; addr_space_cast
 * from address space 1 to 0 (check_alu_op, BPF_ADDR_SPACE_CAST with imm
 * 1) makes an unknown PTR_TO_ARENA, the other direction an unknown
 * scalar; an ALU operation with an arena operand leaves PTR_TO_ARENA in
 * the destination without tracking its value (adjust_reg_min_max_vals);
 * loads and stores through it are not checked and read unknown scalars
 * (check_mem_access, mem.c); it is spillable, needs no alignment, and two
 * arena pointers are equal states (regsafe, states.c). */
#include <linux/bpf.h>

#include "engine/arena.h"
#include "engine/insn.h"

bool rb_prog_uses_arena(const struct rb_env *env)
{
	for (int i = 0; i + 1 < env->insn_cnt; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if ((in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) && in->imm >= 0 &&
		    (size_t)in->imm < env->obj->map_cnt && env->obj->maps[in->imm].type == RB_MAP_TYPE_ARENA)
			return true;
		i++;
	}
	return false;
}

int rb_arena_cast(struct rb_env *env, const struct bpf_insn *insn)
{
	int err;
	if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_write(env, insn->dst_reg)))
		return err;
	struct rb_reg *dst = &rb_cur_regs(env)[insn->dst_reg];
	rb_reg_unknown(env, dst);
	if (insn->imm == 1) /* as(1) -> as(0): a pointer into the arena */
		dst->type = RT_ARENA;
	return 0;
}

bool rb_arena_alu(struct rb_env *env, const struct bpf_insn *insn)
{
	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_reg *dst = &regs[insn->dst_reg];
	const struct rb_reg *src = BPF_SRC(insn->code) == BPF_X ? &regs[insn->src_reg] : NULL;
	if (dst->type != RT_ARENA && !(src && src->type == RT_ARENA))
		return false;
	if (dst->type != RT_ARENA)
		*dst = *src;
	return true;
}
