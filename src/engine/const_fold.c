/* const_fold.c — Linux 7.2's constant branch folding (kernel/bpf/
 * const_fold.c, bpf_compute_const_regs + bpf_prune_dead_branches), the 7.2
 * profile's const_fold_branches switch: before exploration, a forward
 * dataflow pass finds the registers holding one known constant at each
 * instruction (constants moved, added, subtracted, and-ed; loads from a
 * frozen read-only map value at a known offset), and every conditional
 * jump whose outcome those constants decide becomes an unconditional
 * `goto` (taken: the branch's offset; not taken: pc+0). 6.18 has no such
 * pass: it explores those jumps and learns the outcome on the way. */
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "engine/const_fold.h"
#include "engine/liveness.h"
#include "engine/profile.h"

enum ci_state { CI_UNVISITED, CI_UNKNOWN, CI_CONST, CI_MAP_PTR, CI_MAP_VALUE, CI_SUBPROG };

struct ci {
	uint8_t state;
	uint32_t map;
	uint64_t val;
};

#define NREG 11
/* uapi values newer than the build's headers */
#define RB_JCOND 0xe0    /* BPF_JCOND (may_goto) */
#define RB_LOAD_ACQ 0x100 /* BPF_LOAD_ACQ */

static const struct ci unknown = {.state = CI_UNKNOWN};

/* a frozen read-only map's value bytes [off, off + size), as the engine's
 * loads read them (mem.c) */
static bool map_read(const struct rb_env *env, uint32_t map, int64_t off, int size, bool sext, uint64_t *v)
{
	if (map >= env->obj->map_cnt)
		return false;
	const struct rb_map *m = &env->obj->maps[map];
	if (!(m->map_flags & BPF_F_RDONLY_PROG) || !m->frozen || !m->init || off < 0 ||
	    (uint64_t)off + (uint64_t)size > m->value_size || (uint64_t)off + (uint64_t)size > m->init_size)
		return false;
	uint64_t x = 0;
	memcpy(&x, m->init + off, (size_t)size);
	if (sext) {
		int sh = 64 - 8 * size;
		x = (uint64_t)((int64_t)(x << sh) >> sh);
	}
	*v = x;
	return true;
}

static int subprog_at(const struct rb_env *env, int idx)
{
	for (int s = 0; s < env->nsubprogs; s++)
		if (env->subprogs[s].start == idx)
			return s;
	return -1;
}

/* 7.2 const_reg_xfer */
static void xfer(const struct rb_env *env, struct ci *o, const struct bpf_insn *in, int idx)
{
	struct ci *dst = &o[in->dst_reg % NREG], *src = &o[in->src_reg % NREG];
	uint8_t cls = BPF_CLASS(in->code), mode = BPF_MODE(in->code), op = BPF_OP(in->code) | BPF_SRC(in->code);
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		switch (op) {
		case BPF_MOV | BPF_K:
			dst->state = CI_CONST;
			dst->val = (uint64_t)(int64_t)in->imm;
			break;
		case BPF_MOV | BPF_X:
			*dst = *src;
			if (!in->off)
				break;
			if (dst->state != CI_CONST) {
				*dst = unknown;
				break;
			}
			switch (in->off) {
			case 8: dst->val = (uint64_t)(int64_t)(int8_t)dst->val; break;
			case 16: dst->val = (uint64_t)(int64_t)(int16_t)dst->val; break;
			case 32: dst->val = (uint64_t)(int64_t)(int32_t)dst->val; break;
			default: *dst = unknown; break;
			}
			break;
		case BPF_ADD | BPF_K:
		case BPF_SUB | BPF_K:
			if (dst->state != CI_CONST && dst->state != CI_MAP_VALUE) {
				*dst = unknown;
				break;
			}
			if (op == (BPF_ADD | BPF_K))
				dst->val += (uint64_t)(int64_t)in->imm;
			else
				dst->val -= (uint64_t)(int64_t)in->imm;
			break;
		case BPF_AND | BPF_K:
			if (dst->state != CI_CONST) {
				if (!in->imm) {
					dst->state = CI_CONST;
					dst->val = 0;
				} else {
					*dst = unknown;
				}
				break;
			}
			dst->val &= (uint64_t)(int64_t)in->imm;
			break;
		case BPF_AND | BPF_X:
			if (dst->state == CI_CONST && dst->val == 0)
				break;
			if (src->state == CI_CONST && src->val == 0) {
				dst->state = CI_CONST;
				dst->val = 0;
				break;
			}
			if (dst->state != CI_CONST || src->state != CI_CONST) {
				*dst = unknown;
				break;
			}
			dst->val &= src->val;
			break;
		default:
			*dst = unknown;
			break;
		}
		if (cls == BPF_ALU) {
			if (dst->state == CI_CONST)
				dst->val = (uint32_t)dst->val;
			else if (dst->state != CI_UNKNOWN)
				*dst = unknown;
		}
		break;
	case BPF_LD:
		if (mode == BPF_ABS || mode == BPF_IND)
			goto call;
		if (mode != BPF_IMM || BPF_SIZE(in->code) != BPF_DW || idx + 1 >= env->insn_cnt)
			break;
		if (in->src_reg == BPF_PSEUDO_FUNC) {
			int s = subprog_at(env, idx + in->imm + 1);
			if (s >= 0) {
				dst->state = CI_SUBPROG;
				dst->val = (uint64_t)s;
			} else {
				*dst = unknown;
			}
		} else if (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE || in->src_reg == BPF_PSEUDO_MAP_VALUE) {
			dst->state = CI_MAP_VALUE;
			dst->map = (uint32_t)in->imm;
			dst->val = (uint32_t)in[1].imm;
		} else if (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_FD) {
			dst->state = CI_MAP_PTR;
			dst->map = (uint32_t)in->imm;
			dst->val = 0;
		} else if (in->src_reg == 0) {
			dst->state = CI_CONST;
			dst->val = (uint64_t)(uint32_t)in->imm | ((uint64_t)(uint32_t)in[1].imm << 32);
		} else {
			*dst = unknown;
		}
		break;
	case BPF_LDX: {
		uint64_t v;
		int size = BPF_SIZE(in->code) == BPF_B ? 1 : BPF_SIZE(in->code) == BPF_H ? 2 : BPF_SIZE(in->code) == BPF_W ? 4 : 8;
		if (src->state != CI_MAP_VALUE ||
		    !map_read(env, src->map, (int64_t)src->val + in->off, size, mode == BPF_MEMSX, &v)) {
			*dst = unknown;
			break;
		}
		dst->state = CI_CONST;
		dst->val = v;
		break;
	}
	case BPF_JMP:
		if (BPF_OP(in->code) != BPF_CALL)
			break;
	call:
		for (int r = 0; r <= 5; r++)
			o[r] = unknown;
		break;
	case BPF_STX:
		if (mode == BPF_ATOMIC) {
			int r = in->imm == RB_LOAD_ACQ ? in->dst_reg
				: in->imm == BPF_CMPXCHG ? 0
				: (in->imm & BPF_FETCH) ? in->src_reg : -1;
			if (r >= 0 && r < NREG)
				o[r] = unknown;
		}
		break;
	}
}

/* 7.2 const_reg_join; true when the target changed */
static bool join(struct ci *t, const struct ci *o)
{
	bool changed = false;
	for (int r = 0; r < NREG; r++) {
		if (t[r].state == CI_UNVISITED && o[r].state != CI_UNVISITED) {
			t[r] = o[r];
			changed = true;
		} else if (t[r].state != CI_UNKNOWN && t[r].state != CI_UNVISITED &&
			   (o[r].state != t[r].state || o[r].val != t[r].val || o[r].map != t[r].map)) {
			t[r].state = CI_UNKNOWN;
			changed = true;
		}
	}
	return changed;
}

static int branch_taken(uint8_t code, uint64_t d, uint64_t s)
{
	switch (BPF_OP(code)) {
	case BPF_JEQ: return d == s;
	case BPF_JNE: return d != s;
	case BPF_JGT: return d > s;
	case BPF_JGE: return d >= s;
	case BPF_JLT: return d < s;
	case BPF_JLE: return d <= s;
	case BPF_JSGT: return (int64_t)d > (int64_t)s;
	case BPF_JSGE: return (int64_t)d >= (int64_t)s;
	case BPF_JSLT: return (int64_t)d < (int64_t)s;
	case BPF_JSLE: return (int64_t)d <= (int64_t)s;
	case BPF_JSET: return (d & s) != 0;
	default: return -1;
	}
}

static bool cond_jump(uint8_t code)
{
	uint8_t cls = BPF_CLASS(code), op = BPF_OP(code);
	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_JA && op != BPF_CALL && op != BPF_EXIT &&
	       op != RB_JCOND;
}

/* a register's known constant at an instruction: 7.2 keeps those that fit in 32 bits */
static bool known(const struct ci *c, uint64_t *v)
{
	if (c->state != CI_CONST || c->val != (uint32_t)c->val)
		return false;
	*v = c->val;
	return true;
}

int rb_const_fold_branches(struct rb_env *env)
{
	int n = env->insn_cnt;
	struct ci(*in)[NREG] = calloc((size_t)n, sizeof(*in));
	if (!in)
		return RB_E_NOMEM;
	for (int s = 0; s < env->nsubprogs; s++)
		for (int r = 0; r < NREG; r++)
			in[env->subprogs[s].start][r] = unknown;
	/* the least fixed point, whatever the visiting order */
	bool changed;
	do {
		changed = false;
		for (int i = 0; i < n; i++) {
			if (in[i][0].state == CI_UNVISITED && in[i][10].state == CI_UNVISITED)
				continue;
			struct ci o[NREG];
			memcpy(o, in[i], sizeof(o));
			xfer(env, o, &env->insns[i], i);
			int succ[2], k = rb_insn_successors(env, i, succ);
			for (int j = 0; j < k; j++)
				if (succ[j] >= 0 && succ[j] < n)
					changed |= join(in[succ[j]], o);
		}
	} while (changed);
	/* 7.2 bpf_compute_const_regs keeps each insn's constant registers
	 * for the stack liveness (stack_live72.c) */
	if (env->prof->static_stack_liveness) {
		if (!(env->const_regs = calloc((size_t)n, sizeof(*env->const_regs)))) {
			free(in);
			return RB_E_NOMEM;
		}
		for (int i = 0; i < n; i++)
			for (int r = 0; r < NREG; r++) {
				struct rb_const_regs *c = &env->const_regs[i];
				const struct ci *x = &in[i][r];
				if (x->state == CI_CONST && x->val == (uint32_t)x->val)
					c->cmask |= (uint16_t)(1u << r);
				else if (x->state == CI_MAP_PTR)
					c->mmask |= (uint16_t)(1u << r);
				else if (x->state == CI_SUBPROG)
					c->smask |= (uint16_t)(1u << r);
				else
					continue;
				c->val[r] = x->state == CI_MAP_PTR ? x->map : (uint32_t)x->val;
			}
	}
	struct bpf_insn *out = NULL;
	for (int i = 0; i < n; i++) {
		const struct bpf_insn *x = &env->insns[i];
		uint64_t d, s;
		if (!cond_jump(x->code) || !known(&in[i][x->dst_reg % NREG], &d))
			continue;
		if (BPF_SRC(x->code) == BPF_K)
			s = (uint64_t)(int64_t)x->imm;
		else if (!known(&in[i][x->src_reg % NREG], &s))
			continue;
		if (BPF_CLASS(x->code) == BPF_JMP32) {
			d = (uint64_t)(int64_t)(int32_t)d;
			s = (uint64_t)(int64_t)(int32_t)s;
		}
		int taken = branch_taken(x->code, d, s);
		if (taken < 0)
			continue;
		if (!out) {
			out = malloc(sizeof(*out) * (size_t)n);
			if (!out) {
				free(in);
				return RB_E_NOMEM;
			}
			memcpy(out, env->insns, sizeof(*out) * (size_t)n);
			env->own_insns = out;
			env->insns = out;
		}
		out[i] = (struct bpf_insn){.code = BPF_JMP | BPF_JA, .off = taken ? x->off : 0};
	}
	free(in);
	return 0;
}
