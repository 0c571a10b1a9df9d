/* liveness.c — stack slot liveness (a path-insensitive approximation of
 * Linux 6.18's kernel/bpf/liveness.c): slot reads and full writes recorded
 * per instruction during exploration, live-before sets by a backward fixed
 * point; only complete checkpoints are cleaned, as in the kernel. */
#include <stdlib.h>
#include <string.h>

#include "engine/liveness.h"
#include "engine/states.h"
#include "util/grow.h"

/* One table per call chain (the callsites leading to the innermost frame),
 * as 6.18's liveness.c keeps one per callchain. For every frame f of the
 * chain and every insn of the innermost subprogram: the frame-f slots read
 * there, and the frame-f slots surely fully written there (an outer
 * frame's through a pointer argument too, as 6.18's must_write). The
 * liveness of frame f's slots flows backwards through the innermost
 * subprogram, into callees at call insns and out to the caller's chain
 * after the callsite at exits. */
static struct rb_chain *chain_by(struct rb_env *env, const int *cs, int depth)
{
	for (int c = 0; c < env->nchains; c++) {
		struct rb_chain *ch = &env->chains[c];
		if (ch->depth == depth && !memcmp(ch->callsites, cs, sizeof(int) * (size_t)depth))
			return ch;
	}
	return NULL;
}

static struct rb_chain *find_chain(struct rb_env *env, const struct rb_vstate *st, int depth, bool create)
{
	int cs[RB_MAX_FRAMES];
	for (int i = 1; i <= depth; i++)
		cs[i - 1] = st->frame[i]->callsite;
	struct rb_chain *ch = chain_by(env, cs, depth);
	if (ch || !create)
		return ch;
	if (RB_GROW(env->chains, env->nchains + 1, &env->cap_chains, 8) < 0)
		return NULL;
	ch = &env->chains[env->nchains];
	memset(ch, 0, sizeof(*ch));
	size_t n = (size_t)env->insn_cnt * (size_t)(depth + 1);
	ch->read = calloc(n, sizeof(uint64_t));
	ch->live = calloc(n, sizeof(uint64_t));
	ch->write = calloc(n, sizeof(uint64_t));
	ch->wseen = calloc(n, sizeof(uint64_t));
	if (!ch->read || !ch->write || !ch->live || !ch->wseen) {
		free(ch->read);
		free(ch->write);
		free(ch->live);
		free(ch->wseen);
		return NULL;
	}
	ch->depth = depth;
	memcpy(ch->callsites, cs, sizeof(int) * (size_t)depth);
	ch->sub = st->frame[depth]->subprog;
	env->nchains++;
	env->live_dirty = env->live_reset = true;
	return ch;
}

void rb_free_chains(struct rb_env *env)
{
	for (int c = 0; c < env->nchains; c++) {
		free(env->chains[c].read);
		free(env->chains[c].write);
		free(env->chains[c].live);
		free(env->chains[c].wseen);
	}
	free(env->chains);
	env->chains = NULL;
	env->nchains = 0;
}

#define LV(ch, f, i) ((ch)->live[(size_t)(f) * (size_t)env->insn_cnt + (size_t)(i)])
#define RD(ch, f, i) ((ch)->read[(size_t)(f) * (size_t)env->insn_cnt + (size_t)(i)])
#define WR(ch, f, i) ((ch)->write[(size_t)(f) * (size_t)env->insn_cnt + (size_t)(i)])
#define WS(ch, f, i) ((ch)->wseen[(size_t)(f) * (size_t)env->insn_cnt + (size_t)(i)])

/* a stack slot of frame `frameno` is read (or fully written) by the
 * current instruction of the innermost frame */
void rb_live_stack_access(struct rb_env *env, int frameno, int spi, bool write_full)
{
	if (spi < 0 || spi >= 64)
		return;
	struct rb_vstate *st = env->cur;
	struct rb_chain *ch = find_chain(env, st, st->curframe, true);
	if (!ch)
		return;
	int idx = env->insn_idx;
	uint64_t bit = 1ull << spi;
	if (frameno < 0 || frameno > st->curframe)
		return;
	if (write_full) {
		/* the slots one visit of the insn writes (a dynptr or an
		 * iterator: several) are its sure writes when first seen; a later
		 * visit keeps them (the engine's approximation of 6.18's
		 * per-visit intersection, bpf_commit_stack_write_marks) */
		uint64_t visit = env->insn_processed + 1;
		if (!WS(ch, frameno, idx) || WS(ch, frameno, idx) == visit) {
			if (!(WR(ch, frameno, idx) & bit)) {
				WR(ch, frameno, idx) |= bit;
				env->live_reset = env->live_dirty = true;
			}
			WS(ch, frameno, idx) = visit;
		}
		return;
	}
	if (!(RD(ch, frameno, idx) & bit)) {
		RD(ch, frameno, idx) |= bit;
		env->live_dirty = true;
	}
	/* an insn that reads a slot does not surely write it */
	if (WR(ch, frameno, idx) & bit) {
		WR(ch, frameno, idx) &= ~bit;
		env->live_dirty = true;
	}
}

/* The backward fixed point over every chain at once: the least solution
 * of live(i) = read(i) | (live(successors) & ~write(i)). Reads added and
 * sure writes withdrawn since the last solution only make the equations
 * larger, so iterating from the last solution (below the new least one,
 * and a post-fixed point of the new equations) reaches the same least
 * solution in fewer sweeps; a new sure write or a new call chain can
 * shrink it, and then the iteration starts from nothing (live_reset). */
static void compute_live_stack(struct rb_env *env)
{
	if (!env->live_dirty)
		return;
	env->live_dirty = false;
	for (int c = 0; env->live_reset && c < env->nchains; c++)
		memset(env->chains[c].live, 0,
		       sizeof(uint64_t) * (size_t)env->insn_cnt * (size_t)(env->chains[c].depth + 1));
	env->live_reset = false;
	bool changed = true;
	int iters = 0;
	while (changed && iters++ < 10000) {
		changed = false;
		for (int c = 0; c < env->nchains; c++) {
			struct rb_chain *ch = &env->chains[c];
			struct rb_chain *parent = ch->depth ? chain_by(env, ch->callsites, ch->depth - 1) : NULL;
			int lo = env->subprogs[ch->sub].start, hi = env->subprogs[ch->sub].end;
			for (int f = 0; f <= ch->depth; f++) {
				/* after this subprogram returns: the caller's chain after the
				 * callsite; after a callback returns, the caller's chain at
				 * the callsite itself, which may call it again (6.18
				 * bpf_stack_slot_alive: "alive before callsite if callsite
				 * calls callback, otherwise alive after callsite") */
				uint64_t at_exit = 0;
				if (f < ch->depth && parent) {
					int cs = ch->callsites[ch->depth - 1];
					at_exit = LV(parent, f, env->aux[cs].calls_callback ? cs : cs + 1);
				}
				for (int i = hi - 1; i >= lo; i--) {
					const struct bpf_insn *in = &env->insns[i];
					uint8_t cls = BPF_CLASS(in->code);
					uint64_t out = 0;
					bool ld64 = in->code == (BPF_LD | BPF_IMM | BPF_DW);
					int next = i + (ld64 ? 2 : 1);
					if (cls == BPF_JMP || cls == BPF_JMP32) {
						uint8_t op = BPF_OP(in->code);
						if (op == BPF_EXIT) {
							out = at_exit;
						} else if (op == BPF_CALL) {
							struct rb_chain *child = NULL;
							if (in->src_reg == BPF_PSEUDO_CALL && ch->depth + 1 < RB_MAX_FRAMES) {
								int cs[RB_MAX_FRAMES];
								memcpy(cs, ch->callsites, sizeof(int) * (size_t)ch->depth);
								cs[ch->depth] = i;
								child = chain_by(env, cs, ch->depth + 1);
							}
							if (child)
								out = LV(child, f, env->subprogs[child->sub].start);
							else if (next < hi)
								out = LV(ch, f, next);
							/* a helper calling back: the callback's reads of
							 * this chain's frames happen at the call (6.18
							 * propagate_to_outer_instance: the callback's
							 * entry live_before is the callsite's may_read) */
							if (env->aux[i].calls_callback && ch->depth + 1 < RB_MAX_FRAMES) {
								int cs[RB_MAX_FRAMES];
								memcpy(cs, ch->callsites, sizeof(int) * (size_t)ch->depth);
								cs[ch->depth] = i;
								struct rb_chain *cb = chain_by(env, cs, ch->depth + 1);
								if (cb)
									out |= LV(cb, f, env->subprogs[cb->sub].start);
							}
						} else if (op == BPF_JA) {
							int t = i + 1 + (cls == BPF_JMP ? in->off : in->imm);
							if (t >= lo && t < hi)
								out = LV(ch, f, t);
						} else {
							if (next < hi)
								out = LV(ch, f, next);
							int t = i + 1 + in->off;
							if (t >= lo && t < hi)
								out |= LV(ch, f, t);
						}
					} else if (next < hi) {
						out = LV(ch, f, next);
					}
					uint64_t live = RD(ch, f, i) | (out & ~WR(ch, f, i));
					if (live != LV(ch, f, i)) {
						LV(ch, f, i) = live;
						changed = true;
					}
				}
			}
		}
	}
}

/* clean_verifier_state: dead stack slots of a complete checkpoint become
 * invalid (dead registers are skipped by func_states_equal). Each frame's
 * slots are judged at the state's own instruction in its full call chain. */
void rb_clean_state(struct rb_env *env, struct rb_vstate *st)
{
	struct rb_chain *ch = find_chain(env, st, st->curframe, true);
	compute_live_stack(env);
	for (int fr = 0; fr <= st->curframe; fr++) {
		struct rb_func *f = st->frame[fr];
		/* 6.18 clean_func_state: registers dead before the frame's
		 * instruction (compute_live_registers) become NOT_INIT, so that
		 * neither propagate_precision nor the all-precise fallback
		 * touches them */
		uint16_t live_regs = env->aux[rb_frame_insn_idx(st, fr)].live_regs;
		for (int r = 0; r < RB_REG_FP; r++)
			if (!(live_regs & (1u << r)))
				rb_reg_not_init(env, &f->regs[r]);
		uint64_t live = ch ? LV(ch, fr, st->insn_idx) : ~0ull;
		/* 6.18 bpf_stack_slot_alive: an outer frame's slot is also alive
		 * when it is live after the callsite of each level (before it, for
		 * a callback-calling one), whatever the callee writes on the way */
		for (int k = fr; ch && k < st->curframe; k++) {
			struct rb_chain *outer = find_chain(env, st, k, false);
			int cs = st->frame[k + 1]->callsite;
			if (cs < 0 || cs >= env->insn_cnt) {
				live = ~0ull;
				break;
			}
			if (!outer)
				continue; /* no access recorded along that chain yet: nothing live */
			int at = env->aux[cs].calls_callback ? cs : cs + 1;
			if (at < env->insn_cnt)
				live |= LV(outer, fr, at);
		}
		for (int s = 0; s < f->nslots && s < 64; s++) {
			if (live & (1ull << s))
				continue;
			memset(&f->stack[s], 0, sizeof(f->stack[s]));
		}
	}
}
