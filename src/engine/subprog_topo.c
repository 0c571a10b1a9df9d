/* subprog_topo.c — the 7.2 profile's static recursion check (profile.h
 * recursion_static): Linux 7.2.13's sort_subprogs_topo (verifier.c), run
 * by bpf_check after the constant branches are folded, orders the
 * subprograms callees first by a depth-first walk of the call graph, each
 * subprogram's calls taken in the CFG postorder of its instructions; a
 * direct call back into a subprogram still on the walk's stack is refused
 * before exploration, "recursive call from A() to B()" (names from the
 * program's BTF func_info, empty without it). A callback's address
 * (ld_imm64 of a function) walks into the callback but closes no cycle.
 * 6.18.44 found recursion only while exploring, as a call stack too deep.
 * Reimplemented from 7.2.13's rules. */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/liveness.h"
#include "engine/subprog_topo.h"

static bool is_call(const struct bpf_insn *in)
{
	return in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL;
}

static bool is_func_addr(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW) && in->src_reg == BPF_PSEUDO_FUNC;
}

/* 7.2 subprog_name: the func_info name of subprogram s, "" without BTF */
static void subprog_name(const struct rb_env *env, int s, char *buf, size_t len)
{
	const struct rb_prog *p = env->prog;
	buf[0] = '\0';
	if (!p->func_info || (uint32_t)s >= p->func_info_cnt || !env->obj->btf)
		return;
	struct btf *btf = btf__new(env->obj->btf, (uint32_t)env->obj->btf_size);
	if (!btf)
		return;
	const struct bpf_func_info *fi =
		(const void *)((const char *)p->func_info + (size_t)s * p->func_info_rec_size);
	const struct btf_type *t = btf__type_by_id(btf, fi->type_id);
	if (t)
		snprintf(buf, len, "%s", btf__name_by_offset(btf, t->name_off));
	btf__free(btf);
}

static int subprog_at(const struct rb_env *env, int insn)
{
	return insn >= 0 && insn < env->insn_cnt ? env->aux[insn].subprog : -1;
}

int rb_subprog_topo_check(struct rb_env *env)
{
	int cnt = env->nsubprogs, err;
	if ((err = rb_live_postorder(env)))
		return err;
	uint8_t *color = calloc((size_t)cnt, 1); /* 0 unvisited, 1 on the stack, 2 done */
	int *stack = calloc((size_t)cnt, sizeof(int));
	/* env->subprog_topo: the order, callees first (7.2 subprog_topo_order) */
	free(env->subprog_topo);
	env->subprog_topo = calloc((size_t)cnt, sizeof(int));
	int order = 0;
	if (!color || !stack || !env->subprog_topo) {
		free(color);
		free(stack);
		return RB_E_NOMEM;
	}
	int rc = 0;
	for (int i = 0; i < cnt && !rc; i++) {
		if (color[i])
			continue;
		int top = 0;
		color[i] = 1;
		stack[top++] = i;
		while (top > 0 && !rc) {
			int cur = stack[top - 1];
			bool pushed = false;
			for (int j = env->live_po_start[cur]; j < env->live_po_start[cur + 1]; j++) {
				int idx = env->live_po[j];
				const struct bpf_insn *in = &env->insns[idx];
				if (!is_call(in) && !is_func_addr(in))
					continue;
				int callee = subprog_at(env, idx + in->imm + 1);
				if (callee < 0 || color[callee] == 2)
					continue;
				if (color[callee] == 1) {
					if (is_func_addr(in))
						continue;
					char a[64], b[64];
					subprog_name(env, cur, a, sizeof(a));
					subprog_name(env, callee, b, sizeof(b));
					env->insn_idx = idx;
					rc = rb_reject(env, "recursive call from %s() to %s()", a, b);
					break;
				}
				color[callee] = 1;
				stack[top++] = callee;
				pushed = true;
				break;
			}
			if (!pushed && !rc) {
				color[cur] = 2;
				env->subprog_topo[order++] = cur;
				top--;
			}
		}
	}
	free(color);
	free(stack);
	return rc;
}
