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
				"tighter,looser,equal,incomparable,"
				"same_cases,same_tighter,same_looser,same_equal,same_incomparable,same_domain\n");
		return;
	}
	fprintf(t->out, "# rangebench ops: width %u, %u tracker%s, seed %llu, %llu cases per binary op\n", o->bits,
		ntrackers, ntrackers == 1 ? "" : "s", (unsigned long long)o->seed, (unsigned long long)pairs);
	if (o->bits == 8)
		fprintf(t->out, "# check: EXHAUSTIVE — every concrete value of every abstract input (256-value sets);\n"
				"#        unary ops over every distinct input set of the generator\n"
				"# optimal = result equals from_set(true result set) of the same tracker (in gamma);\n"
				"# extra = mean log2|gamma(result)| - log2|gamma(best)|; tighter..incomp = the row's tracker vs\n"
				"#   the baseline %s (gamma of the result, or of both refined registers on both outcomes)\n"
				"#   over the same concrete inputs;\n"
				"# lo|eqin = looser+incomparable/cases among the cases whose inputs both abstract equally\n",
			o->baseline ? o->baseline : RB_ROLE_BASELINE);
	else
		fprintf(t->out, "# check: SAMPLED — at %u bits gamma cannot be enumerated: up to %u concrete values per\n"
				"#        input (bounds, tnum ends, set members, random members of gamma); no precision figures\n",
			o->bits, 16u);
	if (o->bits == 8 && o->sets)
		fprintf(t->out, "# unary ops limited to %llu input sets (--sets)\n", (unsigned long long)o->sets);
	fprintf(t->out, "%-14s %-5s %-13s %9s %8s %9s %7s %8s %8s %8s %8s %13s\n", "op", "kind", "track", "cases", "unsound",
		"optimal%", "extra", "tighter", "looser", "equal", "incomp", "lo|eqin");
}

static void append(char **list, const char *op, uint64_t a, uint64_t b, const uint64_t *dom)
{
	if (!(a + b))
		return;
	char item[128];
	if (dom)
		snprintf(item, sizeof(item), "%s%s(%llu+%llu, %llu at its best)", *list ? " " : "", op,
			 (unsigned long long)a, (unsigned long long)b, (unsigned long long)*dom);
	else
		snprintf(item, sizeof(item), "%s%s(%llu+%llu)", *list ? " " : "", op, (unsigned long long)a,
			 (unsigned long long)b);
	size_t old = *list ? strlen(*list) : 0;
	char *n = realloc(*list, old + strlen(item) + 1);
	if (!n)
		return;
	memcpy(n + old, item, strlen(item) + 1);
	*list = n;
}

static void keep(char ***v, unsigned *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return;
	*v = nv;
	if ((nv[*n] = strdup(s)))
		(*n)++;
}

/* the totals of r's tracker against the baseline (NULL if full) */
static struct rb_census_table_cmp *by_tracker(struct rb_census_table *t, const struct rb_census_row *r)
{
	for (unsigned i = 0; i < t->nby; i++)
		if (!strcmp(t->by[i].tracker, r->tracker))
			return &t->by[i];
	if (t->nby == RB_CENSUS_TABLE_TRACKERS)
		return NULL;
	struct rb_census_table_cmp *b = &t->by[t->nby++];
	memset(b, 0, sizeof(*b));
	b->tracker = r->tracker;
	b->baseline = r->baseline;
	return b;
}

static void keep_lossy(struct rb_census_table *t, struct rb_census_table_cmp *b, const struct rb_census_row *r)
{
	append(&b->lossy, r->op, r->looser, r->incomparable, NULL);
	append(&b->lossy_same, r->op, r->same_looser, r->same_incomparable, &r->same_domain);
	if (t->examples && r->looser_example)
		keep(&t->ex, &t->nex, r->looser_example);
}

int rb_census_table_row(const struct rb_census_row *r, void *ctx)
{
	struct rb_census_table *t = ctx;
	t->rows++;
	t->cases += r->cases;
	t->unsound += r->unsound;
	struct rb_census_table_cmp *b = r->has_cmp ? by_tracker(t, r) : NULL;
	if (b) {
		b->cmp[0] += r->tighter;
		b->cmp[1] += r->looser;
		b->cmp[2] += r->equal;
		b->cmp[3] += r->incomparable;
		b->same[0] += r->same_tighter;
		b->same[1] += r->same_looser;
		b->same[2] += r->same_equal;
		b->same[3] += r->same_incomparable;
		keep_lossy(t, b, r);
	}
	if (r->counterexample)
		keep(&t->cex, &t->ncex, r->counterexample);
	if (t->csv) {
		fprintf(t->out, "%s,%s,%s,%u,%d,%llu,%llu,", r->op, r->kind, r->tracker, r->bits, r->sampled,
			(unsigned long long)r->cases, (unsigned long long)r->unsound);
		if (r->sampled)
			fprintf(t->out, ",,,");
		else
			fprintf(t->out, "%llu,%.3f,%.4f,", (unsigned long long)r->optimal, RATE(r->optimal, r->cases),
				r->extra_log2);
		if (r->has_cmp)
			fprintf(t->out, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)r->tighter,
				(unsigned long long)r->looser, (unsigned long long)r->equal,
				(unsigned long long)r->incomparable, (unsigned long long)r->same_cases,
				(unsigned long long)r->same_tighter, (unsigned long long)r->same_looser,
				(unsigned long long)r->same_equal, (unsigned long long)r->same_incomparable,
				(unsigned long long)r->same_domain);
		else
			fprintf(t->out, ",,,,,,,,,\n");
		return 0;
	}
	fprintf(t->out, "%-14s %-5s %-13s %9llu %8llu ", r->op, r->kind, r->tracker, (unsigned long long)r->cases,
		(unsigned long long)r->unsound);
	if (r->sampled)
		fprintf(t->out, "%9s %7s", "-", "-");
	else
		fprintf(t->out, "%9.2f %7.3f", RATE(r->optimal, r->cases), r->extra_log2);
	if (r->has_cmp) {
		char lo[32];
		snprintf(lo, sizeof(lo), "%llu/%llu", (unsigned long long)(r->same_looser + r->same_incomparable),
			 (unsigned long long)r->same_cases);
		fprintf(t->out, " %8llu %8llu %8llu %8llu %13s\n", (unsigned long long)r->tighter,
			(unsigned long long)r->looser, (unsigned long long)r->equal,
			(unsigned long long)r->incomparable, lo);
	} else {
		fprintf(t->out, " %8s %8s %8s %8s %13s\n", "-", "-", "-", "-", "-");
	}
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
		for (unsigned i = 0; i < t->nby; i++) {
			const struct rb_census_table_cmp *b = &t->by[i];
			uint64_t all = b->cmp[0] + b->cmp[1] + b->cmp[2] + b->cmp[3];
			if (!all)
				continue;
			fprintf(t->out, "# %s vs %s: %.2f%% tighter, %.2f%% looser, %.2f%% equal, %.2f%% incomparable (of %llu cases)\n",
				b->tracker, b->baseline, RATE(b->cmp[0], all), RATE(b->cmp[1], all), RATE(b->cmp[2], all),
				RATE(b->cmp[3], all), (unsigned long long)all);
			uint64_t sall = b->same[0] + b->same[1] + b->same[2] + b->same[3];
			fprintf(t->out, "# ... over inputs of equal gamma: %.2f%% tighter, %.2f%% looser, %.2f%% equal, %.2f%% incomparable (of %llu cases)\n",
				RATE(b->same[0], sall), RATE(b->same[1], sall), RATE(b->same[2], sall),
				RATE(b->same[3], sall), (unsigned long long)sall);
			fprintf(t->out, "# %s loses precision against %s (looser+incomparable) on: %s\n", b->tracker,
				b->baseline, b->lossy ? b->lossy : "none");
			fprintf(t->out, "# ... with inputs of equal gamma (the op itself; \"at its best\": the loss is the\n"
					"#     domain's, otherwise the transfer function misses its own best): %s\n",
				b->lossy_same ? b->lossy_same : "none");
		}
		for (unsigned i = 0; i < t->nex; i++)
			fprintf(t->out, "example %s", t->ex[i]);
	}
	for (unsigned i = 0; i < t->ncex; i++) {
		fprintf(cexout, "counterexample %s", t->cex[i]);
		free(t->cex[i]);
	}
	for (unsigned i = 0; i < t->nex; i++)
		free(t->ex[i]);
	free(t->ex);
	free(t->cex);
	for (unsigned i = 0; i < t->nby; i++) {
		free(t->by[i].lossy);
		free(t->by[i].lossy_same);
	}
	t->nby = 0;
	t->cex = t->ex = NULL;
	t->ncex = t->nex = 0;
}
