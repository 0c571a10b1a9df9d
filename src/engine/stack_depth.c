/* stack_depth.c — 6.18's check_max_stack_depth() after verification:
 * the stack of a call chain (each frame's deepest stack use, rounded up
 * to 16 bytes as for a JITed program) must stay within 512 bytes, and a
 * subprogram that tail-calls must not be reached with 256 bytes or more
 * on the stack of its callers. Program types that may get a private stack
 * on x86-64 (kprobe, tracepoint, perf_event, raw_tracepoint) check a
 * subprogram of 64 bytes or more on its own instead ("stack size of
 * subprog N is M"). Per-subprogram depths are recorded as the stack
 * grows (rb_note_stack_depth, grow_stack_state in 6.18). */
#include <linux/bpf.h>

#include "engine/profile.h"
#include "engine/stack_depth.h"

#define MAX_BPF_STACK 512
#define PRIV_STACK_MIN 64

void rb_note_stack_depth(struct rb_env *env, const struct rb_func *f, int bytes)
{
	if (f->subprog >= 0 && f->subprog < env->nsubprogs && env->subprogs[f->subprog].stack_depth < bytes)
		env->subprogs[f->subprog].stack_depth = bytes;
}

static int round16(int d) { return (d + 15) & ~15; }

static int find_sub(const struct rb_env *env, int start)
{
	for (int s = 0; s < env->nsubprogs; s++)
		if (env->subprogs[s].start == start)
			return s;
	return -1;
}

static bool has_tail_call(const struct rb_env *env, int s)
{
	for (int i = env->subprogs[s].start; i < env->subprogs[s].end; i++)
		if (env->insns[i].code == (BPF_JMP | BPF_CALL) && env->insns[i].src_reg == 0 &&
		    env->insns[i].imm == BPF_FUNC_tail_call)
			return true;
	return false;
}

static bool priv_stack_type(uint32_t t)
{
	return t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT || t == BPF_PROG_TYPE_PERF_EVENT ||
	       t == BPF_PROG_TYPE_RAW_TRACEPOINT;
}

/* frame: 0 for the entry (and, in 7.2, for a global callee); calls: the
 * subprograms of the chain before s; depth: bytes of the callers' frames */
static int visit(struct rb_env *env, int s, int frame, int calls, int depth, bool priv)
{
	if (s && has_tail_call(env, s) && depth >= 256) {
		env->insn_idx = -1;
		return rb_reject(env, "tail_calls are not allowed when call stack of previous frames is %d bytes. Too large",
				 depth);
	}
	int sd = round16(env->subprogs[s].stack_depth);
	if (priv && sd >= PRIV_STACK_MIN) {
		if (sd > MAX_BPF_STACK) {
			env->insn_idx = -1;
			return rb_reject(env, "stack size of subprog %d is %d. Too large", s, sd);
		}
	} else {
		depth += sd;
		if (depth > MAX_BPF_STACK) {
			env->insn_idx = -1;
			return rb_reject(env, "combined stack size of %d calls is %d. Too large", calls + 1, depth);
		}
	}
	if (frame + 1 >= env->prof->max_call_frames || calls + 1 >= RB_MAX_FRAMES * (env->nsubprogs + 1))
		return 0; /* too deep: reported by the frame count check */
	for (int i = env->subprogs[s].start; i < env->subprogs[s].end; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
			continue;
		int t = find_sub(env, i + 1 + in->imm);
		if (t < 0)
			continue;
		bool reset = env->prof->global_call_resets_frames && env->subprogs[t].global;
		int rc = visit(env, t, reset ? 0 : frame + 1, calls + 1, depth, priv);
		if (rc)
			return rc;
	}
	return 0;
}

int rb_check_max_stack_depth(struct rb_env *env)
{
	if (env->nsubprogs <= 0)
		return 0;
	return visit(env, 0, 0, 0, 0, priv_stack_type(env->prog->prog_type));
}
