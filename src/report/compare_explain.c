/* compare_explain.c — rb_compare_explain() (compare_explain.h). */
#include "report/compare_explain.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/vmlinux.h"
#include "explain/explain.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "report/table.h"
#include "store/explanations.h"
#include "verify/verify.h"

static bool insns_or_verdict_changed(const struct rb_cmp_row *r)
{
	return r->a.present && r->b.present &&
	       (strcmp(r->a.verdict, r->b.verdict) || r->a.v[RB_STAT_INSNS] != r->b.v[RB_STAT_INSNS]);
}

/* explain one row, its object opened with the kernel inputs both rows
 * stand for (NULL: the running kernel's, as run opens it): 0, 1 when the
 * object does not open, -1 with err */
static int explain_row(const struct rb_cmp_row *r, const char *inputs, const struct rb_explain_opts *eo,
		       struct rb_explain *x, struct rb_err *err)
{
	struct rb_object *obj = NULL;
	struct rb_load_opts lo = {.kernel_inputs = inputs};
	if (rb_object_open(r->object, &lo, &obj, err) < 0)
		return 1;
	size_t i = 0;
	while (i < obj->prog_cnt && strcmp(obj->progs[i].name, r->program))
		i++;
	int rc = i == obj->prog_cnt ? (rb_errf(err, "%s: no program '%s'", r->object, r->program), 1)
				    : rb_explain_prog(obj, i, eo, x, err);
	rb_object_free(obj);
	return rc;
}

void rb_cmp_explain_row(const struct rb_explain *x, bool ok, struct rb_explanation_row *row)
{
	*row = (struct rb_explanation_row){
		.part = rb_part_name(x->part),
		.part_insn = x->part_insn,
		.first_insn = x->first_insn,
		.cause_insn = x->cause_insn,
		.deciding = x->deciding,
		.cause_loc = x->cause_loc,
		.cause_text = x->cause_text,
		.source_line = x->source,
		.cls = x->cls[0] ? x->cls : "no exploration difference",
		.counterfactual = rb_cf_name(x->cf_all != RB_CF_NOT_RUN ? x->cf_all : x->cf),
		.cf_given = x->cf == RB_CF_NOT_RUN ? NULL : x->names[x->cf_all != RB_CF_NOT_RUN ? x->cf_all_side : x->cf_side],
		.more_causes = x->more[0] ? x->more : NULL,
		.explained = ok,
	};
}

static int store_row(const struct rb_cmp_explain_opts *o, const struct rb_cmp_row *r, const struct rb_explain *x,
		     bool ok, struct rb_err *err)
{
	if (!o->st)
		return 0;
	struct rb_explanation_row row;
	rb_cmp_explain_row(x, ok, &row);
	row.run_id = o->run_id;
	row.obj_path = r->object;
	row.program = r->program;
	row.baseline = o->baseline;
	row.candidate = o->candidate;
	return rb_store_explanation(o->st, &row, err);
}

int rb_compare_explain(const struct rb_compare *cmp, const bool *keep, const struct rb_cmp_explain_opts *o,
		       FILE *out, struct rb_cmp_explain_summary *sum, struct rb_err *err)
{
	memset(sum, 0, sizeof(*sum));
	static const char *const hdr[] = {"Object", "Program", "Verdicts", "Insns", "Parting", "Cause insn",
					  "Class", "Counterfactual"};
	struct rb_table t;
	if (rb_table_init(&t, 8, hdr) < 0)
		return rb_errf(err, "out of memory");
	/* run opened each row's object with the inputs of the kernel the row
	 * stands for (rb_verify_row_inputs: a profile after 6.18, the kernel
	 * cache's inputs of its kernel); one explanation runs both trackers on
	 * one object, so the two rows must share them */
	char in_a[PATH_MAX], in_b[PATH_MAX];
	const char *ia = rb_verify_row_inputs(o->baseline, NULL, in_a, sizeof(in_a));
	const char *ib = rb_verify_row_inputs(o->candidate, NULL, in_b, sizeof(in_b));
	if ((ia || ib) && (!ia || !ib || strcmp(ia, ib))) {
		rb_table_free(&t);
		return rb_errf(err,
			       "--explain: %s and %s stand for kernels with different inputs (%s, %s); `rangebench "
			       "explain --db FILE --run RUN --baseline %s --candidate %s` explains each row on its own",
			       o->baseline, o->candidate, ia ? ia : "the running kernel's", ib ? ib : "the running kernel's",
			       o->baseline, o->candidate);
	}
	char btf[PATH_MAX + 8];
	if (ia)
		snprintf(btf, sizeof(btf), "%s/btf", ia);
	struct rb_vmlinux *vm = ia ? rb_vmlinux_new_file(btf) : rb_vmlinux_new();
	struct rb_helper_probe *hp = malloc(sizeof(*hp));
	struct rb_explain *x = malloc(sizeof(*x));
	int rc = x && hp && vm ? 0 : rb_errf(err, "out of memory");
	if (hp)
		rb_helper_probe_init(hp, true);
	struct rb_explain_opts eo = {.baseline = o->baseline, .candidate = o->candidate, .vmlinux = vm,
				     .helpers = hp ? &hp->src : NULL, .time_limit_s = o->time_limit_s};
	for (size_t i = 0; i < cmp->n && rc == 0; i++) {
		const struct rb_cmp_row *r = &cmp->rows[i];
		if ((keep && !keep[i]) || !insns_or_verdict_changed(r))
			continue;
		sum->changed++;
		struct rb_err e = {{0}};
		int k = explain_row(r, ia, &eo, x, &e);
		char verd[48], insns[48], part[64], cause[160], cf[96];
		snprintf(verd, sizeof(verd), "%s/%s", r->a.verdict, r->b.verdict);
		snprintf(insns, sizeof(insns), "%.0f/%.0f", r->a.v[RB_STAT_INSNS], r->b.v[RB_STAT_INSNS]);
		if (k != 0) {
			sum->not_opened += k == 1;
			const char *cells[] = {r->shown, r->program, verd, insns, "-", "-", k == 1 ? "not opened" : "error",
					       e.msg};
			rc = rb_table_add(&t, cells);
			continue;
		}
		bool ok = rb_explain_ok(x);
		sum->found += x->found;
		sum->explained += ok;
		snprintf(part, sizeof(part), "%s@%d", rb_part_name(x->part), x->part_insn);
		snprintf(cause, sizeof(cause), "%d: %s", x->cause_insn, x->cause_text);
		if (x->cf_all != RB_CF_NOT_RUN)
			snprintf(cf, sizeof(cf), "%s with %d causes (%s given %s's)", rb_cf_name(x->cf_all), x->ncauses,
				 x->names[x->cf_all_side], x->names[!x->cf_all_side]);
		else
			snprintf(cf, sizeof(cf), "%s (%s given %s's)", rb_cf_name(x->cf), x->names[x->cf_side],
				 x->names[!x->cf_side]);
		const char *cells[] = {r->shown, r->program, verd, insns, part, cause,
				       x->cls[0] ? x->cls : "no exploration difference",
				       x->cf == RB_CF_NOT_RUN ? rb_cf_name(x->cf) : cf};
		if (rb_table_add(&t, cells) < 0 || store_row(o, r, x, ok, err) < 0)
			rc = -1;
	}
	if (rc == 0)
		rb_table_print(&t, out, o->csv);
	rb_table_free(&t);
	free(x);
	free(hp);
	rb_vmlinux_free(vm);
	return rc;
}
