/* cmd_compare.c — `rangebench compare`: two runs, or two trackers of one
 * run, program by program (src/report/compare.c). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "util/root.h"
#include "report/compare.h"
#include "store/store.h"
#include "tracker/tracker.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench compare [options] A B              two runs (ids or labels)\n"
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
		"  --stats LIST     verdict,insns,states,peak_states,time,mem\n"
		"                   (default: verdict,insns,states,time)\n"
		"  --filter GLOB    only programs whose name or OBJECT.o/NAME matches\n"
		"  --sort KEY       name (default), or STAT, STAT_a, STAT_b, STAT_diff, STAT_pct\n"
		"                   (numbers descending, diff and pct by magnitude)\n"
		"  --top N          only the first N rows\n"
		"  --changed        only programs whose verdict or counts (insns, states, peak\n"
		"                   states) changed; time and memory are not counted\n"
		"  --csv            CSV instead of an aligned table\n"
		"  --summary        only the summary table\n");
}

/* is name one of the comma-separated list? */
static bool list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t k = c ? (size_t)(c - p) : strlen(p);
		if (k == n && !strncmp(p, name, n))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},     {"trackers", required_argument, NULL, 'T'},
		{"tracker", required_argument, NULL, 't'}, {"stats", required_argument, NULL, 's'},
		{"filter", required_argument, NULL, 'f'}, {"sort", required_argument, NULL, 'o'},
		{"top", required_argument, NULL, 'n'},    {"changed", no_argument, NULL, 'c'},
		{"csv", no_argument, NULL, 'C'},          {"summary", no_argument, NULL, 'S'},
		{"baseline", required_argument, NULL, 'B'}, {"candidate", required_argument, NULL, 'K'},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	char root[PATH_MAX], db_default[PATH_MAX + 32];
	rb_project_root(root, sizeof(root));
	snprintf(db_default, sizeof(db_default), "%s/db/results.sqlite", root);
	const char *db = db_default, *trackers = NULL, *sort = "name", *stats_arg = "verdict,insns,states,time";
	struct rb_compare_spec spec = {0};
	bool changed_only = false, csv = false, summary_only = false;
	long top = 0;
	const char *baseline = NULL, *candidate = NULL;
	char rolebuf[128];
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'T': trackers = optarg; break;
		case 'B': baseline = optarg; break;
		case 'K': candidate = optarg; break;
		case 't': spec.tracker = optarg; break;
		case 's': stats_arg = optarg; break;
		case 'f': spec.filter = optarg; break;
		case 'o': sort = optarg; break;
		case 'c': changed_only = true; break;
		case 'C': csv = true; break;
		case 'S': summary_only = true; break;
		case 'n': {
			char *end;
			top = strtol(optarg, &end, 10);
			if (*end || top <= 0) {
				fprintf(stderr, "rangebench compare: --top wants a positive number, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	enum rb_cmp_stat stats[RB_STAT_COUNT];
	size_t nstats = 0;
	char sbuf[256];
	snprintf(sbuf, sizeof(sbuf), "%s", stats_arg);
	char *save = NULL;
	for (char *t = strtok_r(sbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int s = rb_cmp_stat_parse(t);
		if (s < 0 || nstats == RB_STAT_COUNT) {
			fprintf(stderr, "rangebench compare: unknown statistic '%s' (verdict, insns, states, "
					"peak_states, time, mem)\n", t);
			return 2;
		}
		stats[nstats++] = (enum rb_cmp_stat)s;
	}
	if (baseline || candidate) {
		const char *b = baseline ? baseline : RB_ROLE_BASELINE, *k = candidate ? candidate : RB_ROLE_CANDIDATE;
		if (trackers) {
			fprintf(stderr, "rangebench compare: --trackers or --baseline/--candidate, not both\n");
			return 2;
		}
		snprintf(rolebuf, sizeof(rolebuf), "%s,%s", b, k);
		trackers = rolebuf;
	}
	int nargs = argc - optind;
	char ta[32] = "", tb[32] = "";
	if (trackers) {
		const char *comma = strchr(trackers, ',');
		if (!comma || comma == trackers || !comma[1] || strchr(comma + 1, ',') ||
		    (size_t)(comma - trackers) >= sizeof(ta) || strlen(comma + 1) >= sizeof(tb)) {
			fprintf(stderr, "rangebench compare: --trackers wants two names, e.g. old,cnum\n");
			return 2;
		}
		memcpy(ta, trackers, (size_t)(comma - trackers));
		snprintf(tb, sizeof(tb), "%s", comma + 1);
		if (nargs > 1) {
			fprintf(stderr, "rangebench compare: --trackers takes at most one run\n");
			return 2;
		}
	} else if (nargs != 2) {
		usage(stderr);
		return 2;
	}

	struct rb_store *st;
	struct rb_err err = {{0}};
	if (rb_store_open_read(db, &st, &err) < 0) {
		fprintf(stderr, "rangebench compare: %s\n", err.msg);
		return 2;
	}
	int rc = 2;
	struct rb_compare cmp = {0};
	if (trackers) {
		spec.tracker_a = ta;
		spec.tracker_b = tb;
		if (nargs == 1 ? rb_store_find_run(st, argv[optind], "verify", &spec.run_a, &err)
			       : rb_store_latest_run(st, "verify", &spec.run_a, &err))
			goto out_err;
		spec.run_b = spec.run_a;
	} else if (rb_store_find_run(st, argv[optind], "verify", &spec.run_a, &err) < 0 ||
		   rb_store_find_run(st, argv[optind + 1], "verify", &spec.run_b, &err) < 0) {
		goto out_err;
	}
	/* each side's label, status and trackers: unknown trackers are an
	 * error, an unfinished run a warning */
	char lab[2][128], stat[2][32], trk[2][256];
	int64_t ids[2] = {spec.run_a, spec.run_b};
	for (int i = 0; i < 2; i++)
		if (rb_store_run_describe(st, ids[i], lab[i], sizeof(lab[i]), stat[i], sizeof(stat[i]), trk[i],
					  sizeof(trk[i]), &err) < 0)
			goto out_err;
	const char *want[2] = {trackers ? ta : spec.tracker, trackers ? tb : spec.tracker};
	for (int i = 0; i < 2; i++) {
		if (!want[i] || list_has(trk[i], want[i]) || (!trackers && list_has(trk[1 - i], want[i])))
			continue;
		fprintf(stderr, "rangebench compare: run %lld (%s) has no results of tracker '%s' (it has: %s)\n",
			(long long)ids[i], lab[i], want[i], *trk[i] ? trk[i] : "none");
		goto out;
	}
	for (int i = 0; i < 2 && !(i == 1 && ids[1] == ids[0]); i++)
		if (strcmp(stat[i], "complete"))
			fprintf(stderr, "rangebench compare: warning: run %lld (%s) is %s: what it lacks is "
					"counted as 'only in %c', not compared\n",
				(long long)ids[i], lab[i], stat[i], i ? 'A' : 'B');
	if (rb_compare_load(rb_store_db(st), &spec, &cmp, &err) < 0)
		goto out_err;
	if (rb_compare_sort(&cmp, sort) < 0) {
		fprintf(stderr, "rangebench compare: unknown sort key '%s'\n", sort);
		goto out;
	}
	struct rb_compare_summary sum;
	rb_compare_summarize(&cmp, &sum);
	bool *keep = calloc(cmp.n ? cmp.n : 1, sizeof(*keep));
	if (!keep)
		goto out;
	for (size_t i = 0; i < cmp.n; i++)
		keep[i] = !changed_only || rb_cmp_row_changed(&cmp.rows[i]);
	struct rb_table t;
	if (!summary_only) {
		if (!csv) {
			if (trackers)
				printf("A = run %lld (%s, %s) tracker %s, B = run %lld (%s, %s) tracker %s\n\n",
				       (long long)spec.run_a, lab[0], stat[0], ta, (long long)spec.run_b, lab[1],
				       stat[1], tb);
			else
				printf("A = run %lld (%s, %s), B = run %lld (%s, %s)\n\n", (long long)spec.run_a,
				       lab[0], stat[0], (long long)spec.run_b, lab[1], stat[1]);
		}
		if (rb_compare_table(&cmp, stats, nstats, csv, keep, (size_t)top, &t) == 0) {
			rb_table_print(&t, stdout, csv);
			rb_table_free(&t);
		}
	}
	if (summary_only || !csv) {
		if (!csv && !summary_only)
			printf("\n");
		if (rb_compare_summary_table(&sum, &t) == 0) {
			rb_table_print(&t, stdout, csv);
			rb_table_free(&t);
		}
	}
	free(keep);
	rc = sum.verdict_changes ? 1 : 0;
	goto out;
out_err:
	fprintf(stderr, "rangebench compare: %s\n", err.msg);
out:
	rb_compare_free(&cmp);
	rb_store_close(st);
	return rc;
}
