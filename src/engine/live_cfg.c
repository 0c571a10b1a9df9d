/* live_cfg.c — the control-flow facts stack liveness reads (Linux 6.18
 * kernel/bpf/liveness.c): each insn's successors, each subprogram's insns
 * in CFG postorder, and for liveness.c's update_chain each insn's
 * position in that postorder and its predecessors; computed once per
 * program. */
#include <stdlib.h>

#include "engine/liveness.h"

/* 6.18 bpf_insn_successors */
int rb_insn_successors(const struct rb_env *env, int i, int out[2])
{
	const struct bpf_insn *in = &env->insns[i];
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int n = 0, next = i + (in->code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1);
	if (cls != BPF_JMP && cls != BPF_JMP32) {
		out[n++] = next;
		return n;
	}
	if (op == BPF_EXIT)
		return 0;
	if (op == BPF_CALL) {
		out[n++] = next;
		return n;
	}
	if (op == BPF_JA) {
		out[n++] = i + 1 + (cls == BPF_JMP32 ? in->imm : in->off);
		return n;
	}
	out[n++] = next;
	out[n++] = i + 1 + in->off;
	return n;
}

/* what update_chain needs to evaluate only what may change: each insn's
 * position in its subprogram's postorder (-1 unreached) and its
 * predecessors; 0 or -1 out of memory */
static int live_preds(struct rb_env *env)
{
	int n = env->insn_cnt;
	env->live_pos = malloc(sizeof(int) * ((size_t)n + 1));
	env->live_pred_start = calloc((size_t)n + 2, sizeof(int));
	env->live_pred = malloc(sizeof(int) * 2 * ((size_t)n + 1));
	if (!env->live_pos || !env->live_pred_start || !env->live_pred)
		return -1;
	for (int i = 0; i < n; i++)
		env->live_pos[i] = -1;
	for (int s = 0; s < env->nsubprogs; s++)
		for (int p = env->live_po_start[s]; p < env->live_po_start[s + 1]; p++)
			env->live_pos[env->live_po[p]] = p - env->live_po_start[s];
	/* counts, then start offsets, then the lists */
	for (int i = 0; i < 2 * n; i++) {
		int t = env->live_succ[i];
		if (t >= 0 && t < n)
			env->live_pred_start[t + 2]++;
	}
	for (int t = 0; t < n; t++)
		env->live_pred_start[t + 2] += env->live_pred_start[t + 1];
	for (int i = 0; i < 2 * n; i++) {
		int t = env->live_succ[i];
		if (t >= 0 && t < n)
			env->live_pred[env->live_pred_start[t + 1]++] = i / 2;
	}
	return 0;
}

/* 6.18 compute_postorder: each subprogram's insns in DFS postorder */
static int compute_postorder(struct rb_env *env)
{
	int n = env->insn_cnt;
	env->live_po = calloc((size_t)n + 1, sizeof(int));
	env->live_po_start = calloc((size_t)env->nsubprogs + 1, sizeof(int));
	env->live_succ = malloc(sizeof(int) * 2 * ((size_t)n + 1));
	uint8_t *state = calloc((size_t)n + 1, 1);
	int *stack = calloc((size_t)n + 1, sizeof(int));
	if (!env->live_po || !env->live_po_start || !env->live_succ || !state || !stack) {
		free(state);
		free(stack);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int succ[2], k = rb_insn_successors(env, i, succ);
		env->live_succ[2 * (size_t)i] = k > 0 ? succ[0] : -1;
		env->live_succ[2 * (size_t)i + 1] = k > 1 ? succ[1] : -1;
	}
	int cur = 0;
	for (int s = 0; s < env->nsubprogs; s++) {
		env->live_po_start[s] = cur;
		int sz = 1;
		stack[0] = env->subprogs[s].start;
		do {
			int top = stack[sz - 1];
			state[top] |= 1; /* discovered */
			if (state[top] & 2) {
				env->live_po[cur++] = top;
				sz--;
				continue;
			}
			int succ[2], k = rb_insn_successors(env, top, succ);
			for (int j = 0; j < k; j++) {
				if (succ[j] < 0 || succ[j] >= n || state[succ[j]])
					continue;
				stack[sz++] = succ[j];
				state[succ[j]] |= 1;
			}
			state[top] |= 2; /* explored */
		} while (sz);
	}
	env->live_po_start[env->nsubprogs] = cur;
	free(state);
	free(stack);
	return live_preds(env);
}

int rb_live_postorder(struct rb_env *env)
{
	return env->live_po || compute_postorder(env) == 0 ? 0 : RB_E_NOMEM;
}
