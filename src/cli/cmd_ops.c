/* cmd_ops.c — `rangebench ops`: the operator census (soundness and
 * precision of every tracker operation; see src/census/census.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "census/census.h"
#include "cli/commands.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench ops [--width 8|16|32|64] [--tracker NAME|all]... [--baseline NAME]\n"
		"                      [--op NAME...]\n"
		"                      [--pairs N] [--sets N] [--seed S] [--csv] [--threads N] [--list]\n"
		"                      [--examples]\n"
		"  Soundness and precision census of every tracker operation. At width 8\n"
		"  every concrete value is checked; at 16/32/64 values are sampled.\n"
		"  --pairs: cases per binary op (default 100000 at width 8, 20000 wider);\n"
		"  --sets: at width 8, unary ops use at most N of the generator's input sets.\n"
		"  --tracker: a registry tracker ('rangebench trackers'), repeatable; default all.\n"
		"  --baseline: every other tracker is compared with it (default old).\n"
		"  --examples: print, per op, one case where a tracker is looser than the baseline.\n"
		"  --op takes op names (add64, add32_imm, jsgt32, ld16, ...) or base names\n"
		"  (add, jsgt, ...: every form); --list prints them. Exit: 0 sound, 1 an\n"
		"  unsound case (a counterexample is printed), 2 bad usage.\n");
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "rangebench ops: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return 2;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static void list_one(const char *name, const char *kind, void *ctx)
{
	(void)ctx;
	printf("%-14s %s\n", name, kind);
}

int cmd_ops(int argc, char **argv)
{
	struct rb_census_opts o = {.bits = 8, .seed = 1};
	const char **ops = calloc((size_t)argc + 1, sizeof(*ops));
	const char *trackers[RB_CENSUS_TABLE_TRACKERS + 1] = {0};
	unsigned ntrk = 0;
	unsigned nops = 0;
	bool csv = false, examples = false;
	int rc = 2;
	if (!ops)
		return bad("%s", "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			rc = 0;
			goto out;
		} else if (!strcmp(a, "--list")) {
			rb_census_ops_foreach(list_one, NULL);
			rc = 0;
			goto out;
		} else if (!strcmp(a, "--csv")) {
			csv = true;
		} else if (!strcmp(a, "--examples")) {
			examples = true;
		} else if (!strcmp(a, "--width")) {
			if (!parse_u64(v, &n) || (n != 8 && n != 16 && n != 32 && n != 64)) {
				rc = bad("--width must be 8, 16, 32 or 64, not '%s'", v ? v : "");
				goto out;
			}
			o.bits = (unsigned)n;
			i++;
		} else if (!strcmp(a, "--pairs")) {
			if (!parse_u64(v, &n) || n == 0 || n > RB_CENSUS_MAX_PAIRS) {
				rc = bad("--pairs must be between 1 and 1000000000, not '%s'", v ? v : "");
				goto out;
			}
			o.pairs = n;
			i++;
		} else if (!strcmp(a, "--sets")) {
			if (!parse_u64(v, &n) || n == 0 || n > RB_CENSUS_MAX_PAIRS) {
				rc = bad("--sets must be between 1 and 1000000000, not '%s'", v ? v : "");
				goto out;
			}
			o.sets = n;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (!parse_u64(v, &n)) {
				rc = bad("--seed must be a non-negative integer, not '%s'", v ? v : "");
				goto out;
			}
			o.seed = n;
			i++;
		} else if (!strcmp(a, "--threads")) {
			if (!parse_u64(v, &n) || n == 0 || n > 1024) {
				rc = bad("--threads must be between 1 and 1024, not '%s'", v ? v : "");
				goto out;
			}
			o.threads = (unsigned)n;
			i++;
		} else if (!strcmp(a, "--tracker")) {
			if (!v || (!rb_tracker_known(v, false) && strcmp(v, "all"))) {
				char names[256];
				rb_tracker_names(names, sizeof(names), ", ", false);
				fprintf(stderr, "rangebench ops: --tracker must be one of %s or all, not '%s'\n", names, v ? v : "");
				rc = 2;
				goto out;
			}
			if (strcmp(v, "all") && ntrk < RB_CENSUS_TABLE_TRACKERS)
				trackers[ntrk++] = v;
			i++;
		} else if (!strcmp(a, "--baseline")) {
			if (!v || !rb_tracker_known(v, false)) {
				char names[256];
				rb_tracker_names(names, sizeof(names), ", ", false);
				fprintf(stderr, "rangebench ops: --baseline must be one of %s, not '%s'\n", names, v ? v : "");
				rc = 2;
				goto out;
			}
			o.baseline = v;
			i++;
		} else if (!strcmp(a, "--op")) {
			if (!v || v[0] == '-') {
				rc = bad("%s needs an op name (see --list)", a);
				goto out;
			}
			/* NAME... : every following argument up to the next option */
			for (; i + 1 < argc && argv[i + 1][0] != '-'; i++)
				ops[nops++] = argv[i + 1];
		} else {
			rc = bad("unknown argument '%s' (try 'rangebench ops --help')", a);
			goto out;
		}
	}
	o.ops = nops ? ops : NULL;
	o.trackers = trackers[0] ? trackers : NULL;

	struct rb_err err = {{0}};
	if (rb_census_check_opts(&o, &err) < 0) {
		fprintf(stderr, "rangebench ops: %s\n", err.msg);
		goto out;
	}
	unsigned ntr = ntrk;
	if (!o.trackers)
		for (const struct rb_tracker *const *p = rb_trackers(o.bits); p && *p; p++)
			ntr++;
	struct rb_census_table t = {.out = stdout, .csv = csv, .examples = examples};
	struct rb_census_summary sum;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rb_census_table_header(&t, &o, ntr);
	if (rb_census_run(&o, rb_census_table_row, &t, &sum, &err) != 0) {
		rb_census_table_footer(&t, NULL, stderr);
		fprintf(stderr, "rangebench ops: %s\n", err.msg);
		rc = 2;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rb_census_table_footer(&t, &sum, csv ? stderr : stdout);
	if (!csv)
		printf("# %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (sum.unsound)
		fprintf(stderr, "rangebench ops: %llu unsound case%s\n", (unsigned long long)sum.unsound,
			sum.unsound == 1 ? "" : "s");
	rc = sum.unsound ? 1 : 0;
out:
	free(ops);
	return rc;
}
