/* child.c — verifying one object's programs in a child process.
 *
 * Each object is opened and verified by a forked child that streams its
 * rows back through a pipe, so a verifier that crashes, or one that runs
 * past the time budget (killed), costs the row of the verification in
 * flight, not the run: the driver records that row (crash: load_error;
 * budget: limit) and starts a new child at the next (program, tracker).
 * A stop request kills the child; the rows already received are kept. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver_impl.h"

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

/* Pair q of object order[i]: program k, tracker t. The tracker that goes
 * first meets cold caches, so the order rotates from program to program. */
static void pair_of(const struct rb_driver *d, size_t i, size_t q, size_t *k, unsigned *t)
{
	unsigned n = d->opts.ntrackers;
	*k = q / n;
	*t = (unsigned)((q % n + *k + i) % n);
}

static void child_main(struct rb_driver *d, const struct obj_state *os, size_t i, size_t q0, int fd)
{
	struct msg *m = calloc(1, sizeof(*m)); /* big: not on the stack */
	struct rb_object *obj = NULL;
	struct rb_err e = {{0}};
	if (!m)
		return;
	if (rb_object_open(os->job->path, NULL, &obj, &e) < 0) {
		m->type = MSG_OPEN_FAILED;
		snprintf(m->row.res.msg, sizeof(m->row.res.msg), "%.255s", e.msg);
		write_all(fd, m, sizeof(*m));
		free(m);
		return;
	}
	size_t npairs = os->nprogs * d->opts.ntrackers;
	for (size_t q = q0; q < npairs; q++) {
		size_t k;
		unsigned t;
		pair_of(d, i, q, &k, &t);
		m->type = MSG_START;
		m->q = (uint32_t)q;
		if (write_all(fd, m, sizeof(*m)) < 0)
			break;
		rb_drv_verify_one(d, os, obj, k, t, &m->row);
		m->type = MSG_ROW;
		m->q = (uint32_t)q;
		if (write_all(fd, m, sizeof(*m)) < 0)
			break;
	}
	rb_object_free(obj);
	free(m);
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
	pair_of(d, i, q, &k, &t);
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

void rb_drv_run_object(struct rb_driver *d, size_t i)
{
	const struct obj_state *os = &d->objs[d->order[i]];
	size_t npairs = os->nprogs * d->opts.ntrackers;
	unsigned repeat = d->opts.repeat ? d->opts.repeat : 1;
	/* the budget of one (program, tracker): every repeat at the time
	 * limit, plus slack for loading (up to 5 s) */
	double tl = d->opts.time_limit_s;
	double budget = tl > 0 ? tl * repeat + (tl < 5 ? tl : 5) : 0;
	size_t q = 0;
	while (q < npairs && !rb_drv_stop_requested(d)) {
		int fds[2];
		if (pipe2(fds, O_CLOEXEC) < 0) {
			struct rb_err e;
			rb_errf(&e, "%s: pipe: %s", os->job->path, strerror(errno));
			rb_drv_fail(d, &e);
			return;
		}
		pid_t pid = fork();
		if (pid < 0) {
			struct rb_err e;
			rb_errf(&e, "%s: fork: %s", os->job->path, strerror(errno));
			close(fds[0]);
			close(fds[1]);
			rb_drv_fail(d, &e);
			return;
		}
		if (pid == 0) {
			close(fds[0]);
			child_main(d, os, i, q, fds[1]);
			_exit(0);
		}
		close(fds[1]);

		enum { EXITED, STOPPED, OVER_BUDGET } how = EXITED;
		bool inflight = false;
		size_t cur = q;
		double started = 0;
		struct msg *m = malloc(sizeof(*m));
		for (;;) {
			struct pollfd p = {.fd = fds[0], .events = POLLIN};
			int r = m ? poll(&p, 1, 100) : -1;
			if (rb_drv_stop_requested(d)) {
				how = STOPPED;
				break;
			}
			if (inflight && budget > 0 && now_s() - started > budget) {
				how = OVER_BUDGET;
				break;
			}
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break; /* treated as the child's end */
			if (r == 0)
				continue;
			ssize_t n = read_all(fds[0], m, sizeof(*m));
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
					struct rb_err e;
					snprintf(e.msg, sizeof(e.msg), "%s", m->row.res.msg);
					rb_drv_object_failed(d, os, &e, true);
				} else {
					for (; q < npairs; q++)
						lost_row(d, os, i, q, RB_LOAD_ERROR, m->row.res.msg);
				}
				q = npairs;
			}
		}
		free(m);
		if (how != EXITED)
			kill(pid, SIGKILL);
		close(fds[0]);
		int status = 0;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (how == STOPPED)
			return;
		char why[160];
		if (how == OVER_BUDGET) {
			snprintf(why, sizeof(why), "time budget of %.1f s exceeded: verification stopped",
				 budget);
			lost_row(d, os, i, cur, RB_LIMIT, why);
			q = cur + 1;
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
}
