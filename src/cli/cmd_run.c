/* cmd_run.c — `rangebench run`: every program of a corpus through each
 * verifier, into the results database (src/driver/, src/store/). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "census/census.h"
#include "cli/commands.h"
#include "cli/run_opts.h"
#include "oracle/bpf_sys.h"
#include "driver/census_store.h"
#include "driver/driver.h"
#include "driver/shard_plan.h"
#include "driver/fault.h"
#include "driver/scan.h"
#include "store/runinfo.h"
#include "report/run_summary.h"
#include "store/store.h"

/* The signal that stops the run (SIGINT, SIGTERM, SIGHUP, SIGPIPE), 0
 * while none came; the only thing the handler touches. A hang-up (the
 * terminal closed) or a closed output pipe (`run ... | head`) stops the
 * run as Ctrl-C does: the rows so far kept, the run marked incomplete,
 * exit 128 + the signal. */
static volatile sig_atomic_t run_stop;

static void on_signal(int sig)
{
	if (!run_stop)
		run_stop = sig;
}

/* exit code of a run stopped by a signal */
static int stop_code(void) { return 128 + (int)run_stop; }

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

/* poll the driver until every verification has ended, showing progress;
 * *p: the last progress */
static void wait_for_driver(struct rb_driver *d, bool quiet, struct rb_progress *p)
{
	bool tty = isatty(STDERR_FILENO);
	struct timespec last;
	clock_gettime(CLOCK_MONOTONIC, &last);
	while (!rb_driver_idle(d)) {
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double since = (double)(now.tv_sec - last.tv_sec) + (double)(now.tv_nsec - last.tv_nsec) / 1e9;
		if (!quiet && (tty ? since >= 0.2 : since >= 5)) {
			rb_driver_progress(d, p);
			show_progress(p, tty, false);
			last = now;
		}
	}
	rb_driver_progress(d, p);
	if (!quiet)
		show_progress(p, tty, true);
	if (p->scan_exits_bad)
		fprintf(stderr,
			"rangebench run: warning: %llu scan child%s ended badly after answering (the first: %s); "
			"the objects were opened before that and their rows are kept\n",
			(unsigned long long)p->scan_exits_bad, p->scan_exits_bad == 1 ? "" : "ren", p->scan_exit_why);
}

/* the driver's last rows, then the run's status in the database: 0 or 2;
 * *complete, and why (" (reason)") when it is not */
static int end_run(struct rb_store *st, int64_t run_id, struct rb_driver *d, const struct run_cli *c,
		   const struct rb_joblist *jobs, bool *complete, char *why, size_t whylen, struct rb_store **reader)
{
	const struct rb_driver_opts *o = &c->o;
	struct rb_err err = {{0}};
	int rc = 0;
	*complete = true;
	if (d && rb_driver_finish(d, complete, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		snprintf(why, whylen, " (stopped: %.300s)", err.msg);
		*complete = false;
		rc = 2;
	} else if (!*complete) {
		if (run_stop)
			snprintf(why, whylen, " (interrupted: %s)", strsignal(run_stop));
		else
			snprintf(why, whylen, " (not every verification ran)");
	} else if (c->nguests && !run_stop && rb_run_guests(st, c, jobs, run_id, &run_stop, why, whylen) < 0) {
		/* the kernel images, in their guests, once the driver is done */
		*complete = false;
	}
	/* the verify run ends here, whatever the census does next */
	const char *meant = *complete ? "complete" : "incomplete";
	struct rb_err end_err = {{0}};
	bool end_failed = rb_store_run_end(st, run_id, meant, &end_err) < 0;
	/* one shard of N: stored 'incomplete' until every shard is merged */
	bool shard_done = *complete && o->shard_n > 1;
	if (shard_done)
		meant = "incomplete";
	/* The status is read back through a reader connection of its own: the
	 * database is the truth (a failing statement may still have been
	 * committed, and the writer's connection may be the broken one), so
	 * the status printed is the file's. The summary reads the rows
	 * through that same connection (*reader) when it answered: an open
	 * makes the reader's views again (store.c), ~10 ms under the
	 * sanitizers. */
	char stored[32] = "";
	struct rb_store *rd = NULL;
	if (rb_store_open_read(rb_store_path(st), &rd, &err) == 0) {
		char lbl[8], trk[8];
		if (rb_store_run_describe(rd, run_id, lbl, sizeof(lbl), stored, sizeof(stored), trk, sizeof(trk),
					  &err) < 0)
			stored[0] = 0;
	}
	if (stored[0])
		*reader = rd;
	else
		rb_store_close(rd);
	if (end_failed) {
		if (!strcmp(stored, meant)) {
			fprintf(stderr, "rangebench run: note: the final status update reported an error (%s), "
					"but it was stored: the database says %s\n",
				end_err.msg, stored);
		} else {
			fprintf(stderr, "rangebench run: %s (the run stays '%s' in the database; readers show it as "
					"incomplete once this process has exited)\n",
				end_err.msg, stored[0] ? stored : "running");
			rc = 2;
		}
	}
	if (!stored[0]) {
		fprintf(stderr, "rangebench run: cannot read the run's status back: %s\n", err.msg);
		if (*complete)
			snprintf(why, whylen, " (its status cannot be read back: %.300s)", err.msg);
		*complete = false;
		rc = 2;
	} else if (shard_done && !strcmp(stored, "incomplete")) {
		snprintf(why, whylen, " (shard %u of %u: the run is incomplete until all %u shards are merged)", o->shard_k,
			 o->shard_n, o->shard_n);
	} else if (strcmp(stored, "complete")) {
		if (*complete)
			snprintf(why, whylen, " (could not be marked complete: %.300s)", end_err.msg);
		*complete = false; /* the exit code follows in run_verify */
	} else if (!*complete) {
		/* cannot happen: only this process marks its run complete */
		snprintf(why, whylen, " (the database says complete)");
		*complete = true;
	}
	return rc;
}

/* what the database holds now, read back through a reader connection,
 * and the run's last line: 0 or 2 */
static int print_summary(struct rb_store *st, const struct run_cli *c, int64_t run_id, bool complete,
			 const char *why, double secs, const struct rb_progress *p, struct rb_store *rd)
{
	struct rb_err err = {{0}};
	struct rb_table t;
	int64_t rows = 0;
	char rowtxt[64];
	int rc = 0;
	if ((rd || rb_store_open_read(rb_store_path(st), &rd, &err) == 0) &&
	    rb_run_summary_table(rb_store_db(rd), run_id, &t, &rows, &err) == 0) {
		rb_table_print(&t, stdout, false);
		rb_table_free(&t);
		snprintf(rowtxt, sizeof(rowtxt), "%lld rows stored", (long long)rows);
	} else {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		snprintf(rowtxt, sizeof(rowtxt), "rows stored unknown (cannot read them back)");
		rc = 2;
	}
	fflush(stdout);
	int64_t noprog = 0;
	if (rd && rb_run_failed_objects(rb_store_db(rd), run_id, stderr, "rangebench run", 10, &noprog, &err) < 0)
		fprintf(stderr, "rangebench run: %s\n", err.msg);
	rb_store_close(rd);
	/* objects without programs (maps or .text only) are no failure */
	unsigned long long failed = p->load_errors > (uint64_t)noprog ? p->load_errors - (uint64_t)noprog : 0;
	printf("run %lld (%s) %s%s: %s in %.1f s, %llu objects failed to open, %lld hold no programs, %llu "
	       "duplicate objects skipped; db %s\n",
	       (long long)run_id, c->label, complete ? "complete" : "INCOMPLETE", why, rowtxt, secs, failed,
	       (long long)noprog, (unsigned long long)p->duplicates, c->db);
	fflush(stdout);
	return rc;
}

/* the census's progress on stderr, every 5 seconds */
struct census_progress {
	struct timespec t0, last;
	bool finished; /* the 100% line is printed */
};

static double secs_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void census_progress(uint64_t done, uint64_t total, void *ctx)
{
	struct census_progress *cp = ctx;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((done < total && secs_between(&cp->last, &now) < 5) || cp->finished)
		return;
	cp->last = now;
	cp->finished = done >= total;
	fprintf(stderr, "census: %llu of %llu work items (%.0f%%), %.0f s\n", (unsigned long long)done,
		(unsigned long long)total, total ? 100.0 * (double)done / (double)total : 100.0,
		secs_between(&cp->t0, &now));
}

/* the operator census after a complete run: 0, or the exit code */
static int run_census(struct rb_store *st, const struct run_cli *c, const struct rb_run_info *info,
		      int64_t run_id)
{
	struct census_progress cp;
	clock_gettime(CLOCK_MONOTONIC, &cp.t0);
	cp.last = cp.t0;
	cp.finished = false;
	struct rb_census_opts co = {.bits = 8, .threads = c->o.jobs, .pairs = c->census_pairs,
				    .sets = c->census_sets,
				    .progress = c->quiet ? NULL : census_progress, .progress_ctx = &cp};
	struct rb_census_summary sum;
	struct rb_err err = {{0}};
	int64_t cid = -1;
	if (!c->quiet)
		fprintf(stderr, "operator census (width 8, %llu pairs per binary op, %llu sets per unary "
				"op)...\n",
			(unsigned long long)c->census_pairs, (unsigned long long)c->census_sets);
	if (rb_census_store(st, &co, info, &run_stop, &cid, &sum, &err) < 0) {
		fprintf(stderr, "rangebench run: census run %lld INCOMPLETE: %s (verify run %lld is "
				"complete)\n",
			(long long)cid, err.msg, (long long)run_id);
		return run_stop ? stop_code() : 2;
	}
	if (!c->quiet)
		fprintf(stderr, "census run %lld: %llu rows, %llu cases, %llu unsound\n", (long long)cid,
			(unsigned long long)sum.rows, (unsigned long long)sum.cases,
			(unsigned long long)sum.unsound);
	return 0;
}

/* the run itself, once the store is open: begin, drive, end, report,
 * census; returns the exit code */
static int run_verify(struct rb_store *st, struct run_cli *c, const struct rb_joblist *jobs,
		      const struct rb_run_info *info)
{
	struct rb_err err = {{0}};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int64_t run_id;
	/* a signal while the options, the objects or the database were being
	 * read (the handlers are installed first, in cmd_run): no run begins */
	if (run_stop) {
		fprintf(stderr, "rangebench run: stopped (%s) before the run began: nothing stored\n",
			strsignal(run_stop));
		return stop_code();
	}
	struct rb_shard_plan *plan = NULL;
	if (c->shard_costs && c->o.shard_n > 1) {
		if (rb_shard_plan_load(c->shard_costs, c->o.shard_n, &plan, &err) < 0) {
			fprintf(stderr, "rangebench run: --shard-costs %s\n", err.msg);
			return 2;
		}
		c->o.shard_plan = plan;
		if (!c->quiet) {
			uint64_t all = 0;
			for (unsigned k = 1; k <= c->o.shard_n; k++)
				all += rb_shard_plan_cost(plan, k);
			fprintf(stderr, "shard plan: %llu programs' costs from %s; shard %u of %u expects %.1f%% of their work\n",
				(unsigned long long)rb_shard_plan_programs(plan), c->shard_costs, c->o.shard_k, c->o.shard_n,
				all ? 100.0 * (double)rb_shard_plan_cost(plan, c->o.shard_k) / (double)all : 0.0);
		}
	}
	if (rb_store_run_begin(st, info, &run_id, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		rb_shard_plan_free(plan);
		return 2;
	}
	c->o.run_id = run_id;
	c->o.stop = &run_stop;
	if (!c->quiet)
		fprintf(stderr, "run %lld (%s): %zu objects, trackers %s, %u workers, db %s\n",
			(long long)run_id, c->label, jobs->n, c->ran, c->o.jobs, c->db);
	struct rb_driver *d = NULL;
	struct rb_progress p;
	memset(&p, 0, sizeof(p));
	if (c->o.ntrackers && rb_driver_start(&c->o, jobs, st, &d, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		rb_store_run_end(st, run_id, "incomplete", &err);
		rb_shard_plan_free(plan);
		return 2;
	}
	if (d)
		wait_for_driver(d, c->quiet, &p);
	bool complete;
	char why[400] = "";
	struct rb_store *reader = NULL; /* end_run's, for print_summary (which closes it) */
	int rc = end_run(st, run_id, d, c, jobs, &complete, why, sizeof(why), &reader);
	c->o.shard_plan = NULL;
	rb_shard_plan_free(plan);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (print_summary(st, c, run_id, complete, why, secs, &p, reader))
		rc = 2;
	if (!complete && rc == 0)
		rc = run_stop ? stop_code() : 2;
	if (complete && c->keep_logs != RB_KEEP_NONE && !run_stop) {
		struct rb_keep_stats ks;
		if (!c->quiet)
			fprintf(stderr, "keeping the logs of run %lld (%s programs, first %llu MiB each)...\n",
				(long long)run_id, c->keep_logs == RB_KEEP_ALL ? "all" : "changed",
				(unsigned long long)c->keep_logs_mib);
		if (rb_keep_logs(st, run_id, c->o.child_exe, c->keep_logs, (size_t)c->keep_logs_mib << 20, &run_stop, &ks,
				 &err) < 0) {
			fprintf(stderr, "rangebench run: %s\n", err.msg);
			rc = 2;
		} else if (!c->quiet || ks.failed) {
			fprintf(stderr, "kept %u logs (%.1f MiB before compression)%s%u pairs gave no log\n", ks.stored,
				(double)ks.bytes / (1 << 20), ks.failed ? "; " : "; ", ks.failed);
		}
	}
	if (complete && c->census == 1 && !run_stop && c->o.shard_k <= 1) {
		int crc = run_census(st, c, info, run_id);
		if (crc)
			rc = crc;
	}
	return rc;
}

/* options, objects, database, then the run: the exit code */
static int run_command(int argc, char **argv)
{
	struct run_cli c;
	int rc = rb_run_cli_parse(argc, argv, &c);
	if (rc >= 0)
		return rc;
	c.o.fault = rb_fault_env();
	/* each object in a fresh process of this very executable (still
	 * reachable through /proc/self/exe if the file is rebuilt meanwhile) */
	c.o.child_exe = "/proc/self/exe";
	if (c.o.fault && *c.o.fault && rb_fault_parse(c.o.fault, "x") < 0) {
		fprintf(stderr, "rangebench run: bad RB_TEST_FAULT '%s'\n", c.o.fault);
		return 2;
	}

	struct rb_err err = {{0}};
	struct rb_joblist jobs;
	if (rb_jobs_collect(c.inputs, c.ninputs, &jobs, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		return 2;
	}
	if (jobs.n == 0) {
		fprintf(stderr, "rangebench run: no BPF objects (*.o) found\n");
		rb_jobs_free(&jobs);
		return 2;
	}
	struct rb_store *st;
	if (rb_store_open(c.db, &st, &err) < 0) {
		fprintf(stderr, "rangebench run: %s\n", err.msg);
		rb_jobs_free(&jobs);
		return 2;
	}
	struct rb_runinfo ri;
	rb_runinfo_read(&ri, c.root);
	char options[2048] = "rangebench";
	for (int i = 0; i < argc; i++)
		snprintf(options + strlen(options), sizeof(options) - strlen(options), " %s", argv[i]);
	struct rb_run_info info = {
		.kind = "verify",
		.label = c.label,
		.git_commit = ri.git_commit[0] ? ri.git_commit : NULL,
		.git_dirty = ri.git_dirty,
		.kernel_release = ri.kernel_release,
		.host = ri.host,
		.options = options,
		.trackers = c.ran,
		/* the children probe each program type's set on demand, or
		 * keep the compiled-in ones where bpf() is refused */
		.helper_sets = !c.o.compiled_helpers && rb_bpf_available(NULL) ? "kernel" : "compiled-6.18",
		.diff_sha256 = ri.diff ? ri.diff_sha256 : NULL,
		.diff_text = ri.diff,
	};

	rc = run_verify(st, &c, &jobs, &info);
	rb_runinfo_free(&ri);
	rb_store_close(st);
	rb_jobs_free(&jobs);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	/* a child process of a run: one object (src/driver/child.c) */
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return rb_driver_child_main(argc, argv);
	/* a scan child: opens the objects its parent names (src/driver/scan.c) */
	if (argc == 2 && !strcmp(argv[1], "--scan-child"))
		return rb_scan_child_main();
	/* The handlers first (issue 24): a hang-up while the options, the
	 * objects or the database are being read (a locked database waits up
	 * to 30 s) stops the run before it begins instead of killing it. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
	sigemptyset(&sa.sa_mask);
	struct sigaction old_int, old_term, old_hup, old_pipe;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	/* every write to a closed pipe raises SIGPIPE again: it stays handled
	 * (the writes fail with EPIPE) while the run ends */
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, &old_pipe);
	int rc = run_command(argc, argv);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	/* after a closed pipe, what is left to write at exit fails quietly */
	if (run_stop == SIGPIPE)
		signal(SIGPIPE, SIG_IGN);
	else
		sigaction(SIGPIPE, &old_pipe, NULL);
	return rc;
}
