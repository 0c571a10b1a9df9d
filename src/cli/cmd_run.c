/* cmd_run.c — `rangebench run`: every program of a corpus through each
 * verifier, into the results database (src/driver/, src/store/). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "census/census.h"
#include "cli/commands.h"
#include "cli/type_opts.h"
#include "tracker/tracker.h"
#include "driver/census_store.h"
#include "driver/driver.h"
#include "driver/fault.h"
#include "store/runinfo.h"
#include "util/root.h"
#include "report/run_summary.h"
#include "store/store.h"

/* Set by SIGINT/SIGTERM; the only thing the handler touches. */
static volatile sig_atomic_t run_stop;

static void on_signal(int sig)
{
	(void)sig;
	run_stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench run [--trackers LIST] [-j N] [--db FILE] [--label TEXT]\n"
		"                      [--filter GLOB] [--repeat N] [--insn-limit N] [--time-limit SEC]\n"
		"                      [--mem-limit MIB]\n"
		"                      [--census | --no-census] [--prog-type TYPE] [--shard K/N]\n"
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
		"                   kernel; 'rangebench trackers' lists them)\n"
		"  -j N             parallel workers (default: number of cores)\n"
		"  --db FILE        results database (default: db/results.sqlite)\n"
		"  --label TEXT     the run's label, used by compare (default: run)\n"
		"  --filter GLOB    only programs whose name or OBJECT.o/NAME matches\n"
		"  --repeat N       verify each program N times, keep the median time (default 1)\n"
		"  --insn-limit N   instruction budget per program for old and cnum (default: the\n"
		"                   kernel's 1000000, which the kernel tracker cannot change)\n"
		"  --time-limit S   time budget per program and tracker in seconds (default 60;\n"
		"                   0 = none); a verification still running is stopped and\n"
		"                   recorded as 'limit'\n"
		"  --mem-limit MIB  resident memory of one verifier process (default 4096; 0 =\n"
		"                   none); past it the verification is stopped and recorded as\n"
		"                   'limit', naming the limit\n"
		"  --census         also run the operator census (width 8) into the database\n"
		"  --census-pairs N input pairs per binary operation in that census (default\n"
		"                   20000; 'rangebench ops' runs the full 100000)\n"
		"  --prog-type TYPE the program type of programs whose section libbpf does not\n"
		"                   know, in objects whose manifest row names none (a manifest's\n"
		"                   optional prog_type column sets it per object)\n"
		"  --shard K/N      only shard K of N: a deterministic 1/N of the programs (by a\n"
		"                   hash of object content, section and name), the same on every\n"
		"                   machine; the census runs in shard 1 only. Combine the shards'\n"
		"                   databases with 'rangebench merge' (one run per label)\n"
		"  -q               no progress output\n");
}

static void fmt_eta(double s, char *buf, size_t len)
{
	if (s < 0 || s > 1e6) {
		snprintf(buf, len, "--:--");
		return;
	}
	unsigned t = (unsigned)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%u:%02u:%02u", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%u:%02u", t / 60, t % 60);
}

static void show_progress(const struct rb_progress *p, bool tty, bool final)
{
	char eta[32];
	if (p->scanning) {
		if (tty)
			fprintf(stderr, "\r\033[Kscanning objects %llu/%llu", (unsigned long long)p->objects_scanned,
				(unsigned long long)p->objects);
		else
			fprintf(stderr, "scanning objects %llu/%llu\n", (unsigned long long)p->objects_scanned,
				(unsigned long long)p->objects);
		return;
	}
	double rate = p->elapsed_s > 0 ? (double)p->done / p->elapsed_s : 0;
	fmt_eta(rate > 0 ? (double)(p->total - p->done) / rate : -1, eta, sizeof(eta));
	unsigned pct = p->total ? (unsigned)(100.0 * (double)p->done / (double)p->total) : 100;
	if (tty) {
		const int width = 30;
		int fill = (int)(width * (p->total ? (double)p->done / (double)p->total : 1.0));
		char bar[64];
		for (int i = 0; i < width; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[width] = 0;
		fprintf(stderr, "\r\033[K[%s] %llu/%llu %3u%%  %.1f/s  ETA %s  not accepted %llu%s",
			bar, (unsigned long long)p->done, (unsigned long long)p->total, pct, rate, eta,
			(unsigned long long)p->not_accepted, final ? "\n" : "");
	} else {
		fprintf(stderr, "progress: %llu/%llu (%u%%) %.1f/s ETA %s not accepted %llu\n",
			(unsigned long long)p->done, (unsigned long long)p->total, pct, rate, eta,
			(unsigned long long)p->not_accepted);
	}
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

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"trackers", required_argument, NULL, 't'}, {"db", required_argument, NULL, 'd'},
		{"label", required_argument, NULL, 'l'},    {"filter", required_argument, NULL, 'f'},
		{"repeat", required_argument, NULL, 'r'},   {"insn-limit", required_argument, NULL, 'I'},
		{"time-limit", required_argument, NULL, 'T'}, {"census", no_argument, NULL, 'c'},
		{"no-census", no_argument, NULL, 'C'},      {"help", no_argument, NULL, 'h'},
		{"census-pairs", required_argument, NULL, 'P'},
		{"prog-type", required_argument, NULL, 'Y'},
		{"shard", required_argument, NULL, 'S'},
		{"mem-limit", required_argument, NULL, 'M'},
		{NULL, 0, NULL, 0},
	};
	/* a child process of a run: one object (src/driver/child.c) */
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return rb_driver_child_main(argc, argv);
	char root[PATH_MAX];
	rb_project_root(root, sizeof(root));
	char db_default[PATH_MAX + 32], corpus_default[PATH_MAX + 32];
	snprintf(db_default, sizeof(db_default), "%s/db/results.sqlite", root);
	snprintf(corpus_default, sizeof(corpus_default), "%s/programs/corpus/default", root);

	const char *trackers_arg = NULL, *db = db_default, *label = "run";
	struct rb_driver_opts o = {.repeat = 1, .time_limit_s = 60, .mem_limit_mib = RB_DRIVER_MEM_LIMIT_MIB};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o.jobs = ncpu > 0 ? (unsigned)ncpu : 1;
	int census = -1, quiet = 0, c;
	uint64_t census_pairs = 20000;
	unsigned long long v;
	optind = 1;
	while ((c = getopt_long(argc, argv, "j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 't': trackers_arg = optarg; break;
		case 'd': db = optarg; break;
		case 'l': label = optarg; break;
		case 'f': o.filter = optarg; break;
		case 'c': census = 1; break;
		case 'C': census = 0; break;
		case 'q': quiet = 1; break;
		case 'j':
			if (parse_u(optarg, 1024, &v) < 0 || v == 0) {
				fprintf(stderr, "rangebench run: -j wants 1..1024, not '%s'\n", optarg);
				return 2;
			}
			o.jobs = (unsigned)v;
			break;
		case 'r':
			if (parse_u(optarg, 64, &v) < 0 || v == 0) {
				fprintf(stderr, "rangebench run: --repeat wants 1..64, not '%s'\n", optarg);
				return 2;
			}
			o.repeat = (unsigned)v;
			break;
		case 'I':
			if (parse_u(optarg, UINT64_MAX, &v) < 0) {
				fprintf(stderr, "rangebench run: bad --insn-limit '%s'\n", optarg);
				return 2;
			}
			o.insn_limit = v;
			break;
		case 'S': {
			unsigned k = 0, n = 0;
			char tail;
			if (sscanf(optarg, "%u/%u%c", &k, &n, &tail) != 2 || n == 0 || n > 100000 || k == 0 ||
			    k > n) {
				fprintf(stderr, "rangebench run: --shard wants K/N with 1 <= K <= N, not '%s'\n",
					optarg);
				return 2;
			}
			o.shard_k = k;
			o.shard_n = n;
			break;
		}
		case 'P':
			if (parse_u(optarg, 1000000000ULL, &v) < 0 || v == 0) {
				fprintf(stderr, "rangebench run: bad --census-pairs '%s'\n", optarg);
				return 2;
			}
			census_pairs = v;
			break;
		case 'T':
			if (parse_seconds(optarg, &o.time_limit_s) < 0) {
				fprintf(stderr, "rangebench run: --time-limit wants seconds from 0 to 1000000 "
						"(0 = none), not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'M':
			if (parse_u(optarg, 1ULL << 40, &v) < 0) {
				fprintf(stderr, "rangebench run: --mem-limit wants MiB (0 = none), not '%s'\n",
					optarg);
				return 2;
			}
			o.mem_limit_mib = v;
			break;
		case 'Y': {
			struct rb_load_opts lo = {.prog_type = optarg};
			if (rb_cli_check_type_opts("run", &lo))
				return 2;
			o.prog_type = optarg;
			break;
		}
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	const char *const *inputs = (const char *const *)argv + optind;
	size_t ninputs = (size_t)(argc - optind);
	const char *def_inputs[1] = {corpus_default};
	if (ninputs == 0) {
		inputs = def_inputs;
		ninputs = 1;
		if (census < 0)
			census = 1;
		struct stat sb;
		if (stat(corpus_default, &sb) < 0) {
			fprintf(stderr, "rangebench run: no default corpus at %s (build it with 'make corpus')\n",
				corpus_default);
			return 2;
		}
	}

	/* trackers: requested (or all), minus those that cannot run here */
	char names_all[256];
	rb_tracker_names(names_all, sizeof(names_all), ",", true); /* every registry tracker, then the kernel */
	char *tbuf = strdup(trackers_arg ? trackers_arg : names_all);
	if (!tbuf) {
		fprintf(stderr, "rangebench run: out of memory\n");
		return 2;
	}
	char *save = NULL;
	char ran[256] = "", tnames[RB_DRIVER_MAX_TRACKERS][32];
	for (char *t = strtok_r(tbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!rb_tracker_known(t, true)) {
			char names[256];
			rb_tracker_names(names, sizeof(names), ", ", true);
			fprintf(stderr, "rangebench run: unknown tracker '%s' (%s)\n", t, names);
			free(tbuf);
			return 2;
		}
		bool dup = false;
		for (unsigned i = 0; i < o.ntrackers; i++)
			dup |= !strcmp(o.trackers[i], t);
		if (dup)
			continue;
		char why[300];
		if (!rb_driver_tracker_available(t, why, sizeof(why))) {
			fprintf(stderr, "note: tracker '%s' skipped: not available here (%s)\n", t, why);
			continue;
		}
		if (!strcmp(t, "kernel") && o.insn_limit) {
			fprintf(stderr, "rangebench run: --insn-limit applies to old and cnum only: the "
					"kernel's budget is fixed at 1000000 (drop 'kernel' from --trackers)\n");
			free(tbuf);
			return 2;
		}
		if (o.ntrackers == RB_DRIVER_MAX_TRACKERS) {
			fprintf(stderr, "rangebench run: at most %d trackers\n", RB_DRIVER_MAX_TRACKERS);
			free(tbuf);
			return 2;
		}
		snprintf(tnames[o.ntrackers], sizeof(tnames[0]), "%s", t);
		o.trackers[o.ntrackers] = tnames[o.ntrackers];
		o.ntrackers++;
		snprintf(ran + strlen(ran), sizeof(ran) - strlen(ran), "%s%s", *ran ? "," : "", t);
	}
	free(tbuf);
	if (o.ntrackers == 0) {
		fprintf(stderr, "rangebench run: %s\n",
			trackers_arg && strspn(trackers_arg, ",") == strlen(trackers_arg)
				? "--trackers names no tracker"
				: "none of the trackers can run here");
		return 2;
	}
	o.fault = rb_fault_env();
	/* each object in a fresh process of this very executable (still
	 * reachable through /proc/self/exe if the file is rebuilt meanwhile) */
	o.child_exe = "/proc/self/exe";
	if (o.fault && *o.fault && rb_fault_parse(o.fault, "x") < 0) {
		fprintf(stderr, "rangebench run: bad RB_TEST_FAULT '%s'\n", o.fault);
		return 2;
	}

	struct rb_err err = {{0}};
	struct rb_joblist jobs;
	if (rb_jobs_collect(inputs, ninputs, &jobs, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		return 2;
	}
	if (jobs.n == 0) {
		fprintf(stderr, "rangebench run: no BPF objects (*.o) found\n");
		rb_jobs_free(&jobs);
		return 2;
	}

	struct rb_store *st;
	if (rb_store_open(db, &st, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		rb_jobs_free(&jobs);
		return 2;
	}
	struct rb_runinfo ri;
	rb_runinfo_read(&ri, root);
	char options[2048] = "rangebench";
	for (int i = 0; i < argc; i++)
		snprintf(options + strlen(options), sizeof(options) - strlen(options), " %s", argv[i]);
	struct rb_run_info info = {
		.kind = "verify",
		.label = label,
		.git_commit = ri.git_commit[0] ? ri.git_commit : NULL,
		.git_dirty = ri.git_dirty,
		.kernel_release = ri.kernel_release,
		.host = ri.host,
		.options = options,
		.trackers = ran,
	};

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
	sigemptyset(&sa.sa_mask);
	struct sigaction old_int, old_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int64_t run_id;
	int rc = 0;
	if (rb_store_run_begin(st, &info, &run_id, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		rc = 2;
		goto out;
	}
	o.run_id = run_id;
	o.stop = &run_stop;
	if (!quiet)
		fprintf(stderr, "run %lld (%s): %zu objects, trackers %s, %u workers, db %s\n",
			(long long)run_id, label, jobs.n, ran, o.jobs, db);
	struct rb_driver *d;
	if (rb_driver_start(&o, &jobs, st, &d, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		rb_store_run_end(st, run_id, "incomplete", &err);
		rc = 2;
		goto out;
	}
	bool tty = isatty(STDERR_FILENO);
	struct timespec last;
	clock_gettime(CLOCK_MONOTONIC, &last);
	while (!rb_driver_idle(d)) {
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double since = (double)(now.tv_sec - last.tv_sec) + (double)(now.tv_nsec - last.tv_nsec) / 1e9;
		if (!quiet && (tty ? since >= 0.2 : since >= 10)) {
			struct rb_progress p;
			rb_driver_progress(d, &p);
			show_progress(&p, tty, false);
			last = now;
		}
	}
	struct rb_progress p;
	rb_driver_progress(d, &p);
	if (!quiet)
		show_progress(&p, tty, true);
	bool complete;
	char why[400] = "";
	if (rb_driver_finish(d, &complete, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		snprintf(why, sizeof(why), " (database write failed: %.300s)", err.msg);
		complete = false;
		rc = 2;
	} else if (!complete) {
		snprintf(why, sizeof(why), "%s", run_stop ? " (interrupted)" : " (not every verification ran)");
	}
	/* the verify run ends here, whatever the census does next */
	if (rb_store_run_end(st, run_id, complete ? "complete" : "incomplete", &err) < 0) {
		fprintf(stderr, "rangebench run: %s (the run stays 'running' in the database; readers "
				"show it as incomplete once this process has exited)\n",
			err.msg);
		if (complete)
			snprintf(why, sizeof(why), " (could not be marked complete: %.300s)", err.msg);
		complete = false;
		rc = 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* what the database holds now, read back */
	struct rb_table t;
	int64_t rows = 0;
	char rowtxt[64];
	if (rb_run_summary_table(rb_store_db(st), run_id, &t, &rows, &err) == 0) {
		rb_table_print(&t, stdout, false);
		rb_table_free(&t);
		snprintf(rowtxt, sizeof(rowtxt), "%lld rows stored", (long long)rows);
	} else {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		snprintf(rowtxt, sizeof(rowtxt), "rows stored unknown (cannot read them back)");
		rc = 2;
	}
	fflush(stdout);
	if (rb_run_failed_objects(rb_store_db(st), run_id, stderr, "rangebench run", 10, &err) < 0)
		fprintf(stderr, "rangebench run: %s\n", err.msg);
	printf("run %lld (%s) %s%s: %s in %.1f s, %llu objects failed to open, %llu duplicate "
	       "objects skipped; db %s\n",
	       (long long)run_id, label, complete ? "complete" : "INCOMPLETE", why, rowtxt, secs,
	       (unsigned long long)p.load_errors, (unsigned long long)p.duplicates, db);
	fflush(stdout);
	if (!complete && rc == 0)
		rc = run_stop ? 130 : 2;
	if (complete && census == 1 && !run_stop && o.shard_k <= 1) {
		struct rb_census_opts co = {.bits = 8, .threads = o.jobs, .pairs = census_pairs};
		struct rb_census_summary sum;
		int64_t cid = -1;
		if (!quiet)
			fprintf(stderr, "operator census (width 8, %llu pairs per binary op)...\n",
				(unsigned long long)census_pairs);
		if (rb_census_store(st, &co, &info, &run_stop, &cid, &sum, &err) < 0) {
			fprintf(stderr, "rangebench run: census run %lld INCOMPLETE: %s (verify run %lld is "
					"complete)\n",
				(long long)cid, err.msg, (long long)run_id);
			rc = run_stop ? 130 : 2;
		} else if (!quiet) {
			fprintf(stderr, "census run %lld: %llu rows, %llu cases, %llu unsound\n", (long long)cid,
				(unsigned long long)sum.rows, (unsigned long long)sum.cases,
				(unsigned long long)sum.unsound);
		}
	}
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	rb_store_close(st);
	rb_jobs_free(&jobs);
	return rc;
}
