/* liveness.c — stack slot liveness, as Linux 6.18's kernel/bpf/liveness.c
 * computes it: per call chain and instruction, the slots a visit may read
 * (the union over visits) and must fully write (the intersection over
 * visits, a visit that writes nothing included); live_before is brought
 * up to date by a backward dataflow pass over the subprogram in CFG
 * postorder, at the kernel's moments only (a path's end, a subprogram's
 * exit), starting from the previous solution; a callee's entry is
 * transferred to its callsite in the caller's chain. Complete checkpoints
 * are cleaned with the result, as the kernel does. At log level 2 it
 * prints 6.18's traces of each solution ("(0) frame 0 insn 13 +live -8"),
 * which tests/cli/liveness_trace.sh compares with the kernel's. */
#include <stdlib.h>
#include <string.h>

#include "engine/liveness.h"
#include "engine/log.h"
#include "engine/profile.h"
#include "engine/states.h"
#include "util/grow.h"
#include "util/pool.h"

/* a field of frame f's masks at insn i: 0 while the frame has none */
#define AT(ch, arr, f, i) ((ch)->fm[f] ? (ch)->fm[f][(i) - (ch)->start].arr : (rb_spis)0)
/* the same, to write: the frame's masks exist (frame_masks) */
#define AT_W(ch, arr, f, i) ((ch)->fm[f][(i) - (ch)->start].arr)

/* frame f's masks, allocated (zero) on first need; NULL when out of
 * memory (ch->nomem: the next update reports it) */
static struct rb_fmasks *frame_masks(struct rb_chain *ch, int f)
{
	/* (of 32,768 insns or more, 2 MiB: mapped with huge pages and kept
	 * by the pool for the next verification's, util/pool.h) */
	if (!ch->fm[f] && !(ch->fm[f] = rb_pool_calloc(ch->pool, (size_t)ch->len * sizeof(struct rb_fmasks))))
		ch->nomem = true;
	return ch->fm[f];
}

/* chains are found through a hash of (depth, subprogram, callsites), as
 * 6.18's liveness keys its func instances by call chain in a hash table;
 * a scan of every chain per instruction was O(insns x chains) */
static uint32_t chain_hash(const int *cs, int sub, int depth)
{
	uint32_t h = 2166136261u;
	h = (h ^ (uint32_t)depth) * 16777619u;
	h = (h ^ (uint32_t)sub) * 16777619u;
	for (int i = 0; i < depth; i++)
		h = (h ^ (uint32_t)cs[i]) * 16777619u;
	return h;
}

static bool chain_is(const struct rb_chain *ch, const int *cs, int sub, int depth)
{
	return ch->depth == depth && ch->sub == sub && !memcmp(ch->callsites, cs, sizeof(int) * (size_t)depth);
}

static int chain_index(struct rb_env *env, const int *cs, const int *subs, int depth)
{
	if (!env->nchain_slots)
		return -1;
	uint32_t m = (uint32_t)env->nchain_slots - 1;
	for (uint32_t i = chain_hash(cs, subs[depth], depth) & m;; i = (i + 1) & m) {
		int c = env->chain_slots[i];
		if (c < 0)
			return -1;
		if (chain_is(&env->chains[c], cs, subs[depth], depth))
			return c;
	}
}

/* index chain c; the table doubles when half full: 0, or -1 out of memory */
static int chain_slot_add(struct rb_env *env, int c)
{
	if (2 * (env->nchains + 1) > env->nchain_slots) {
		int n = env->nchain_slots ? env->nchain_slots * 2 : 16;
		int *t = malloc(sizeof(int) * (size_t)n);
		if (!t)
			return -1;
		for (int i = 0; i < n; i++)
			t[i] = -1;
		free(env->chain_slots);
		env->chain_slots = t;
		env->nchain_slots = n;
		for (int k = 0; k < env->nchains; k++)
			if (k != c && chain_slot_add(env, k) < 0)
				return -1;
	}
	const struct rb_chain *ch = &env->chains[c];
	uint32_t m = (uint32_t)env->nchain_slots - 1;
	uint32_t i = chain_hash(ch->callsites, ch->sub, ch->depth) & m;
	while (env->chain_slots[i] >= 0)
		i = (i + 1) & m;
	env->chain_slots[i] = c;
	return 0;
}

/* a chain's tables (the chain itself lives in env->chains) */
static void chain_free(struct rb_chain *ch)
{
	for (int f = 0; f < RB_MAX_FRAMES; f++)
		rb_pool_free(ch->fm[f]);
	free(ch->wset);
	free(ch->dirty);
}

/* 6.18 __lookup_instance: the chain of frames 0..depth, created when new */
static int lookup_chain(struct rb_env *env, const int *cs, const int *subs, int depth)
{
	int c = chain_index(env, cs, subs, depth);
	if (c >= 0)
		return c;
	if (RB_GROW(env->chains, env->nchains + 1, &env->cap_chains, 8) < 0)
		return -1;
	struct rb_chain *ch = &env->chains[env->nchains];
	*ch = (struct rb_chain){.depth = depth, .pool = env->pool};
	ch->sub = subs[depth];
	ch->start = env->subprogs[ch->sub].start;
	ch->len = env->subprogs[ch->sub].end - ch->start;
	memcpy(ch->callsites, cs, sizeof(int) * (size_t)depth);
	memcpy(ch->subs, subs, sizeof(int) * (size_t)(depth + 1));
	ch->wset = calloc((size_t)ch->len, 1);
	ch->dirty = calloc(((size_t)ch->len + 63) / 64, sizeof(uint64_t));
	if (!ch->wset || !ch->dirty || chain_slot_add(env, env->nchains) < 0) {
		chain_free(ch);
		return -1;
	}
	return env->nchains++;
}

/* the index in env->chains of the chain of st's frames 0..depth (created if new, which may
 * move env->chains), -1 when out of memory; the chain found last first (6.18 keeps
 * liveness->cur_instance), compared as chain_is does with the frames in place */
static int state_chain_idx(struct rb_env *env, const struct rb_vstate *st, int depth)
{
	int c = env->live_last_chain - 1, i = 0, cs[RB_MAX_FRAMES], subs[RB_MAX_FRAMES];
	const struct rb_chain *last = c >= 0 ? &env->chains[c] : NULL;
	bool same = last && last->depth == depth && last->sub == st->frame[depth]->subprog;
	while (same && i < depth && last->callsites[i] == st->frame[i + 1]->callsite)
		i++;
	if (same && i == depth)
		return c;
	for (i = 0; i <= depth; i++) {
		subs[i] = st->frame[i]->subprog;
		if (i < depth)
			cs[i] = st->frame[i + 1]->callsite;
	}
	c = lookup_chain(env, cs, subs, depth);
	env->live_last_chain = c + 1;
	return c;
}

/* the chain of st's frames 0..depth */
static struct rb_chain *state_chain(struct rb_env *env, const struct rb_vstate *st, int depth)
{
	int c = state_chain_idx(env, st, depth);
	return c < 0 ? NULL : &env->chains[c];
}

void rb_free_chains(struct rb_env *env)
{
	for (int c = 0; c < env->nchains; c++)
		chain_free(&env->chains[c]);
	free(env->chains);
	env->chains = NULL;
	env->nchains = env->cap_chains = 0;
	free(env->chain_slots);
	env->chain_slots = NULL;
	env->nchain_slots = 0;
	env->live_last_chain = 0;
	free(env->live_po);
	free(env->live_po_start);
	free(env->live_succ);
	free(env->live_pos);
	free(env->live_pred);
	free(env->live_pred_start);
	free(env->live_stale);
	env->live_po = env->live_po_start = env->live_succ = env->live_pos = NULL;
	env->live_pred = env->live_pred_start = NULL;
	env->live_stale = NULL;
	env->live_stale_words = 0;
	env->live_wchain = 0;
}

/* 6.18 mark_stack_read */
static void mark_read(struct rb_chain *ch, int frame, int insn, rb_spis mask)
{
	if (insn < ch->start || insn >= ch->start + ch->len || !mask || !frame_masks(ch, frame))
		return;
	rb_spis *r = &AT_W(ch, may_read, frame, insn), lv = AT_W(ch, live, frame, insn);
	rb_spis nw = *r | mask;
	if (nw != *r && (nw | lv) != lv)
		ch->updated = true;
	if (nw != *r)
		ch->dirty[(insn - ch->start) / 64] |= 1ull << ((insn - ch->start) % 64);
	*r = nw;
}

/* 6.18 commit_stack_write_marks: the visit's full writes meet the insn's earlier
 * visits'; wset 2: every frame's must_write is empty there, and stays so */
static void commit(struct rb_env *env, struct rb_chain *ch, int insn)
{
	int rel = insn - ch->start;
	if (rel < 0 || rel >= ch->len || ch->wset[rel] == 2)
		return;
	bool none = true;
	for (int f = 0; f <= ch->depth; f++) {
		rb_spis mask = env->live_wacc[f];
		if (!mask && !ch->wset[rel])
			continue;
		rb_spis old = AT(ch, must_write, f, insn);
		if (ch->wset[rel])
			mask &= old;
		if (old != mask) {
			if (!frame_masks(ch, f))
				return;
			AT_W(ch, must_write, f, insn) = mask;
			ch->updated = true;
			ch->dirty[rel / 64] |= 1ull << (rel % 64);
		}
		if (old & ~mask)
			ch->dropped = true;
		none = none && !mask;
	}
	ch->wset[rel] = none ? 2 : 1;
}

static void access_mask(struct rb_env *env, int frameno, rb_spis mask, bool write)
{
	/* the 7.2 profile's liveness is static (stack_live72.c) */
	if (env->prof->static_stack_liveness)
		return;
	if (!mask || frameno < 0 || frameno > env->cur->curframe)
		return;
	if (write) {
		env->live_wacc[frameno] |= mask;
		if (frameno >= env->live_wacc_n)
			env->live_wacc_n = frameno + 1;
		return;
	}
	struct rb_chain *ch = state_chain(env, env->cur, env->cur->curframe);
	if (ch)
		mark_read(ch, frameno, env->insn_idx, mask);
}

void rb_live_stack_access(struct rb_env *env, int frameno, int spi, bool write_full)
{
	if (spi >= 0 && spi < 64)
		access_mask(env, frameno, RB_SPIS_SLOT(spi), write_full);
}

/* 7.2 record_stack_access_off: a read marks every half slot it touches,
 * a write only the half slots it covers fully */
void rb_live_stack_bytes(struct rb_env *env, int frameno, int off, int size, bool write)
{
	if (off >= 0 || size <= 0)
		return;
	int hi = (-off - 1) / 4, lo = write ? (-off - size + 3) / 4 : (-off - size) / 4;
	if (write)
		hi = -off / 4 - 1;
	if (lo < 0)
		lo = 0;
	rb_spis mask = 0;
	for (int h = lo; h <= hi && h < 128; h++)
		mask |= RB_SPIS_HALF(h);
	access_mask(env, frameno, mask, write);
}

void rb_live_insn_begin(struct rb_env *env)
{
	if (env->prof->static_stack_liveness)
		return;
	env->live_wchain = state_chain_idx(env, env->cur, env->cur->curframe) + 1; /* 0: out of memory */
	env->live_widx = env->insn_idx;
	while (env->live_wacc_n > 0) /* (nothing written: no memset call; once per instruction) */
		env->live_wacc[--env->live_wacc_n] = 0;
}

void rb_live_insn_commit(struct rb_env *env)
{
	if (env->live_wchain)
		commit(env, &env->chains[env->live_wchain - 1], env->live_widx);
	env->live_wchain = 0;
}

void rb_live_reset_callchain(struct rb_env *env)
{
	env->live_wchain = 0;
}

/* bpf_fmt_stack_mask: "-8,-16" (a slot with either half in the mask) */
static void fmt_mask(char *buf, size_t sz, rb_spis mask)
{
	size_t n = 0;
	buf[0] = 0;
	for (int s = 0; s < 64 && n < sz; s++)
		if (mask & RB_SPIS_SLOT(s))
			n += (size_t)snprintf(buf + n, sz - n, "%s%d", n ? "," : "", -(s + 1) * 8);
}

/* fmt_callchain: "(callsite,...,subprogram start)" */
static void fmt_chain(const struct rb_chain *ch, char *buf, size_t sz)
{
	size_t n = (size_t)snprintf(buf, sz, "(");
	for (int i = 0; i < ch->depth && n < sz; i++)
		n += (size_t)snprintf(buf + n, sz - n, "%d,", ch->callsites[i]);
	if (n < sz)
		snprintf(buf + n, sz - n, "%d)", ch->start);
}

/* 6.18 log_mask_change (log level 2) */
static void log_change(struct rb_env *env, const struct rb_chain *ch, const char *pfx, int frame, int insn,
		       rb_spis old, rb_spis nw)
{
	rb_spis changed = old ^ nw;
	if (!changed)
		return;
	char cb[128], mb[64 * 6];
	fmt_chain(ch, cb, sizeof(cb));
	rb_log(env, "%s frame %d insn %d ", cb, frame, insn);
	if (nw & changed) {
		fmt_mask(mb, sizeof(mb), nw & changed);
		rb_log(env, "+%s %s ", pfx, mb);
	}
	if (~nw & changed) {
		fmt_mask(mb, sizeof(mb), ~nw & changed);
		rb_log(env, "-%s %s", pfx, mb);
	}
	rb_log(env, "\n");
}

/* 6.18 update_insn (it logs the changes of insns that read or write the
 * stack, of the subprogram's entry and of prune points) */
static bool update_insn(struct rb_env *env, struct rb_chain *ch, int f, int i)
{
	/* the successors decoded once per program (compute_postorder): this
	 * loop runs over the whole subprogram at every path end */
	const int *succ = &env->live_succ[2 * (size_t)i];
	int k = succ[0] < 0 ? 0 : succ[1] < 0 ? 1 : 2;
	/* a frame without masks: every set empty, nothing changes */
	if (!k || !ch->fm[f])
		return false;
	struct rb_fmasks *fm = ch->fm[f], *m = fm + (i - ch->start);
	rb_spis after = 0, acc = ~(rb_spis)0;
	for (int j = 0; j < k; j++) {
		after |= fm[succ[j] - ch->start].live;
		acc &= fm[succ[j] - ch->start].write_acc;
	}
	acc |= m->must_write;
	rb_spis before = (after & ~m->must_write) | m->may_read;
	bool changed = before != m->live || acc != m->write_acc;
	if (env->log && (m->may_read || m->must_write || i == ch->start || env->aux[i].prune_point)) {
		log_change(env, ch, "live", f, i, m->live, before);
		log_change(env, ch, "written", f, i, m->write_acc, acc);
	}
	m->live = before;
	m->write_acc = acc;
	return changed;
}

/* 6.18 update_instance and propagate_to_outer_instance: live_before to a
 * fixed point from the previous solution (write_acc from nothing when a
 * must_write shrank); the entry's marks of the outer frames become the
 * callsite's in the caller's chain */
/* the first set bit of bm (n bits) at or after position q, -1 when none */
static int next_stale(const uint64_t *bm, int q, int n)
{
	if (q >= n)
		return -1;
	int w = q / 64, nw = (n + 63) / 64;
	uint64_t bits = bm[w] & (~0ull << (q % 64));
	while (!bits) {
		if (++w >= nw)
			return -1;
		bits = bm[w];
	}
	int r = w * 64 + __builtin_ctzll(bits);
	return r < n ? r : -1;
}

static int update_chain(struct rb_env *env, int c)
{
	struct rb_chain *ch = &env->chains[c];
	if (ch->nomem)
		return -1;
	if (ch->dropped)
		for (int f = 0; f <= ch->depth; f++)
			for (int q = 0; ch->fm[f] && q < ch->len; q++)
				ch->fm[f][q].write_acc = 0;
	int lo = env->live_po_start[ch->sub], hi = env->live_po_start[ch->sub + 1];
	/* 6.18 sweeps the whole postorder, every frame, until a sweep changes
	 * nothing. The same sweeps here, each evaluating only the insns whose
	 * evaluation can change something: those whose own sets changed since
	 * the last solution (ch->dirty; every insn the first time and after
	 * write_acc was reset) and the predecessors of an insn that changed in
	 * that frame. Any other insn's inputs are those of its last evaluation,
	 * so 6.18's evaluation of it changes nothing: the same values, changes
	 * (and log lines) in the same order, the same number of sweeps. */
	int np = hi - lo, words = (np + 63) / 64, nf = ch->depth + 1;
	size_t need = (size_t)words * (size_t)nf;
	if (need > env->live_stale_words) {
		uint64_t *t = realloc(env->live_stale, sizeof(uint64_t) * need);
		if (!t)
			return -1;
		env->live_stale = t;
		env->live_stale_words = need;
	}
	uint64_t *stale = env->live_stale;
	memset(stale, 0, sizeof(uint64_t) * need);
	bool all = ch->dropped || !ch->solved;
	for (int w = 0; w < (ch->len + 63) / 64; w++) {
		for (uint64_t bits = ch->dirty[w]; bits && !all; bits &= bits - 1) {
			int pos = env->live_pos[ch->start + w * 64 + __builtin_ctzll(bits)];
			if (pos >= 0 && pos < np && env->live_po[lo + pos] == ch->start + w * 64 + __builtin_ctzll(bits))
				for (int f = 0; f < nf; f++)
					stale[(size_t)f * (size_t)words + (size_t)pos / 64] |= 1ull << (pos % 64);
		}
		ch->dirty[w] = 0;
	}
	if (all)
		for (int f = 0; f < nf; f++)
			for (int w = 0; w < words; w++)
				stale[(size_t)f * (size_t)words + (size_t)w] =
					w < np / 64 ? ~0ull : (1ull << (np % 64)) - 1;
	ch->solved = true;
	bool changed;
	int iters = 0;
	do {
		iters++;
		changed = false;
		for (int f = 0; f < nf; f++) {
			/* a frame without masks: its evaluations change nothing */
			if (!ch->fm[f])
				continue;
			uint64_t *sf = stale + (size_t)f * (size_t)words;
			for (int q = next_stale(sf, 0, np); q >= 0; q = next_stale(sf, q + 1, np)) {
				sf[q / 64] &= ~(1ull << (q % 64));
				int i = env->live_po[lo + q];
				if (!update_insn(env, ch, f, i))
					continue;
				changed = true;
				for (int k = env->live_pred_start[i]; k < env->live_pred_start[i + 1]; k++) {
					int j = env->live_pred[k], pj = env->live_pos[j];
					if (pj >= 0 && pj < np && env->live_po[lo + pj] == j)
						sf[pj / 64] |= 1ull << (pj % 64);
				}
			}
		}
	} while (changed);
	if (env->log) {
		char cb[128];
		fmt_chain(ch, cb, sizeof(cb));
		rb_log(env, "%s live stack update done in %d iterations\n", cb, iters);
	}
	if (!ch->depth)
		return 0;
	int depth = ch->depth, cs[RB_MAX_FRAMES], subs[RB_MAX_FRAMES];
	memcpy(cs, ch->callsites, sizeof(cs));
	memcpy(subs, ch->subs, sizeof(subs));
	int o = lookup_chain(env, cs, subs, depth - 1);
	if (o < 0)
		return -1;
	ch = &env->chains[c]; /* lookup_chain may have moved the array */
	struct rb_chain *outer = &env->chains[o];
	int callsite = cs[depth - 1];
	memset(env->live_wacc, 0, sizeof(env->live_wacc));
	env->live_wacc_n = depth;
	for (int f = 0; f < depth; f++) {
		env->live_wacc[f] |= AT(ch, write_acc, f, ch->start);
		mark_read(outer, f, callsite, AT(ch, live, f, ch->start));
	}
	commit(env, outer, callsite);
	return 0;
}

/* 6.18 bpf_update_live_stack: at a path's end and a subprogram's exit,
 * every chain of the current state's frames, innermost first */
int rb_live_update(struct rb_env *env)
{
	env->live_wchain = 0;
	if (env->prof->static_stack_liveness)
		return 0;
	int err = rb_live_postorder(env);
	if (err)
		return err;
	const struct rb_vstate *st = env->cur;
	for (int fr = st->curframe; fr >= 0; fr--) {
		struct rb_chain *ch = state_chain(env, st, fr);
		if (!ch)
			return RB_E_NOMEM;
		if (!ch->updated)
			continue;
		int c = (int)(ch - env->chains);
		if (update_chain(env, c) < 0)
			return RB_E_NOMEM;
		env->chains[c].updated = env->chains[c].dropped = false;
	}
	return 0;
}

/* 6.18 bpf_stack_slot_alive: live before the state's insn in its chain,
 * or, for an outer frame, live after the callsite of each level (before
 * it, for a helper that calls back) */
static bool half_alive(struct rb_env *env, const struct rb_vstate *st, struct rb_chain **inst, int frameno, int h)
{
	rb_spis bit = RB_SPIS_HALF(h);
	if (AT(inst[st->curframe], live, frameno, st->insn_idx) & bit)
		return true;
	for (int i = frameno; i < st->curframe; i++) {
		int cs = st->frame[i + 1]->callsite;
		int at = env->aux[cs].calls_callback ? cs : cs + 1;
		if (AT(inst[i], live, frameno, at) & bit)
			return true;
	}
	return false;
}

/* 7.2 clean_func_state for one slot, from the liveness of its upper four
 * bytes (lo_live: type[0..3]) and lower four (hi_live: type[4..7]): dead
 * halves become invalid (7.2's STACK_POISON, equal to STACK_INVALID for
 * pruning); iterator, dynptr and IRQ flag slots stay; a spill whose lower half is
 * dead is forgotten, its live upper bytes becoming misc when it was a
 * scalar other than a known zero, and a pointer spill stays whole */
static void clean_halves(struct rb_env *env, struct rb_slot *sl, bool lo_live, bool hi_live)
{
	if (lo_live && hi_live)
		return;
	uint8_t t7 = sl->type[7];
	if (t7 == SLOT_ITER || t7 == SLOT_DYNPTR || t7 == SLOT_IRQ_FLAG)
		return;
	if (!hi_live) {
		if (lo_live && t7 == SLOT_SPILL) {
			if (sl->spilled.type != RT_SCALAR)
				return;
			if (rb_reg_is_const(env, &sl->spilled) && rb_reg_const_val(env, &sl->spilled) == 0)
				return;
			for (int j = 0; j < 4; j++)
				if (sl->type[j] == SLOT_SPILL)
					sl->type[j] = SLOT_MISC;
		}
		memset(&sl->spilled, 0, sizeof(sl->spilled));
	}
	for (int j = lo_live ? 4 : 0; j < (hi_live ? 4 : 8); j++)
		sl->type[j] = SLOT_INVALID;
}

struct chain_query {
	struct rb_env *env;
	const struct rb_vstate *st;
	struct rb_chain *inst[RB_MAX_FRAMES];
};

static bool chain_alive(void *ctx, int frameno, int h)
{
	struct chain_query *q = ctx;
	return half_alive(q->env, q->st, q->inst, frameno, h);
}

void rb_clean_frames(struct rb_env *env, struct rb_vstate *st, bool (*alive)(void *ctx, int frameno, int half),
		     void *ctx)
{
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
		for (int s = 0; s < f->nslots && s < 64; s++) {
			if (env->prof->stack_live_half_slots) {
				clean_halves(env, &f->stack[s], alive(ctx, fr, 2 * s), alive(ctx, fr, 2 * s + 1));
				continue;
			}
			/* 6.18: a slot is live or dead whole (its chains mark
			 * both halves alike) */
			if (!alive(ctx, fr, 2 * s) && !alive(ctx, fr, 2 * s + 1))
				memset(&f->stack[s], 0, sizeof(f->stack[s]));
		}
	}
}

/* clean_verifier_state with the chains' liveness: registers dead before
 * each frame's insn become NOT_INIT, dead stack slots invalid */
void rb_clean_state(struct rb_env *env, struct rb_vstate *st)
{
	/* every chain is looked up (and created) before any pointer into
	 * env->chains is kept: a lookup that creates one may move the array */
	int idx[RB_MAX_FRAMES];
	for (int fr = 0; fr <= st->curframe; fr++) {
		idx[fr] = state_chain_idx(env, st, fr);
		if (idx[fr] < 0)
			return; /* out of memory: keep everything */
	}
	struct chain_query q = {.env = env, .st = st};
	for (int fr = 0; fr <= st->curframe; fr++)
		q.inst[fr] = &env->chains[idx[fr]];
	rb_clean_frames(env, st, chain_alive, &q);
}
