/* cmd_compare.c — `rangebench compare`: two runs, or two trackers of one
 * run, program by program (src/report/compare.c). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "util/list.h"
#include "util/root.h"
#include "report/compare.h"
#include "report/compare_csv.h"
#include "report/compare_explain.h"
#include "report/rowfilter.h"
#include "store/provenance.h"
#include "store/store.h"
#include "tracker/tracker.h"
#include "verify/row.h"

static void usage(FILE *f)
{
	char names[512], defaults[256];
	rb_cmp_stat_names(names, sizeof(names), ",");
	enum rb_cmp_stat d[RB_STAT_COUNT];
	size_t nd = rb_cmp_default_stats(d), o = 0;
	defaults[0] = 0;
	for (size_t i = 0; i < nd && o < sizeof(defaults); i++)
		o += (size_t)snprintf(defaults + o, sizeof(defaults) - o, "%s%s", i ? "," : "",
				      d[i] == RB_STAT_VERDICT ? "verdict" : rb_metrics[RB_STAT_METRIC(d[i])].name);
	fprintf(f,
		"usage: rangebench compare [options] A B              two runs (ids or labels)\n"
		"       rangebench compare [options] A.csv B.csv      two CSV files (verify --csv,\n"
		"                        verify --veristat or veristat's), joined by file and program\n"
		"       rangebench compare [options] --trackers X,Y [RUN]  two trackers of one run\n"
		"       rangebench compare [options] [--baseline X] [--candidate Y] [RUN]\n"
		"                        the same by role (defaults: baseline old, candidate cnum)\n"
		"\n"
		"Per program: each statistic's value in A and B and the difference, then a\n"
		"summary (programs compared, verdict changes, geometric-mean ratios B/A).\n"
		"Only programs both sides verified (success or failure) are compared; the\n"
		"summary counts the others by reason (only in A or B, unsupported, refused,\n"
		"limit, load_error, object not opened). Objects are shown by the shortest\n"
		"path suffix that tells them apart. A run id or label may be written id:N or\n"
		"label:TEXT.\n"
		"A label means the latest run with that label; RUN defaults to the latest run.\n"
		"Exits 1 when a verdict differs between A and B.\n"
		"\n"
		"  --db FILE        results database (default: db/results.sqlite)\n"
		"  --tracker T      runs: only tracker T (default: every tracker)\n"
		"  --stats LIST     %s\n"
		"                   (default: %s)\n"
		"                   and error: each side's error (instruction and message)\n"
		"  -f, --filter EXPR  veristat's filters, repeatable: a glob on the program name\n"
		"                   or OBJECT.o/NAME; KEY OP VALUE with OP = == != <> < <= > >=,\n"
		"                   KEY a STAT with _a, _b, _diff or _pct (bare: _b), |KEY| its\n"
		"                   absolute value, or verdict, source, file, prog, error (= or\n"
		"                   !=, a glob; verdict_a/_b); '!' first: a deny filter. Allow\n"
		"                   filters of one kind are or-ed, kinds and denials and-ed:\n"
		"                   -f 'insns_diff>100' -f verdict_b=failure -f source=selftests\n"
		"  --sort SPEC      name (default), source, verdict (changed first), or STAT,\n"
		"                   STAT_a, STAT_b, STAT_diff, STAT_pct; several, comma-separated;\n"
		"                   '^' after a key: ascending, 'v': descending (numbers descend,\n"
		"                   diff and pct by magnitude)\n"
		"  --top N          only the first N rows\n"
		"  --changed        only programs whose verdict or counts (insns, states, peak\n"
		"                   states) changed; time and memory are not counted\n"
		"  --csv            CSV instead of an aligned table\n"
		"  --summary        only the summary table\n"
		"  --explain        (two engine rows of one run) explain every program whose\n"
		"                   verdict or instruction count changed, as `rangebench\n"
		"                   explain` does, print one row each and store them in the\n"
		"                   database (query explain_classes lists the classes per\n"
		"                   source); exits 1 when one is left unexplained. Rows of a\n"
		"                   profile after 6.18 (old@7.2) open objects with that\n"
		"                   kernel's inputs, as run did; two rows with different\n"
		"                   inputs are left to `explain --db`\n"
		"  --patch          print each run's uncommitted diff recorded at run time\n"
		"\n"
		"Each side's provenance (commit, and hash of the uncommitted diff) is shown\n"
		"above the table.\n", names, defaults);
}

struct compare_cli {
	const char *db, *trackers, *sort, *stats_arg, *baseline, *candidate;
	struct rb_compare_spec spec;
	bool changed_only, csv, summary_only, explain, patch;
	long top;
	int nargs;
	char db_default[PATH_MAX + 32], rolebuf[128];
	char ta[32], tb[32]; /* the two trackers of --trackers (or the roles) */
	enum rb_cmp_stat stats[RB_STAT_COUNT];
	size_t nstats;
	bool errors; /* --stats ...,error */
	struct rb_rowfilter filter;
};

/* --stats LIST: -1, or 2 after the message */
static int parse_stats(struct compare_cli *c)
{
	if (!c->stats_arg) {
		c->nstats = rb_cmp_default_stats(c->stats);
		return -1;
	}
	char sbuf[256];
	snprintf(sbuf, sizeof(sbuf), "%s", c->stats_arg);
	char *save = NULL;
	for (char *t = strtok_r(sbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "error")) {
			c->errors = true;
			continue;
		}
		int s = rb_cmp_stat_parse(t);
		if (s < 0 || c->nstats == RB_STAT_COUNT) {
			char names[512];
			rb_cmp_stat_names(names, sizeof(names), ", ");
			fprintf(stderr, "rangebench compare: unknown statistic '%s' (%s, error)\n", t, names);
			return 2;
		}
		c->stats[c->nstats++] = (enum rb_cmp_stat)s;
	}
	return -1;
}

/* --trackers X,Y or the roles into ta, tb, and the number of runs named:
 * -1, or 2 after the message */
static int parse_sides(struct compare_cli *c)
{
	if (c->baseline || c->candidate) {
		const char *b = c->baseline ? c->baseline : RB_ROLE_BASELINE;
		const char *k = c->candidate ? c->candidate : RB_ROLE_CANDIDATE;
		if (c->trackers) {
			fprintf(stderr, "rangebench compare: --trackers or --baseline/--candidate, not both\n");
			return 2;
		}
		snprintf(c->rolebuf, sizeof(c->rolebuf), "%s,%s", b, k);
		c->trackers = c->rolebuf;
	}
	if (!c->trackers) {
		if (c->nargs == 2)
			return -1;
		if (c->nargs > 2) {
			usage(stderr);
			return 2;
		}
		/* no side named: the roles (baseline old, candidate cnum) in
		 * the run given or the latest one */
		snprintf(c->rolebuf, sizeof(c->rolebuf), "%s,%s", RB_ROLE_BASELINE, RB_ROLE_CANDIDATE);
		c->trackers = c->rolebuf;
	}
	const char *comma = strchr(c->trackers, ',');
	if (!comma || comma == c->trackers || !comma[1] || strchr(comma + 1, ',') ||
	    (size_t)(comma - c->trackers) >= sizeof(c->ta) || strlen(comma + 1) >= sizeof(c->tb)) {
		fprintf(stderr, "rangebench compare: --trackers wants two names, e.g. old,cnum\n");
		return 2;
	}
	memcpy(c->ta, c->trackers, (size_t)(comma - c->trackers));
	snprintf(c->tb, sizeof(c->tb), "%s", comma + 1);
	if (c->nargs > 1) {
		fprintf(stderr, "rangebench compare: --trackers takes at most one run\n");
		return 2;
	}
	return -1;
}

/* the command line into *c: -1 to go on, else the exit code */
static int parse_args(int argc, char **argv, struct compare_cli *c)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},     {"trackers", required_argument, NULL, 'T'},
		{"tracker", required_argument, NULL, 't'}, {"stats", required_argument, NULL, 's'},
		{"filter", required_argument, NULL, 'f'}, {"sort", required_argument, NULL, 'o'},
		{"top", required_argument, NULL, 'n'},    {"changed", no_argument, NULL, 'c'},
		{"csv", no_argument, NULL, 'C'},          {"summary", no_argument, NULL, 'S'},
		{"baseline", required_argument, NULL, 'B'}, {"candidate", required_argument, NULL, 'K'},
		{"explain", no_argument, NULL, 'E'},      {"patch", no_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	memset(c, 0, sizeof(*c));
	char root[PATH_MAX];
	rb_project_root(root, sizeof(root));
	snprintf(c->db_default, sizeof(c->db_default), "%s/db/results.sqlite", root);
	c->db = c->db_default;
	c->sort = "name";
	int key;
	optind = 1;
	while ((key = getopt_long(argc, argv, "hf:", longopts, NULL)) != -1) {
		switch (key) {
		case 'd': c->db = optarg; break;
		case 'T': c->trackers = optarg; break;
		case 'B': c->baseline = optarg; break;
		case 'K': c->candidate = optarg; break;
		case 't': c->spec.tracker = optarg; break;
		case 's': c->stats_arg = optarg; break;
		case 'f': {
			struct rb_err err = {{0}};
			if (rb_rowfilter_add(&c->filter, optarg, true, &err) < 0) {
				fprintf(stderr, "rangebench compare: %s\n", err.msg);
				return 2;
			}
			break;
		}
		case 'o': c->sort = optarg; break;
		case 'c': c->changed_only = true; break;
		case 'C': c->csv = true; break;
		case 'S': c->summary_only = true; break;
		case 'E': c->explain = true; break;
		case 'P': c->patch = true; break;
		case 'n': {
			char *end;
			c->top = strtol(optarg, &end, 10);
			if (*end || c->top <= 0) {
				fprintf(stderr, "rangebench compare: --top wants a positive number, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	c->nargs = argc - optind;
	struct rb_sortspec spec;
	struct rb_err err = {{0}};
	if (rb_sortspec_parse(&spec, c->sort, true, &err) < 0) {
		fprintf(stderr, "rangebench compare: %s\n", err.msg);
		return 2;
	}
	int rc = parse_stats(c);
	return rc >= 0 ? rc : parse_sides(c);
}

/* the two runs: spec.run_a and spec.run_b (0, or -1 with err) */
static int find_runs(struct rb_store *st, struct compare_cli *c, char **runs, struct rb_err *err)
{
	if (c->trackers) {
		c->spec.tracker_a = c->ta;
		c->spec.tracker_b = c->tb;
		if (c->nargs == 1 ? rb_store_find_run(st, runs[0], "verify", &c->spec.run_a, err)
				  : rb_store_latest_run(st, "verify", &c->spec.run_a, err))
			return -1;
		c->spec.run_b = c->spec.run_a;
		return 0;
	}
	if (rb_store_find_run(st, runs[0], "verify", &c->spec.run_a, err) < 0 ||
	    rb_store_find_run(st, runs[1], "verify", &c->spec.run_b, err) < 0)
		return -1;
	return 0;
}

struct side_info {
	char lab[2][128], stat[2][32], trk[2][256];
};

/* each side's label, status and trackers: unknown trackers are an error
 * (1, printed), an unfinished run a warning; -1 with err when the
 * database cannot say */
static int describe_sides(struct rb_store *st, const struct compare_cli *c, struct side_info *si,
			  struct rb_err *err)
{
	int64_t ids[2] = {c->spec.run_a, c->spec.run_b};
	for (int i = 0; i < 2; i++)
		if (rb_store_run_describe(st, ids[i], si->lab[i], sizeof(si->lab[i]), si->stat[i],
					  sizeof(si->stat[i]), si->trk[i], sizeof(si->trk[i]), err) < 0)
			return -1;
	const char *want[2] = {c->trackers ? c->ta : c->spec.tracker, c->trackers ? c->tb : c->spec.tracker};
	for (int i = 0; i < 2; i++) {
		if (!want[i] || rb_list_has(si->trk[i], want[i]) || (!c->trackers && rb_list_has(si->trk[1 - i], want[i])))
			continue;
		fprintf(stderr, "rangebench compare: run %lld (%s) has no results of tracker '%s' (it has: %s)\n",
			(long long)ids[i], si->lab[i], want[i], *si->trk[i] ? si->trk[i] : "none");
		return 1;
	}
	for (int i = 0; i < 2 && !(i == 1 && ids[1] == ids[0]); i++)
		if (strcmp(si->stat[i], "complete"))
			fprintf(stderr, "rangebench compare: warning: run %lld (%s) is %s: what it lacks is "
					"counted as 'only in %c', not compared\n",
				(long long)ids[i], si->lab[i], si->stat[i], i ? 'A' : 'B');
	return 0;
}

/* each side's provenance (commit and uncommitted diff), and with --patch
 * the diffs themselves */
static void print_provenance(struct rb_store *st, const struct compare_cli *c)
{
	int64_t ids[2] = {c->spec.run_a, c->spec.run_b};
	for (int i = 0; i < 2 && !(i == 1 && ids[1] == ids[0]); i++) {
		struct rb_provenance p;
		struct rb_err err = {{0}};
		if (rb_store_run_provenance(st, ids[i], &p, &err) < 0)
			continue;
		char line[256];
		rb_provenance_line(&p, line, sizeof(line));
		printf("%s: run %lld built from %s\n", ids[1] == ids[0] ? "A, B" : i ? "B" : "A", (long long)ids[i], line);
		if (c->patch && p.diff)
			printf("--- uncommitted diff of run %lld ---\n%s--- end of diff ---\n", (long long)ids[i], p.diff);
		rb_provenance_free(&p);
	}
	printf("\n");
}

/* the per-program table (unless --summary) and the summary table */
static void print_comparison(struct rb_store *st, const struct compare_cli *c, const struct side_info *si,
			     struct rb_compare *cmp, const bool *keep, const struct rb_compare_summary *sum)
{
	struct rb_table t;
	if (!c->summary_only) {
		if (!c->csv && st) {
			print_provenance(st, c);
			if (c->trackers)
				printf("A = run %lld (%s, %s) tracker %s, B = run %lld (%s, %s) tracker %s\n\n",
				       (long long)c->spec.run_a, si->lab[0], si->stat[0], c->ta,
				       (long long)c->spec.run_b, si->lab[1], si->stat[1], c->tb);
			else
				printf("A = run %lld (%s, %s), B = run %lld (%s, %s)\n\n", (long long)c->spec.run_a,
				       si->lab[0], si->stat[0], (long long)c->spec.run_b, si->lab[1], si->stat[1]);
		}
		if (rb_compare_table(cmp, c->stats, c->nstats, c->csv, c->errors, keep, (size_t)c->top, &t) == 0) {
			rb_table_print(&t, stdout, c->csv);
			rb_table_free(&t);
		}
	}
	if (c->summary_only || !c->csv) {
		if (!c->csv && !c->summary_only)
			printf("\n");
		if (rb_compare_summary_table(sum, &t) == 0) {
			rb_table_print(&t, stdout, c->csv);
			rb_table_free(&t);
		}
	}
}

/* load, sort, summarise and print: the exit code (1: a verdict changed),
 * or -1 with err */
static int compare_runs(struct rb_store *st, const struct compare_cli *c, const struct side_info *si,
			struct rb_compare *cmp, struct rb_err *err)
{
	if (rb_compare_load(rb_store_db(st), &c->spec, cmp, err) < 0)
		return -1;
	rb_compare_filter(cmp, &c->filter);
	if (rb_compare_sort(cmp, c->sort) < 0) {
		fprintf(stderr, "rangebench compare: unknown sort key '%s'\n", c->sort);
		return 2;
	}
	struct rb_compare_summary sum;
	rb_compare_summarize(cmp, &sum);
	bool *keep = calloc(cmp->n ? cmp->n : 1, sizeof(*keep));
	if (!keep)
		return 2;
	for (size_t i = 0; i < cmp->n; i++)
		keep[i] = !c->changed_only || rb_cmp_row_changed(&cmp->rows[i]);
	print_comparison(st, c, si, cmp, keep, &sum);
	int rc = sum.verdict_changes ? 1 : 0;
	if (c->explain) {
		struct rb_cmp_explain_opts eo = {.baseline = c->ta, .candidate = c->tb, .run_id = c->spec.run_a,
						 .st = st, .csv = c->csv, .time_limit_s = 60};
		struct rb_cmp_explain_summary es;
		if (!c->csv)
			printf("\nexplanations (%s vs %s):\n", c->ta, c->tb);
		if (rb_compare_explain(cmp, keep, &eo, stdout, &es, err) < 0) {
			free(keep);
			return -1;
		}
		if (!c->csv)
			printf("\n%zu programs changed verdict or instructions: cause found for %zu, explained "
			       "(counterfactual vanished) %zu, objects not opened %zu\n",
			       es.changed, es.found, es.explained, es.not_opened);
		if (es.explained < es.changed)
			rc = 1;
	}
	free(keep);
	return rc;
}

static bool is_csv(const char *p)
{
	size_t n = strlen(p);
	return n > 4 && !strcmp(p + n - 4, ".csv");
}

/* compare A.csv B.csv: the table and summary of two CSV files */
static int compare_csv(const struct compare_cli *c, char **files)
{
	struct rb_compare cmp;
	struct rb_err err = {{0}};
	if (c->explain || c->trackers || c->spec.tracker) {
		fprintf(stderr, "rangebench compare: two CSV files take no --explain, --trackers or --tracker\n");
		return 2;
	}
	if (rb_compare_load_csv(files[0], files[1], &cmp, &err) < 0) {
		fprintf(stderr, "rangebench compare: %s\n", err.msg);
		return 2;
	}
	rb_compare_filter(&cmp, &c->filter);
	rb_compare_sort(&cmp, c->sort); /* checked when parsed */
	struct rb_compare_summary sum;
	rb_compare_summarize(&cmp, &sum);
	bool *keep = calloc(cmp.n ? cmp.n : 1, sizeof(*keep));
	for (size_t i = 0; keep && i < cmp.n; i++)
		keep[i] = !c->changed_only || rb_cmp_row_changed(&cmp.rows[i]);
	if (keep && !c->csv && !c->summary_only)
		printf("A = %s, B = %s\n\n", files[0], files[1]);
	if (keep)
		print_comparison(NULL, c, NULL, &cmp, keep, &sum);
	int rc = !keep ? 2 : sum.verdict_changes ? 1 : 0;
	free(keep);
	rb_compare_free(&cmp);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli c;
	int rc = parse_args(argc, argv, &c);
	if (rc >= 0)
		return rc;
	if (c.nargs == 2 && is_csv(argv[optind]) && is_csv(argv[optind + 1]))
		return compare_csv(&c, argv + optind);
	if (c.explain && (!c.trackers || !rb_row_known(c.ta, false) || !rb_row_known(c.tb, false))) {
		fprintf(stderr, "rangebench compare: --explain compares two engine rows of one run (--trackers "
				"X,Y or --baseline/--candidate; a tracker, or one with a profile: old@7.2), not two "
				"runs or a kernel\n");
		return 2;
	}
	struct rb_store *st;
	struct rb_err err = {{0}};
	/* --explain stores its rows: a writer's connection (which migrates) */
	if ((c.explain ? rb_store_open(c.db, &st, &err) : rb_store_open_read(c.db, &st, &err)) < 0) {
		fprintf(stderr, "rangebench compare: %s\n", err.msg);
		return 2;
	}
	struct rb_compare cmp = {0};
	struct side_info si;
	rc = find_runs(st, &c, argv + optind, &err);
	if (rc == 0) {
		rc = describe_sides(st, &c, &si, &err);
		if (rc == 1)
			rc = 2;
		else if (rc == 0)
			rc = compare_runs(st, &c, &si, &cmp, &err);
	}
	if (rc < 0) {
		fprintf(stderr, "rangebench compare: %s\n", err.msg);
		rc = 2;
	}
	rb_compare_free(&cmp);
	rb_store_close(st);
	return rc;
}
