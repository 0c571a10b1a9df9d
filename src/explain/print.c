/* print.c — an explanation as text (rangebench explain). */
#include <stdio.h>

#include "explain/explain.h"

static void result_line(FILE *f, const char *name, const struct rb_result *r)
{
	fprintf(f, "  %-14s %s, %llu insns, %llu states%s%s\n", name, rb_verdict_name(r->verdict),
		(unsigned long long)r->insns_processed, (unsigned long long)r->total_states, r->msg[0] ? ": " : "",
		r->msg);
}

void rb_explain_print(FILE *f, const struct rb_object *obj, size_t prog_idx, const struct rb_explain *x)
{
	fprintf(f, "%s:%s\n", obj->path, obj->progs[prog_idx].name);
	for (int s = 0; s < 2; s++)
		result_line(f, x->names[s], &x->res[s]);
	if (x->part == RB_PART_NONE) {
		fprintf(f, "explorations: identical (no change to explain)\n");
		return;
	}
	fprintf(f, "parting:      insn %d (event %llu): %s\n", x->part_insn, (unsigned long long)x->part_event,
		x->part_what);
	if (x->deciding[0])
		fprintf(f, "deciding:     %s at insn %d\n", x->deciding, x->part_insn);
	if (x->found) {
		fprintf(f, "first differs: insn %d: %s", x->first_insn, x->first_text);
		if (x->walk_steps)
			fprintf(f, "   (%s, followed back %d def-use step%s)", x->first_loc, x->walk_steps,
				x->walk_steps == 1 ? "" : "s");
		fprintf(f, "\n");
	}
	fprintf(f, "cause:        insn %d: %s%s\n", x->cause_insn, x->cause_text,
		x->found && x->cause_insn != x->first_insn ? "   (the first difference alone does not decide: "
							     "this one's counterfactual does)"
							   : "");
	if (x->source[0])
		fprintf(f, "source:       %s\n", x->source);
	if (x->found && !x->cf_prune) {
		for (int s = 0; s < 2; s++) {
			fprintf(f, "  %s %s before: %s\n", x->names[s], x->cause_loc, x->val[s][0]);
			fprintf(f, "  %s %s after:  %s\n", x->names[s], x->cause_loc, x->val[s][1]);
		}
	}
	fprintf(f, "class:        %s\n", x->cls);
	if (x->cf == RB_CF_NOT_RUN) {
		fprintf(f, "counterfactual: not run\n");
		return;
	}
	int to = x->cf_side, from = !to;
	if (x->cf_prune) {
		fprintf(f, "counterfactual: %s prunes at insn %d as %s does: %s, %llu insns -> %s\n", x->names[to],
			x->cause_insn, x->names[from], rb_verdict_name(x->cf_res.verdict),
			(unsigned long long)x->cf_res.insns_processed, rb_cf_name(x->cf));
		if (x->cf_all != RB_CF_NOT_RUN)
			fprintf(f, "further prunes: %s\ncounterfactual with all %d prunes: %s: %s, %llu insns -> %s\n",
				x->more[0] ? x->more : "(none found)", x->ncauses, x->names[to],
				rb_verdict_name(x->cf_all_res.verdict), (unsigned long long)x->cf_all_res.insns_processed,
				rb_cf_name(x->cf_all));
		return;
	}
	fprintf(f, "counterfactual: %s given %s's %s after insn %d: %s, %llu insns -> %s\n", x->names[to],
		x->names[from], x->cause_loc, x->cause_insn, rb_verdict_name(x->cf_res.verdict),
		(unsigned long long)x->cf_res.insns_processed, rb_cf_name(x->cf));
	if (x->cf_other != RB_CF_NOT_RUN)
		fprintf(f, "  (reverse: %s given %s's: %s, %llu insns -> %s)\n", x->names[from], x->names[to],
			rb_verdict_name(x->cf_other_res.verdict), (unsigned long long)x->cf_other_res.insns_processed,
			rb_cf_name(x->cf_other));
	if (x->cf_all == RB_CF_NOT_RUN)
		return;
	fprintf(f, "further causes: %s\n", x->more[0] ? x->more : "(none found)");
	fprintf(f, "counterfactual with all %d causes: %s given %s's value sets: %s, %llu insns -> %s\n", x->ncauses,
		x->names[x->cf_all_side], x->names[!x->cf_all_side], rb_verdict_name(x->cf_all_res.verdict),
		(unsigned long long)x->cf_all_res.insns_processed, rb_cf_name(x->cf_all));
}
