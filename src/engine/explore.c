/* explore.c — state pruning (Linux 6.18 is_state_visited, states_equal,
 * regsafe/stacksafe/refsafe with id maps), precision tracking
 * (__mark_chain_precision, backtrack_insn, propagate_precision) and stack
 * slot liveness (a path-insensitive approximation of 6.18's liveness.c:
 * slot reads and full writes recorded per instruction during exploration,
 * live-before sets by a backward fixed point; only complete checkpoints are
 * cleaned, as in the kernel). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/state.h"

/* ---------- stack liveness ---------- */

/* One table per call chain (the callsites leading to the innermost frame),
 * as 6.18's liveness.c keeps one per callchain. For every frame f of the
 * chain and every insn of the innermost subprogram: the frame-f slots read
 * there, and (own frame only) the slots surely fully written there. The
 * liveness of frame f's slots flows backwards through the innermost
 * subprogram, into callees at call insns and out to the caller's chain
 * after the callsite at exits. */
static int frame_insn_idx(const struct rb_vstate *st, int fr);

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
	if (env->nchains == env->cap_chains) {
		int cap = env->cap_chains ? env->cap_chains * 2 : 8;
		struct rb_chain *v = realloc(env->chains, sizeof(*v) * (size_t)cap);
		if (!v)
			return NULL;
		env->chains = v;
		env->cap_chains = cap;
	}
	ch = &env->chains[env->nchains];
	memset(ch, 0, sizeof(*ch));
	size_t n = (size_t)env->insn_cnt * (size_t)(depth + 1);
	ch->read = calloc(n, sizeof(uint64_t));
	ch->live = calloc(n, sizeof(uint64_t));
	ch->write = calloc((size_t)env->insn_cnt, sizeof(uint64_t));
	ch->wseen = calloc((size_t)env->insn_cnt, 1);
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
	env->live_dirty = true;
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
	if (write_full && frameno == st->curframe) {
		uint64_t w = ch->wseen[idx] ? (ch->write[idx] & bit) : bit;
		if (!ch->wseen[idx] || w != (ch->write[idx] & bit)) {
			ch->write[idx] = ch->wseen[idx] ? (ch->write[idx] & ~bit) | w : bit;
			env->live_dirty = true;
		}
		ch->wseen[idx] = 1;
		return;
	}
	if (!(RD(ch, frameno, idx) & bit)) {
		RD(ch, frameno, idx) |= bit;
		env->live_dirty = true;
	}
	/* an insn that reads a slot does not surely write it */
	if (frameno == st->curframe && (ch->write[idx] & bit)) {
		ch->write[idx] &= ~bit;
		env->live_dirty = true;
	}
}

/* the backward fixed point over every chain at once */
static void compute_live_stack(struct rb_env *env)
{
	if (!env->live_dirty)
		return;
	env->live_dirty = false;
	for (int c = 0; c < env->nchains; c++)
		memset(env->chains[c].live, 0,
		       sizeof(uint64_t) * (size_t)env->insn_cnt * (size_t)(env->chains[c].depth + 1));
	bool changed = true;
	int iters = 0;
	while (changed && iters++ < 10000) {
		changed = false;
		for (int c = 0; c < env->nchains; c++) {
			struct rb_chain *ch = &env->chains[c];
			struct rb_chain *parent = ch->depth ? chain_by(env, ch->callsites, ch->depth - 1) : NULL;
			int lo = env->subprogs[ch->sub].start, hi = env->subprogs[ch->sub].end;
			for (int f = 0; f <= ch->depth; f++) {
				/* after this subprogram returns: the caller's chain after the callsite */
				uint64_t at_exit = 0;
				if (f < ch->depth && parent) {
					int after = ch->callsites[ch->depth - 1] + 1;
					at_exit = LV(parent, f, after);
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
					uint64_t live = RD(ch, f, i) | (out & ~(f == ch->depth ? ch->write[i] : 0));
					if (live != LV(ch, f, i)) {
						LV(ch, f, i) = live;
						changed = true;
					}
				}
			}
		}
	}
}

static int frame_insn_idx(const struct rb_vstate *st, int fr)
{
	return fr == st->curframe ? st->insn_idx : st->frame[fr + 1]->callsite;
}

/* clean_verifier_state: dead stack slots of a complete checkpoint become
 * invalid (dead registers are skipped by func_states_equal). Each frame's
 * slots are judged at the state's own instruction in its full call chain. */
static void clean_state(struct rb_env *env, struct rb_vstate *st)
{
	struct rb_chain *ch = find_chain(env, st, st->curframe, true);
	compute_live_stack(env);
	for (int fr = 0; fr <= st->curframe; fr++) {
		struct rb_func *f = st->frame[fr];
		uint64_t live = ch ? LV(ch, fr, st->insn_idx) : ~0ull;
		for (int s = 0; s < f->nslots && s < 64; s++) {
			if (live & (1ull << s))
				continue;
			memset(&f->stack[s], 0, sizeof(f->stack[s]));
		}
	}
}

/* ---------- state equivalence ---------- */

#define IDMAP_SIZE 600
struct idmap {
	uint32_t old[IDMAP_SIZE], cur[IDMAP_SIZE];
	int n;
	uint32_t tmp;
};

static bool check_ids(struct idmap *m, uint32_t o, uint32_t c)
{
	if (!!o != !!c)
		return false;
	if (!o)
		return true;
	for (int i = 0; i < m->n; i++) {
		if (m->old[i] == o)
			return m->cur[i] == c;
		if (m->cur[i] == c)
			return false;
	}
	if (m->n == IDMAP_SIZE)
		return false;
	m->old[m->n] = o;
	m->cur[m->n] = c;
	m->n++;
	return true;
}

static bool check_scalar_ids(struct idmap *m, uint32_t o, uint32_t c)
{
	o = o ? o : (m->tmp++ | 0x40000000u);
	c = c ? c : (m->tmp++ | 0x40000000u);
	return check_ids(m, o, c);
}

enum { NOT_EXACT, EXACT, RANGE_WITHIN };

static bool same_nonval(const struct rb_reg *a, const struct rb_reg *b)
{
	return a->type == b->type && a->flags == b->flags && a->off == b->off && a->range == b->range &&
	       a->map_idx == b->map_idx && (a->type != RT_STACK || a->frameno == b->frameno);
}

static bool regs_exact(struct rb_env *env, const struct rb_reg *o, const struct rb_reg *c, struct idmap *m)
{
	if (o->type == RT_NOT_INIT && c->type == RT_NOT_INIT)
		return true;
	return same_nonval(o, c) && env->t->equal(&o->val, &c->val) && check_ids(m, o->id, c->id) &&
	       check_ids(m, o->ref_obj_id, c->ref_obj_id);
}

static bool regsafe(struct rb_env *env, const struct rb_reg *o, const struct rb_reg *c, struct idmap *m, int exact)
{
	if (exact == EXACT)
		return regs_exact(env, o, c, m);
	if (o->type == RT_NOT_INIT && (exact == NOT_EXACT || c->type == RT_NOT_INIT))
		return true;
	if (o->type != c->type || o->flags != c->flags)
		return false;
	switch (o->type) {
	case RT_SCALAR:
		if (!o->precise && exact == NOT_EXACT)
			return true;
		if ((o->id & ~RB_ID_MASK) != (c->id & ~RB_ID_MASK))
			return false;
		if ((o->id & RB_ADD_CONST) && o->off != c->off)
			return false;
		if (!check_scalar_ids(m, o->id, c->id))
			return false;
		return env->t->is_subset(&o->val, &c->val);
	case RT_MAP_KEY:
	case RT_MAP_VALUE:
	case RT_MEM:
	case RT_TP_BUFFER:
		return same_nonval(o, c) && env->t->is_subset(&o->val, &c->val) && check_ids(m, o->id, c->id) &&
		       check_ids(m, o->ref_obj_id, c->ref_obj_id);
	case RT_PKT:
	case RT_PKT_META:
		if (o->range < 0 || c->range < 0) {
			if (o->range != c->range)
				return false;
		} else if (o->range > c->range) {
			return false;
		}
		if (o->off != c->off)
			return false;
		if (!check_ids(m, o->id, c->id))
			return false;
		return env->t->is_subset(&o->val, &c->val);
	default:
		return regs_exact(env, o, c, m);
	}
}

static bool slot_scalar(struct rb_env *env, const struct rb_slot *s, struct rb_reg *out)
{
	/* scalar_reg_for_stack: a 64-bit scalar spill, or 8 misc bytes (an unknown scalar) */
	if (s->type[7] == SLOT_SPILL) {
		for (int i = 0; i < 8; i++)
			if (s->type[i] != SLOT_SPILL)
				return false;
		if (s->spilled.type != RT_SCALAR)
			return false;
		*out = s->spilled;
		return true;
	}
	/* is_stack_all_misc: invalid bytes count as misc for a privileged loader */
	for (int i = 0; i < 8; i++)
		if (s->type[i] != SLOT_MISC && s->type[i] != SLOT_INVALID)
			return false;
	rb_reg_unknown(env, out);
	return true;
}

static bool stacksafe(struct rb_env *env, const struct rb_func *o, const struct rb_func *c, struct idmap *m,
		      int exact)
{
	for (int i = 0; i < o->nslots * 8; i++) {
		int spi = i / 8, b = i % 8;
		uint8_t ot = o->stack[spi].type[b];
		uint8_t ct = i < c->nslots * 8 ? c->stack[spi].type[b] : SLOT_INVALID;
		if (exact != NOT_EXACT && (i >= c->nslots * 8 || ot != ct))
			return false;
		if (ot == SLOT_INVALID)
			continue;
		if (ot == SLOT_MISC) /* allow_uninit_stack: misc matches anything */
			continue;
		if (i >= c->nslots * 8)
			return false;
		struct rb_reg or_, cr;
		if (slot_scalar(env, &o->stack[spi], &or_) && slot_scalar(env, &c->stack[spi], &cr)) {
			if (!regsafe(env, &or_, &cr, m, exact))
				return false;
			i += 7 - b;
			continue;
		}
		if (ot == SLOT_MISC && ct == SLOT_ZERO)
			continue;
		if (ot != ct)
			return false;
		if (b != 7)
			continue;
		if (ot == SLOT_SPILL && !regsafe(env, &o->stack[spi].spilled, &c->stack[spi].spilled, m, exact))
			return false;
	}
	return true;
}

static bool refsafe(const struct rb_vstate *o, const struct rb_vstate *c, struct idmap *m)
{
	if (o->nrefs != c->nrefs)
		return false;
	for (int i = 0; i < o->nrefs; i++)
		if (!check_ids(m, o->refs[i], c->refs[i]))
			return false;
	return true;
}

static bool states_equal(struct rb_env *env, const struct rb_vstate *o, const struct rb_vstate *c, int exact)
{
	static const struct idmap zero_map; /* const template; the working map is on the stack */
	struct idmap *m = malloc(sizeof(*m));
	if (!m)
		return false;
	*m = zero_map;
	bool ok = o->curframe == c->curframe && refsafe(o, c, m);
	for (int fr = 0; ok && fr <= o->curframe; fr++) {
		const struct rb_func *of = o->frame[fr], *cf = c->frame[fr];
		if (of->callsite != cf->callsite) {
			ok = false;
			break;
		}
		uint16_t live = env->aux[frame_insn_idx(o, fr)].live_regs;
		for (int i = 0; i < RB_MAX_REG && ok; i++)
			if (((1u << i) & live) && !regsafe(env, &of->regs[i], &cf->regs[i], m, exact))
				ok = false;
		if (ok && !stacksafe(env, of, cf, m, exact))
			ok = false;
	}
	free(m);
	return ok;
}

static bool states_maybe_looping(struct rb_env *env, const struct rb_vstate *o, const struct rb_vstate *c)
{
	if (o->curframe != c->curframe)
		return false;
	const struct rb_func *of = o->frame[o->curframe], *cf = c->frame[c->curframe];
	for (int i = 0; i < RB_MAX_REG; i++) {
		const struct rb_reg *a = &of->regs[i], *b = &cf->regs[i];
		if (a->type != b->type || a->id != b->id || a->precise != b->precise || !same_nonval(a, b) ||
		    a->ref_obj_id != b->ref_obj_id || !env->t->equal(&a->val, &b->val))
			return false;
	}
	return true;
}

/* ---------- precision ---------- */

static void mark_all_imprecise(struct rb_vstate *st)
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

void rb_mark_all_scalars_precise(struct rb_env *env, struct rb_vstate *st)
{
	(void)env;
	for (st = st->parent; st; st = st->parent) {
		for (int fr = 0; fr <= st->curframe; fr++) {
			struct rb_func *f = st->frame[fr];
			for (int i = 0; i < RB_MAX_REG; i++)
				if (f->regs[i].type == RT_SCALAR)
					f->regs[i].precise = 1;
			for (int s = 0; s < f->nslots; s++)
				if (f->stack[s].type[7] == SLOT_SPILL && f->stack[s].spilled.type == RT_SCALAR)
					f->stack[s].spilled.precise = 1;
		}
	}
}

#define BT_NOTSUPP 1
#define BT_BUG 2
#define ARGS_MASK 0x3e

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
	if (cls == BPF_LDX || (cls == BPF_STX && mode == BPF_ATOMIC && insn->imm == 0x100 /* load_acq */)) {
		if (!(*regs & (1u << dreg)))
			return 0;
		*regs &= ~(1u << dreg);
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
		if (op == BPF_CALL) {
			*regs &= ~1u;
			if (*regs & ARGS_MASK)
				return BT_BUG;
			return 0;
		}
		if (op == BPF_EXIT) {
			if (*regs & ARGS_MASK)
				return BT_BUG;
			bool r0 = subseq_idx - 1 >= 0 && is_pseudo_call(&env->insns[subseq_idx - 1]) && (*regs & 1u);
			*regs &= ~1u;
			if (env->bt_frame + 1 >= RB_MAX_FRAMES)
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

static const struct rb_hist *hist_entry(const struct rb_vstate *st, int hist_end, int idx)
{
	if (hist_end > 0 && st->hist[hist_end - 1].idx == idx)
		return &st->hist[hist_end - 1];
	return NULL;
}

static int prev_insn(const struct rb_vstate *st, int i, int *history)
{
	int cnt = *history;
	if (i == st->first_insn_idx) {
		if (cnt == 0)
			return -1;
		if (cnt == 1 && st->hist[0].idx == i)
			return -1;
	}
	if (cnt && st->hist[cnt - 1].idx == i) {
		i = st->hist[cnt - 1].prev_idx;
		(*history)--;
	} else {
		i--;
	}
	return i;
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
	for (;;) {
		int history = st->nhist;
		rb_log(env, "mark_precise: frame%d: last_idx %d first_idx %d subseq_idx %d \n", env->bt_frame, last_idx,
		       first_idx, subseq_idx);
		if (last_idx < 0)
			return 0;
		for (int i = last_idx;;) {
			int err = 0;
			if (skip_first)
				skip_first = false;
			else
				err = backtrack_insn(env, i, subseq_idx, hist_entry(st, history, i));
			if (err) {
				rb_mark_all_scalars_precise(env, start);
				return 0;
			}
			if (bt_empty(env))
				return 0;
			subseq_idx = i;
			i = prev_insn(st, i, &history);
			if (i < 0)
				break;
		}
		st = st->parent;
		if (!st)
			break;
		for (int fr = env->bt_frame; fr >= 0; fr--) {
			struct rb_func *f = st->frame[fr];
			for (int r = 0; r < RB_MAX_REG; r++) {
				if (!(env->bt_regs[fr] & (1u << r)))
					continue;
				struct rb_reg *reg = &f->regs[r];
				if (reg->type != RT_SCALAR || reg->precise) {
					env->bt_regs[fr] &= ~(1u << r);
				} else {
					reg->precise = 1;
					env->bt_changed = true;
				}
			}
			for (int s = 0; s < 64; s++) {
				if (!(env->bt_stack[fr] & (1ull << s)))
					continue;
				if (s >= f->nslots || f->stack[s].type[7] != SLOT_SPILL ||
				    f->stack[s].spilled.type != RT_SCALAR) {
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
		}
		if (bt_empty(env))
			return 0;
		subseq_idx = first_idx;
		last_idx = st->last_insn_idx;
		first_idx = st->first_insn_idx;
	}
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

int rb_mark_stack_precision(struct rb_env *env, int frameno, int spi);
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
static int propagate_precision(struct rb_env *env, const struct rb_vstate *old, struct rb_vstate *cur)
{
	memset(env->bt_regs, 0, sizeof(env->bt_regs));
	memset(env->bt_stack, 0, sizeof(env->bt_stack));
	env->bt_frame = old->curframe;
	for (int fr = old->curframe; fr >= 0; fr--) {
		const struct rb_func *f = old->frame[fr];
		for (int i = 0; i < RB_MAX_REG; i++)
			if (f->regs[i].type == RT_SCALAR && f->regs[i].precise)
				env->bt_regs[fr] |= 1u << i;
		for (int s = 0; s < f->nslots && s < 64; s++)
			if (f->stack[s].type[7] == SLOT_SPILL && f->stack[s].spilled.type == RT_SCALAR &&
			    f->stack[s].spilled.precise)
				env->bt_stack[fr] |= 1ull << s;
	}
	return mark_chain(env, cur);
}

/* ---------- loops: SCC visits (6.17+) ---------- */

struct callchain {
	int callsites[RB_MAX_FRAMES];
	int depth, scc;
};

static bool compute_callchain(struct rb_env *env, const struct rb_vstate *st, struct callchain *cc)
{
	memset(cc, 0, sizeof(*cc));
	for (int i = 0; i <= st->curframe; i++) {
		int insn = frame_insn_idx(st, i);
		int scc = env->aux[insn].scc;
		if (scc) {
			cc->scc = scc;
			cc->depth = i;
			return true;
		}
		if (i < st->curframe)
			cc->callsites[i] = insn;
		else
			return false;
	}
	return false;
}

static struct rb_scc_visit *visit_lookup(struct rb_env *env, const struct callchain *cc, bool alloc)
{
	for (int i = 0; i < env->nvisits; i++) {
		struct rb_scc_visit *v = &env->visits[i];
		if (v->scc == cc->scc && v->depth == cc->depth &&
		    !memcmp(v->callsites, cc->callsites, sizeof(int) * (size_t)cc->depth))
			return v;
	}
	if (!alloc)
		return NULL;
	if (env->nvisits == env->cap_visits) {
		int cap = env->cap_visits ? env->cap_visits * 2 : 8;
		struct rb_scc_visit *v = realloc(env->visits, sizeof(*v) * (size_t)cap);
		if (!v)
			return NULL;
		env->visits = v;
		env->cap_visits = cap;
	}
	struct rb_scc_visit *v = &env->visits[env->nvisits++];
	memset(v, 0, sizeof(*v));
	memcpy(v->callsites, cc->callsites, sizeof(v->callsites));
	v->depth = cc->depth;
	v->scc = cc->scc;
	return v;
}

static void log_callchain(struct rb_env *env, const char *what, const struct callchain *cc)
{
	if (!env->log)
		return;
	rb_log(env, "SCC %s (", what);
	for (int i = 0; i < cc->depth; i++)
		rb_log(env, "%d,", cc->callsites[i]);
	rb_log(env, "%d)\n", cc->scc);
}

void rb_update_peak(struct rb_env *env)
{
	uint64_t n = env->explored_size + env->free_list_size + env->num_backedges;
	if (n > env->peak_states)
		env->peak_states = n;
}

/* is st inside an SCC visit with recorded backedges (read/precision marks
 * not yet propagated around the loop)? */
static bool incomplete_marks(struct rb_env *env, const struct rb_vstate *st)
{
	struct callchain cc;
	if (!compute_callchain(env, st, &cc))
		return false;
	struct rb_scc_visit *v = visit_lookup(env, &cc, false);
	/* only iterator, may_goto and callback loops record backedges */
	return v && v->nbackedges > 0;
}

static int maybe_enter_scc(struct rb_env *env, struct rb_vstate *st)
{
	struct callchain cc;
	if (!compute_callchain(env, st, &cc))
		return 0;
	struct rb_scc_visit *v = visit_lookup(env, &cc, true);
	if (!v)
		return RB_E_NOMEM;
	if (!v->entry_state) {
		v->entry_state = st;
		log_callchain(env, "enter", &cc);
	}
	return 0;
}

static void free_backedges(struct rb_scc_visit *v)
{
	for (int i = 0; i < v->nbackedges; i++)
		rb_state_free(v->backedges[i]);
	free(v->backedges);
	v->backedges = NULL;
	v->nbackedges = v->cap = 0;
}

void rb_free_visits(struct rb_env *env)
{
	for (int i = 0; i < env->nvisits; i++)
		free_backedges(&env->visits[i]);
	free(env->visits);
	env->visits = NULL;
	env->nvisits = 0;
}

/* the SCC's entry state is complete: push the precision found along the
 * recorded backedges into the states they matched, until nothing changes */
int rb_maybe_exit_scc(struct rb_env *env, struct rb_vstate *st)
{
	struct callchain cc;
	if (!compute_callchain(env, st, &cc))
		return 0;
	struct rb_scc_visit *v = visit_lookup(env, &cc, false);
	if (!v || v->entry_state != st)
		return 0;
	log_callchain(env, "exit", &cc);
	v->entry_state = NULL;
	env->num_backedges -= (uint64_t)v->nbackedges;
	rb_update_peak(env);
	bool changed;
	int iters = 0;
	do {
		changed = false;
		for (int i = 0; i < v->nbackedges; i++) {
			env->bt_changed = false;
			int err = propagate_precision(env, v->backedges[i]->equal_state, v->backedges[i]);
			if (err)
				return err;
			changed |= env->bt_changed;
		}
	} while (changed && ++iters < 1000);
	free_backedges(v);
	return 0;
}

static int add_backedge(struct rb_env *env, struct rb_vstate *old, struct rb_vstate *cur, int insn_idx)
{
	struct callchain cc;
	if (!compute_callchain(env, old, &cc))
		return 0;
	struct rb_scc_visit *v = visit_lookup(env, &cc, false);
	if (!v)
		return 0;
	struct rb_vstate *copy = rb_state_copy(cur);
	if (!copy)
		return RB_E_NOMEM;
	copy->equal_state = old;
	copy->insn_idx = insn_idx;
	if (v->nbackedges == v->cap) {
		int cap = v->cap ? v->cap * 2 : 8;
		struct rb_vstate **b = realloc(v->backedges, sizeof(*b) * (size_t)cap);
		if (!b) {
			rb_state_free(copy);
			return RB_E_NOMEM;
		}
		v->backedges = b;
		v->cap = cap;
	}
	v->backedges[v->nbackedges++] = copy;
	env->num_backedges++;
	return 0;
}

/* ---------- checkpoints ---------- */

static int bucket(struct rb_env *env, int insn_idx, const struct rb_vstate *st)
{
	uint32_t cs = (uint32_t)st->frame[st->curframe]->callsite;
	return (int)(((uint32_t)insn_idx ^ cs) % (uint32_t)env->insn_cnt);
}

static bool same_callsites(const struct rb_vstate *a, const struct rb_vstate *b)
{
	if (a->curframe != b->curframe)
		return false;
	for (int fr = a->curframe; fr >= 0; fr--)
		if (a->frame[fr]->callsite != b->frame[fr]->callsite)
			return false;
	return true;
}

int rb_is_state_visited(struct rb_env *env, int insn_idx)
{
	struct rb_vstate *cur = env->cur;
	bool force_new = env->aux[insn_idx].force_checkpoint || cur->nhist > 40 ||
			 (env->prog->prog_flags & BPF_F_TEST_STATE_FREQ);
	bool add_new = force_new;
	uint64_t states_cnt = 0;
	if (env->jmps_processed - env->prev_jmps_processed >= 2 && env->insn_processed - env->prev_insn_processed >= 8)
		add_new = true;

	int b = bucket(env, insn_idx, cur);
	/* clean_live_states */
	for (struct rb_vstate *sl = env->explored[b]; sl; sl = sl->next) {
		if (sl->branches || sl->insn_idx != insn_idx || !same_callsites(sl, cur) || sl->cleaned)
			continue;
		clean_state(env, sl);
		sl->cleaned = true;
	}
	struct rb_vstate **pp = &env->explored[b];
	while (*pp) {
		struct rb_vstate *sl = *pp;
		states_cnt++;
		if (sl->insn_idx != insn_idx) {
			pp = &sl->next;
			continue;
		}
		if (sl->branches) {
			if (states_maybe_looping(env, sl, cur) && states_equal(env, sl, cur, EXACT))
				return rb_reject(env, "infinite loop detected at insn %d", insn_idx);
			if (!force_new && env->jmps_processed - env->prev_jmps_processed < 20 &&
			    env->insn_processed - env->prev_insn_processed < 100)
				add_new = false;
			goto miss;
		}
		bool loop = incomplete_marks(env, sl);
		if (states_equal(env, sl, cur, loop ? RANGE_WITHIN : NOT_EXACT)) {
			sl->hit_cnt++;
			if (env->aux[insn_idx].jmp_point) {
				int err = rb_push_hist(env, cur, 0);
				if (err)
					return err;
			}
			int err = propagate_precision(env, sl, cur);
			if (err)
				return err;
			if (loop && (err = add_backedge(env, sl, cur, insn_idx)))
				return err;
			return 1;
		}
	miss:
		if (add_new)
			sl->miss_cnt++;
		{
			uint32_t n = (env->aux[insn_idx].force_checkpoint && sl->branches > 0) ? 64 : 3;
			if (sl->miss_cnt > sl->hit_cnt * n + n) {
				/* unlikely to be useful: evict (kept alive for its children) */
				*pp = sl->next;
				sl->in_list = false;
				env->explored_size--;
				/* kept alive (free list) while paths through it are pending */
				if (sl->branches || incomplete_marks(env, sl)) {
					sl->in_free_list = true;
					env->free_list_size++;
				}
				{
					size_t b = rb_state_bytes(sl, env->t->val_size);
					env->cur_state_mem -= b <= env->cur_state_mem ? b : env->cur_state_mem;
				}
				continue;
			}
		}
		pp = &sl->next;
	}
	if (env->max_states_per_insn < states_cnt)
		env->max_states_per_insn = states_cnt;
	if (!add_new)
		return 0;

	if (env->explored_size >= RB_STATE_BUDGET) {
		env->res->verdict = RB_LIMIT;
		snprintf(env->res->msg, sizeof(env->res->msg), "state budget of %d stored states exhausted at insn %d",
			 RB_STATE_BUDGET, insn_idx);
		env->done = true;
		return RB_E_LIMIT;
	}
	env->total_states++;
	env->explored_size++;
	rb_update_peak(env);
	env->prev_jmps_processed = env->jmps_processed;
	env->prev_insn_processed = env->insn_processed;
	mark_all_imprecise(cur);

	struct rb_vstate *nw = rb_state_copy(cur);
	if (!nw)
		return RB_E_NOMEM;
	if (env->nall == env->cap_all) {
		int cap = env->cap_all ? env->cap_all * 2 : 64;
		struct rb_vstate **a = realloc(env->all_states, sizeof(*a) * (size_t)cap);
		if (!a) {
			rb_state_free(nw);
			return RB_E_NOMEM;
		}
		env->all_states = a;
		env->cap_all = cap;
	}
	env->all_states[env->nall++] = nw;
	nw->insn_idx = insn_idx;
	nw->branches = 1;
	nw->in_list = true;
	nw->next = env->explored[b];
	env->explored[b] = nw;
	env->cur_state_mem += rb_state_bytes(nw, env->t->val_size);
	if (env->cur_state_mem > env->peak_state_mem)
		env->peak_state_mem = env->cur_state_mem;

	int err = maybe_enter_scc(env, nw);
	if (err)
		return err;
	cur->parent = nw;
	cur->first_insn_idx = insn_idx;
	cur->dfs_depth = nw->dfs_depth + 1;
	cur->nhist = 0;
	env->cur_hist_ent = NULL;
	return 0;
}
