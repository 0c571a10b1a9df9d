/* backtrack.c — precision tracking (Linux 6.18 __mark_chain_precision,
 * backtrack_insn, bt_sync_linked_regs, propagate_precision; mainline
 * later moved them to kernel/bpf/backtrack.c): walking the jump history
 * backwards from a use that needs an exact scalar, marking the registers
 * and stack slots it came from precise in the parent checkpoints. */
#include <stdlib.h>
#include <string.h>

#include "engine/profile.h"
#include "engine/backtrack.h"
#include "engine/bt_memo.h"
#include "engine/bt_step.h"

void rb_mark_all_imprecise(struct rb_vstate *st)
{
	for (int fr = 0; fr <= st->curframe; fr++) {
		struct rb_func *f = st->frame[fr];
		for (int i = 0; i < RB_MAX_REG; i++)
			if (f->regs[i].type == RT_SCALAR)
				f->regs[i].precise = 0;
		for (int s = 0; s < f->nslots; s++)
			if (f->stack[s].type[7] == SLOT_SPILL && f->stack[s].spilled.type == RT_SCALAR)
				f->stack[s].spilled.precise = 0;
	}
}

/* 6.18 mark_all_scalars_precise: the fallback when backtracking cannot
 * follow a value (pointer subtraction, ...); every scalar of every parent
 * state becomes precise, each newly marked one logged */
void rb_mark_all_scalars_precise(struct rb_env *env, struct rb_vstate *st)
{
	rb_log(env, "mark_precise: frame%d: falling back to forcing all scalars precise\n", st->curframe);
	for (st = st->parent; st; st = st->parent) {
		for (int fr = 0; fr <= st->curframe; fr++) {
			struct rb_func *f = st->frame[fr];
			for (int i = 0; i < RB_REG_FP; i++) {
				struct rb_reg *r = &f->regs[i];
				if (r->type != RT_SCALAR || r->precise)
					continue;
				r->precise = 1;
				rb_log(env, "force_precise: frame%d: forcing r%d to be precise\n", fr, i);
			}
			for (int s = 0; s < f->nslots; s++) {
				struct rb_reg *r = &f->stack[s].spilled;
				if (f->stack[s].type[7] != SLOT_SPILL || r->type != RT_SCALAR || r->precise)
					continue;
				r->precise = 1;
				rb_log(env, "force_precise: frame%d: forcing fp%d to be precise\n", fr, (-s - 1) * 8);
			}
		}
	}
}

#define BT_NOTSUPP 1
#define BT_BUG 2

static bool bt_empty(struct rb_env *env)
{
	for (int i = 0; i <= env->bt_frame; i++)
		if (env->bt_regs[i] || env->bt_stack[i])
			return false;
	return true;
}

static bool is_pseudo_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL) && i->src_reg == BPF_PSEUDO_CALL;
}

/* bt_sync_linked_regs: if one of the linked registers is requested, all are */
static void bt_sync_linked(struct rb_env *env, const struct rb_hist *hist)
{
	if (!hist || !hist->linked)
		return;
	int cnt = (int)(hist->linked >> 60);
	bool some = false;
	for (int i = 0; i < cnt && !some; i++) {
		unsigned e = (unsigned)(hist->linked >> (10 * i)) & 0x3ff;
		int fr = (int)(e & 7), n = (int)(e >> 4);
		if (e & 8)
			some = (env->bt_regs[fr] >> n) & 1;
		else
			some = (env->bt_stack[fr] >> n) & 1;
	}
	if (!some)
		return;
	for (int i = 0; i < cnt; i++) {
		unsigned e = (unsigned)(hist->linked >> (10 * i)) & 0x3ff;
		int fr = (int)(e & 7), n = (int)(e >> 4);
		if (e & 8)
			env->bt_regs[fr] |= 1u << n;
		else
			env->bt_stack[fr] |= 1ull << n;
	}
}

static int backtrack_insn_inner(struct rb_env *env, int idx, int subseq_idx, const struct rb_hist *hist);

static int backtrack_insn(struct rb_env *env, int idx, int subseq_idx, const struct rb_hist *hist)
{
	bt_sync_linked(env, hist);
	int err = backtrack_insn_inner(env, idx, subseq_idx, hist);
	if (!err)
		bt_sync_linked(env, hist);
	return err;
}

static int backtrack_insn_inner(struct rb_env *env, int idx, int subseq_idx, const struct rb_hist *hist)
{
	const struct bpf_insn *insn = &env->insns[idx];
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code), mode = BPF_MODE(insn->code);
	uint32_t dreg = insn->dst_reg, sreg = insn->src_reg;
	int fr = env->bt_frame;
	uint32_t *regs = &env->bt_regs[fr];
	if (insn->code == 0)
		return 0;
	if (cls == BPF_ALU || cls == BPF_ALU64) {
		if (!(*regs & (1u << dreg)))
			return 0;
		if (op == BPF_END || op == BPF_NEG)
			return 0;
		if (op == BPF_MOV) {
			*regs &= ~(1u << dreg);
			if (BPF_SRC(insn->code) == BPF_X && sreg != RB_REG_FP)
				*regs |= 1u << sreg;
		} else if (BPF_SRC(insn->code) == BPF_X && sreg != RB_REG_FP) {
			*regs |= 1u << sreg;
		}
		return 0;
	}
	/* an atomic fetch loads the old value into sreg (r0 for cmpxchg): a
	 * load for precision (6.18.44, as mainline's is_atomic_fetch_insn
	 * case: the precise register moves to the stack slot it came from) */
	bool fetch = cls == BPF_STX && mode == BPF_ATOMIC && (insn->imm & BPF_FETCH);
	if (cls == BPF_LDX || fetch || (cls == BPF_STX && mode == BPF_ATOMIC && insn->imm == 0x100 /* load_acq */)) {
		uint32_t load_reg = fetch ? (insn->imm == BPF_CMPXCHG ? 0 : sreg) : dreg;
		if (!(*regs & (1u << load_reg)))
			return 0;
		*regs &= ~(1u << load_reg);
		if (!hist || !(hist->flags & RB_HF_STACK))
			return 0;
		int hfr = (int)((hist->flags >> 1) & 7), spi = (int)(hist->flags >> 4);
		env->bt_stack[hfr] |= 1ull << spi;
		return 0;
	}
	if (cls == BPF_STX || cls == BPF_ST) {
		if (*regs & (1u << dreg))
			return BT_NOTSUPP;
		if (!hist || !(hist->flags & RB_HF_STACK))
			return 0;
		int hfr = (int)((hist->flags >> 1) & 7), spi = (int)(hist->flags >> 4);
		if (!(env->bt_stack[hfr] & (1ull << spi)))
			return 0;
		env->bt_stack[hfr] &= ~(1ull << spi);
		if (cls == BPF_STX)
			*regs |= 1u << sreg;
		return 0;
	}
	if (cls == BPF_JMP || cls == BPF_JMP32) {
		if (is_pseudo_call(insn)) {
			/* leaving the callee backwards: only r1-r5 may remain, they move to the caller */
			if ((*regs & ~ARGS_MASK) || env->bt_stack[fr])
				return BT_BUG;
			if (fr == 0)
				return BT_BUG;
			env->bt_regs[fr - 1] |= *regs & ARGS_MASK;
			*regs = 0;
			env->bt_frame--;
			return 0;
		}
		if (op == BPF_CALL && env->aux[idx].calls_callback && idx != subseq_idx - 1) {
			/* 6.18: backwards out of a callback into the helper (or
			 * kfunc) that called it; r1-r5 of the callback are not
			 * the call's arguments, nothing else may be left */
			if ((*regs & ~ARGS_MASK) || env->bt_stack[fr] || fr == 0)
				return BT_BUG;
			*regs = 0;
			env->bt_frame--;
			return 0;
		}
		if (op == BPF_CALL) {
			/* 6.18: a kfunc call with imm 0 (rejected at fixup) stops backtracking */
			if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL && insn->imm == 0)
				return BT_NOTSUPP;
			*regs &= ~1u;
			if (*regs & ARGS_MASK)
				return BT_BUG;
			return 0;
		}
		if (op == BPF_EXIT) {
			/* backwards into a callback from the insn that called it:
			 * the caller's r1-r5 (the helper's arguments, e.g. bpf_loop's
			 * nr_loops) stay requested in the caller's frame and are
			 * marked in the checkpoints inside the callback. Measured on
			 * 6.18.44 (its log: "frame0: regs=r1,r4 ... before N: (95)
			 * exit", then "frame0: parent state regs=r1,r4" inside the
			 * callback); the engine used to drop them there */
			bool into_cb = subseq_idx >= 0 && env->aux[subseq_idx].calls_callback;
			if (!into_cb && (*regs & ARGS_MASK))
				return BT_BUG;
			bool r0 = subseq_idx - 1 >= 0 && is_pseudo_call(&env->insns[subseq_idx - 1]) && (*regs & 1u);
			*regs &= ~1u;
			if (env->bt_frame + 1 >= env->prof->max_call_frames)
				return BT_BUG;
			env->bt_frame++;
			env->bt_regs[env->bt_frame] = r0 ? 1u : 0;
			env->bt_stack[env->bt_frame] = 0;
			return 0;
		}
		if (BPF_SRC(insn->code) == BPF_X && op != BPF_JA) {
			if (!(*regs & (1u << dreg)) && !(*regs & (1u << sreg)))
				return 0;
			*regs |= (1u << sreg) | (1u << dreg);
		}
		return 0;
	}
	if (cls == BPF_LD) {
		if (!(*regs & (1u << dreg)))
			return 0;
		*regs &= ~(1u << dreg);
		if (mode == BPF_IND || mode == BPF_ABS)
			return BT_NOTSUPP;
	}
	return 0;
}

/* the requests of frame fr found in parent checkpoint st: marked precise
 * there (6.18 __mark_chain_precision's loop over each frame's masks) */
static int mark_in_parent(struct rb_env *env, struct rb_vstate *st, int fr)
{
	struct rb_func *f = st->frame[fr];
	for (uint32_t m = env->bt_regs[fr] & ((1u << RB_MAX_REG) - 1); m; m &= m - 1) {
		int r = __builtin_ctz(m);
		struct rb_reg *reg = &f->regs[r];
		if (reg->type != RT_SCALAR || reg->precise) {
			env->bt_regs[fr] &= ~(1u << r);
		} else {
			reg->precise = 1;
			env->bt_changed = true;
		}
	}
	for (uint64_t m = env->bt_stack[fr]; m; m &= m - 1) {
		int s = __builtin_ctzll(m);
		/* 6.18.44 __mark_chain_precision(): a slot the parent
		 * checkpoint never allocated is a verifier bug (-EFAULT).
		 * It happens for real: a fill from a slot this path never
		 * wrote (allow_uninit_stack) pruned against a checkpoint
		 * where the slot holds a precise spill */
		if (s >= f->nslots)
			return rb_reject(env,
					 "verifier bug: stack slot %d, total slots %d "
					 "(i >= func->allocated_stack / BPF_REG_SIZE)",
					 s, f->nslots);
		if (f->stack[s].type[7] != SLOT_SPILL || f->stack[s].spilled.type != RT_SCALAR) {
			env->bt_stack[fr] &= ~(1ull << s);
			continue;
		}
		struct rb_reg *reg = &f->stack[s].spilled;
		if (reg->precise) {
			env->bt_stack[fr] &= ~(1ull << s);
		} else {
			reg->precise = 1;
			env->bt_changed = true;
		}
	}
	return 0;
}

/* walk back from `start` (the current state) marking the requested
 * registers/slots precise in parent checkpoints */
static int mark_chain(struct rb_env *env, struct rb_vstate *start)
{
	struct rb_vstate *st = start;
	int first_idx = st->first_insn_idx, last_idx = st->insn_idx, subseq_idx = -1;
	bool skip_first = true;
	if (bt_empty(env))
		return 0;
	const struct rb_bt_desc *descs = rb_bt_descs(env);
	if (!descs)
		return RB_E_NOMEM;
	struct rb_bt_memo *memo = env->bt_memo;
	for (;;) {
		int history = st->nhist;
		if (env->log)
			rb_log(env, "mark_precise: frame%d: last_idx %d first_idx %d subseq_idx %d \n", env->bt_frame,
			       last_idx, first_idx, subseq_idx);
		if (last_idx < 0)
			return 0;
		/* the current frame's requests live in regs during the walk, in
		 * env->bt_regs around backtrack_insn and on every exit. nh: the
		 * insn of the next history entry back (get_jmp_hist_entry),
		 * -1 when none is left */
		int fr = env->bt_frame, first = st->first_insn_idx, i = last_idx;
		uint32_t regs = env->bt_regs[fr];
		const struct rb_hist *hist = st->hist;
		int nh = history > 0 ? hist[history - 1].idx : -1;
		bool skip = skip_first;
		skip_first = false;
		/* remembered (bt_memo.c), unless a step after leaves the
		 * frame's decoded steps: the start state's walk from one request
		 * (rec), and the rest of a walk from the first position with
		 * walks remembered that was reached with one request not among
		 * them (recb at recb_i, recb_h) */
		int rec = skip ? rb_bt_memo_single(env, fr, regs) : -1, rec_history = history;
		int recb = -1, recb_i = 0, recb_h = 0;
		uint64_t mpos = rb_bt_memo_positions(memo, st);
		bool empty = false;
		for (;;) {
			/* the steps with no history entry down to the next stop
			 * (an entry, the first insn, a remembered position), where
			 * the decoded step neither takes backtrack_insn nor empties
			 * the requests: the loop below does the rest */
			int lo = first > 0 ? first : 0;
			if (nh > lo && nh <= i)
				lo = nh;
			if (!skip && i > lo && !((mpos >> (i & 63)) & 1)) {
				uint32_t r = regs;
				int j = i;
				for (;;) {
					const struct rb_bt_desc d = descs[j];
					uint32_t nr = (r & d.trig) ? (r & ~(uint32_t)d.clear) | d.set : r;
					if (((r | BT_ALWAYS) & d.slow) || (r && !nr))
						break;
					r = nr;
					if (--j <= lo || ((mpos >> (j & 63)) & 1))
						break;
				}
				if (j != i)
					subseq_idx = j + 1;
				regs = r;
				i = j;
			}
			const struct rb_hist *h = i == nh ? &hist[history - 1] : NULL;
			if (skip) {
				skip = false;
			} else {
				int stk = fr;
				if (!rb_bt_fast_step(env, &descs[i], h, fr, &regs, &stk)) {
					rec = recb = -1;
					env->bt_regs[fr] = regs;
					if (backtrack_insn(env, i, subseq_idx, h)) {
						rb_mark_all_scalars_precise(env, start);
						return 0;
					}
					fr = env->bt_frame;
					regs = env->bt_regs[fr];
					if (bt_empty(env)) {
						empty = true;
						break;
					}
				} else {
					if (stk != fr)
						rec = recb = -1;
					if (!regs) {
						env->bt_regs[fr] = 0;
						if (bt_empty(env)) {
							empty = true;
							break;
						}
					}
				}
			}
			if ((mpos >> (i & 63)) & 1) {
				if (rb_bt_memo_apply(env, memo, st, i, history, fr, &regs)) {
					if (!regs) {
						env->bt_regs[fr] = 0;
						empty = bt_empty(env);
					}
					break;
				}
				if (recb < 0 && (i != last_idx || history != rec_history) &&
				    (recb = rb_bt_memo_single(env, fr, regs)) >= 0) {
					recb_i = i;
					recb_h = history;
				}
			}
			subseq_idx = i;
			/* get_prev_insn_idx */
			if (i == first && (history == 0 || (history == 1 && h)))
				break;
			if (h) {
				i = h->prev_idx;
				history--;
				nh = history > 0 ? hist[history - 1].idx : -1;
			} else {
				i--;
			}
			if (i < 0)
				break;
		}
		env->bt_regs[fr] = regs;
		if (recb >= 0)
			rb_bt_memo_store(memo, st, recb_i, recb_h, recb, regs, env->bt_stack[fr]);
		if (rec >= 0)
			rb_bt_memo_store(memo, st, last_idx, rec_history, rec, regs, env->bt_stack[fr]);
		if (empty)
			return 0;
		st = st->parent;
		if (!st)
			break;
		for (int fr = env->bt_frame; fr >= 0; fr--) {
			int err = mark_in_parent(env, st, fr);
			if (err)
				return err;
		}
		if (bt_empty(env))
			return 0;
		subseq_idx = first_idx;
		last_idx = st->last_insn_idx;
		first_idx = st->first_insn_idx;
	}
	/* requests left past the first state: something was missed (6.18.44
	 * falls back to marking every scalar precise) */
	if (!bt_empty(env))
		rb_mark_all_scalars_precise(env, start);
	return 0;
}

int rb_mark_chain_precision(struct rb_env *env, int regno)
{
	struct rb_vstate *st = env->cur;
	memset(env->bt_regs, 0, sizeof(env->bt_regs));
	memset(env->bt_stack, 0, sizeof(env->bt_stack));
	env->bt_frame = st->curframe;
	struct rb_reg *reg = &st->frame[st->curframe]->regs[regno];
	if (reg->type != RT_SCALAR)
		return 0;
	env->bt_regs[st->curframe] = 1u << regno;
	return mark_chain(env, st);
}

int rb_mark_stack_precision(struct rb_env *env, int frameno, int spi)
{
	memset(env->bt_regs, 0, sizeof(env->bt_regs));
	memset(env->bt_stack, 0, sizeof(env->bt_stack));
	env->bt_frame = env->cur->curframe;
	if (spi >= 64)
		return 0;
	env->bt_stack[frameno] = 1ull << spi;
	return mark_chain(env, env->cur);
}

/* propagate_precision: what was precise in the old state must be precise
 * in the current path's checkpoints too */
int rb_propagate_precision(struct rb_env *env, const struct rb_vstate *old, struct rb_vstate *cur)
{
	memset(env->bt_regs, 0, sizeof(env->bt_regs));
	memset(env->bt_stack, 0, sizeof(env->bt_stack));
	env->bt_frame = old->curframe;
	for (int fr = old->curframe; fr >= 0; fr--) {
		const struct rb_func *f = old->frame[fr];
		bool first = true;
		/* 6.18 logs what it propagates, one line per frame */
		for (int i = 0; i < RB_REG_FP; i++)
			if (f->regs[i].type == RT_SCALAR && f->regs[i].precise) {
				env->bt_regs[fr] |= 1u << i;
				if (first)
					rb_log(env, "frame %d: propagating r%d", fr, i);
				else
					rb_log(env, ",r%d", i);
				first = false;
			}
		for (int s = 0; s < f->nslots && s < 64; s++)
			if (f->stack[s].type[7] == SLOT_SPILL && f->stack[s].spilled.type == RT_SCALAR &&
			    f->stack[s].spilled.precise) {
				env->bt_stack[fr] |= 1ull << s;
				if (first)
					rb_log(env, "frame %d: propagating fp%d", fr, (-s - 1) * 8);
				else
					rb_log(env, ",fp%d", (-s - 1) * 8);
				first = false;
			}
		if (!first)
			rb_log(env, "\n");
	}
	return mark_chain(env, cur);
}
