/* live_regs.c — the registers live before each instruction (Linux 6.18
 * compute_live_registers), which the state comparison and the log read. */
#include <stdbool.h>

#include <bpf/btf.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/helper_table.h"
#include "engine/live_regs.h"

static bool is_ldimm64(const struct bpf_insn *i) { return i->code == (BPF_LD | BPF_IMM | BPF_DW); }

/* the registers an instruction reads (its result) and writes (*def); a
 * helper call reads r1..rN, N its argument count */
/* get_call_summary of a kfunc: its prototype's parameter count (5 when
 * unknown) */
static int kfunc_nargs(struct rb_env *env, const struct bpf_insn *i)
{
	const struct btf *b = i->imm && !i->off ? rb_need_vmlinux(env) : NULL;
	const struct btf_type *f = b ? btf__type_by_id(b, (uint32_t)i->imm) : NULL;
	const struct btf_type *p = f && btf_is_func(f) ? btf__type_by_id(b, f->type) : NULL;
	if (!p || !btf_is_func_proto(p) || btf_vlen(p) > 5)
		return 5;
	return btf_vlen(p);
}

static uint16_t insn_use(struct rb_env *env, const struct bpf_insn *i, uint16_t *def)
{
	uint8_t cls = BPF_CLASS(i->code);
	uint16_t use = 0;
	*def = 0;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64: {
		uint8_t op = BPF_OP(i->code);
		*def = 1u << i->dst_reg;
		if (op == BPF_END || op == BPF_NEG)
			use = 1u << i->dst_reg;
		else if (op == BPF_MOV)
			use = BPF_SRC(i->code) == BPF_X ? 1u << i->src_reg : 0;
		else
			use = (1u << i->dst_reg) | (BPF_SRC(i->code) == BPF_X ? 1u << i->src_reg : 0);
		break;
	}
	case BPF_LD:
		if (is_ldimm64(i))
			*def = 1u << i->dst_reg;
		else /* legacy packet access: 6.18 keeps the defaults, every
		      * register used and none defined */
			use = 0xffff;
		break;
	case BPF_LDX:
		*def = 1u << i->dst_reg;
		use = 1u << i->src_reg;
		break;
	case BPF_ST:
		use = 1u << i->dst_reg;
		break;
	case BPF_STX:
		use = (1u << i->dst_reg) | (1u << i->src_reg);
		if (BPF_MODE(i->code) == BPF_ATOMIC) {
			if (i->imm == BPF_CMPXCHG) {
				use |= 1u;
				*def = 1u;
			} else if (i->imm & BPF_FETCH) {
				*def = 1u << i->src_reg;
			}
		}
		break;
	case BPF_JMP:
	case BPF_JMP32: {
		uint8_t op = BPF_OP(i->code);
		if (op == BPF_EXIT) {
			use = 1u;
		} else if (op == BPF_CALL) {
			*def = 0x3f;
			int n = 5;
			if (i->src_reg == 0) {
				n = rb_helper_nargs(i->imm);
				if (n < 0)
					n = 5;
			} else if (i->src_reg == BPF_PSEUDO_KFUNC_CALL) {
				n = kfunc_nargs(env, i);
			}
			use = (uint16_t)(((1u << n) - 1) << 1);
		} else if (op == BPF_JA || op == 0xe0) {
			/* goto and may_goto (BPF_JCOND) read nothing */
		} else {
			use = (1u << i->dst_reg) | (BPF_SRC(i->code) == BPF_X ? 1u << i->src_reg : 0);
		}
		break;
	}
	}
	return use & 0x3ff;
}

/* live registers before each insn: a backward fixed point over the CFG */
void rb_compute_live_regs(struct rb_env *env)
{
	int n = env->insn_cnt;
	bool changed = true;
	for (int i = 0; i < n; i++)
		env->aux[i].live_regs = 0;
	while (changed) {
		changed = false;
		for (int i = n - 1; i >= 0; i--) {
			const struct bpf_insn *in = &env->insns[i];
			uint16_t def, use = insn_use(env, in, &def);
			uint16_t out = 0;
			uint8_t cls = BPF_CLASS(in->code);
			int next = i + (is_ldimm64(in) ? 2 : 1);
			if (cls == BPF_JMP || cls == BPF_JMP32) {
				uint8_t op = BPF_OP(in->code);
				if (op == BPF_EXIT) {
				} else if (op == BPF_JA) {
					int t = i + 1 + (cls == BPF_JMP ? in->off : in->imm);
					if (t >= 0 && t < n)
						out = env->aux[t].live_regs;
				} else if (op == BPF_CALL) {
					if (next < n)
						out = env->aux[next].live_regs;
				} else {
					int t = i + 1 + in->off;
					if (next < n)
						out |= env->aux[next].live_regs;
					if (t >= 0 && t < n)
						out |= env->aux[t].live_regs;
				}
			} else if (next < n) {
				out = env->aux[next].live_regs;
			}
			uint16_t live = (uint16_t)((out & ~def) | use);
			if (live != env->aux[i].live_regs) {
				env->aux[i].live_regs = live;
				changed = true;
			}
		}
	}
}
