/* stack_live72.c — Linux 7.2.13's static stack liveness (kernel/bpf/
 * liveness.c, bpf_compute_subprog_arg_access), the 7.2 profile's
 * static_stack_liveness switch. Before exploration a forward dataflow pass
 * per subprogram tracks which registers (and 8-byte spill slots) hold a
 * pointer derived from which frame's FP, at which constant offsets (at
 * most 4; otherwise "offset-imprecise", or "imprecise" when the frame is
 * unknown); each load, store, helper and kfunc memory argument through
 * such a pointer then reads or fully writes half slots of that frame, an
 * imprecise one reads them all. A subprogram receiving FP-derived
 * arguments is analysed again per call site ("func instance" keyed by
 * (callsite, depth)), its entry liveness pulled back to the call; the
 * others once, at depth 0. live_before is the backward fixed point.
 * At every prune point the current state is cleaned with the result
 * (states.c clean_verifier_state): dead registers NOT_INIT, dead half
 * slots invalid. 6.18 learnt stack liveness while exploring and cleaned
 * only complete checkpoints (liveness.c). Reimplemented from 7.2.13's
 * rules; 7.2's outgoing stack arguments (BPF_REG_PARAMS) are not modelled. */
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "engine/liveness.h"
#include "engine/profile.h"
#include "engine/stack_live72.h"
#include "engine/stack_live72_int.h"
#include "engine/states.h"


#define CALLS_LIMIT 10000

/* instances */
static struct inst *find_inst(struct rb_live72 *lv, int callsite, int depth)
{
	for (int i = 0; i < lv->ninst; i++)
		if (lv->inst[i]->depth == depth && lv->inst[i]->callsite == callsite)
			return lv->inst[i];
	return NULL;
}

static struct inst *new_inst(struct rb_env *env, int key, int depth, int sub)
{
	struct inst *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->callsite = key;
	f->depth = depth;
	f->sub = sub;
	f->start = env->subprogs[sub].start;
	f->len = env->subprogs[sub].end - f->start;
	return f;
}

static void free_inst(struct inst *f)
{
	for (int i = 0; i < RB_MAX_FRAMES; i++)
		free(f->frames[i]);
	free(f);
}

/* call_instance */
static struct inst *call_inst(struct rb_env *env, const struct inst *caller, int callsite, int sub)
{
	struct rb_live72 *lv = env->live72;
	int depth = caller ? caller->depth + 1 : 0;
	int key = depth ? callsite : env->subprogs[sub].start;
	struct inst *f = find_inst(lv, key, depth);
	if (f)
		return f;
	if (lv->ninst == lv->cap) {
		int n = lv->cap ? lv->cap * 2 : 16;
		struct inst **t = realloc(lv->inst, sizeof(*t) * (size_t)n);
		if (!t)
			return NULL;
		lv->inst = t;
		lv->cap = n;
	}
	if (!(f = new_inst(env, key, depth, sub)))
		return NULL;
	lv->inst[lv->ninst++] = f;
	return f;
}

static struct pfm *masks(struct inst *f, int frame, int idx, bool alloc)
{
	if (!f->frames[frame]) {
		if (!alloc)
			return NULL;
		if (!(f->frames[frame] = calloc((size_t)f->len, sizeof(struct pfm))))
			return NULL;
	}
	return &f->frames[frame][idx - f->start];
}

int l72_mark_read(struct inst *f, int frame, int idx, rb_spis m)
{
	struct pfm *p = masks(f, frame, idx, true);
	if (!p)
		return RB_E_NOMEM;
	p->may_read |= m;
	return 0;
}

int l72_mark_write(struct inst *f, int frame, int idx, rb_spis m)
{
	struct pfm *p = masks(f, frame, idx, true);
	if (!p)
		return RB_E_NOMEM;
	p->must_write |= m;
	return 0;
}

/* the forward fixed point of compute_subprog_args over in (registers)
 * and sin (spill slots); sin NULL: no FP-derived value is ever spilled, so
 * every slot is "none" (false when one is, to run again with sin) */
static bool forward(struct rb_env *env, struct inst *f, struct l72_at (*in)[L72_NAT], struct l72_at (*sin)[L72_NSPILL],
		    const struct l72_at *const *parents)
{
	int start = f->start, len = f->len;
	int po0 = env->live_po_start[f->sub], po1 = env->live_po_start[f->sub + 1];
	bool changed;
	do {
		changed = false;
		for (int p = po1 - 1; p >= po0; p--) {
			int idx = env->live_po[p], i = idx - start;
			if (!l72_visited(&in[i][0]) && !l72_visited(&in[i][1]))
				continue;
			struct l72_at o[L72_NAT], so[L72_NSPILL];
			memcpy(o, in[i], sizeof(o));
			for (int s = 0; s < L72_NSPILL; s++)
				so[s] = sin ? sin[i][s] : l72_none;
			l72_xfer(&env->insns[idx], o, so, f->depth, parents);
			for (int s = 0; !sin && s < L72_NSPILL; s++)
				if (so[s].frame != L72_NONE)
					return false;
			int succ[2], k = rb_insn_successors(env, idx, succ);
			for (int j = 0; j < k; j++) {
				int t = succ[j] - start;
				if (t < 0 || t >= len)
					continue;
				for (int r = 0; r < L72_NAT; r++)
					changed |= l72_join_into(&in[t][r], o[r]);
				for (int s = 0; sin && s < L72_NSPILL; s++)
					changed |= l72_join_into(&sin[t][s], so[s]);
			}
		}
	} while (changed);
	return true;
}

static void init_in(struct l72_at (*in)[L72_NAT], struct l72_at (*sin)[L72_NSPILL], int len, int depth,
		    const struct l72_at *entry)
{
	for (int i = 0; i < len; i++) {
		for (int r = 0; r < L72_NAT; r++)
			in[i][r] = l72_unvisited;
		for (int s = 0; sin && s < L72_NSPILL; s++)
			sin[i][s] = i ? l72_unvisited : l72_none;
	}
	for (int r = 0; r < L72_NAT; r++)
		in[0][r] = r == BPF_REG_10 ? l72_single(depth, 0) : entry && r >= 1 && r <= 5 ? entry[r] : l72_none;
}

static const struct l72_at all_none[L72_NSPILL] = {[0 ... L72_NSPILL - 1] = {.frame = L72_NONE}};

/* compute_subprog_args: the forward fixed point in reverse postorder,
 * then the accesses recorded from the converged entry states */
static int compute_args(struct rb_env *env, const struct l72_at *entry, struct inst *f, const int *callsites)
{
	struct rb_live72 *lv = env->live72;
	int start = f->start, len = f->len, po0 = env->live_po_start[f->sub], po1 = env->live_po_start[f->sub + 1];
	const struct l72_at *parents[RB_MAX_FRAMES];
	for (int d = 0; d < f->depth; d++)
		parents[d] = lv->cs_stack[callsites[d]] ? lv->cs_stack[callsites[d]] : all_none;
	struct l72_at(*in)[L72_NAT] = malloc(sizeof(*in) * (size_t)len), (*sin)[L72_NSPILL] = NULL;
	if (!in)
		return RB_E_NOMEM;
	init_in(in, NULL, len, f->depth, entry);
	if (!forward(env, f, in, NULL, parents)) {
		/* FP-derived values are spilled: track the slots (the
		 * kernel always does; the result is the same without spills) */
		if (!(sin = malloc(sizeof(*sin) * (size_t)len))) {
			free(in);
			return RB_E_NOMEM;
		}
		init_in(in, sin, len, f->depth, entry);
		forward(env, f, in, sin, parents);
	}
	int err = 0;
	for (int p = po1 - 1; p >= po0 && !err; p--) {
		int idx = env->live_po[p], i = idx - start;
		const struct bpf_insn *x = &env->insns[idx];
		err = l72_record_load_store(env, f, in[i], idx);
		if (!err && x->code == (BPF_JMP | BPF_CALL))
			err = l72_record_call(env, f, in[i], idx);
		if (!err && ((x->code == (BPF_JMP | BPF_CALL) && x->src_reg == BPF_PSEUDO_CALL) ||
			     env->aux[idx].calls_callback)) {
			if (!lv->cs_stack[idx] && !(lv->cs_stack[idx] = malloc(sizeof(all_none))))
				err = RB_E_NOMEM;
			else
				memcpy(lv->cs_stack[idx], sin ? sin[i] : all_none, sizeof(all_none));
		}
	}
	free(sin);
	if (err) {
		free(in);
		return err;
	}
	free(lv->sub_in[f->sub]);
	lv->sub_in[f->sub] = in;
	return 0;
}

/* update_instance: live_before to its fixed point */
static void update(struct rb_env *env, struct inst *f)
{
	int po0 = env->live_po_start[f->sub], po1 = env->live_po_start[f->sub + 1];
	f->mw_init = true;
	bool changed;
	do {
		changed = false;
		for (int fr = 0; fr <= f->depth; fr++) {
			if (!f->frames[fr])
				continue;
			for (int p = po0; p < po1; p++) {
				int idx = env->live_po[p], succ[2], k = rb_insn_successors(env, idx, succ);
				if (!k)
					continue;
				struct pfm *m = &f->frames[fr][idx - f->start];
				rb_spis after = 0;
				for (int j = 0; j < k; j++)
					if (succ[j] >= f->start && succ[j] < f->start + f->len)
						after |= f->frames[fr][succ[j] - f->start].live_before;
				rb_spis before = (after & ~m->must_write) | m->may_read;
				if (before != m->live_before) {
					m->live_before = before;
					changed = true;
				}
			}
		}
	} while (changed);
}

/* merge_instances: reads united, full writes intersected */
static void merge(struct inst *dst, struct inst *src)
{
	for (int fr = 0; fr <= dst->depth; fr++) {
		if (!src->frames[fr]) {
			if (dst->frames[fr])
				for (int i = 0; i < dst->len; i++)
					dst->frames[fr][i].must_write = 0;
			continue;
		}
		if (!dst->frames[fr]) {
			dst->frames[fr] = src->frames[fr];
			src->frames[fr] = NULL;
			for (int i = 0; i < dst->len; i++)
				dst->frames[fr][i].must_write = 0;
			continue;
		}
		for (int i = 0; i < dst->len; i++) {
			dst->frames[fr][i].may_read |= src->frames[fr][i].may_read;
			dst->frames[fr][i].must_write &= src->frames[fr][i].must_write;
		}
	}
}

static bool has_fp_args(const struct l72_at *a)
{
	for (int r = 1; r <= 5; r++)
		if (l72_is_fp(&a[r]))
			return true;
	return false;
}

static int subprog_of(const struct rb_env *env, int insn)
{
	return insn >= 0 && insn < env->insn_cnt ? env->aux[insn].subprog : -1;
}

/* analyze_subprog */
static int analyze(struct rb_env *env, const struct l72_at *entry, struct inst *f, int *callsites)
{
	struct rb_live72 *lv = env->live72;
	if (++lv->calls > CALLS_LIMIT)
		return rb_reject(env, "liveness analysis exceeded complexity limit (%d calls)", lv->calls);
	struct inst *prev = NULL;
	if (f->mw_init) {
		/* a reused instance records into a fresh one, merged after */
		struct inst *fresh = new_inst(env, f->callsite, f->depth, f->sub);
		if (!fresh)
			return RB_E_NOMEM;
		prev = f;
		f = fresh;
	}
	int sub = f->sub, depth = f->depth, start = f->start;
	int err = compute_args(env, entry, f, callsites);
	for (int p = env->live_po_start[sub]; !err && p < env->live_po_start[sub + 1]; p++) {
		int idx = env->live_po[p], j = idx - start, callee;
		const struct bpf_insn *in = &env->insns[idx];
		const struct l72_at *at = lv->sub_in[sub][j];
		struct l72_at args[L72_NAT];
		for (int r = 0; r < L72_NAT; r++)
			args[r] = l72_none;
		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) {
			if ((callee = subprog_of(env, idx + in->imm + 1)) < 0)
				continue;
			for (int r = 1; r <= 5; r++)
				args[r] = at[r];
		} else if (env->aux[idx].calls_callback) {
			int creg, cbreg;
			callee = l72_callback_sub(env, in, idx, &creg, &cbreg);
			if (callee == -2) {
				/* one call, several callbacks, a stack pointer */
				if (at[creg].frame == L72_NONE)
					continue;
				for (int fr = 0; fr <= depth && !err; fr++)
					err = l72_mark_read(f, fr, idx, L72_SPIS_ALL);
				continue;
			}
			if (callee < 0)
				continue;
			args[cbreg] = at[creg];
		} else {
			continue;
		}
		if (!has_fp_args(args))
			continue;
		if (depth == env->prof->max_call_frames - 1) {
			err = rb_reject(env, "liveness analysis: call stack too deep");
			break;
		}
		struct inst *ci = call_inst(env, f, idx, callee);
		if (!ci) {
			err = RB_E_NOMEM;
			break;
		}
		callsites[depth] = idx;
		if ((err = analyze(env, args, ci, callsites)))
			break;
		/* the callee's entry liveness of our frames, read at the call */
		for (int fr = 0; fr < ci->depth && !err; fr++) {
			struct pfm *e = masks(ci, fr, ci->start, false);
			if (e)
				err = l72_mark_read(f, fr, idx, e->live_before);
		}
	}
	if (prev) {
		if (!err)
			merge(prev, f);
		free_inst(f);
		f = prev;
	}
	if (!err)
		update(env, f);
	return err;
}

int rb_live72_compute(struct rb_env *env)
{
	int err = rb_live_postorder(env);
	if (err)
		return err;
	struct rb_live72 *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return RB_E_NOMEM;
	env->live72 = lv;
	lv->cs_stack = calloc((size_t)env->insn_cnt, sizeof(*lv->cs_stack));
	lv->sub_in = calloc((size_t)env->nsubprogs, sizeof(*lv->sub_in));
	if (!lv->cs_stack || !lv->sub_in)
		return RB_E_NOMEM;
	lv->max_key = l72_used_maps_max(env, true);
	lv->max_value = l72_used_maps_max(env, false);
	int callsites[RB_MAX_FRAMES] = {0};
	/* callers before callees (the reverse of sort_subprogs_topo's
	 * order); a static subprogram already reached with FP arguments is
	 * not analysed alone */
	for (int k = env->nsubprogs - 1; k >= 0 && !err; k--) {
		int sub = env->subprog_topo ? env->subprog_topo[k] : k;
		if (lv->sub_in[sub] && !env->subprogs[sub].global)
			continue;
		struct inst *f = call_inst(env, NULL, 0, sub);
		err = f ? analyze(env, NULL, f, callsites) : RB_E_NOMEM;
	}
	for (int i = 0; i < env->insn_cnt; i++) {
		free(lv->cs_stack[i]);
		lv->cs_stack[i] = NULL;
	}
	for (int s = 0; s < env->nsubprogs; s++) {
		free(lv->sub_in[s]);
		lv->sub_in[s] = NULL;
	}
	return err;
}

uint32_t l72_maps_max(const struct rb_env *env, bool key)
{
	return key ? env->live72->max_key : env->live72->max_value;
}

/* lookup_instance */
static struct inst *lookup(struct rb_env *env, const struct rb_vstate *st, int frameno)
{
	int start = env->subprogs[st->frame[frameno]->subprog].start;
	int callsite = frameno > 0 ? st->frame[frameno]->callsite : start;
	for (int depth = frameno;; depth--) {
		struct inst *f = find_inst(env->live72, depth > 0 ? callsite : start, depth);
		if (f || depth == 0)
			return f;
	}
}

static bool live_before(struct inst *f, int idx, int frame, int h)
{
	struct pfm *m = masks(f, frame, idx, false);
	return m && (m->live_before & RB_SPIS_HALF(h));
}

struct query {
	struct rb_env *env;
	const struct rb_vstate *st;
	struct inst *inst[RB_MAX_FRAMES];
};

/* bpf_stack_slot_alive */
static bool alive(void *ctx, int frameno, int h)
{
	struct query *q = ctx;
	const struct rb_vstate *st = q->st;
	struct inst *cf = q->inst[st->curframe];
	if (!cf)
		return true;
	int rel = frameno + cf->depth - st->curframe;
	if (rel >= 0 && rel <= cf->depth && live_before(cf, st->insn_idx, rel, h))
		return true;
	for (int i = frameno; i < st->curframe; i++) {
		struct inst *f = q->inst[i];
		if (!f)
			return true;
		rel = frameno + f->depth - i;
		if (rel < 0 || rel > f->depth)
			return true; /* (7.2.13: an unsigned index past the instance's frames) */
		int cs = st->frame[i + 1]->callsite;
		if (live_before(f, q->env->aux[cs].calls_callback ? cs : cs + 1, rel, h))
			return true;
	}
	return false;
}

void rb_live72_clean(struct rb_env *env, struct rb_vstate *st)
{
	if (!env->live72)
		return;
	struct query q = {.env = env, .st = st};
	for (int fr = 0; fr <= st->curframe; fr++)
		q.inst[fr] = lookup(env, st, fr);
	rb_clean_frames(env, st, alive, &q);
}

void rb_live72_free(struct rb_env *env)
{
	struct rb_live72 *lv = env->live72;
	if (!lv)
		return;
	for (int i = 0; i < lv->ninst; i++)
		free_inst(lv->inst[i]);
	free(lv->inst);
	if (lv->cs_stack)
		for (int i = 0; i < env->insn_cnt; i++)
			free(lv->cs_stack[i]);
	free(lv->cs_stack);
	if (lv->sub_in)
		for (int s = 0; s < env->nsubprogs; s++)
			free(lv->sub_in[s]);
	free(lv->sub_in);
	free(lv);
	env->live72 = NULL;
}
