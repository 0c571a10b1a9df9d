/* explain.c — rb_explain_prog(): pass 1 (each tracker's events), where
 * they part (part.c), pass 2 (the states along the path to the decision),
 * the walk back along the deciding location's history (walk.c), the cause
 * class (classify.c) and the counterfactual re-runs. */
#include <stdlib.h>
#include <string.h>

#include "engine/log.h"
#include "explain/part.h"
#include "util/array_size.h"

/* states kept along the path: the walk back stops at the oldest */
#define MAX_PATH_SNAPS 20000

struct ex_ctx {
	const struct rb_object *obj;
	size_t idx;
	const struct rb_explain_opts *o;
	const char *names[2];
	const struct rb_tracker *t[2];
	struct ex_trace tr[2];
	struct ex_part part;
	int64_t *path; /* events from the path's first kept one to the decision */
	size_t npath;
	struct ex_snaps sn[2];
	struct rb_explain *x;
	/* the walk back: the location followed at each path position it passed */
	struct ex_loc *chain; /* [path position] */
	/* the constants the path's conditional jumps compare with */
	struct ex_probes probes;
	/* fixes applied to a side's runs (the further-causes rounds), or NULL */
	struct ex_inject *inj[2];
};

/* one run of side s with inner (its fixes applied first, if any) */
static int run_side(struct ex_ctx *c, int s, const struct rb_engine_recorder *inner, struct rb_result *res,
		    struct rb_err *err)
{
	if (!c->inj[s])
		return ex_run(c->obj, c->idx, c->o, c->names[s], inner, res, err);
	c->inj[s]->count = 0;
	c->inj[s]->done = 0;
	c->inj[s]->ended = 0;
	c->inj[s]->missing = false;
	struct ex_combo k = {.inj = c->inj[s], .inner = inner};
	struct rb_engine_recorder rec;
	ex_combo_recorder(&k, &rec);
	return ex_run(c->obj, c->idx, c->o, c->names[s], &rec, res, err);
}

/* counterfactual attempts along the history, at most */
#define MAX_CF_TRIES 8

const char *rb_cf_name(enum rb_cf_outcome o)
{
	static const char *const n[] = {"not run", "vanished", "verdict only", "remains", "failed"};
	return (unsigned)o < ARRAY_SIZE(n) ? n[o] : "?";
}

const char *rb_part_name(enum rb_part_kind k)
{
	static const char *const n[] = {"none", "branch", "prune", "verdict", "counts"};
	return (unsigned)k < ARRAY_SIZE(n) ? n[k] : "?";
}

/* the registry tracker behind a row name ("cnum", "cnum@7.2": "cnum") */
static const struct rb_tracker *tracker_of(const char *name)
{
	char base[64];
	snprintf(base, sizeof(base), "%s", name);
	char *at = strchr(base, '@');
	if (at)
		*at = 0;
	return rb_tracker_get(base, 64);
}

/* side s's events (and result) */
static int trace_side(struct ex_ctx *c, int s, struct rb_result *res, struct rb_err *err)
{
	free(c->tr[s].ev);
	c->tr[s] = (struct ex_trace){0};
	struct rb_engine_recorder rec;
	ex_trace_recorder(&c->tr[s], &rec);
	if (run_side(c, s, &rec, res, err) < 0)
		return -1;
	if (c->tr[s].nomem)
		return rb_errf(err, "explain: out of memory recording %s's exploration", c->names[s]);
	return 0;
}

static int pass1(struct ex_ctx *c, struct rb_err *err)
{
	for (int s = 0; s < 2; s++)
		if (trace_side(c, s, &c->x->res[s], err) < 0)
			return -1;
	return 0;
}

/* what pass2 and the walk keep, dropped before the next round */
static void drop_round(struct ex_ctx *c, int64_t d)
{
	for (int s = 0; s < 2; s++)
		ex_snaps_free(&c->sn[s], d >= 0 ? (size_t)d + 1 : 0);
	free(c->path);
	free(c->chain);
	c->path = NULL;
	c->chain = NULL;
	c->npath = 0;
	c->probes.n = 0;
}

/* the path to the decision, and each side's states along it */
static int pass2(struct ex_ctx *c, struct rb_err *err)
{
	int64_t d = c->part.d;
	size_t len = 0;
	for (int64_t e = d; e >= 0; e = c->tr[0].ev[e].parent)
		len++;
	if (len > MAX_PATH_SNAPS)
		len = MAX_PATH_SNAPS;
	c->path = calloc(len, sizeof(*c->path));
	uint8_t *want = calloc((size_t)d + 1, 1);
	if (!c->path || !want) {
		free(want);
		return rb_errf(err, "explain: out of memory");
	}
	size_t i = len;
	for (int64_t e = d; e >= 0 && i > 0; e = c->tr[0].ev[e].parent) {
		c->path[--i] = e;
		want[e] = 1;
	}
	c->npath = len;
	c->chain = calloc(len, sizeof(*c->chain));
	if (!c->chain) {
		free(want);
		return rb_errf(err, "explain: out of memory");
	}
	int rc = 0;
	for (int s = 0; s < 2 && !rc; s++) {
		struct ex_snaps *sn = &c->sn[s];
		*sn = (struct ex_snaps){.want = want, .nwant = (size_t)d + 1, .stop = (uint64_t)d};
		sn->st = calloc((size_t)d + 1, sizeof(*sn->st));
		if (!sn->st) {
			rc = rb_errf(err, "explain: out of memory");
			break;
		}
		struct rb_engine_recorder rec;
		ex_snaps_recorder(sn, &rec);
		struct rb_result r;
		if (run_side(c, s, &rec, &r, err) < 0)
			rc = -1;
		else if (sn->nomem || !sn->st[d])
			rc = rb_errf(err, "explain: %s's re-run did not reach event %lld", c->names[s], (long long)d);
	}
	free(want);
	return rc;
}

static bool differs(struct ex_ctx *c, int64_t e, struct ex_loc l)
{
	return ex_loc_differs(c->t[0], c->sn[0].st[e], c->t[1], c->sn[1].st[e], l, &c->probes);
}

static void add_probe(struct ex_probes *p, uint64_t v)
{
	for (int i = 0; i < p->n; i++)
		if (p->v[i] == v)
			return;
	if (p->n < EX_MAX_PROBES)
		p->v[p->n++] = v;
}

/* the immediates of the conditional jumps along the path (and for JMP32
 * the same low word with the high word set): a set with a hole at such a
 * constant, which bounds cannot show, is told apart by its membership */
static void collect_probes(struct ex_ctx *c)
{
	const struct bpf_insn *insns = c->obj->progs[c->idx].insns;
	for (size_t i = c->npath; i-- > 0;) {
		const struct bpf_insn *in = &insns[c->tr[0].ev[c->path[i]].insn];
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
		if ((cls != BPF_JMP && cls != BPF_JMP32) || BPF_SRC(in->code) != BPF_K || op == BPF_JA ||
		    op == BPF_CALL || op == BPF_EXIT)
			continue;
		if (cls == BPF_JMP32) {
			add_probe(&c->probes, (uint32_t)in->imm);
			add_probe(&c->probes, 0xffffffff00000000ull | (uint32_t)in->imm);
		} else {
			add_probe(&c->probes, (uint64_t)(int64_t)in->imm);
		}
	}
}

/* at a prune, a location initialised on one side only: the other side's
 * liveness cleaned it as dead there (Linux 7.2.13 cleans the current state
 * at each prune point, 6.18.44 only stored states), so its value cannot
 * have decided the prune */
static bool cleaned_one_side(const struct ex_ctx *c, int64_t d, struct ex_loc l)
{
	const struct rb_reg *x = ex_loc_reg(c->sn[0].st[d], l), *y = ex_loc_reg(c->sn[1].st[d], l);
	return x && y && (x->type == RT_NOT_INIT) != (y->type == RT_NOT_INIT);
}

/* the location the decision at event d was made on: the first operand
 * (or, for a prune, the first register, then slot) whose value sets differ */
static bool deciding_loc(struct ex_ctx *c, struct ex_loc *out)
{
	int64_t d = c->part.d;
	const struct rb_vstate *st = c->sn[0].st[d];
	struct ex_loc ops[16];
	int n = 0;
	if (c->part.kind == RB_PART_PRUNE) {
		for (int r = 0; r < RB_REG_FP; r++)
			ops[n++] = (struct ex_loc){.frame = (int8_t)st->curframe, .kind = LOC_REG, .no = (int16_t)r};
	} else {
		n = ex_insn_operands(&c->obj->progs[c->idx].insns[c->tr[0].ev[d].insn], st, ops, 16);
	}
	bool prune = c->part.kind == RB_PART_PRUNE;
	for (int i = 0; i < n; i++)
		if (differs(c, d, ops[i]) && !(prune && cleaned_one_side(c, d, ops[i]))) {
			*out = ops[i];
			return true;
		}
	if (prune) {
		const struct rb_func *f = st->frame[st->curframe];
		for (int s = 0; s < f->nslots; s++) {
			struct ex_loc l = {.frame = (int8_t)st->curframe, .kind = LOC_SLOT, .no = (int16_t)s};
			if (differs(c, d, l) && !cleaned_one_side(c, d, l)) {
				*out = l;
				return true;
			}
		}
	}
	return false;
}

/* walk back from the decision: returns the path position whose state is
 * the first (going forward) where *l differs continuously, i.e. the
 * instruction at path[pos - 1] made it differ; c->chain[p] is the location
 * followed at each position p passed */
static size_t walk_back(struct ex_ctx *c, struct ex_loc *l, int *steps)
{
	const struct bpf_insn *insns = c->obj->progs[c->idx].insns;
	size_t pos = c->npath - 1;
	c->chain[pos] = *l;
	while (pos > 0) {
		int64_t ej = c->path[pos - 1], ei = c->path[pos];
		const struct rb_vstate *before = c->sn[0].st[ej], *after = c->sn[0].st[ei];
		struct ex_effect e;
		ex_insn_effect(&insns[c->tr[0].ev[ej].insn], before, after, *l, &e);
		bool bd = differs(c, ej, *l);
		if ((!e.writes || !e.full) && bd) {
			c->chain[--pos] = *l;
			continue;
		}
		if (!e.writes)
			break;
		int i = 0;
		while (i < e.nin && !differs(c, ej, e.in[i]))
			i++;
		if (i == e.nin)
			break;
		*l = e.in[i];
		(*steps)++;
		c->chain[--pos] = *l;
	}
	return pos;
}

/* did the instruction before position p change side s's value of l? */
static bool changed_at(struct ex_ctx *c, size_t p, struct ex_loc l)
{
	for (int s = 0; s < 2; s++) {
		const struct rb_vstate *a = c->sn[s].st[c->path[p - 1]], *b = c->sn[s].st[c->path[p]];
		if (ex_loc_differs(c->t[s], a, c->t[s], b, l, &c->probes))
			return true;
	}
	return false;
}

/* the fix giving side `to` side from's value of l at event `at` (converted
 * through the bounds); false when from has no such location there */
static bool make_fix(struct ex_ctx *c, int to, int64_t at, struct ex_loc l, struct ex_fix *f)
{
	const struct rb_reg *src = ex_loc_reg(c->sn[!to].st[at], l);
	if (!src || src->type == RT_NOT_INIT)
		return false;
	struct rb_bounds b;
	c->t[!to]->bounds(&src->val, &b);
	*f = (struct ex_fix){.at = (uint64_t)at, .loc = l};
	c->t[to]->from_bounds(&f->val, &b);
	return true;
}

/* side `to` re-run with the fixes of in (plus f, unless NULL), compared
 * with the other side's result */
static enum rb_cf_outcome run_fixed(struct ex_ctx *c, int to, const struct ex_inject *in, const struct ex_fix *f,
				    struct rb_result *res, struct rb_err *err)
{
	struct ex_inject all = in ? *in : (struct ex_inject){0};
	if (f && all.nfix < EX_MAX_FIX)
		all.fix[all.nfix++] = *f;
	struct ex_inject *keep = c->inj[to];
	c->inj[to] = &all;
	static const struct rb_engine_recorder none = {0};
	int rc = run_side(c, to, &none, res, err);
	c->inj[to] = keep;
	if (rc < 0 || all.missing || all.done < all.nfix || all.ended < all.nend)
		return RB_CF_FAILED;
	const struct rb_result *want = &c->x->res[!to];
	if (res->verdict != want->verdict)
		return RB_CF_REMAINS;
	return res->insns_processed == want->insns_processed ? RB_CF_VANISHED : RB_CF_VERDICT;
}

/* the counterfactual: side `to` re-run with the other side's value of l
 * at event `at` */
static enum rb_cf_outcome counterfactual(struct ex_ctx *c, int to, int64_t at, struct ex_loc l,
					 struct rb_result *res, struct rb_err *err)
{
	struct ex_fix f;
	if (!make_fix(c, to, at, l, &f))
		return RB_CF_FAILED;
	return run_fixed(c, to, NULL, &f, res, err);
}

/* the class of the change the instruction before path position pos made
 * to l; rb, ra: each side's l before and after (rb may hold NULLs) */
static void cause_class(struct ex_ctx *c, size_t pos, struct ex_loc l, const struct rb_reg *rb[2],
			const struct rb_reg *ra[2], char *cls, size_t len)
{
	int64_t after = c->path[pos], before = pos > 0 ? c->path[pos - 1] : -1;
	if (before < 0)
		snprintf(cls, len, "differs from the start of the path");
	else if (!ex_loc_differs(c->t[0], c->sn[0].st[after], c->t[1], c->sn[1].st[after], l, NULL))
		/* equal bounds, told apart only by a probe: a hole */
		snprintf(cls, len, "excluded constant (x != C) kept by one side");
	else
		ex_classify(&c->obj->progs[c->idx].insns[c->tr[0].ev[before].insn], c->t, rb, ra, cls, len);
}

/* the cause fields of x: the instruction before path position pos, the
 * location l right after it */
static void fill_cause(struct ex_ctx *c, size_t pos, struct ex_loc l)
{
	struct rb_explain *x = c->x;
	const struct bpf_insn *insns = c->obj->progs[c->idx].insns;
	int64_t after = c->path[pos], before = pos > 0 ? c->path[pos - 1] : -1;
	x->cause_insn = before >= 0 ? c->tr[0].ev[before].insn : c->tr[0].ev[after].insn;
	ex_loc_name(l, c->sn[0].st[after]->curframe, x->cause_loc, sizeof(x->cause_loc));
	rb_disasm(&insns[x->cause_insn], c->obj, x->cause_text, sizeof(x->cause_text));
	ex_source_line(c->obj, c->idx, x->cause_insn, x->source, sizeof(x->source));
	const struct rb_reg *rb[2] = {NULL, NULL}, *ra[2];
	for (int s = 0; s < 2; s++) {
		if (before >= 0) {
			ex_loc_value(c->t[s], c->sn[s].st[before], l, x->val[s][0], sizeof(x->val[s][0]));
			rb[s] = ex_loc_reg(c->sn[s].st[before], l);
		} else {
			snprintf(x->val[s][0], sizeof(x->val[s][0]), "(the path's first kept state)");
		}
		ex_loc_value(c->t[s], c->sn[s].st[after], l, x->val[s][1], sizeof(x->val[s][1]));
		ra[s] = ex_loc_reg(c->sn[s].st[after], l);
	}
	cause_class(c, pos, l, rb, ra, x->cls, sizeof(x->cls));
}

/* both directions at position p: the candidate with the baseline's value
 * set first, then the reverse; true when one makes the change vanish */
static bool try_cf(struct ex_ctx *c, size_t p, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	struct ex_loc l = c->chain[p];
	x->cf_tried++;
	x->cf_side = 1;
	x->cf = counterfactual(c, 1, c->path[p], l, &x->cf_res, err);
	x->cf_other = counterfactual(c, 0, c->path[p], l, &x->cf_other_res, err);
	if (x->cf != RB_CF_VANISHED && x->cf_other == RB_CF_VANISHED) {
		struct rb_result r = x->cf_res;
		enum rb_cf_outcome o = x->cf;
		x->cf = x->cf_other, x->cf_res = x->cf_other_res, x->cf_side = 0;
		x->cf_other = o, x->cf_other_res = r;
	}
	return x->cf == RB_CF_VANISHED;
}

bool rb_explain_ok(const struct rb_explain *x)
{
	return x->found && (x->cf == RB_CF_VANISHED || x->cf_all == RB_CF_VANISHED);
}

/* one more round: side `to` with the fixes so far against the other side;
 * the first difference of the deciding location where they part becomes
 * the next fix. false when there is none */
static bool next_cause(struct ex_ctx *c, int to, struct ex_inject *inj, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	drop_round(c, c->part.d);
	c->inj[to] = inj;
	struct rb_result res2[2];
	res2[!to] = x->res[!to];
	bool ok = trace_side(c, to, &res2[to], err) == 0;
	if (ok) {
		ex_find_part(c->tr, res2, c->names, c->obj->progs[c->idx].insns, &c->part);
		ok = c->part.kind != RB_PART_NONE && c->part.d >= 0 && pass2(c, err) == 0;
	}
	struct ex_loc l;
	if (ok) {
		collect_probes(c);
		ok = deciding_loc(c, &l);
	}
	int steps = 0;
	size_t pos = ok ? walk_back(c, &l, &steps) : 0;
	ok = ok && pos > 0 && make_fix(c, to, c->path[pos], l, &inj->fix[inj->nfix]);
	if (ok) {
		inj->nfix++;
		const struct rb_reg *rb[2], *ra[2];
		for (int s = 0; s < 2; s++) {
			rb[s] = ex_loc_reg(c->sn[s].st[c->path[pos - 1]], l);
			ra[s] = ex_loc_reg(c->sn[s].st[c->path[pos]], l);
		}
		char cls[64], name[32];
		cause_class(c, pos, l, rb, ra, cls, sizeof(cls));
		ex_loc_name(l, c->sn[0].st[c->path[pos]]->curframe, name, sizeof(name));
		size_t n = strlen(x->more);
		snprintf(x->more + n, sizeof(x->more) - n, "%sinsn %d %s (%s)", n ? "; " : "",
			 c->tr[0].ev[c->path[pos - 1]].insn, name, cls);
	}
	c->inj[to] = NULL;
	return ok;
}

/* no single counterfactual made the change vanish: give side `to` the
 * first cause's value set, then each further cause's, until the change
 * vanishes or EX_MAX_FIX causes are given */
static void further_causes(struct ex_ctx *c, size_t pos, struct ex_loc l, int to, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	struct ex_inject *inj = calloc(1, sizeof(*inj));
	if (!inj || !make_fix(c, to, c->path[pos], l, &inj->fix[0])) {
		free(inj);
		return;
	}
	inj->nfix = 1;
	x->cf_all_side = to;
	for (;;) {
		x->cf_all = run_fixed(c, to, inj, NULL, &x->cf_all_res, err);
		x->ncauses = inj->nfix;
		if (x->cf_all == RB_CF_VANISHED || x->cf_all == RB_CF_FAILED || inj->nfix == EX_MAX_FIX ||
		    !next_cause(c, to, inj, err))
			break;
	}
	free(inj);
}

/* one more prune given: side `to`, with the prunes given so far, traced
 * against the other side; when they part again at a prune of the other
 * side only, that event joins in->end_at. false when they do not */
static bool next_prune(struct ex_ctx *c, int to, struct ex_inject *in, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	drop_round(c, c->part.d);
	c->inj[to] = in;
	struct rb_result res2[2];
	res2[!to] = x->res[!to];
	bool ok = trace_side(c, to, &res2[to], err) == 0;
	c->inj[to] = NULL;
	if (!ok)
		return false;
	ex_find_part(c->tr, res2, c->names, c->obj->progs[c->idx].insns, &c->part);
	if (c->part.kind != RB_PART_PRUNE || c->part.pruned_by == to || c->part.d < 0)
		return false;
	in->end_at[in->nend++] = (uint64_t)c->part.d;
	size_t n = strlen(x->more);
	snprintf(x->more + n, sizeof(x->more) - n, "%sprune at insn %d", n ? "; " : "", c->tr[!to].ev[c->part.d].insn);
	return true;
}

/* a prune by one side only, on equal current values: the side that
 * explored on ends its path at that event as a prune would; the change
 * vanishes when the prune alone made it. Else each further prune of the
 * other side only where the explorations still part is given too */
static void prune_counterfactual(struct ex_ctx *c, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	int to = !c->part.pruned_by;
	struct ex_inject in = {.nend = 1, .end_at = {(uint64_t)c->part.d}};
	x->cf_prune = true;
	x->found = true;
	x->cf_side = to;
	x->cf_tried = 1;
	x->cf = run_fixed(c, to, &in, NULL, &x->cf_res, err);
	if (x->cf == RB_CF_VANISHED || x->cf == RB_CF_FAILED)
		return;
	x->cf_all_side = to;
	while (in.nend < EX_MAX_FIX && next_prune(c, to, &in, err)) {
		x->cf_all = run_fixed(c, to, &in, NULL, &x->cf_all_res, err);
		x->ncauses = in.nend;
		if (x->cf_all == RB_CF_VANISHED || x->cf_all == RB_CF_FAILED)
			break;
	}
}

static void explain_cause(struct ex_ctx *c, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	const struct bpf_insn *insns = c->obj->progs[c->idx].insns;
	int64_t d = c->part.d;
	struct ex_loc l;
	int curframe = c->sn[0].st[d]->curframe;
	if (!deciding_loc(c, &l)) {
		/* equal value sets where it was decided: the cause is not a
		 * value of the current state (a stored state, a branch_taken);
		 * for a prune, the decision itself is given to the other side */
		x->cause_insn = x->first_insn = x->part_insn;
		rb_disasm(&insns[x->part_insn], c->obj, x->cause_text, sizeof(x->cause_text));
		snprintf(x->first_text, sizeof(x->first_text), "%s", x->cause_text);
		snprintf(x->cls, sizeof(x->cls), "%s",
			 c->part.kind == RB_PART_PRUNE ? "pruning difference (stored states)"
			 : c->part.kind == RB_PART_BRANCH ? "branch decision on equal values"
							  : "verdict on equal values");
		ex_source_line(c->obj, c->idx, x->cause_insn, x->source, sizeof(x->source));
		if (c->part.kind == RB_PART_PRUNE && !c->o->no_counterfactual)
			prune_counterfactual(c, err);
		return;
	}
	ex_loc_name(l, curframe, x->deciding, sizeof(x->deciding));
	size_t pos = walk_back(c, &l, &x->walk_steps);
	x->found = true;
	fill_cause(c, pos, l);
	x->first_insn = x->cause_insn;
	snprintf(x->first_text, sizeof(x->first_text), "%s", x->cause_text);
	snprintf(x->first_loc, sizeof(x->first_loc), "%s", x->cause_loc);
	if (c->o->no_counterfactual)
		return;
	/* the first difference, then each later instruction along the history
	 * that changed the value on either side, until one counterfactual
	 * makes the change vanish */
	if (try_cf(c, pos, err))
		return;
	struct rb_result keep = x->cf_res, keep_other = x->cf_other_res;
	enum rb_cf_outcome kcf = x->cf, kother = x->cf_other;
	int kside = x->cf_side;
	for (size_t p = pos + 1; p < c->npath && x->cf_tried < MAX_CF_TRIES; p++) {
		if (!differs(c, c->path[p], c->chain[p]) || !changed_at(c, p, c->chain[p]))
			continue;
		if (try_cf(c, p, err)) {
			fill_cause(c, p, c->chain[p]);
			return;
		}
	}
	x->cf = kcf, x->cf_other = kother, x->cf_res = keep, x->cf_other_res = keep_other, x->cf_side = kside;
	/* several causes: the direction that came closer (the verdict) first */
	int to = x->cf_side;
	if (x->cf != RB_CF_VERDICT && x->cf_other == RB_CF_VERDICT)
		to = !to;
	further_causes(c, pos, c->chain[pos], to, err);
}

int rb_explain_prog(const struct rb_object *obj, size_t prog_idx, const struct rb_explain_opts *opts,
		    struct rb_explain *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	out->part_insn = out->cause_insn = out->first_insn = -1;
	out->ncauses = 1;
	struct ex_ctx c = {.obj = obj, .idx = prog_idx, .o = opts, .x = out};
	c.names[0] = opts->baseline ? opts->baseline : RB_ROLE_BASELINE;
	c.names[1] = opts->candidate ? opts->candidate : RB_ROLE_CANDIDATE;
	for (int s = 0; s < 2; s++) {
		if (!(c.t[s] = tracker_of(c.names[s])))
			return rb_errf(err, "explain: '%s' is no engine tracker (explain runs the engine with two "
					    "registry trackers)", c.names[s]);
		snprintf(out->names[s], sizeof(out->names[s]), "%s", c.names[s]);
	}
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu", obj->path, prog_idx);
	int rc = pass1(&c, err);
	if (rc < 0)
		goto out;
	out->changed = out->res[0].verdict != out->res[1].verdict ||
		       out->res[0].insns_processed != out->res[1].insns_processed;
	ex_find_part(c.tr, out->res, c.names, obj->progs[prog_idx].insns, &c.part);
	out->part = c.part.kind;
	snprintf(out->part_what, sizeof(out->part_what), "%s", c.part.what);
	if (c.part.kind == RB_PART_NONE || c.part.d < 0)
		goto out;
	out->part_event = (uint64_t)c.part.d;
	out->part_insn = c.tr[0].ev[c.part.d].insn;
	if ((rc = pass2(&c, err)) < 0)
		goto out;
	collect_probes(&c);
	explain_cause(&c, err);
out:
	for (int s = 0; s < 2; s++) {
		free(c.tr[s].ev);
		ex_snaps_free(&c.sn[s], c.part.d >= 0 ? (size_t)c.part.d + 1 : 0);
	}
	free(c.path);
	free(c.chain);
	return rc < 0 ? -1 : 0;
}
