/* cmd_opdiff.c — `rangebench opdiff`: the old tracker against the running
 * kernel's verifier on random reg_bounds-style programs. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "tracker/tracker.h"
#include "oracle/opdiff.h"
#include "util/sort.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench opdiff [--cases N] [--seed S] [--first K] [--show M] [--tracker old]\n"
		"                         [--categories] [--verbose] [--log]\n"
		"Generates N random short programs (two unknown scalars, range-setting branches,\n"
		"one ALU operation or conditional jump), loads each into the running kernel at log\n"
		"level 2, and compares the states the kernel prints with the tracker's at the same\n"
		"instructions, and whether each jump outcome is explored. Prints the first M\n"
		"mismatching cases (default 5) and a summary; --categories lists every kind of\n"
		"mismatch with its count; --log adds the kernel's log to each printed case.\nExit 1 on any mismatch; exit 0 with the check skipped\n"
		"where bpf() is not permitted. Defaults: --cases 1000 --seed 1 --first 0.\n");
}

static int parse_u64(const char *s, const char *what, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || !*s || *end || s[0] == '-' || v > max) {
		fprintf(stderr, "rangebench opdiff: bad %s '%s' (0..%llu)\n", what, s, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

static int cmp_cat(const void *a, const void *b)
{
	const struct rb_opdiff_cat *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

int cmd_opdiff(int argc, char **argv)
{
	static const struct option lo[] = {
		{"cases", required_argument, NULL, 'n'}, {"seed", required_argument, NULL, 's'},
		{"first", required_argument, NULL, 'f'}, {"show", required_argument, NULL, 'm'},
		{"tracker", required_argument, NULL, 't'}, {"verbose", no_argument, NULL, 'v'},
		{"categories", no_argument, NULL, 'c'}, {"log", no_argument, NULL, 'l'}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct rb_opdiff_opts o = {.seed = 1, .first = 0, .cases = 1000, .tracker = "old", .show = 5, .out = stdout};
	bool cats = false;
	uint64_t v;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:s:f:m:t:vclh", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u64(optarg, "case count", 100000000, &o.cases) || o.cases == 0) {
				if (o.cases == 0)
					fprintf(stderr, "rangebench opdiff: bad case count '%s' (1..100000000)\n", optarg);
				return 2;
			}
			break;
		case 's':
			if (parse_u64(optarg, "seed", UINT64_MAX, &o.seed))
				return 2;
			break;
		case 'f':
			if (parse_u64(optarg, "first case", UINT64_MAX / 2, &o.first))
				return 2;
			break;
		case 'm':
			if (parse_u64(optarg, "--show count", 100000, &v))
				return 2;
			o.show = (unsigned)v;
			break;
		case 't':
			if (!rb_tracker_known(optarg, false)) {
				char names[256];
				rb_tracker_names(names, sizeof(names), ", ", false);
				fprintf(stderr, "rangebench opdiff: unknown tracker '%s' (%s)\n", optarg, names);
				return 2;
			}
			o.tracker = optarg;
			break;
		case 'v': o.verbose = true; break;
		case 'c': cats = true; break;
		case 'l': o.print_log = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rangebench opdiff: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	struct rb_opdiff_stats *st = malloc(sizeof(*st));
	if (!st) {
		fprintf(stderr, "rangebench opdiff: out of memory\n");
		return 2;
	}
	struct rb_err err = {{0}};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (rb_opdiff_run(&o, st, &err) < 0) {
		fprintf(stderr, "rangebench opdiff: %s\n", err.msg);
		free(st);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (st->skipped) {
		printf("opdiff: skipped: %s; the kernel cannot be compared on this machine\n", st->skip_reason);
		free(st);
		return 0;
	}
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (cats && st->ncats) {
		rb_sort(st->cats, st->ncats, sizeof(st->cats[0]), cmp_cat);
		printf("mismatch categories, earliest mismatch of each case (count, first case, kind):\n");
		for (unsigned i = 0; i < st->ncats; i++)
			printf("  %6llu  case %-8llu %s\n", (unsigned long long)st->cats[i].count,
			       (unsigned long long)st->cats[i].first_case, st->cats[i].key);
		if (st->uncategorised)
			printf("  %6llu  (more categories not listed)\n", (unsigned long long)st->uncategorised);
	}
	printf("opdiff: tracker %s vs kernel, seed %llu: %llu cases, %llu rejected by the kernel, "
	       "%llu not replayable, %llu states / %llu register values / %llu jump outcomes compared, "
	       "%llu mismatches (%llu print-only, %llu downstream of an earlier one) in %llu cases, "
	       "%llu kernel invariant violations (%.1f s)\n",
	       o.tracker, (unsigned long long)o.seed, (unsigned long long)st->cases,
	       (unsigned long long)st->rejected, (unsigned long long)st->unreplayable,
	       (unsigned long long)st->states, (unsigned long long)st->regs, (unsigned long long)st->branches,
	       (unsigned long long)st->mismatches, (unsigned long long)st->print_only,
	       (unsigned long long)st->downstream,
	       (unsigned long long)st->cases_mismatching, (unsigned long long)st->invariant_violations, secs);
	int rc = st->mismatches ? 1 : 0;
	free(st);
	return rc;
}
