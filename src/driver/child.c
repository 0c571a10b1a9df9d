/* child.c — verifying one object's programs in a child process.
 *
 * Each object is verified by a fresh process, `EXE run --child ...`
 * started with posix_spawn (a bare fork of this multi-threaded process
 * could inherit locks held by other threads, and pipes of sibling
 * children), which streams its rows back through a pipe. So a verifier
 * that crashes, or one that runs past the time budget (killed), costs the
 * row of the verification in flight, not the run: the driver records that
 * row (crash: load_error; budget: limit) and starts a new child at the
 * next (program, tracker). A stop request kills the child; the rows
 * already received are kept. Without opts.child_exe the worker thread
 * verifies in-process. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver_impl.h"
#include "driver/fault.h"


enum { MSG_START = 1, MSG_ROW, MSG_OPEN_FAILED };

struct msg {
	uint32_t type;
	uint32_t q; /* the (program, tracker) pair */
	struct rb_result_row row;
};

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* bytes read: n, or fewer at end of file; -1 on error */
static ssize_t read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Pair q of object order[i] (rot = i): program k, tracker t. The tracker
 * that goes first meets cold caches, so the order rotates from program to
 * program. */
static void pair_of(unsigned ntrackers, size_t rot, size_t q, size_t *k, unsigned *t)
{
	*k = q / ntrackers;
	*t = (unsigned)((q % ntrackers + *k + rot) % ntrackers);
}

/* Verify pairs q0.. of an open object; each pair announced (START) and
 * then reported (ROW) on fd, or put directly when fd < 0. */
static void verify_pairs(struct rb_driver *d, const struct obj_state *os,
			 const struct rb_object *obj, size_t rot, size_t q0, int fd)
{
	struct msg *m = calloc(1, sizeof(*m)); /* big: not on the stack */
	if (!m)
		return;
	size_t npairs = os->nprogs * d->opts.ntrackers;
	for (size_t q = q0; q < npairs; q++) {
		if (fd < 0 && rb_drv_stop_requested(d))
			break;
		size_t k;
		unsigned t;
		pair_of(d->opts.ntrackers, rot, q, &k, &t);
		m->type = MSG_START;
		m->q = (uint32_t)q;
		if (fd >= 0 && write_all(fd, m, sizeof(*m)) < 0)
			break;
		rb_drv_verify_one(d, os, obj, k, t, &m->row);
		if (fd < 0) {
			rb_drv_put(d, &m->row);
			continue;
		}
		m->type = MSG_ROW;
		if (write_all(fd, m, sizeof(*m)) < 0)
			break;
	}
	free(m);
}

/* resident bytes of a process (0 if unknown) */
static uint64_t rss_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned long long size = 0, res = 0;
	int n = fscanf(f, "%llu %llu", &size, &res);
	fclose(f);
	long page = sysconf(_SC_PAGESIZE);
	return n == 2 && page > 0 ? (uint64_t)res * (uint64_t)page : 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the row of pair q when no verifier could report it */
static void lost_row(struct rb_driver *d, const struct obj_state *os, size_t i, size_t q,
		     enum rb_verdict v, const char *why)
{
	struct rb_result_row row;
	size_t k;
	unsigned t;
	pair_of(d->opts.ntrackers, i, q, &k, &t);
	memset(&row, 0, sizeof(row));
	row.run_id = d->opts.run_id;
	rb_drv_ident(&row.prog, os, k);
	snprintf(row.tracker, sizeof(row.tracker), "%s", d->opts.trackers[t]);
	row.repeats = 1;
	row.res.verdict = v;
	row.res.err_insn = -1;
	snprintf(row.res.msg, sizeof(row.res.msg), "%s", why);
	rb_drv_put(d, &row);
}

/* in the worker thread itself: no isolation */
static void run_in_process(struct rb_driver *d, size_t i)
{
	const struct obj_state *os = &d->objs[d->order[i]];
	struct rb_object *obj = NULL;
	struct rb_err e = {{0}};
	struct rb_load_opts lo = {.prog_type = rb_driver_job_prog_type(&d->opts, os->job)};
	if (rb_object_open(os->job->path, &lo, &obj, &e) < 0) {
		rb_drv_object_failed(d, os, &e, true);
		return;
	}
	verify_pairs(d, os, obj, i, 0, -1);
	rb_object_free(obj);
}

/* argv of `EXE run --child ...` for pairs q.. of object order[i]; the
 * strings live in buf */
struct child_args {
	char *argv[32];
	char buf[16384];
};

static int build_args(const struct rb_driver *d, const struct obj_state *os, size_t i, size_t q,
		      struct child_args *a)
{
	size_t used = 0;
	int n = 0;
#define ARG(...)                                                                                   \
	do {                                                                                       \
		int w_ = snprintf(a->buf + used, sizeof(a->buf) - used, __VA_ARGS__);              \
		if (w_ < 0 || (size_t)w_ >= sizeof(a->buf) - used || n >= 30)                      \
			return -1;                                                                 \
		a->argv[n++] = a->buf + used;                                                      \
		used += (size_t)w_ + 1;                                                            \
	} while (0)
	ARG("%s", d->opts.child_exe);
	ARG("run");
	ARG("--child");
	ARG("%s", os->job->path);
	ARG("%s", os->job->source);
	ARG("%zu", i);
	ARG("%zu", q);
	ARG("%lld", (long long)d->opts.run_id);
	ARG("%u", d->opts.repeat ? d->opts.repeat : 1);
	ARG("%llu", (unsigned long long)d->opts.insn_limit);
	ARG("%.17g", d->opts.time_limit_s);
	char tl[256] = "";
	for (unsigned t = 0; t < d->opts.ntrackers; t++)
		snprintf(tl + strlen(tl), sizeof(tl) - strlen(tl), "%s%s", t ? "," : "", d->opts.trackers[t]);
	ARG("%s", tl);
	/* the programs: indexes in the object */
	size_t start = used;
	for (size_t k = 0; k < os->nprogs; k++) {
		int w = snprintf(a->buf + used, sizeof(a->buf) - used, "%s%zu", k ? "," : "", os->progs[k].idx);
		if (w < 0 || (size_t)w >= sizeof(a->buf) - used)
			return -1;
		used += (size_t)w;
	}
	if (used + 1 > sizeof(a->buf))
		return -1;
	a->buf[used++] = 0;
	a->argv[n++] = a->buf + start;
	const char *pt = rb_driver_job_prog_type(&d->opts, os->job);
	ARG("%s", pt ? pt : "-");
	ARG("%s", d->opts.compiled_helpers ? "compiled" : "kernel");
	a->argv[n] = NULL;
#undef ARG
	return 0;
}

static pid_t spawn_child(const struct rb_driver *d, const struct obj_state *os, size_t i, size_t q,
			 int *rfd, struct rb_err *err)
{
	struct child_args *a = malloc(sizeof(*a));
	if (!a || build_args(d, os, i, q, a) < 0) {
		free(a);
		rb_errf(err, "%s: too many programs for one child's command line", os->job->path);
		return -1;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(a);
		rb_errf(err, "%s: pipe: %s", os->job->path, strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	/* the child leaves SIGINT/SIGTERM to the parent, which stops it */
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	posix_spawnattr_setsigmask(&at, &mask);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	pid_t pid;
	int rc = posix_spawn(&pid, d->opts.child_exe, &fa, &at, a->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	free(a);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		rb_errf(err, "%s: cannot start %s: %s", os->job->path, d->opts.child_exe, strerror(rc));
		return -1;
	}
	*rfd = fds[0];
	return pid;
}

void rb_drv_run_object(struct rb_driver *d, size_t i)
{
	if (!d->opts.child_exe) {
		run_in_process(d, i);
		return;
	}
	const struct obj_state *os = &d->objs[d->order[i]];
	size_t npairs = os->nprogs * d->opts.ntrackers;
	unsigned repeat = d->opts.repeat ? d->opts.repeat : 1;
	/* the budget of one (program, tracker): every repeat at the time
	 * limit, plus slack for loading (up to 5 s) */
	double tl = d->opts.time_limit_s;
	double budget = tl > 0 ? tl * repeat + (tl < 5 ? tl : 5) : 0;
	struct msg *m = malloc(sizeof(*m));
	size_t q = 0;
	while (m && q < npairs && !rb_drv_stop_requested(d)) {
		int rfd;
		struct rb_err e = {{0}};
		pid_t pid = spawn_child(d, os, i, q, &rfd, &e);
		if (pid < 0) {
			rb_drv_fail(d, &e);
			break;
		}
		enum { EXITED, STOPPED, OVER_BUDGET, OVER_MEMORY } how = EXITED;
		uint64_t rss_mib = 0;
		bool inflight = false;
		size_t cur = q;
		double started = 0;
		for (;;) {
			struct pollfd p = {.fd = rfd, .events = POLLIN};
			int r = poll(&p, 1, 100);
			if (rb_drv_stop_requested(d)) {
				how = STOPPED;
				break;
			}
			if (inflight && budget > 0 && now_s() - started > budget) {
				how = OVER_BUDGET;
				break;
			}
			if (d->opts.mem_limit_mib && (rss_mib = rss_of(pid) >> 20) > d->opts.mem_limit_mib) {
				how = OVER_MEMORY;
				break;
			}
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break; /* treated as the child's end */
			if (r == 0)
				continue;
			ssize_t n = read_all(rfd, m, sizeof(*m));
			if (n != (ssize_t)sizeof(*m))
				break; /* end of file, or the child died mid-message */
			if (m->type == MSG_START) {
				inflight = true;
				cur = m->q;
				started = now_s();
			} else if (m->type == MSG_ROW) {
				inflight = false;
				rb_drv_put(d, &m->row);
				q = (size_t)m->q + 1;
			} else if (m->type == MSG_OPEN_FAILED) {
				/* opened in the scan, not now (the file changed?) */
				if (q == 0) {
					struct rb_err oe;
					snprintf(oe.msg, sizeof(oe.msg), "%s", m->row.res.msg);
					rb_drv_object_failed(d, os, &oe, true);
				} else {
					for (; q < npairs; q++)
						lost_row(d, os, i, q, RB_LOAD_ERROR, m->row.res.msg);
				}
				q = npairs;
			}
		}
		if (how != EXITED)
			kill(pid, SIGKILL);
		close(rfd);
		int status = 0;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (how == STOPPED)
			break;
		char why[160];
		if (how == OVER_BUDGET) {
			snprintf(why, sizeof(why), "time budget of %.1f s exceeded: verification stopped",
				 budget);
			lost_row(d, os, i, cur, RB_LIMIT, why);
			q = cur + 1;
			continue;
		}
		if (how == OVER_MEMORY) {
			snprintf(why, sizeof(why),
				 "memory limit of %llu MiB exceeded (resident %llu MiB): verification stopped",
				 (unsigned long long)d->opts.mem_limit_mib, (unsigned long long)rss_mib);
			/* before any START the child was still loading: the next pair */
			size_t bad = inflight ? cur : q;
			lost_row(d, os, i, bad, RB_LIMIT, why);
			q = bad + 1;
			continue;
		}
		if (q >= npairs)
			break;
		/* the child ended early: the pair in flight (or, if it died
		 * before starting one, the next) gets an error row */
		if (WIFSIGNALED(status))
			snprintf(why, sizeof(why), "verifier crashed: signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		else
			snprintf(why, sizeof(why), "verifier process exited early (status %d)",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		size_t bad = inflight ? cur : q;
		lost_row(d, os, i, bad, RB_LOAD_ERROR, why);
		q = bad + 1;
	}
	free(m);
}

/* split "a,b,c" in place; returns the count */
static unsigned split_commas(char *s, char **out, unsigned max)
{
	unsigned n = 0;
	char *save = NULL;
	for (char *t = strtok_r(s, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		out[n++] = t;
	return n;
}

int rb_driver_child_main(int argc, char **argv)
{
	/* run --child OBJ SOURCE ROT START RUN_ID REPEAT INSN_LIMIT TIME_LIMIT TRACKERS PROGS PROG_TYPE HELPERS */
	if (argc != 14 || strcmp(argv[1], "--child")) {
		fprintf(stderr, "rangebench run --child: internal use only\n");
		return 2;
	}
	/* a driver that dies (kill -9) takes its verifier with it */
	pid_t parent = getppid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		return 2;
	struct rb_driver *d = calloc(1, sizeof(*d));
	if (d && (!(d->vmlinux = rb_vmlinux_new()) || !(d->helpers = malloc(sizeof(*d->helpers))))) {
		rb_vmlinux_free(d->vmlinux);
		free(d);
		d = NULL;
	}
	if (d)
		rb_helper_probe_init(d->helpers, strcmp(argv[13], "compiled") != 0);
	struct rb_job_obj job = {.path = argv[2], .source = argv[3], .prog_type = strcmp(argv[12], "-") ? argv[12] : ""};
	struct obj_state os = {.job = &job};
	size_t rot = strtoull(argv[4], NULL, 10), q0 = strtoull(argv[5], NULL, 10);
	if (!d)
		return 2;
	d->measure_rss = true;
	d->rss = (struct rb_rss)RB_RSS_INIT;
	d->opts.run_id = strtoll(argv[6], NULL, 10);
	d->opts.repeat = (unsigned)strtoul(argv[7], NULL, 10);
	d->opts.insn_limit = strtoull(argv[8], NULL, 10);
	d->opts.time_limit_s = strtod(argv[9], NULL);
	char *names[RB_DRIVER_MAX_TRACKERS];
	d->opts.ntrackers = split_commas(argv[10], names, RB_DRIVER_MAX_TRACKERS);
	for (unsigned t = 0; t < d->opts.ntrackers; t++) {
		d->opts.trackers[t] = names[t];
		d->fault[t] = rb_fault_parse(rb_fault_env(), names[t]);
		if (d->fault[t] < 0)
			d->fault[t] = 0;
	}
	char *idx[4096];
	unsigned nidx = split_commas(argv[11], idx, 4096);

	/* the rows go to the pipe the parent gave as stdout; anything else
	 * printed to stdout (a library's message) goes to stderr instead */
	int out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		rb_vmlinux_free(d->vmlinux);
		free(d->helpers);
		free(d);
		return 2;
	}
	struct msg *m = calloc(1, sizeof(*m));
	struct rb_object *obj = NULL;
	struct rb_err e = {{0}};
	int rc = 0;
	if (!m) {
		rc = 2;
	} else if (rb_object_open(job.path, &(struct rb_load_opts){.prog_type = job.prog_type[0] ? job.prog_type : NULL},
				  &obj, &e) < 0) {
		m->type = MSG_OPEN_FAILED;
		snprintf(m->row.res.msg, sizeof(m->row.res.msg), "%.255s", e.msg);
		write_all(out, m, sizeof(*m));
	} else {
		snprintf(os.sha256, sizeof(os.sha256), "%s", obj->sha256);
		os.progs = calloc(nidx ? nidx : 1, sizeof(*os.progs));
		for (unsigned k = 0; os.progs && k < nidx; k++) {
			struct prog_ref *ref = &os.progs[os.nprogs++];
			ref->idx = strtoull(idx[k], NULL, 10);
			if (ref->idx < obj->prog_cnt) {
				const struct rb_prog *pr = &obj->progs[ref->idx];
				snprintf(ref->name, sizeof(ref->name), "%s", pr->name);
				snprintf(ref->section, sizeof(ref->section), "%s", pr->section);
				ref->prog_type = pr->prog_type;
				ref->insn_cnt = pr->insn_cnt;
			}
		}
		if (os.progs)
			verify_pairs(d, &os, obj, rot, q0, out);
		free(os.progs);
		rb_object_free(obj);
	}
	free(m);
	rb_rss_close(&d->rss);
	rb_vmlinux_free(d->vmlinux);
	free(d->helpers);
	free(d);
	close(out);
	return rc;
}
