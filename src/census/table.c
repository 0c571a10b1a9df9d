/* table.c — the census's result table (aligned text or CSV). Prints only
 * to the FILE the caller gives. */
#include <stdlib.h>
#include <string.h>

#include "census/census.h"

#define RATE(a, b) ((b) ? 100.0 * (double)(a) / (double)(b) : 0.0)

void rb_census_table_header(struct rb_census_table *t, const struct rb_census_opts *o, unsigned ntrackers)
{
	uint64_t pairs = o->pairs ? o->pairs : o->bits == 8 ? RB_CENSUS_DEFAULT_PAIRS_8 : RB_CENSUS_DEFAULT_PAIRS_WIDE;
	if (t->csv) {
		fprintf(t->out, "op,kind,tracker,bits,sampled,cases,unsound,optimal,optimal_pct,extra_log2,"
				"tighter,looser,equal,incomparable\n");
		return;
	}
	fprintf(t->out, "# rangebench ops: width %u, %u tracker%s, seed %llu, %llu cases per binary op\n", o->bits,
		ntrackers, ntrackers == 1 ? "" : "s", (unsigned long long)o->seed, (unsigned long long)pairs);
	if (o->bits == 8)
		fprintf(t->out, "# check: EXHAUSTIVE — every concrete value of every abstract input (256-value sets);\n"
				"#        unary ops over every distinct input set of the generator\n"
				"# optimal = result equals from_set(true result set) of the same tracker (in gamma);\n"
				"# extra = mean log2|gamma(result)| - log2|gamma(best)|; cmp = cnum vs old gamma over the same inputs\n");
	else
		fprintf(t->out, "# check: SAMPLED — at %u bits gamma cannot be enumerated: up to %u concrete values per\n"
				"#        input (bounds, tnum ends, set members, random members of gamma); no precision figures\n",
			o->bits, 16u);
	fprintf(t->out, "%-14s %-5s %-5s %9s %8s %9s %7s %9s %9s %9s %9s\n", "op", "kind", "track", "cases", "unsound",
		"optimal%", "extra", "tighter", "looser", "equal", "incomp");
}

static void keep_lossy(struct rb_census_table *t, const struct rb_census_row *r)
{
	if (!r->has_cmp || !(r->looser + r->incomparable))
		return;
	char item[96];
	snprintf(item, sizeof(item), "%s%s(%llu+%llu)", t->lossy ? " " : "", r->op, (unsigned long long)r->looser,
		 (unsigned long long)r->incomparable);
	size_t old = t->lossy ? strlen(t->lossy) : 0;
	char *n = realloc(t->lossy, old + strlen(item) + 1);
	if (!n)
		return;
	memcpy(n + old, item, strlen(item) + 1);
	t->lossy = n;
}

int rb_census_table_row(const struct rb_census_row *r, void *ctx)
{
	struct rb_census_table *t = ctx;
	t->rows++;
	t->cases += r->cases;
	t->unsound += r->unsound;
	if (r->has_cmp) {
		t->cmp[0] += r->tighter;
		t->cmp[1] += r->looser;
		t->cmp[2] += r->equal;
		t->cmp[3] += r->incomparable;
	}
	keep_lossy(t, r);
	if (r->counterexample) {
		char **n = realloc(t->cex, (t->ncex + 1) * sizeof(*n));
		if (n) {
			t->cex = n;
			t->cex[t->ncex] = strdup(r->counterexample);
			if (t->cex[t->ncex])
				t->ncex++;
		}
	}
	if (t->csv) {
		fprintf(t->out, "%s,%s,%s,%u,%d,%llu,%llu,", r->op, r->kind, r->tracker, r->bits, r->sampled,
			(unsigned long long)r->cases, (unsigned long long)r->unsound);
		if (r->sampled)
			fprintf(t->out, ",,,");
		else
			fprintf(t->out, "%llu,%.3f,%.4f,", (unsigned long long)r->optimal, RATE(r->optimal, r->cases),
				r->extra_log2);
		if (r->has_cmp)
			fprintf(t->out, "%llu,%llu,%llu,%llu\n", (unsigned long long)r->tighter,
				(unsigned long long)r->looser, (unsigned long long)r->equal,
				(unsigned long long)r->incomparable);
		else
			fprintf(t->out, ",,,\n");
		return 0;
	}
	fprintf(t->out, "%-14s %-5s %-5s %9llu %8llu ", r->op, r->kind, r->tracker, (unsigned long long)r->cases,
		(unsigned long long)r->unsound);
	if (r->sampled)
		fprintf(t->out, "%9s %7s", "-", "-");
	else
		fprintf(t->out, "%9.2f %7.3f", RATE(r->optimal, r->cases), r->extra_log2);
	if (r->has_cmp)
		fprintf(t->out, " %9llu %9llu %9llu %9llu\n", (unsigned long long)r->tighter,
			(unsigned long long)r->looser, (unsigned long long)r->equal,
			(unsigned long long)r->incomparable);
	else
		fprintf(t->out, " %9s %9s %9s %9s\n", "-", "-", "-", "-");
	return 0;
}

void rb_census_table_footer(struct rb_census_table *t, const struct rb_census_summary *s, FILE *cexout)
{
	if (!t->csv) {
		fprintf(t->out, "# total: %u rows, %llu cases, %llu unsound", t->rows, (unsigned long long)t->cases,
			(unsigned long long)t->unsound);
		if (s)
			fprintf(t->out, "; %llu ops, %u threads%s", (unsigned long long)s->ops, s->threads, "");
		if (s && s->input_sets)
			fprintf(t->out, ", %llu distinct input sets", (unsigned long long)s->input_sets);
		fprintf(t->out, "\n");
		uint64_t all = t->cmp[0] + t->cmp[1] + t->cmp[2] + t->cmp[3];
		if (all) {
			fprintf(t->out, "# cnum vs old: %.2f%% tighter, %.2f%% looser, %.2f%% equal, %.2f%% incomparable (of %llu cases)\n",
				RATE(t->cmp[0], all), RATE(t->cmp[1], all), RATE(t->cmp[2], all), RATE(t->cmp[3], all),
				(unsigned long long)all);
			fprintf(t->out, "# cnum loses precision (looser+incomparable) on: %s\n", t->lossy ? t->lossy : "none");
		}
	}
	for (unsigned i = 0; i < t->ncex; i++) {
		fprintf(cexout, "counterexample %s", t->cex[i]);
		free(t->cex[i]);
	}
	free(t->cex);
	free(t->lossy);
	t->cex = NULL;
	t->lossy = NULL;
	t->ncex = 0;
}
