/* cmd_explain_sides.c — explain with a kernel or a run's rows as a side
 * (explain_sides.h). Each side's figures come from that verifier (a level-2
 * log each when verified here, the run's rows otherwise); a kernel side is
 * stood in for by the first engine row (--stand-ins) with the same verdict,
 * instructions and states; the engine then explains the change between the
 * two stand-ins (src/explain/), counterfactual included; each stand-in on
 * the object opened with its kernel's inputs (explain_inputs.h), a change
 * the inputs make told apart from the engine's. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/explain_inputs.h"
#include "cli/explain_sides.h"
#include "cli/kdiff_trace.h"
#include "cli/type_opts.h"
#include "driver/keep_logs.h"
#include "engine/profile.h"
#include "explain/switches.h"
#include "kernels/kernels.h"
#include "loader/prog_type.h"
#include "oracle/ktrace.h"
#include "report/compare_explain.h"
#include "store/explanations.h"
#include "store/provenance.h"
#include "store/store.h"
#include "verify/row.h"
#include "verify/verify.h"
#include "util/sort.h"

/* one program and both sides' figures */
struct xs_prog {
	char *path, *name, *source, *prog_type;
	struct rb_result res[2];
	int64_t id; /* programs.id (a run's rows) */
	/* where the two sides' logs part (ktrace.h), when taken */
	bool part;
	long part_index;
	char common[256], a[256], b[256], mech[32];
};

/* where the two sides' logs part, and the mechanism there */
static void set_part(struct xs_prog *p, const struct rb_ktrace_part *kp)
{
	p->part = true;
	p->part_index = kp->index;
	snprintf(p->common, sizeof(p->common), "%s", kp->common);
	snprintf(p->a, sizeof(p->a), "%s", kp->a);
	snprintf(p->b, sizeof(p->b), "%s", kp->b);
	snprintf(p->mech, sizeof(p->mech), "%s", rb_ktrace_mechanism(kp));
}

/* programs per (stand-in difference, class), for the summary */
#define XS_MAX_CLASSES 64
struct xs_sum {
	size_t n, reproduced, explained;
	struct xs_cls {
		char key[320];
		size_t n, ok;
	} cls[XS_MAX_CLASSES];
	size_t ncls;
};

static void sum_add(struct xs_sum *s, const char *key, bool ok)
{
	size_t i = 0;
	while (i < s->ncls && strcmp(s->cls[i].key, key))
		i++;
	if (i == s->ncls) {
		if (s->ncls == XS_MAX_CLASSES)
			i--; /* the last row collects the rest */
		else
			snprintf(s->cls[s->ncls++].key, sizeof(s->cls[0].key), "%s", key);
	}
	s->cls[i].n++;
	s->cls[i].ok += ok;
}

static bool same_figures(const struct rb_result *a, const struct rb_result *b)
{
	return a->verdict == b->verdict && a->insns_processed == b->insns_processed &&
	       a->total_states == b->total_states;
}

static void figures(const struct rb_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %llu/%llu", rb_verdict_name(r->verdict), (unsigned long long)r->insns_processed,
		 (unsigned long long)r->total_states);
}

/* the stand-in rows' results on one program, each computed once with the
 * inputs of the kernel it stands for (explain_inputs.h), as run opens it */
#define XS_MAX_ROWS 16
struct xs_rows {
	char name[XS_MAX_ROWS][40];
	int in[XS_MAX_ROWS]; /* its inputs (explain_inputs.h) */
	struct rb_result res[XS_MAX_ROWS];
	bool ok[XS_MAX_ROWS];
	int n;
};

/* one program's explanation: the options, its objects per inputs, rows */
struct xs_ctx {
	const struct rb_xs_opts *o;
	struct rb_xi *xi;
	struct xs_rows rows;
};

/* the row named t into c->rows (once), verified with its own inputs */
static void run_row(struct xs_ctx *c, const char *t)
{
	struct xs_rows *r = &c->rows;
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->name[i], t))
			return;
	if (r->n == XS_MAX_ROWS)
		return;
	snprintf(r->name[r->n], sizeof(r->name[0]), "%s", t);
	r->in[r->n] = rb_xi_row(c->xi, t);
	r->ok[r->n] = rb_xi_verify(c->xi, r->in[r->n], t, &r->res[r->n]) == 0;
	r->n++;
}

/* the stand-ins, and each side that is an engine row (run here: a run's
 * row made by another build need not be reproduced) */
static void run_rows(struct xs_ctx *c)
{
	const struct rb_xs_opts *o = c->o;
	char list[512];
	snprintf(list, sizeof(list), "%s", o->stand_ins);
	c->rows.n = 0;
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		run_row(c, t);
	for (int s = 0; s < 2; s++)
		if (rb_row_known(o->side[s], false))
			run_row(c, o->side[s]);
}

/* the row t's place in c->rows (run_rows ran it) */
static int row_at(const struct xs_ctx *c, const char *t)
{
	for (int i = 0; i < c->rows.n; i++)
		if (!strcmp(c->rows.name[i], t))
			return i;
	return -1;
}

/* how far apart two engine rows are: 1 for the tracker, 1 for the profile */
static int row_distance(const char *a, const char *b)
{
	char ba[64], bb[64];
	const struct rb_profile *pa = rb_profile_split(a, ba, sizeof(ba)), *pb = rb_profile_split(b, bb, sizeof(bb));
	return (strcmp(ba, bb) != 0) + (pa != pb);
}

/* what two stand-ins differ in */
static const char *stand_in_diff(const char *a, const char *b)
{
	char ba[64], bb[64];
	rb_profile_split(a, ba, sizeof(ba));
	rb_profile_split(b, bb, sizeof(bb));
	bool t = strcmp(ba, bb) != 0;
	return row_distance(a, b) == 2 ? "tracker+profile" : t ? "tracker" : "profile";
}

/* the rows whose figures are side s's: the side itself when it is an
 * engine row this build reproduces; else (a kernel, or an engine row of
 * a run another build made, e.g. before a patch) each stand-in with its
 * verdict, instructions and states */
static int matches(const struct rb_xs_opts *o, int s, const struct xs_rows *r, const struct rb_result *want,
		   const char **out)
{
	int n = 0;
	if (rb_row_known(o->side[s], false))
		for (int i = 0; i < r->n; i++)
			if (r->ok[i] && same_figures(&r->res[i], want) && !strcmp(r->name[i], o->side[s]))
				out[n++] = r->name[i];
	if (n)
		return n;
	for (int i = 0; i < r->n; i++)
		if (r->ok[i] && same_figures(&r->res[i], want))
			out[n++] = r->name[i];
	return n;
}

/* the stand-ins: of the rows reproducing each side, the two closest to
 * each other (one thing apart, the tracker or the profile, before both),
 * then the first in --stand-ins order; false when a side has none */
static bool stand_ins(const struct rb_xs_opts *o, const struct xs_rows *r, const struct xs_prog *p,
		      const char **sb, const char **sc)
{
	const char *m[2][XS_MAX_ROWS];
	int n0 = matches(o, 0, r, &p->res[0], m[0]), n1 = matches(o, 1, r, &p->res[1], m[1]);
	*sb = n0 ? m[0][0] : NULL;
	*sc = n1 ? m[1][0] : NULL;
	int best = 3;
	for (int i = 0; i < n0; i++)
		for (int j = 0; j < n1; j++) {
			int d = row_distance(m[0][i], m[1][j]);
			if (d > 0 && d < best) {
				best = d;
				*sb = m[0][i];
				*sc = m[1][j];
			}
		}
	return n0 && n1 && best < 3;
}

static int store_one(struct rb_store *st, int64_t run, const struct rb_xs_opts *o, const struct xs_prog *p,
		     const struct rb_explain *x, const char *cls, bool ok, struct rb_err *err)
{
	struct rb_explanation_row row;
	rb_cmp_explain_row(x, ok, &row);
	row.run_id = run;
	row.obj_path = p->path;
	row.program = p->name;
	row.baseline = o->side[0];
	row.candidate = o->side[1];
	row.cls = cls;
	return rb_store_explanation(st, &row, err);
}

/* rb_explain_print without its first line (the program, printed already) */
static void print_explanation(FILE *f, const struct rb_object *obj, size_t idx, const struct rb_explain *x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	rb_explain_print(m, obj, idx, x);
	fclose(m);
	const char *nl = text ? strchr(text, '\n') : NULL;
	fputs(nl ? nl + 1 : "", f);
	free(text);
}

/* the steps of one change: what each changes and its class */
#define XS_MAX_STEPS 4
struct xs_steps {
	int n;
	bool ok;
	char what[XS_MAX_STEPS][32];
	char cls[XS_MAX_STEPS][160];
};

static void add_step(struct xs_steps *s, const char *what, const char *cls, bool ok)
{
	if (s->n == XS_MAX_STEPS)
		return;
	snprintf(s->what[s->n], sizeof(s->what[0]), "%s", what);
	snprintf(s->cls[s->n], sizeof(s->cls[0]), "%s", cls);
	s->ok = (s->n ? s->ok : true) && ok;
	s->n++;
}

/* one engine explanation a -> b on the object opened with inputs in
 * (printed to f under title, when both given): true when explained, or
 * when a and b agree (nothing to explain in this step); its class in cls */
static bool explain_step(struct xs_ctx *c, int in, const char *a, const char *b, struct rb_explain *x, FILE *f,
			 const char *title, char *cls, size_t len)
{
	struct rb_explain_opts eo;
	rb_xi_opts(c->xi, in, &eo);
	eo.baseline = a;
	eo.candidate = b;
	struct rb_err err = {{0}};
	if (f && title)
		fprintf(f, "%s\n", title);
	size_t idx;
	const struct rb_object *obj = rb_xi_obj(c->xi, in, &idx);
	if (!obj) {
		snprintf(cls, len, "explain failed: no object with %.100s's inputs", rb_xi_name(c->xi, in));
		if (f)
			fprintf(f, "  %s\n", cls);
		return false;
	}
	if (rb_explain_prog(obj, idx, &eo, x, &err) < 0) {
		snprintf(cls, len, "explain failed: %.100s", err.msg);
		if (f)
			fprintf(f, "  %s\n", cls);
		return false;
	}
	if (f)
		print_explanation(f, obj, idx, x);
	if (!x->changed) {
		snprintf(cls, len, "no change");
		return true;
	}
	snprintf(cls, len, "%s", x->cls[0] ? x->cls : "no exploration difference");
	/* a profile step: the profile switches that make it */
	struct rb_switch_cause sc;
	if (!eo.no_counterfactual && rb_explain_switches(obj, idx, &eo, a, b, &sc, &err) == 0 && sc.profile_step) {
		if (f)
			rb_switch_cause_print(f, &sc, a, b);
		if (rb_switch_cause_ok(&sc)) {
			snprintf(cls, len, "switch %.200s", sc.names);
			return true;
		}
	}
	return rb_explain_ok(x);
}

/* a's tracker with b's profile: the middle row of a two-step change */
static void mid_row(const char *a, const char *b, char *out, size_t len)
{
	char ba[64], bb[64];
	rb_profile_split(a, ba, sizeof(ba));
	const struct rb_profile *pb = rb_profile_split(b, bb, sizeof(bb));
	if (!pb || pb == rb_profile_default())
		snprintf(out, len, "%s", ba);
	else
		snprintf(out, len, "%s@%s", ba, pb->name);
}

/* the engine's change sb -> sc on the object opened with inputs in, into
 * steps: one step when they differ in one thing (titled only when
 * `titled`), else two through a middle row (one thing changed in each),
 * each explained on its own: the profile first, else the tracker first */
static void engine_change(struct xs_ctx *c, int in, const char *sb, const char *sc, bool titled, struct rb_explain *x,
			  FILE *f, struct xs_steps *st)
{
	char t[1024], cls[256], on[320] = "";
	if (in > 0)
		snprintf(on, sizeof(on), " with %.280s's inputs", rb_xi_name(c->xi, in));
	if (row_distance(sb, sc) == 1) {
		snprintf(t, sizeof(t), "step %d:       %s -> %s (%s)%s", st->n + 1, sb, sc, stand_in_diff(sb, sc), on);
		bool ok = explain_step(c, in, sb, sc, x, f, titled ? t : NULL, cls, sizeof(cls));
		add_step(st, stand_in_diff(sb, sc), cls, ok);
		return;
	}
	struct xs_steps s0 = *st;
	for (int k = 0; k < 2; k++) {
		*st = s0;
		char mid[160], c2[2][128];
		mid_row(k ? sc : sb, k ? sb : sc, mid, sizeof(mid));
		snprintf(t, sizeof(t), "step %d:       %s -> %s (%s)%s", st->n + 1, sb, mid, stand_in_diff(sb, mid), on);
		bool ok1 = explain_step(c, in, sb, mid, x, f, t, c2[0], sizeof(c2[0]));
		snprintf(t, sizeof(t), "step %d:       %s -> %s (%s)%s", st->n + 2, mid, sc, stand_in_diff(mid, sc), on);
		bool ok2 = explain_step(c, in, mid, sc, x, f, t, c2[1], sizeof(c2[1]));
		add_step(st, stand_in_diff(sb, mid), c2[0], ok1);
		add_step(st, stand_in_diff(mid, sc), c2[1], ok2);
		if (ok1 && ok2)
			break;
	}
}

/* row's change from inputs a to inputs b, one step: explained by
 * construction (nothing else changes); which input makes it, told when
 * the mixes of the two tell it (rb_xi_which) */
static void inputs_step(struct xs_ctx *c, const char *row, int a, int b, FILE *f, struct xs_steps *st)
{
	struct rb_result ra, rb;
	bool ok = rb_xi_verify(c->xi, a, row, &ra) == 0 && rb_xi_verify(c->xi, b, row, &rb) == 0;
	char cls[160], fa[64] = "(error)", fb[64] = "(error)", which[96] = "";
	if (ok) {
		figures(&ra, fa, sizeof(fa));
		figures(&rb, fb, sizeof(fb));
		if (!same_figures(&ra, &rb))
			rb_xi_which(c->xi, row, a, b, &rb, which, sizeof(which));
	}
	snprintf(cls, sizeof(cls), "%s", !ok ? "explain failed: not verified with both inputs"
				   : same_figures(&ra, &rb) ? "no change"
				   : which[0]		    ? which
							    : "inputs not told apart");
	bool none = ok && same_figures(&ra, &rb);
	if (f && none)
		fprintf(f, "inputs:       %s with %s's inputs -> with %s's: %s -> %s, no change\n", row,
			rb_xi_name(c->xi, a), rb_xi_name(c->xi, b), fa, fb);
	else if (f)
		fprintf(f, "step %d:       %s with %s's inputs -> with %s's (kernel inputs)\n  %s -> %s: %s\n", st->n + 1,
			row, rb_xi_name(c->xi, a), rb_xi_name(c->xi, b), fa, fb, cls);
	/* the inputs change nothing here: the change is the engine's alone */
	if (!none)
		add_step(st, "kernel inputs", cls, ok);
}

/* the stand-ins' change when they are opened with different inputs (ia,
 * ib): the kernel inputs, when sb with sc's inputs gives sc's figures and
 * (the counterfactual) sc with sb's inputs gives sb's; else in steps, the
 * engine's change on one inputs and the inputs' change, in the order where
 * each step changes something when there is one */
static void inputs_change(struct xs_ctx *c, const char *sb, int ia, const char *sc, int ib, struct rb_explain *x,
			  FILE *f, struct xs_steps *st)
{
	const struct xs_rows *r = &c->rows;
	const struct rb_result *rb_ = &r->res[row_at(c, sb)], *rc_ = &r->res[row_at(c, sc)];
	struct rb_result sb_b, sc_a;
	bool vb = rb_xi_verify(c->xi, ib, sb, &sb_b) == 0, va = rb_xi_verify(c->xi, ia, sc, &sc_a) == 0;
	bool suf = vb && same_figures(&sb_b, rc_), nec = va && same_figures(&sc_a, rb_);
	char fb[64] = "(error)", fa[64] = "(error)";
	if (vb)
		figures(&sb_b, fb, sizeof(fb));
	if (va)
		figures(&sc_a, fa, sizeof(fa));
	if (f)
		fprintf(f, "inputs:       %s with %s's inputs: %s (%s); counterfactual: %s with %s's inputs: %s -> %s\n", sb,
			rb_xi_name(c->xi, ib), fb, suf ? "the candidate's" : "not the candidate's", sc,
			rb_xi_name(c->xi, ia), fa, nec ? "vanished" : "remains");
	if (suf && nec) {
		char which[96] = "";
		rb_xi_which(c->xi, sb, ia, ib, rc_, which, sizeof(which));
		add_step(st, "kernel inputs", which[0] ? which : "inputs not told apart", true);
		return;
	}
	/* engine first (on sb's inputs) unless its middle (sc with sb's
	 * inputs) leaves a step unchanged where the other's does not */
	bool e_both = va && !same_figures(&sc_a, rb_) && !same_figures(&sc_a, rc_);
	bool i_both = vb && !same_figures(&sb_b, rb_) && !same_figures(&sb_b, rc_);
	struct xs_steps s0 = *st;
	for (int k = 0; k < 2; k++) {
		bool engine_first = (k == 0) == (e_both || !i_both);
		*st = s0;
		if (engine_first) {
			engine_change(c, ia, sb, sc, true, x, f, st);
			inputs_step(c, sc, ia, ib, f, st);
		} else {
			inputs_step(c, sb, ia, ib, f, st);
			engine_change(c, ib, sb, sc, true, x, f, st);
		}
		if (st->ok)
			break;
	}
}

/* the engine's explanation between the stand-ins sb and sc, each run with
 * its own inputs: true when explained; cls (stored), key (summary) set */
static bool explain_stand_ins(struct xs_ctx *c, const char *sb, const char *sc, struct rb_explain *x, FILE *f,
			      char *cls, size_t clen, char *key, size_t klen)
{
	const struct rb_xs_opts *o = c->o;
	int ia = c->rows.in[row_at(c, sb)], ib = c->rows.in[row_at(c, sc)];
	const char *d = stand_in_diff(sb, sc);
	if (f) {
		char w[2][96];
		for (int s = 0; s < 2; s++)
			snprintf(w[s], sizeof(w[s]), "%s %s %s", s ? sc : sb, strcmp(s ? sc : sb, o->side[s]) ? "for" : "is",
				 o->side[s]);
		fprintf(f, "stand-ins:    %s, %s (same verdict, insns, states); they differ in %s%s\n", w[0], w[1], d,
			ia != ib ? " and kernel inputs" : "");
	}
	struct xs_steps st = {0};
	if (ia != ib)
		inputs_change(c, sb, ia, sc, ib, x, f, &st);
	else
		engine_change(c, ia, sb, sc, false, x, f, &st);
	static const char *const count[] = {"", "", "two", "three", "four"};
	/* stored: the class alone for one engine step (as before inputs were
	 * told apart), else each step's "what: class" */
	bool bare = st.n == 1 && strcmp(st.what[0], "kernel inputs");
	cls[0] = 0;
	for (int i = 0; i < st.n; i++) {
		size_t l = strlen(cls);
		if (bare)
			snprintf(cls, clen, "%s", st.cls[0]);
		else
			snprintf(cls + l, clen - l, "%s%.40s: %.100s", i ? "; " : "", st.what[i], st.cls[i]);
	}
	if (st.n == 1)
		snprintf(key, klen, "%s %s: %s", st.ok ? "explained" : "unexplained", st.what[0], st.cls[0]);
	else
		snprintf(key, klen, "%s in %s steps: %s", st.ok ? "explained" : "unexplained", count[st.n], cls);
	return st.ok;
}

/* no engine row reproduces side s (or one reproduces both) */
static void print_unreproduced(FILE *f, const struct rb_xs_opts *o, const struct xs_rows *rows, int s,
			       const char *fig, bool one_for_both, const char *cls)
{
	fprintf(f, "stand-ins:    %s\n",
		one_for_both ? "the same engine row reproduces both sides" : "no engine row reproduces");
	if (!one_for_both) {
		fprintf(f, "  %s %s; tried:", o->side[s], fig);
		for (int i = 0; i < rows->n; i++) {
			char t[64];
			figures(&rows->res[i], t, sizeof(t));
			fprintf(f, " %s %s%s", rows->name[i], rows->ok[i] ? t : "(error)", i + 1 < rows->n ? "," : "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "class:        %s\nexplained:    no\n\n", cls);
}

/* explain one program: its explanation printed (unless quiet), counted
 * into sum and stored when st; 0, or -1 when the object does not open */
static int explain_prog(const struct rb_xs_opts *o, struct rb_xi *xi, struct xs_prog *p, struct xs_sum *sum,
			struct rb_store *st, int64_t run)
{
	struct xs_ctx *c = calloc(1, sizeof(*c));
	struct rb_explain *x = calloc(1, sizeof(*x));
	if (!c || !x) {
		free(c);
		free(x);
		return -1;
	}
	c->o = o;
	c->xi = xi;
	rb_xi_program(xi, p->path, p->name, p->prog_type);
	run_rows(c);
	bool opened = false;
	for (int i = 0; i < c->rows.n; i++) {
		size_t idx;
		opened |= rb_xi_obj(xi, c->rows.in[i], &idx) != NULL;
	}
	if (!opened) {
		free(c);
		free(x);
		return -1;
	}
	const char *sb, *sc;
	bool both = stand_ins(o, &c->rows, p, &sb, &sc);
	sum->n++;
	char fig[2][64], key[320], cls[256];
	for (int s = 0; s < 2; s++)
		figures(&p->res[s], fig[s], sizeof(fig[s]));
	FILE *f = o->quiet ? NULL : stdout;
	if (f) {
		fprintf(f, "%s:%s\n", p->path, p->name);
		fprintf(f, "sides:        %s %s -> %s %s (verdict insns/states)\n", o->side[0], fig[0], o->side[1],
			fig[1]);
		if (p->part)
			fprintf(f, "logs part:    entry %ld, after '%s': %s '%s', %s '%s' (%s)\n", p->part_index,
				p->common, o->side[0], p->a, o->side[1], p->b, p->mech);
		else if (p->mech[0])
			fprintf(f, "logs part:    not compared (%s)\n", p->mech);
	}
	bool ok = false;
	if (!both) {
		/* no engine row reproduces a side: nothing to re-run */
		snprintf(cls, sizeof(cls), "not reproduced by the engine%s%s%s", p->mech[0] ? " (logs: " : "", p->mech,
			 p->mech[0] ? ")" : "");
		snprintf(key, sizeof(key), "unexplained: %s", cls);
		if (f)
			print_unreproduced(f, o, &c->rows, !sb ? 0 : 1, fig[!sb ? 0 : 1], sb && sc, cls);
		x->part_insn = x->first_insn = x->cause_insn = -1;
	} else {
		sum->reproduced++;
		ok = explain_stand_ins(c, sb, sc, x, f, cls, sizeof(cls), key, sizeof(key));
		if (f)
			fprintf(f, "explained:    %s\n\n", ok ? "yes" : "no");
	}
	sum->explained += ok;
	sum_add(sum, key, ok);
	int rc = 0;
	struct rb_err err = {{0}};
	if (st && store_one(st, run, o, p, x, cls, ok, &err) < 0) {
		fprintf(stderr, "explain: %s\n", err.msg);
		rc = -1;
	}
	free(c);
	free(x);
	return rc;
}

/* explained before unexplained, then the most programs first */
static int cls_cmp(const void *a, const void *b)
{
	const struct xs_cls *x = a, *y = b;
	bool ex = !strncmp(x->key, "explained", 9), ey = !strncmp(y->key, "explained", 9);
	if (ex != ey)
		return ex ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void print_summary(const struct rb_xs_opts *o, struct xs_sum *s)
{
	rb_sort(s->cls, s->ncls, sizeof(s->cls[0]), cls_cmp);
	printf("summary: %zu programs differ between %s and %s; %zu with an engine stand-in for each side, %zu "
	       "explained (cause found, counterfactual vanished)\n",
	       s->n, o->side[0], o->side[1], s->reproduced, s->explained);
	for (size_t i = 0; i < s->ncls; i++)
		printf("  %4zu  %s\n", s->cls[i].n, s->cls[i].key);
}

static void prog_free(struct xs_prog *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].path);
		free(p[i].name);
		free(p[i].source);
		free(p[i].prog_type);
	}
	free(p);
}

/* ---- verified here: OBJ[:PROG] arguments ---- */

/* the programs the arguments name: OBJ:PROG, or each program of OBJ */
static int expand_args(const struct rb_xs_opts *o, int argc, char **argv, struct xs_prog **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (int a = 0; a < argc; a++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s", argv[a]);
		const char *pname = rb_cli_split_prog(path);
		struct rb_object *obj = NULL;
		struct rb_err err = {{0}};
		/* its programs' names (the same with every kernel's inputs) */
		struct rb_load_opts lo = *o->lo;
		lo.kernel_inputs = NULL;
		if (rb_object_open(path, &lo, &obj, &err) < 0) {
			fprintf(stderr, "explain: %s\n", err.msg);
			return -1;
		}
		bool any = false;
		for (size_t i = 0; i < obj->prog_cnt; i++) {
			if (pname && strcmp(obj->progs[i].name, pname))
				continue;
			any = true;
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				struct xs_prog *np = realloc(*out, cap * sizeof(*np));
				if (!np) {
					rb_object_free(obj);
					return -1;
				}
				*out = np;
			}
			struct xs_prog *p = &(*out)[(*n)++];
			memset(p, 0, sizeof(*p));
			p->path = strdup(path);
			p->name = strdup(obj->progs[i].name);
		}
		rb_object_free(obj);
		if (pname && !any) {
			fprintf(stderr, "explain: %s: no program '%s'\n", path, pname);
			return -1;
		}
	}
	return 0;
}

int rb_explain_sides_live(const struct rb_xs_opts *o, int argc, char **argv)
{
	struct xs_prog *p = NULL;
	size_t n = 0;
	if (expand_args(o, argc, argv, &p, &n) < 0) {
		prog_free(p, n);
		return 2;
	}
	struct rb_guest_obj *objs = calloc(n ? n : 1, sizeof(*objs));
	struct rb_kdiff_logs lg[2] = {{0}, {0}};
	int rc = objs && rb_kdiff_logs_alloc(&lg[0], (int)n) == 0 && rb_kdiff_logs_alloc(&lg[1], (int)n) == 0 ? 0 : 2;
	for (size_t i = 0; rc == 0 && i < n; i++)
		objs[i] = (struct rb_guest_obj){.path = p[i].path, .prog = p[i].name, .prog_type = o->lo->prog_type};
	for (int s = 0; s < 2 && rc == 0; s++)
		if (rb_kdiff_logs(o->side[s], objs, (int)n, o->lo, &lg[s]) < 0)
			rc = 2;
	struct xs_sum *sum = calloc(1, sizeof(*sum));
	struct rb_xi *xi = calloc(1, sizeof(*xi));
	if (!xi)
		rc = 2;
	else
		rb_xi_init(xi, o->lo, o->eo);
	bool bad = false;
	for (size_t i = 0; rc == 0 && sum && i < n; i++) {
		if (!lg[0].got[i] || !lg[1].got[i]) {
			fprintf(stderr, "explain: %s:%s: no result from %s\n", p[i].path, p[i].name,
				lg[0].got[i] ? o->side[1] : o->side[0]);
			rc = 2;
			break;
		}
		p[i].res[0] = lg[0].res[i];
		p[i].res[1] = lg[1].res[i];
		if (same_figures(&p[i].res[0], &p[i].res[1]) && argc > 0 && n > 1)
			continue; /* a whole object: the programs that differ */
		struct rb_ktrace_part kp;
		if (rb_ktrace_part(lg[0].log[i], lg[1].log[i], &kp) == 0 && kp.index >= 0)
			set_part(&p[i], &kp);
		if (same_figures(&p[i].res[0], &p[i].res[1])) {
			printf("%s:%s\nsides:        %s and %s agree in verdict, insns and states (nothing to explain)\n\n",
			       p[i].path, p[i].name, o->side[0], o->side[1]);
			continue;
		}
		size_t before = sum->explained;
		if (explain_prog(o, xi, &p[i], sum, NULL, 0) < 0)
			rc = 2;
		bad |= sum->explained == before;
	}
	if (rc == 0 && sum && sum->n > 1)
		print_summary(o, sum);
	if (xi)
		rb_xi_fini(xi);
	free(xi);
	free(sum);
	rb_kdiff_logs_free(&lg[0], (int)n);
	rb_kdiff_logs_free(&lg[1], (int)n);
	free(objs);
	prog_free(p, n);
	return rc ? rc : bad;
}

/* ---- a run's rows ---- */

static char *dupcol(sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	return strdup(t ? t : "");
}

static void textcol(sqlite3_stmt *s, int i, char *buf, size_t len)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	snprintf(buf, len, "%s", t ? t : "");
}

static void rescol(sqlite3_stmt *s, int i, struct rb_result *r)
{
	memset(r, 0, sizeof(*r));
	const char *v = (const char *)sqlite3_column_text(s, i);
	int k = v ? rb_verdict_parse(v) : -1;
	r->verdict = k < 0 ? RB_REJECT : (enum rb_verdict)k;
	r->insns_processed = (uint64_t)sqlite3_column_int64(s, i + 1);
	r->total_states = (uint64_t)sqlite3_column_int64(s, i + 2);
}

/* the programs whose two rows differ (both success or failure) */
static int load_run(sqlite3 *db, int64_t run, int64_t run_b, const struct rb_xs_opts *o, struct xs_prog **out,
		    size_t *n)
{
	static const char sql[] =
		"SELECT p.obj_path, p.name, coalesce(p.source, 'unknown'), p.prog_type, p.section, "
		"b.verdict, b.insns_processed, b.total_states, c.verdict, c.insns_processed, c.total_states, "
		"a.part_index, a.common_line, a.baseline_line, a.candidate_line, a.mechanism, p.id "
		"FROM results b JOIN results c ON c.run_id = ?4 AND c.program_id = b.program_id AND c.tracker = ?3 "
		"JOIN programs p ON p.id = b.program_id "
		"LEFT JOIN kernel_attributions a ON a.run_id = b.run_id AND ?1 = ?4 AND a.program_id = b.program_id "
		"AND a.baseline = ?2 AND a.candidate = ?3 "
		"WHERE b.run_id = ?1 AND b.tracker = ?2 AND b.verdict IN ('success', 'failure') "
		"AND c.verdict IN ('success', 'failure') AND (b.verdict <> c.verdict OR "
		"b.insns_processed <> c.insns_processed OR b.total_states <> c.total_states) "
		"ORDER BY p.source, p.obj_path, p.name";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(s, 1, run);
	sqlite3_bind_text(s, 2, o->side[0], -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, o->side[1], -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, run_b);
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			struct xs_prog *np = realloc(*out, cap * sizeof(*np));
			if (!np)
				break;
			*out = np;
		}
		struct xs_prog *p = &(*out)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->path = dupcol(s, 0);
		p->name = dupcol(s, 1);
		p->source = dupcol(s, 2);
		const char *pt = rb_prog_type_rerun((const char *)sqlite3_column_text(s, 4),
						    sqlite3_column_type(s, 3) != SQLITE_NULL, (uint32_t)sqlite3_column_int(s, 3));
		p->prog_type = pt ? strdup(pt) : NULL;
		rescol(s, 5, &p->res[0]);
		rescol(s, 8, &p->res[1]);
		p->part = sqlite3_column_type(s, 11) != SQLITE_NULL;
		p->part_index = sqlite3_column_int(s, 11);
		textcol(s, 12, p->common, sizeof(p->common));
		textcol(s, 13, p->a, sizeof(p->a));
		textcol(s, 14, p->b, sizeof(p->b));
		textcol(s, 15, p->mech, sizeof(p->mech));
		p->id = sqlite3_column_int64(s, 16);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Where the two sides' logs part, from the logs `run --keep-logs` stored
 * with their rows (driver/keep_logs.h): for programs no attribution
 * placed already. Two logs cut at their head that agree as far as they go
 * are 'beyond_head'. */
static void stored_parts(struct rb_store *st, int64_t run, int64_t run_b, const struct rb_xs_opts *o,
			 struct xs_prog *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i].part || p[i].mech[0])
			continue;
		char *la = NULL, *lb = NULL;
		bool ca = false, cb = false;
		struct rb_err err;
		struct rb_ktrace_part kp;
		if (rb_keep_logs_get(st, run, p[i].id, o->side[0], &la, &ca, &err) == 1 &&
		    rb_keep_logs_get(st, run_b, p[i].id, o->side[1], &lb, &cb, &err) == 1 &&
		    rb_ktrace_part(la, lb, &kp) == 0) {
			if (rb_ktrace_beyond_head(&kp, ca, cb))
				snprintf(p[i].mech, sizeof(p[i].mech), "beyond_head");
			else if (kp.index >= 0)
				set_part(&p[i], &kp);
		}
		free(la);
		free(lb);
	}
}

/* the newest run with rows of both sides */
static int newest_run(struct rb_store *st, const struct rb_xs_opts *o, int64_t *run, struct rb_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(rb_store_db(st),
			       "SELECT max(run_id) FROM results WHERE tracker = ?1 AND run_id IN (SELECT run_id FROM "
			       "results WHERE tracker = ?2)",
			       -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "%s: %s", o->db, sqlite3_errmsg(rb_store_db(st)));
	sqlite3_bind_text(s, 1, o->side[0], -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, o->side[1], -1, SQLITE_STATIC);
	bool got = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL;
	if (got)
		*run = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return got ? 0 : rb_errf(err, "%s: no run with rows of both %s and %s", o->db, o->side[0], o->side[1]);
}

int rb_explain_sides_run(const struct rb_xs_opts *o)
{
	struct rb_store *st = NULL;
	struct rb_err err = {{0}};
	if ((o->store ? rb_store_open : rb_store_open_read)(o->db, &st, &err) < 0) {
		fprintf(stderr, "explain: %s\n", err.msg);
		return 2;
	}
	int64_t run = 0, run_b = 0;
	struct xs_prog *p = NULL;
	size_t n = 0;
	int rc = 0;
	if ((o->run ? rb_store_find_run(st, o->run, "verify", &run, &err) < 0 : newest_run(st, o, &run, &err) < 0) ||
	    (o->run_b && rb_store_find_run(st, o->run_b, "verify", &run_b, &err) < 0)) {
		fprintf(stderr, "explain: %s\n", err.msg);
		rc = 2;
	} else if (load_run(rb_store_db(st), run, o->run_b ? run_b : run, o, &p, &n) < 0) {
		fprintf(stderr, "explain: %s: %s\n", o->db, sqlite3_errmsg(rb_store_db(st)));
		rc = 2;
	} else {
		stored_parts(st, run, o->run_b ? run_b : run, o, p, n);
	}
	struct xs_sum *sum = calloc(1, sizeof(*sum));
	struct rb_xi *xi = calloc(1, sizeof(*xi));
	if (!sum || !xi)
		rc = 2;
	else
		rb_xi_init(xi, o->lo, o->eo);
	/* which build made each side's rows (a patch shows as its diff's hash) */
	for (int k = 0; rc == 0 && !o->quiet && k < (o->run_b && run_b != run ? 2 : 1); k++) {
		struct rb_provenance pv;
		char line[256];
		if (rb_store_run_provenance(st, k ? run_b : run, &pv, &err) < 0)
			continue;
		rb_provenance_line(&pv, line, sizeof(line));
		printf("run %lld (%s) built from %s\n%s", (long long)(k ? run_b : run), k ? o->side[1] : o->side[0], line,
		       k || !o->run_b || run_b == run ? "\n" : "");
		rb_provenance_free(&pv);
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (explain_prog(o, xi, &p[i], sum, o->store && !o->run_b ? st : NULL, run) < 0) {
			sum->n++;
			sum_add(sum, "unexplained: the program does not open here", false);
			if (!o->quiet)
				printf("%s:%s\nexplained:    no (the program does not open here)\n\n", p[i].path,
				       p[i].name);
		}
	if (rc == 0) {
		if (o->run_b)
			printf("sides' rows: %s of run %lld, %s of run %lld (not stored: two runs)\n", o->side[0],
			       (long long)run, o->side[1], (long long)run_b);
		if (n == 0)
			printf("summary: no program differs between %s and %s\n", o->side[0], o->side[1]);
		else
			print_summary(o, sum);
	}
	int bad = rc == 0 && sum && sum->explained < n;
	if (xi)
		rb_xi_fini(xi);
	free(xi);
	free(sum);
	prog_free(p, n);
	rb_store_close(st);
	return rc ? rc : bad;
}
