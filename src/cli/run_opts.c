/* run_opts.c — the command line of `rangebench run`: options (the
 * numeric ones as a table of ranges), inputs (default: the default
 * corpus) and the trackers asked for, minus those that cannot run here. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify/row.h"
#include "verify/verify.h"
#include "cli/run_opts.h"
#include "cli/type_opts.h"
#include "guest/guest.h"
#include "kernels/kernels.h"
#include "tracker/tracker.h"
#include "util/root.h"
#include "util/array_size.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench run [--trackers LIST] [-j N] [--db FILE] [--label TEXT]\n"
		"                      [--filter GLOB] [--repeat N] [--insn-limit N] [--time-limit SEC]\n"
		"                      [--mem-limit MIB] [--compiled-helpers] [--explore-time] [--interleave]\n"
		"                      [--keep-logs changed|all [--keep-logs-head MIB]]\n"
		"                      [--census | --no-census] [--prog-type TYPE] [--shard K/N]\n"
		"                      [--shard-costs DB]\n"
		"                      [-q] [CORPUS_DIR|OBJ]...\n"
		"\n"
		"Verifies every program of the given corpus directories and objects with each\n"
		"tracker and stores one row per (program, tracker) in the results database.\n"
		"Without CORPUS_DIR/OBJ: the default corpus (programs/corpus/default/), every\n"
		"available tracker, db/results.sqlite, and the operator census (--census).\n"
		"A directory with a manifest.tsv runs the objects it lists; otherwise every *.o\n"
		"below it. Trackers that cannot run here (kernel without bpf(), engine not built)\n"
		"are skipped with a note. Each object is verified in a child process, so a\n"
		"verifier crash costs one row ('load_error'), not the run. Ctrl-C stops\n"
		"cleanly: the run is marked incomplete and what finished is kept.\n"
		"\n"
		"  --trackers LIST  comma-separated (default: every registry tracker and the\n"
		"                   kernel; 'rangebench trackers' lists them): an engine\n"
		"                   tracker (NAME@7.2: in the engine's 7.2 profile), kernel\n"
		"                   (the running one), or a kernel image of kernels.conf\n"
		"                   (verified in guests, one boot per batch of objects)\n"
		"  -j N             parallel workers (default: number of cores)\n"
		"  --db FILE        results database (default: db/results.sqlite)\n"
		"  --label TEXT     the run's label, used by compare (default: run)\n"
		"  --filter GLOB    only programs whose name or OBJECT.o/NAME matches\n"
		"  --repeat N       verify each program N times, keep the median time (default 1)\n"
		"                   and the least and most (verify_us_min/_max, explore_*)\n"
		"  --explore-time   time the running kernel's exploration alone (explore_us,\n"
		"                   explore_cpu_us: sampled with perf, oracle/ksample.h; the\n"
		"                   engine always times its own): like for like, where the log's\n"
		"                   time also holds the kernel's rewrites and subprogram JIT\n"
		"  --interleave     with --repeat: each program's trackers verified in rounds, one\n"
		"                   repeat of each per round (not one tracker's N, then the\n"
		"                   next's), so a slower stretch of the machine falls on all alike\n"
		"  --insn-limit N   instruction budget per program for the engine's trackers\n"
		"                   (default: the kernel's 1000000, which kernels cannot change)\n"
		"  --time-limit S   time budget per program and tracker in seconds (default 60;\n"
		"                   0 = none); a verification still running is stopped and\n"
		"                   recorded as 'limit'\n"
		"  --mem-limit MIB  resident memory of one verifier process (default 4096; 0 =\n"
		"                   none); past it the verification is stopped and recorded as\n"
		"                   'limit', naming the limit\n"
		"  --census         also run the operator census (width 8) into the database\n"
		"                   (the default when no corpus is given; --no-census: never)\n"
		"  --census-pairs N input pairs per binary operation in that census (default\n"
		"                   2000; 'rangebench ops --width 8' runs the full 100000)\n"
		"  --census-sets N  input sets per unary operation in that census (default\n"
		"                   2000; 'rangebench ops --width 8' runs every set). The\n"
		"                   defaults keep the census about 10 s of CPU; the full one\n"
		"                   is 'rangebench ops' (about 100 s of CPU)\n"
		"  --prog-type TYPE the program type of programs whose section libbpf does not\n"
		"                   know, in objects whose manifest row names none (a manifest's\n"
		"                   optional prog_type column sets it per object)\n"
		"  --shard K/N      only shard K of N: a deterministic 1/N of the programs (by a\n"
		"                   hash of object content, section and name), the same on every\n"
		"                   machine; the census runs in shard 1 only. Combine the shards'\n"
		"                   databases with 'rangebench merge' (one run per label)\n"
		"  --shard-costs DB with --shard: programs an earlier run in DB (any results\n"
		"                   database, the run's own --db included) verified are dealt to\n"
		"                   shards by the instructions they processed there, largest\n"
		"                   first to the least loaded shard; the others by the hash.\n"
		"                   Every machine given the same DB picks the same programs\n"
		"  --kernel-inputs DIR  the inputs of the kernel the engine rows of a profile\n"
		"                   after 6.18 (NAME@7.2) stand for: its vmlinux BTF, kernel\n"
		"                   configuration and uname -a (files btf, config, uname, as\n"
		"                   make kernels writes them), with which libbpf prepares their\n"
		"                   objects as on that kernel (CO-RE, attach targets, kfunc ids,\n"
		"                   CONFIG_* and LINUX_* externs). Default: the kernel cache's\n"
		"                   inputs of image kernel-PROFILE (kernels.conf) when it has\n"
		"                   them; 'none': the running kernel's\n"
		"  --compiled-helpers  which helpers each program type may call from the\n"
		"                   compiled-in 6.18 sets; by default from the running kernel\n"
		"                   where bpf() can measure it ('rangebench helpers'). The run\n"
		"                   records which (runs.helper_sets)\n"
		"  --keep-logs WHICH after the run, store the level-2 log of each program\n"
		"                   whose rows differ between the run's trackers (changed) or\n"
		"                   of every program (all), per tracker (engine trackers and\n"
		"                   the running kernel), so that 'explain --run A --run-b B'\n"
		"                   shows where two runs part when the build of one is gone\n"
		"  --keep-logs-head MIB  each kept log's first MIB MiB (default 16)\n"
		"  -q               no progress output\n");
}

static int parse_u(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || !*s || *end || v > max || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

/* a decimal number of seconds, 0 <= v <= 1e6: no "nan", "inf", "", hex */
static int parse_seconds(const char *s, double *out)
{
	if (!*s || strspn(s, "0123456789.") != strlen(s) || strchr(s, '.') != strrchr(s, '.'))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !(v >= 0 && v <= 1e6))
		return -1;
	*out = v;
	return 0;
}

/* the numeric options: accepted range and the message for anything else */
struct num_opt {
	int key;
	unsigned long long min, max;
	const char *what; /* the message: "rangebench run: WHAT'ARG'" */
	unsigned *u;     /* the target: one of these two */
	uint64_t *u64;
};

static int parse_num(const struct num_opt *n, const char *arg)
{
	unsigned long long v;
	if (parse_u(arg, n->max, &v) < 0 || v < n->min) {
		fprintf(stderr, "rangebench run: %s'%s'\n", n->what, arg);
		return 2;
	}
	if (n->u)
		*n->u = (unsigned)v;
	else
		*n->u64 = v;
	return -1;
}

static int parse_shard(struct rb_driver_opts *o, const char *arg)
{
	unsigned k = 0, n = 0;
	char tail;
	if (sscanf(arg, "%u/%u%c", &k, &n, &tail) != 2 || n == 0 || n > 100000 || k == 0 || k > n) {
		fprintf(stderr, "rangebench run: --shard wants K/N with 1 <= K <= N, not '%s'\n", arg);
		return 2;
	}
	o->shard_k = k;
	o->shard_n = n;
	return -1;
}

/* one option (getopt's c and optarg): -1 to go on, else the exit code */
static int parse_opt(struct run_cli *c, int key, const char *arg)
{
	const struct num_opt nums[] = {
		{'j', 1, 1024, "-j wants 1..1024, not ", &c->o.jobs, NULL},
		{'r', 1, 64, "--repeat wants 1..64, not ", &c->o.repeat, NULL},
		{'I', 0, UINT64_MAX, "bad --insn-limit ", NULL, &c->o.insn_limit},
		{'P', 1, 1000000000ULL, "bad --census-pairs ", NULL, &c->census_pairs},
		{'E', 1, 1000000000ULL, "bad --census-sets ", NULL, &c->census_sets},
		{'M', 0, 1ULL << 40, "--mem-limit wants MiB (0 = none), not ", NULL, &c->o.mem_limit_mib},
		{'G', 1, 1023, "--keep-logs-head wants 1..1023 (MiB), not ", NULL, &c->keep_logs_mib},
	};
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		if (nums[i].key == key)
			return parse_num(&nums[i], arg);
	switch (key) {
	case 't': c->trackers_arg = arg; return -1;
	case 'd': c->db = arg; return -1;
	case 'l': c->label = arg; return -1;
	case 'f': c->o.filter = arg; return -1;
	case 'c': c->census = 1; return -1;
	case 'C': c->census = 0; return -1;
	case 'q': c->quiet = 1; return -1;
	case 'H': c->o.compiled_helpers = true; return -1;
	case 'x': c->o.explore_time = true; return -1;
	case 'i': c->o.interleave = true; return -1;
	case 'S': return parse_shard(&c->o, arg);
	case 'K': c->shard_costs = arg; return -1;
	case 'X': {
		struct rb_load_opts lo = {.kernel_inputs = arg};
		if (rb_cli_check_type_opts("run", &lo))
			return 2;
		c->kernel_inputs_arg = arg;
		return -1;
	}
	case 'L':
		if (!rb_keep_logs_parse(arg, &c->keep_logs)) {
			fprintf(stderr, "rangebench run: --keep-logs wants 'changed' or 'all', not '%s'\n", arg);
			return 2;
		}
		return -1;
	case 'T':
		if (parse_seconds(arg, &c->o.time_limit_s) < 0) {
			fprintf(stderr, "rangebench run: --time-limit wants seconds from 0 to 1000000 "
					"(0 = none), not '%s'\n", arg);
			return 2;
		}
		return -1;
	case 'Y': {
		struct rb_load_opts lo = {.prog_type = arg};
		if (rb_cli_check_type_opts("run", &lo))
			return 2;
		c->o.prog_type = arg;
		return -1;
	}
	case 'h': usage(stdout); return 0;
	default: usage(stderr); return 2;
	}
}

/* no inputs: the default corpus (and the census unless --no-census) */
static int default_inputs(struct run_cli *c)
{
	c->def_inputs[0] = c->corpus_default;
	c->inputs = c->def_inputs;
	c->ninputs = 1;
	if (c->census < 0)
		c->census = 1;
	struct stat sb;
	if (stat(c->corpus_default, &sb) < 0) {
		fprintf(stderr, "rangebench run: no default corpus at %s (build it with 'make corpus')\n",
			c->corpus_default);
		return 2;
	}
	return -1;
}

/* one tracker asked for: kept (once), skipped with a note, or an error */
static int add_tracker(struct run_cli *c, const char *t)
{
	struct rb_driver_opts *o = &c->o;
	if (!rb_row_known(t, true)) {
		char names[384];
		rb_row_names(names, sizeof(names), ", ", true);
		fprintf(stderr, "rangebench run: unknown tracker '%s' (%s)\n", t, names);
		return 2;
	}
	for (unsigned i = 0; i < o->ntrackers; i++)
		if (!strcmp(o->trackers[i], t))
			return -1;
	for (unsigned i = 0; i < c->nguests; i++)
		if (!strcmp(c->guests[i], t))
			return -1;
	char why[600];
	struct rb_kernel k;
	/* a kernel image (src/kernels/): its guests run after the driver */
	bool image = !rb_tracker_get(t, 64) && rb_kernel_find(t, &k, NULL) == 0 && k.backend != RB_KBACK_RUNNING;
	if (image ? !rb_guest_available(&k, why, sizeof(why)) : !rb_driver_tracker_available(t, why, sizeof(why))) {
		fprintf(stderr, "note: tracker '%s' skipped: not available here (%s)\n", t, why);
		return -1;
	}
	if (rb_kernel_known(t) && o->insn_limit) {
		fprintf(stderr, "rangebench run: --insn-limit applies to old and cnum only: the "
				"kernel's budget is fixed at 1000000 (drop '%s' from --trackers)\n", t);
		return 2;
	}
	if (image) {
		if (c->nguests == RB_DRIVER_MAX_TRACKERS) {
			fprintf(stderr, "rangebench run: at most %d kernel images\n", RB_DRIVER_MAX_TRACKERS);
			return 2;
		}
		snprintf(c->guests[c->nguests++], sizeof(c->guests[0]), "%s", t);
		snprintf(c->ran + strlen(c->ran), sizeof(c->ran) - strlen(c->ran), "%s%s", *c->ran ? "," : "", t);
		return -1;
	}
	if (o->ntrackers == RB_DRIVER_MAX_TRACKERS) {
		fprintf(stderr, "rangebench run: at most %d trackers\n", RB_DRIVER_MAX_TRACKERS);
		return 2;
	}
	snprintf(c->tnames[o->ntrackers], sizeof(c->tnames[0]), "%s", t);
	o->trackers[o->ntrackers] = c->tnames[o->ntrackers];
	o->kernel_inputs[o->ntrackers] =
		rb_verify_row_inputs(t, c->kernel_inputs_arg, c->tinputs[o->ntrackers], sizeof(c->tinputs[0]));
	if (o->kernel_inputs[o->ntrackers] && !c->quiet)
		fprintf(stderr, "note: tracker '%s' opens objects with the kernel inputs in %s\n", t,
			o->kernel_inputs[o->ntrackers]);
	o->ntrackers++;
	snprintf(c->ran + strlen(c->ran), sizeof(c->ran) - strlen(c->ran), "%s%s", *c->ran ? "," : "", t);
	return -1;
}

/* trackers: requested (or all), minus those that cannot run here */
static int select_trackers(struct run_cli *c)
{
	char names_all[256];
	rb_tracker_names(names_all, sizeof(names_all), ",", true); /* every registry tracker, then the kernel */
	char *tbuf = strdup(c->trackers_arg ? c->trackers_arg : names_all);
	if (!tbuf) {
		fprintf(stderr, "rangebench run: out of memory\n");
		return 2;
	}
	char *save = NULL;
	int rc = -1;
	for (char *t = strtok_r(tbuf, ",", &save); t && rc < 0; t = strtok_r(NULL, ",", &save))
		rc = add_tracker(c, t);
	free(tbuf);
	if (rc >= 0)
		return rc;
	if (c->o.ntrackers == 0 && c->nguests == 0) {
		fprintf(stderr, "rangebench run: %s\n",
			c->trackers_arg && strspn(c->trackers_arg, ",") == strlen(c->trackers_arg)
				? "--trackers names no tracker"
				: "none of the trackers can run here");
		return 2;
	}
	return -1;
}

int rb_run_cli_parse(int argc, char **argv, struct run_cli *c)
{
	static const struct option longopts[] = {
		{"trackers", required_argument, NULL, 't'}, {"db", required_argument, NULL, 'd'},
		{"label", required_argument, NULL, 'l'},    {"filter", required_argument, NULL, 'f'},
		{"repeat", required_argument, NULL, 'r'},   {"insn-limit", required_argument, NULL, 'I'},
		{"time-limit", required_argument, NULL, 'T'}, {"census", no_argument, NULL, 'c'},
		{"no-census", no_argument, NULL, 'C'},      {"help", no_argument, NULL, 'h'},
		{"census-pairs", required_argument, NULL, 'P'},
		{"census-sets", required_argument, NULL, 'E'},
		{"prog-type", required_argument, NULL, 'Y'},
		{"shard", required_argument, NULL, 'S'},
		{"shard-costs", required_argument, NULL, 'K'},
		{"mem-limit", required_argument, NULL, 'M'},
		{"compiled-helpers", no_argument, NULL, 'H'},
		{"explore-time", no_argument, NULL, 'x'},
		{"interleave", no_argument, NULL, 'i'},
		{"keep-logs", required_argument, NULL, 'L'},
		{"keep-logs-head", required_argument, NULL, 'G'},
		{"kernel-inputs", required_argument, NULL, 'X'},
		{NULL, 0, NULL, 0},
	};
	memset(c, 0, sizeof(*c));
	rb_project_root(c->root, sizeof(c->root));
	snprintf(c->db_default, sizeof(c->db_default), "%s/db/results.sqlite", c->root);
	snprintf(c->corpus_default, sizeof(c->corpus_default), "%s/programs/corpus/default", c->root);
	c->db = c->db_default;
	c->label = "run";
	c->keep_logs_mib = 16;
	c->o = (struct rb_driver_opts){.repeat = 1, .time_limit_s = 60, .mem_limit_mib = RB_DRIVER_MEM_LIMIT_MIB};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	c->o.jobs = ncpu > 0 ? (unsigned)ncpu : 1;
	c->census = -1;
	c->census_pairs = 2000;
	c->census_sets = 2000;
	int key, rc;
	optind = 1;
	while ((key = getopt_long(argc, argv, "j:qh", longopts, NULL)) != -1)
		if ((rc = parse_opt(c, key, optarg)) >= 0)
			return rc;
	struct rb_err ke = {{0}};
	if (c->o.explore_time && rb_ksyms_read(&c->o.ksyms, NULL, &ke)) {
		fprintf(stderr, "rangebench run: --explore-time: %s\n", ke.msg);
		return 2;
	}
	c->inputs = (const char *const *)argv + optind;
	c->ninputs = (size_t)(argc - optind);
	if (c->shard_costs && c->o.shard_n <= 1) {
		fprintf(stderr, "rangebench run: --shard-costs balances shards: it needs --shard K/N with N >= 2\n");
		return 2;
	}
	if (c->ninputs == 0 && (rc = default_inputs(c)) >= 0)
		return rc;
	return select_trackers(c);
}
