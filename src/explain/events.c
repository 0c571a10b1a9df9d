/* events.c — the recorders explain hands the engine: pass 1 records each
 * run's events (one visit or prune each, with the visit before it on the
 * same path), pass 2 copies the states along the path to the decision,
 * the counterfactual changes one location at one event. Event numbers are
 * the same in every run of one tracker on one program (the engine is
 * deterministic), and in both trackers' runs up to where they part. */
#include <stdlib.h>
#include <string.h>

#include "explain/internal.h"
#include "verify/verify.h"

int ex_run(const struct rb_object *obj, size_t idx, const struct rb_explain_opts *o, const char *tracker,
	   const struct rb_engine_recorder *rec, struct rb_result *res, struct rb_err *err)
{
	struct rb_verify_opts vo = {.tracker = tracker,
				    .insn_limit = o->insn_limit,
				    .time_limit_s = o->time_limit_s,
				    .vmlinux = o->vmlinux,
				    .helpers = o->helpers,
				    .rec = rec};
	return rb_verify(obj, idx, &vo, res, err);
}

/* ---- pass 1: the events ---- */

static int trace_add(struct ex_trace *tr, int kind, int idx, const struct rb_vstate *st)
{
	if (tr->n >= tr->max) {
		tr->overflow = true;
		return 1; /* stop the run: the comparison goes as far as recorded */
	}
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 4096;
		struct ex_event *v = realloc(tr->ev, cap * sizeof(*v));
		if (!v) {
			tr->nomem = true;
			return 1;
		}
		tr->ev = v;
		tr->cap = cap;
	}
	tr->ev[tr->n] = (struct ex_event){.insn = idx, .parent = (int32_t)st->rec_node - 1, .kind = (uint8_t)kind};
	tr->n++;
	return 0;
}

static int trace_insn(void *ctx, int idx, struct rb_vstate *st, struct rb_vstate *ckpt)
{
	struct ex_trace *tr = ctx;
	int rc = trace_add(tr, EV_INSN, idx, st);
	if (rc)
		return rc;
	st->rec_node = (uint32_t)tr->n; /* this event + 1 */
	if (ckpt)
		ckpt->rec_node = (uint32_t)tr->n;
	return 0;
}

static int trace_prune(void *ctx, int idx, struct rb_vstate *st, const struct rb_vstate *old, uint16_t live)
{
	(void)old;
	(void)live;
	return trace_add(ctx, EV_PRUNE, idx, st);
}

void ex_trace_recorder(struct ex_trace *tr, struct rb_engine_recorder *rec)
{
	if (!tr->max)
		tr->max = 4000000;
	*rec = (struct rb_engine_recorder){.ctx = tr, .insn = trace_insn, .prune = trace_prune};
}

/* ---- pass 2: states along the path ---- */

static int snap_event(struct ex_snaps *s, struct rb_vstate *st, bool visit)
{
	uint64_t e = s->count++;
	if (visit)
		st->rec_node = (uint32_t)s->count;
	if (e < s->nwant && s->want[e]) {
		s->st[e] = rb_state_copy(NULL, st);
		if (!s->st[e]) {
			s->nomem = true;
			return 1;
		}
	}
	return e >= s->stop ? 1 : 0; /* past the decision: stop the run */
}

static int snap_insn(void *ctx, int idx, struct rb_vstate *st, struct rb_vstate *ckpt)
{
	(void)idx;
	(void)ckpt;
	return snap_event(ctx, st, true);
}

static int snap_prune(void *ctx, int idx, struct rb_vstate *st, const struct rb_vstate *old, uint16_t live)
{
	(void)idx;
	(void)old;
	(void)live;
	return snap_event(ctx, st, false);
}

void ex_snaps_recorder(struct ex_snaps *s, struct rb_engine_recorder *rec)
{
	*rec = (struct rb_engine_recorder){.ctx = s, .insn = snap_insn, .prune = snap_prune};
}

void ex_snaps_free(struct ex_snaps *s, size_t n)
{
	if (!s->st)
		return;
	for (size_t i = 0; i < n; i++)
		if (s->st[i])
			rb_state_free(s->st[i]);
	free(s->st);
	s->st = NULL;
}

/* ---- the counterfactual ---- */

/* apply the fixes due at this event to st (and to the checkpoint just
 * stored for it: later paths compare against what the fixed instruction
 * produced) */
static int inject_event(struct ex_inject *in, struct rb_vstate *st, struct rb_vstate *ckpt)
{
	uint64_t e = in->count++;
	for (int i = 0; i < in->nfix; i++) {
		if (in->fix[i].at != e)
			continue;
		struct rb_reg *r = ex_loc_reg(st, in->fix[i].loc);
		if (!r) {
			in->missing = true;
			return 1;
		}
		r->val = in->fix[i].val;
		struct rb_reg *k = ckpt ? ex_loc_reg(ckpt, in->fix[i].loc) : NULL;
		if (k)
			k->val = in->fix[i].val;
		in->done++;
	}
	return 0;
}

static int combo_insn(void *ctx, int idx, struct rb_vstate *st, struct rb_vstate *ckpt)
{
	struct ex_combo *k = ctx;
	uint64_t e = k->inj->count;
	int rc = inject_event(k->inj, st, ckpt);
	for (int i = 0; !rc && i < k->inj->nend; i++) {
		if (k->inj->end_at[i] != e)
			continue;
		/* recorded as the prune it stands for */
		k->inj->ended++;
		if (k->inner->prune && k->inner->prune(k->inner->ctx, idx, st, NULL, 0))
			return 1;
		return RB_REC_END_PATH;
	}
	if (rc || !k->inner->insn)
		return rc;
	return k->inner->insn(k->inner->ctx, idx, st, ckpt);
}

static int combo_prune(void *ctx, int idx, struct rb_vstate *st, const struct rb_vstate *old, uint16_t live)
{
	struct ex_combo *k = ctx;
	int rc = inject_event(k->inj, st, NULL);
	if (rc || !k->inner->prune)
		return rc;
	return k->inner->prune(k->inner->ctx, idx, st, old, live);
}

void ex_combo_recorder(struct ex_combo *k, struct rb_engine_recorder *rec)
{
	*rec = (struct rb_engine_recorder){.ctx = k, .insn = combo_insn, .prune = combo_prune};
}
