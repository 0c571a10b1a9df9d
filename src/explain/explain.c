/* explain.c — rb_explain_prog(): pass 1 (each tracker's events), where
 * they part (part.c), pass 2 (the states along the path to the decision),
 * the walk back along the deciding location's history (walk.c), the cause
 * class (classify.c) and the counterfactual re-runs. */
#include <stdlib.h>
#include <string.h>

#include "engine/log.h"
#include "explain/part.h"

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
};

/* counterfactual attempts along the history, at most */
#define MAX_CF_TRIES 8

const char *rb_cf_name(enum rb_cf_outcome o)
{
	static const char *const n[] = {"not run", "vanished", "verdict only", "remains", "failed"};
	return (unsigned)o < sizeof(n) / sizeof(n[0]) ? n[o] : "?";
}

const char *rb_part_name(enum rb_part_kind k)
{
	static const char *const n[] = {"none", "branch", "prune", "verdict", "counts"};
	return (unsigned)k < sizeof(n) / sizeof(n[0]) ? n[k] : "?";
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

static int pass1(struct ex_ctx *c, struct rb_err *err)
{
	for (int s = 0; s < 2; s++) {
		struct rb_engine_recorder rec;
		ex_trace_recorder(&c->tr[s], &rec);
		if (ex_run(c->obj, c->idx, c->o, c->names[s], &rec, &c->x->res[s], err) < 0)
			return -1;
		if (c->tr[s].nomem)
			return rb_errf(err, "explain: out of memory recording %s's exploration", c->names[s]);
	}
	return 0;
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
		if (ex_run(c->obj, c->idx, c->o, c->names[s], &rec, &r, err) < 0)
			rc = -1;
		else if (sn->nomem || !sn->st[d])
			rc = rb_errf(err, "explain: %s's re-run did not reach event %lld", c->names[s], (long long)d);
	}
	free(want);
	return rc;
}

static bool differs(struct ex_ctx *c, int64_t e, struct ex_loc l)
{
	return ex_loc_differs(c->t[0], c->sn[0].st[e], c->t[1], c->sn[1].st[e], l);
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
	for (int i = 0; i < n; i++)
		if (differs(c, d, ops[i])) {
			*out = ops[i];
			return true;
		}
	if (c->part.kind == RB_PART_PRUNE) {
		const struct rb_func *f = st->frame[st->curframe];
		for (int s = 0; s < f->nslots; s++) {
			struct ex_loc l = {.frame = (int8_t)st->curframe, .kind = LOC_SLOT, .no = (int16_t)s};
			if (differs(c, d, l)) {
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
		if (ex_loc_differs(c->t[s], a, c->t[s], b, l))
			return true;
	}
	return false;
}

/* the counterfactual: side `to` re-run with side `from`'s value of l at
 * event `at`; compared with side from's result */
static enum rb_cf_outcome counterfactual(struct ex_ctx *c, int to, int64_t at, struct ex_loc l,
					 struct rb_result *res, struct rb_err *err)
{
	int from = !to;
	const struct rb_reg *src = ex_loc_reg(c->sn[from].st[at], l);
	if (!src || src->type == RT_NOT_INIT)
		return RB_CF_FAILED;
	struct rb_bounds b;
	struct ex_inject in = {.at = (uint64_t)at, .loc = l};
	c->t[from]->bounds(&src->val, &b);
	c->t[to]->from_bounds(&in.val, &b);
	struct rb_engine_recorder rec;
	ex_inject_recorder(&in, &rec);
	if (ex_run(c->obj, c->idx, c->o, c->names[to], &rec, res, err) < 0)
		return RB_CF_FAILED;
	if (!in.done)
		return RB_CF_FAILED;
	const struct rb_result *want = &c->x->res[from];
	if (res->verdict != want->verdict)
		return RB_CF_REMAINS;
	return res->insns_processed == want->insns_processed ? RB_CF_VANISHED : RB_CF_VERDICT;
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
	if (before < 0)
		snprintf(x->cls, sizeof(x->cls), "differs from the start of the path");
	else
		ex_classify(&insns[x->cause_insn], c->t, rb, ra, x->cls, sizeof(x->cls));
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

static void explain_cause(struct ex_ctx *c, struct rb_err *err)
{
	struct rb_explain *x = c->x;
	const struct bpf_insn *insns = c->obj->progs[c->idx].insns;
	int64_t d = c->part.d;
	struct ex_loc l;
	int curframe = c->sn[0].st[d]->curframe;
	if (!deciding_loc(c, &l)) {
		/* equal value sets where it was decided: the cause is not a
		 * value of the current state (a stored state, a branch_taken) */
		x->cause_insn = x->first_insn = x->part_insn;
		rb_disasm(&insns[x->part_insn], c->obj, x->cause_text, sizeof(x->cause_text));
		snprintf(x->first_text, sizeof(x->first_text), "%s", x->cause_text);
		snprintf(x->cls, sizeof(x->cls), "%s",
			 c->part.kind == RB_PART_PRUNE ? "pruning difference (stored states)"
			 : c->part.kind == RB_PART_BRANCH ? "branch decision on equal values"
							  : "verdict on equal values");
		ex_source_line(c->obj, c->idx, x->cause_insn, x->source, sizeof(x->source));
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
}

int rb_explain_prog(const struct rb_object *obj, size_t prog_idx, const struct rb_explain_opts *opts,
		    struct rb_explain *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	out->part_insn = out->cause_insn = out->first_insn = -1;
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
