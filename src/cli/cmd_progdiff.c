/* cmd_progdiff.c — `rangebench progdiff`: random programs of every progen
 * family verified by the running kernel and by the engine (old), compared
 * on verdict, processed instructions and every logged state. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "kernels/kernels.h"
#include "progen/progen.h"
#include "verify/progdiff.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench progdiff [--family NAME|all] [--cases N] [--seed S] [--first K]\n"
		   "                           [--show M] [--tracker NAME] [--reference kernel|NAME] [--log]\n"
		   "                           [--guest-jobs J] [--batch B] [--round R] [--guest-timeout S]\n"
		   "                           [--no-logs]\n"
		   "Generates N random programs per family (program indexes K .. K+N-1 of seed S),\n"
		   "verifies each with the running kernel (log level 2|4; or, with --reference, the\n"
		   "engine with that registry tracker, or a kernel image of kernels.conf in its guest)\n"
		   "and with the engine's --tracker, and compares verdicts, messages, processed\n"
		   "instructions, traces (instructions walked, branch switches, prunings) and every\n"
		   "logged state line; counts the programs only one side accepts (e.g. --reference\n"
		   "old --tracker cnum: 'old accepts, cnum rejects').\n"
		   "--tracker defaults to old; against a kernel image kernel-P whose P is an engine\n"
		   "profile after 6.18, to cnum-mainline@P (kernel-7.2: cnum-mainline@7.2).\n"
		   "A kernel image gets the programs as batch files of B programs (default 500),\n"
		   "at most R programs per guest run (default 20000; a progress line on stderr after\n"
		   "each), J guests at once (default 1); it sends back each log's digests, not the\n"
		   "log; a guest silent for S seconds (default 300) is killed and its programs\n"
		   "counted under no-ref. The differing programs shown are verified once more with\n"
		   "their logs. --no-logs (kernel images): verdicts, messages and instruction\n"
		   "counts only, the guest verifying at log level 4, several times faster.\n"
		   "Prints the first M differing programs (default 3) with the first differing log\n"
		   "line and the program (--log: and both whole logs), then a table per family.\n"
		   "Exit 1 on any difference, 2 on bad\n"
		   "usage; exit 0 with the check skipped where bpf() is not permitted or the kernel\n"
		   "image cannot boot here (not downloaded, no QEMU).\n"
		   "Defaults: --family all --cases 200 --seed 1 --first 0.\nFamilies:");
	for (int i = 0; i < rb_progen_family_count(); i++)
		fprintf(f, " %s", rb_progen_family_name(i));
	fprintf(f, "\n");
}

static int parse_u64(const char *s, const char *what, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || !*s || *end || s[0] == '-') {
		fprintf(stderr, "rangebench progdiff: bad %s '%s'\n", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

static void row(const char *name, const struct rb_progdiff_counts *c)
{
	double pct = c->states ? 100.0 * (double)c->states_same / (double)c->states : 100.0;
	printf("%-8s %8llu %8llu %8llu %8llu %8llu %8llu %10llu %9.3f%% %8llu %8llu %8llu\n", name,
	       (unsigned long long)c->programs, (unsigned long long)c->kernel_accepts,
	       (unsigned long long)c->verdict_diffs, (unsigned long long)c->message_diffs,
	       (unsigned long long)c->insn_diffs, (unsigned long long)c->log_diffs, (unsigned long long)c->states,
	       pct, (unsigned long long)c->engine_other, (unsigned long long)c->trace_diffs,
	       (unsigned long long)c->no_reference);
}

int cmd_progdiff(int argc, char **argv)
{
	static const struct option lo[] = {
		{"family", required_argument, NULL, 'F'}, {"cases", required_argument, NULL, 'n'},
		{"seed", required_argument, NULL, 's'},   {"first", required_argument, NULL, 'f'},
		{"show", required_argument, NULL, 'm'},   {"tracker", required_argument, NULL, 't'},
		{"log", no_argument, NULL, 'l'},          {"help", no_argument, NULL, 'h'},
		{"reference", required_argument, NULL, 'r'},
		{"guest-jobs", required_argument, NULL, 'J'},     {"batch", required_argument, NULL, 'B'},
		{"no-logs", no_argument, NULL, 'N'},              {"round", required_argument, NULL, 'R'},          {"guest-timeout", required_argument, NULL, 'T'},
		{NULL, 0, NULL, 0},
	};
	struct rb_progdiff_opts o = {.family = -1, .seed = 1, .cases = 200, .show = 3, .out = stdout, .progress = stderr};
	uint64_t v;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (!strcmp(optarg, "all")) {
				o.family = -1;
			} else if ((o.family = rb_progen_family_find(optarg)) < 0) {
				fprintf(stderr, "rangebench progdiff: no family '%s'\n", optarg);
				usage(stderr);
				return 2;
			}
			break;
		case 'n':
			if (parse_u64(optarg, "--cases", &o.cases) < 0)
				return 2;
			break;
		case 's':
			if (parse_u64(optarg, "--seed", &o.seed) < 0)
				return 2;
			break;
		case 'f':
			if (parse_u64(optarg, "--first", &o.first) < 0)
				return 2;
			break;
		case 'm':
			if (parse_u64(optarg, "--show", &v) < 0)
				return 2;
			o.show = v > 100000 ? 100000 : (unsigned)v;
			break;
		case 't':
			o.tracker = optarg;
			break;
		case 'r':
			o.reference = optarg;
			break;
		case 'l':
			o.logs = true;
			break;
		case 'N':
			o.no_logs = true;
			break;
		case 'J':
		case 'B':
		case 'T':
			if (parse_u64(optarg, c == 'J' ? "--guest-jobs" : c == 'B' ? "--batch" : "--guest-timeout", &v) < 0)
				return 2;
			if (v == 0 || v > (c == 'J' ? 8 : c == 'B' ? 20000 : 86400)) {
				fprintf(stderr, "rangebench progdiff: %s out of range\n",
					c == 'J' ? "--guest-jobs (1..8)" : c == 'B' ? "--batch (1..20000)" : "--guest-timeout (1..86400)");
				return 2;
			}
			if (c == 'J')
				o.guest_jobs = (unsigned)v;
			else if (c == 'B')
				o.batch = (unsigned)v;
			else
				o.guest_timeout_s = (unsigned)v;
			break;
		case 'R':
			if (parse_u64(optarg, "--round", &o.round) < 0 || o.round == 0) {
				fprintf(stderr, "rangebench progdiff: --round must be at least 1\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	struct rb_progdiff_stats *st = malloc(sizeof(*st));
	if (!st) {
		fprintf(stderr, "rangebench progdiff: out of memory\n");
		return 2;
	}
	struct rb_err err = {{0}};
	if (rb_progdiff_run(&o, st, &err) < 0) {
		fprintf(stderr, "rangebench progdiff: %s\n", err.msg);
		free(st);
		return 2;
	}
	if (st->skipped) {
		printf("progdiff skipped: %s\n", st->skip_reason);
		free(st);
		return 0;
	}
	printf("%-8s %8s %8s %8s %8s %8s %8s %10s %10s %8s %8s %8s\n", "family", "programs", "r-accept", "verdict",
	       "message", "insns", "logs", "states", "identical", "no-verd", "trace", "no-ref");
	for (int i = 0; i < st->nfam; i++)
		row(rb_progen_family_name(st->fam_id[i]), &st->fam[i]);
	if (st->nfam > 1)
		row("total", &st->total);
	const char *ref = o.reference ? o.reference : RB_KERNEL_RUNNING;
	const char *tr = st->tracker;
	printf("seed %llu, programs %llu..%llu of each family, tracker %s, reference %s", (unsigned long long)o.seed,
	       (unsigned long long)o.first, (unsigned long long)(o.first + o.cases - 1), tr, ref);
	if (st->release[0])
		printf(" (%s, %s, %u guests)", st->release, st->accel[0] ? st->accel : "?", st->guests);
	printf("\n%s accepts, %s rejects: %llu; %s accepts, %s rejects: %llu\n", ref, tr,
	       (unsigned long long)st->total.ref_only, tr, ref, (unsigned long long)st->total.tracker_only);
	if (!st->logs_compared)
		printf("logs not compared (--no-logs): the logs, states, identical and trace columns are empty\n");
	int rc = rb_progdiff_differs(&st->total) ? 1 : 0;
	free(st);
	return rc;
}
