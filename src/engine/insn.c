/* insn.c — decode one instruction and dispatch to its checker (Linux
 * 6.18 do_check_insn). */
#include <string.h>

#include "engine/alu.h"
#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/call.h"
#include "engine/callbacks.h"
#include "engine/helpers.h"
#include "engine/arena.h"
#include "engine/insn.h"
#include "engine/jmp.h"
#include "engine/kfuncs.h"
#include "engine/states.h"
#include "engine/ksym.h"
#include "engine/locks.h"
#include "engine/mem.h"
#include "engine/names.h"
#include "engine/prog_types.h"
#include "engine/rcu.h"
#include "engine/refs.h"

static int check_ld_imm(struct rb_env *env, const struct bpf_insn *insn)
{
	int err = rb_check_reg_write(env, insn->dst_reg);
	if (err)
		return err;
	if (insn->off != 0)
		return rb_reject(env, "BPF_LD_IMM64 uses reserved fields");
	const struct bpf_insn *next = insn + 1;
	struct rb_reg *dst = &rb_cur_regs(env)[insn->dst_reg];
	switch (insn->src_reg) {
	case 0:
		rb_reg_const(env, dst, (uint64_t)(uint32_t)insn->imm | ((uint64_t)(uint32_t)next->imm << 32));
		return 0;
	case BPF_PSEUDO_MAP_IDX:
	case BPF_PSEUDO_MAP_IDX_VALUE: {
		if (insn->imm < 0 || (size_t)insn->imm >= env->obj->map_cnt)
			return rb_reject(env, "fd_idx %d out of bounds", insn->imm);
		const struct rb_map *m = &env->obj->maps[insn->imm];
		if (insn->src_reg == BPF_PSEUDO_MAP_IDX) {
			rb_reg_ptr(env, dst, RT_MAP_PTR);
		} else if (m->type == RB_MAP_TYPE_ARENA) {
			/* 6.18 and 7.2.13 check_ld_imm: an arena variable's address
			 * is an unknown scalar (its user-space address) */
			rb_reg_unknown(env, dst);
			return 0;
		} else {
			if ((uint32_t)next->imm >= m->value_size)
				return rb_reject(env, "invalid access to map value pointer, value_size=%u off=%u",
						 m->value_size, (uint32_t)next->imm);
			rb_reg_ptr(env, dst, RT_MAP_VALUE);
			dst->off = next->imm;
		}
		dst->map_idx = insn->imm;
		return 0;
	}
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_VALUE:
		return rb_unsupported(env, "map reference by fd (loader should give map indexes)");
	case BPF_PSEUDO_BTF_ID:
		return rb_ld_ksym(env, insn, dst);
	case BPF_PSEUDO_FUNC:
		return rb_ld_pseudo_func(env, insn, dst);
	default:
		return rb_reject(env, "invalid BPF_LD_IMM insn");
	}
}

/* legacy LD_ABS/LD_IND packet loads (check_ld_abs) */

/* 6.18 check_cond_jmp_op for BPF_JCOND (may_goto): the path goes on at the
 * target; the fall-through is queued with may_goto_depth one higher, its
 * imprecise scalars widened against the previous visit of this insn on
 * the path (find_prev_entry, widen_imprecise_scalars). The insn is a
 * forced checkpoint (cfg.c), so cur's parent was stored here. */
static int may_goto(struct rb_env *env, const struct bpf_insn *insn)
{
	/* 6.18 checks the fields, not the offset: off 0 is a may_goto
	 * whose both outcomes continue at the next insn (measured: accepted
	 * by 6.18.44) */
	if (insn->src_reg != 0 || insn->dst_reg != 0 || insn->imm != 0)
		return rb_reject(env, "invalid may_goto imm %d", insn->imm);
	int idx = env->insn_idx;
	struct rb_vstate *prev = env->cur->parent ? rb_find_prev_entry(env, env->cur->parent, idx) : NULL;
	struct rb_vstate *q = rb_push_branch(env, idx + 1, idx);
	if (!q)
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	q->may_goto_depth++;
	if (prev)
		rb_widen_imprecise_scalars(env, prev, q);
	env->insn_idx += insn->off + 1;
	return 0;
}

static int check_ld_abs(struct rb_env *env, const struct bpf_insn *insn)
{
	uint8_t mode = BPF_MODE(insn->code);
	if (!(env->ptype->flags & PT_LD_ABS))
		return rb_reject(env, "BPF_LD_[ABS|IND] instructions not allowed for this program type");
	if (insn->dst_reg != 0 || insn->off != 0 || BPF_SIZE(insn->code) == BPF_DW ||
	    (mode == BPF_ABS && insn->src_reg != 0))
		return rb_reject(env, "BPF_LD_[ABS|IND] uses reserved fields");
	int err = rb_check_reg_read(env, 6);
	if (err)
		return err;
	if (rb_lock_held(env))
		return rb_reject(env, "BPF_LD_[ABS|IND] cannot be used inside bpf_spin_lock-ed region");
	if (rb_ptr_refs(env->cur))
		return rb_reject(env, "BPF_LD_[ABS|IND] would lead to reference leak");
	if ((err = rb_rcu_check_leak(env, "BPF_LD_[ABS|IND]")))
		return err;
	if (mode == BPF_IND && (err = rb_check_reg_read(env, insn->src_reg)))
		return err;
	struct rb_reg *regs = rb_cur_regs(env);
	if (regs[6].type != RT_CTX)
		return rb_reject(env, "at the time of BPF_LD_ABS|IND R6 != pointer to skb");
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
	rb_reg_unknown(env, &regs[0]);
	if (!env->cur->curframe)
		return 0;
	/* 6.18: in a subprogram, the hidden exit with r0 = 0 that
	 * bpf_gen_ld_abs() emits is explored first, the load's continuation
	 * is pushed (no "from" line is printed for it) */
	int idx = env->insn_idx;
	if (!rb_push_branch(env, idx + 1, idx))
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	rb_reg_const(env, &rb_cur_regs(env)[0], 0);
	int next = idx;
	if ((err = rb_subprog_return(env, &next)) < 0)
		return err;
	env->insn_idx = next - 1; /* the caller adds one */
	return 0;
}

int rb_do_insn(struct rb_env *env, bool *exit_path)
{
	const struct bpf_insn *insn = &env->insns[env->insn_idx];
	uint8_t cls = BPF_CLASS(insn->code);
	int err;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		err = rb_check_alu(env, insn);
		if (err)
			return err;
		env->insn_idx++;
		return 0;
	case BPF_LDX:
	case BPF_STX:
	case BPF_ST:
		err = rb_check_ldst(env, insn);
		if (err)
			return err;
		env->insn_idx++;
		return 0;
	case BPF_LD:
		if (BPF_MODE(insn->code) == BPF_IMM && BPF_SIZE(insn->code) == BPF_DW) {
			err = check_ld_imm(env, insn);
			if (err)
				return err;
			env->insn_idx += 2;
			return 0;
		}
		if (BPF_MODE(insn->code) == BPF_ABS || BPF_MODE(insn->code) == BPF_IND) {
			err = check_ld_abs(env, insn);
			if (err)
				return err;
			env->insn_idx++;
			return 0;
		}
		return rb_reject(env, "invalid BPF_LD mode");
	case BPF_JMP:
	case BPF_JMP32: {
		uint8_t op = BPF_OP(insn->code);
		env->jmps_processed++;
		if (op == BPF_CALL) {
			/* 6.18: a non-zero off (module BTF fd index) only for kfunc calls */
			if (BPF_SRC(insn->code) != BPF_K || (insn->src_reg != BPF_PSEUDO_KFUNC_CALL && insn->off != 0) ||
			    (insn->src_reg != 0 && insn->src_reg != BPF_PSEUDO_CALL &&
			     insn->src_reg != BPF_PSEUDO_KFUNC_CALL) ||
			    insn->dst_reg != 0 || cls == BPF_JMP32)
				return rb_reject(env, "BPF_CALL uses reserved fields");
			if (insn->src_reg != BPF_PSEUDO_CALL && (err = rb_lock_check_call(env, insn)))
				return err;
			if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
				err = rb_check_kfunc_call(env, insn, env->insn_idx);
				if (err < 0)
					return err;
				rb_scratch_reg(env, 0); /* 6.18 prints R0 after every call */
				env->insn_idx++;
				return 0;
			}
			if (insn->src_reg == BPF_PSEUDO_CALL)
				return rb_check_func_call(env, insn, &env->insn_idx);
			err = rb_check_helper_call(env, insn, env->insn_idx);
			if (err < 0)
				return err;
			env->insn_idx++;
			return err; /* 2: left the subprogram through a tail call */
		}
		if (op == BPF_JA) {
			if (BPF_SRC(insn->code) != BPF_K || insn->src_reg != 0 || insn->dst_reg != 0 ||
			    (cls == BPF_JMP && insn->imm != 0) || (cls == BPF_JMP32 && insn->off != 0))
				return rb_reject(env, "BPF_JA uses reserved fields");
			env->insn_idx += 1 + (cls == BPF_JMP ? insn->off : insn->imm);
			return 0;
		}
		if (op == BPF_EXIT) {
			if (BPF_SRC(insn->code) != BPF_K || insn->imm != 0 || insn->src_reg != 0 ||
			    insn->dst_reg != 0 || cls == BPF_JMP32)
				return rb_reject(env, "BPF_EXIT uses reserved fields");
			return rb_check_exit(env, &env->insn_idx, exit_path);
		}
		if (op == 0xe0 /* BPF_JCOND: may_goto */)
			return may_goto(env, insn);
		err = rb_check_cond_jmp(env, insn, &env->insn_idx);
		if (err < 0)
			return err;
		if (err == 1) { /* the fall-through path is impossible */
			*exit_path = true;
			return 0;
		}
		env->insn_idx++;
		return 0;
	}
	}
	return rb_reject(env, "unknown insn class %d", cls);
}
