/* bt_step.c — the backtracking step of each instruction, decoded (see
 * bt_step.h). */
#include <stdlib.h>

#include "engine/bt_memo.h"
#include "engine/bt_step.h"

static struct rb_bt_desc bt_desc_of(const struct bpf_insn *insn, const struct rb_aux *aux)
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code), mode = BPF_MODE(insn->code);
	struct rb_bt_desc d = {0, 0, 0, 0};
	if (insn->code == 0)
		return d;
	if (insn->dst_reg > RB_REG_FP || insn->src_reg > RB_REG_FP) {
		d.slow = BT_ALWAYS;
		return d;
	}
	uint16_t dm = (uint16_t)(1u << insn->dst_reg), sm = (uint16_t)(1u << insn->src_reg);
	if (cls == BPF_ALU || cls == BPF_ALU64) {
		if (op == BPF_END || op == BPF_NEG)
			return d;
		d.trig = dm;
		d.clear = op == BPF_MOV ? dm : 0;
		d.set = BPF_SRC(insn->code) == BPF_X && insn->src_reg != RB_REG_FP ? sm : 0;
		return d;
	}
	bool fetch = cls == BPF_STX && mode == BPF_ATOMIC && (insn->imm & BPF_FETCH);
	if (cls == BPF_LDX || fetch || (cls == BPF_STX && mode == BPF_ATOMIC && insn->imm == 0x100)) {
		int load_reg = fetch ? (insn->imm == BPF_CMPXCHG ? 0 : insn->src_reg) : insn->dst_reg;
		d.trig = d.clear = (uint16_t)(1u << load_reg);
		d.slow = BT_LOAD;
		return d;
	}
	if (cls == BPF_STX || cls == BPF_ST) {
		d.slow = dm | BT_STORE;
		d.set = cls == BPF_STX ? sm : 0;
		return d;
	}
	if (cls == BPF_JMP || cls == BPF_JMP32) {
		/* a helper or kfunc call (no callback, no bpf-to-bpf call):
		 * r0 is set there, r1-r5 must not be asked for */
		if (op == BPF_CALL && cls == BPF_JMP && !aux->calls_callback &&
		    (insn->src_reg == 0 || (insn->src_reg == BPF_PSEUDO_KFUNC_CALL && insn->imm))) {
			d.trig = d.clear = 1u;
			d.slow = ARGS_MASK;
		} else if (op == BPF_CALL || op == BPF_EXIT) {
			d.slow = BT_ALWAYS;
		} else if (BPF_SRC(insn->code) == BPF_X && op != BPF_JA) {
			d.trig = d.set = dm | sm;
		}
		return d;
	}
	/* BPF_LD: ld_imm64, or ld_abs/ld_ind (BT_NOTSUPP when requested) */
	d.trig = d.clear = dm;
	if (mode == BPF_IND || mode == BPF_ABS)
		d.slow = dm;
	return d;
}

/* env->insns no longer change once exploration runs (const_fold.c
 * rewrites them before); NULL when out of memory */
const struct rb_bt_desc *rb_bt_descs(struct rb_env *env)
{
	if (env->bt_desc)
		return env->bt_desc;
	if (!env->bt_memo && !(env->bt_memo = calloc(1, sizeof(*env->bt_memo))))
		return NULL;
	env->bt_desc = malloc(sizeof(struct rb_bt_desc) * (size_t)env->insn_cnt);
	if (env->bt_desc)
		for (int i = 0; i < env->insn_cnt; i++)
			env->bt_desc[i] = bt_desc_of(&env->insns[i], &env->aux[i]);
	return env->bt_desc;
}
