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
 * verifies in-process.
 *
 * What a child verifies (the object, the trackers, the limits and the
 * list of program indexes, any length) reaches it as one frame on its
 * stdin (wire.h), not on its command line, so no program count can fail
 * to fit. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver_impl.h"
#include "driver/fault.h"
#include "driver/spawn.h"
#include "driver/wire.h"
#include "util/pool.h"

enum { MSG_START = 1, MSG_ROW, MSG_OPEN_FAILED, MSG_GROUP };

/* child -> parent: a pair started, its result, or the object's open
 * error (in res.msg), or (GROUP) the pairs q..q+repeats-1 started, to be
 * verified interleaved, their rows after; the row's identity is the
 * parent's (from the scan), so no name crosses the pipe */
struct msg {
	uint32_t type;
	uint32_t q; /* the (program, tracker) pair */
	uint32_t repeats;
	struct rb_result res;
};

/* Pair q of object order[i] (rot = i): program k, tracker t. The tracker
 * that goes first meets cold caches, so the order rotates from program to
 * program. */
static void pair_of(unsigned ntrackers, size_t rot, size_t q, size_t *k, unsigned *t)
{
	*k = q / ntrackers;
	*t = (unsigned)((q % ntrackers + *k + rot) % ntrackers);
}

/* The object opened once more for the trackers whose kernel is not the
 * running one (opts.kernel_inputs: a profile after 6.18 stands for that
 * kernel, whose libbpf prepares the object from that kernel's BTF and
 * configuration), with that kernel's BTF for the engine; at most one per
 * tracker, opened when its first pair comes. */
struct env_obj {
	const char *dir;
	struct rb_object *obj;    /* NULL: could not be opened (err) */
	struct rb_vmlinux *vmlinux;
	struct rb_err err;
};

static struct env_obj *env_obj_of(struct rb_driver *d, const struct obj_state *os, struct env_obj *envs,
				  size_t *nenv, unsigned t)
{
	const char *dir = d->opts.kernel_inputs[t];
	if (!dir || !dir[0])
		return NULL;
	for (size_t i = 0; i < *nenv; i++)
		if (!strcmp(envs[i].dir, dir))
			return &envs[i];
	struct env_obj *e = &envs[(*nenv)++];
	memset(e, 0, sizeof(*e));
	e->dir = dir;
	struct rb_load_opts lo = {.prog_type = rb_driver_job_prog_type(&d->opts, os->job), .kernel_inputs = dir};
	char btf[4200];
	snprintf(btf, sizeof(btf), "%s/btf", dir);
	struct rb_btf_lend lend;
	if (!(e->vmlinux = rb_vmlinux_new_file(btf))) {
		rb_errf(&e->err, "%s: out of memory", os->job->path);
	} else {
		lend = rb_vmlinux_lend(e->vmlinux); /* libbpf's parse is the engine's */
		lo.lend_btf = &lend;
		if (rb_object_open(os->job->path, &lo, &e->obj, &e->err) < 0)
			e->obj = NULL;
	}
	return e;
}

/* the row of program k and tracker t when no verifier reports it (the
 * object could not be opened for that tracker's kernel, or its verifier
 * was lost): verdict v, saying why */
static void error_row(struct rb_driver *d, const struct obj_state *os, size_t k, unsigned t,
		      enum rb_verdict v, const char *why, struct rb_result_row *row)
{
	memset(row, 0, sizeof(*row));
	row->run_id = d->opts.run_id;
	rb_drv_ident(&row->prog, os, k);
	snprintf(row->tracker, sizeof(row->tracker), "%s", d->opts.trackers[t]);
	row->repeats = 1;
	row->res.verdict = v;
	row->res.err_insn = -1;
	snprintf(row->res.msg, sizeof(row->res.msg), "%.255s", why);
}

/* run --interleave: how many pairs from q on are one program's, one per
 * tracker, all of them this child's and verified with the running
 * kernel's open of the object (at least two, with repeats), else 0 */
static size_t interleaved_pairs(const struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
				size_t q, size_t q1)
{
	size_t nt = d->opts.ntrackers;
	if (!d->opts.interleave || d->opts.repeat < 2 || nt < 2 || !obj || q % nt || q + nt > q1 ||
	    q + nt > os->nprogs * nt)
		return 0;
	for (unsigned t = 0; t < nt; t++)
		if (d->opts.kernel_inputs[t] && d->opts.kernel_inputs[t][0])
			return 0;
	return nt;
}

/* The g pairs from q (interleaved_pairs) verified in rounds, one
 * verification of each tracker per round, so that a stretch of time in
 * which the machine runs slower (these virtual machines have them, ~1.6x,
 * for seconds to minutes) falls on each tracker's repeats alike instead of
 * on one tracker's block of repeats. The group is announced before (the
 * parent's time budget, times g, runs from there; a child that dies in it
 * is followed by one that verifies the group's pairs one after the other,
 * rb_drv_run_object), each pair reported after all rounds. -1 when the
 * pipe broke. */
static int verify_interleaved(struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
			      size_t rot, size_t q, size_t g, struct rb_pool *pool, int fd)
{
	struct rb_result_row *rows = calloc(g, sizeof(*rows));
	struct rb_drv_meas *ms = calloc(g, sizeof(*ms));
	int rc = -1;
	struct msg m = {.type = MSG_GROUP, .q = (uint32_t)q, .repeats = (uint32_t)g};
	if (!rows || !ms || (fd >= 0 && rb_write_all(fd, &m, sizeof(m)) < 0))
		goto out;
	for (size_t j = 0; j < g; j++) {
		size_t k;
		unsigned t;
		pair_of(d->opts.ntrackers, rot, q + j, &k, &t);
		rb_drv_meas_begin(d, os, obj, NULL, pool, k, t, &rows[j], &ms[j]);
	}
	for (bool more = true; more;) {
		more = false;
		for (size_t j = 0; j < g; j++)
			more |= rb_drv_meas_once(d, &ms[j], &rows[j]);
	}
	for (size_t j = 0; j < g; j++) {
		rb_drv_meas_end(d, &ms[j], &rows[j]);
		if (fd < 0) {
			rb_drv_put(d, &rows[j]);
			continue;
		}
		m.type = MSG_ROW;
		m.q = (uint32_t)(q + j);
		m.repeats = rows[j].repeats;
		m.res = rows[j].res;
		if (rb_write_all(fd, &m, sizeof(m)) < 0)
			goto out;
	}
	rc = 0;
out:
	free(rows);
	free(ms);
	return rc;
}

/* Verify pairs q0..q1-1 of an object; each pair announced (START) and then
 * reported (ROW) on fd, or put directly when fd < 0. obj: the object as
 * opened for the running kernel, or NULL when that open failed (open_err
 * says why: the rows of the running kernel's trackers say it, those of
 * trackers standing for another kernel are verified on their own open). */
static void verify_pairs(struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
			 const char *open_err, size_t rot, size_t q0, size_t q1, int fd)
{
	struct rb_result_row *row = calloc(1, sizeof(*row)); /* big: not on the stack */
	if (!row)
		return;
	/* the engine's state memory, kept from one verification to the next
	 * (out of memory: NULL, one per verification) */
	struct rb_pool *pool = rb_pool_new();
	struct env_obj envs[RB_DRIVER_MAX_TRACKERS];
	size_t nenv = 0;
	size_t npairs = os->nprogs * d->opts.ntrackers;
	for (size_t q = q0; q < npairs && q < q1; q++) {
		if (fd < 0 && rb_drv_stop_requested(d))
			break;
		size_t g = interleaved_pairs(d, os, obj, q, q1);
		if (g) {
			if (verify_interleaved(d, os, obj, rot, q, g, pool, fd) < 0)
				break;
			q += g - 1;
			continue;
		}
		size_t k;
		unsigned t;
		pair_of(d->opts.ntrackers, rot, q, &k, &t);
		struct msg m = {.type = MSG_START, .q = (uint32_t)q};
		if (fd >= 0 && rb_write_all(fd, &m, sizeof(m)) < 0)
			break;
		struct env_obj *env = env_obj_of(d, os, envs, &nenv, t);
		if (env && !env->obj)
			error_row(d, os, k, t, RB_LOAD_ERROR, env->err.msg, row);
		else if (!env && !obj)
			error_row(d, os, k, t, RB_LOAD_ERROR, open_err, row);
		else {
			rb_drv_verify_one(d, os, env ? env->obj : obj, env ? env->vmlinux : NULL, pool, k, t, row);
		}
		if (fd < 0) {
			rb_drv_put(d, row);
			continue;
		}
		m.type = MSG_ROW;
		m.repeats = row->repeats;
		m.res = row->res;
		if (rb_write_all(fd, &m, sizeof(m)) < 0)
			break;
	}
	for (size_t i = 0; i < nenv; i++) {
		rb_object_free(envs[i].obj);
		rb_vmlinux_free(envs[i].vmlinux);
	}
	rb_pool_delete(pool);
	free(row);
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
	error_row(d, os, k, t, v, why, &row);
	rb_drv_put(d, &row);
}

/* in the worker thread itself: no isolation */
static void run_in_process(struct rb_driver *d, size_t i)
{
	const struct obj_state *os = &d->objs[d->order[i]];
	struct rb_object *obj = NULL;
	struct rb_err e = {{0}};
	struct rb_btf_lend lend = rb_vmlinux_lend(d->vmlinux); /* libbpf's parse is the engine's */
	struct rb_load_opts lo = {.prog_type = rb_driver_job_prog_type(&d->opts, os->job), .lend_btf = &lend};
	if (rb_object_open(os->job->path, &lo, &obj, &e) < 0 && !rb_drv_other_inputs(d)) {
		rb_drv_object_failed(d, os, &e, true);
		return;
	}
	verify_pairs(d, os, obj, e.msg, i, 0, SIZE_MAX, -1);
	rb_object_free(obj);
}

/* the frame a child reads on its stdin: what to verify, pairs q..q1-1 of
 * object order[i] */
static void job_frame(struct rb_driver *d, const struct obj_state *os, size_t i, size_t q, size_t q1,
		      bool interleave, struct rb_wbuf *b)
{
	rb_wput_str(b, os->job->path);
	rb_wput_str(b, os->job->source);
	rb_wput_u64(b, i);
	rb_wput_u64(b, q);
	rb_wput_u64(b, q1);
	rb_wput_u64(b, (uint64_t)d->opts.run_id);
	rb_wput_u32(b, d->opts.repeat ? d->opts.repeat : 1);
	rb_wput_u64(b, d->opts.insn_limit);
	rb_wput_bytes(b, &d->opts.time_limit_s, sizeof(d->opts.time_limit_s));
	rb_wput_u32(b, d->opts.ntrackers);
	for (unsigned t = 0; t < d->opts.ntrackers; t++) {
		rb_wput_str(b, d->opts.trackers[t]);
		rb_wput_str(b, d->opts.kernel_inputs[t] ? d->opts.kernel_inputs[t] : "");
	}
	const char *pt = rb_driver_job_prog_type(&d->opts, os->job);
	rb_wput_str(b, pt ? pt : "");
	rb_wput_u32(b, d->opts.compiled_helpers);
	rb_wput_u32(b, d->opts.explore_time);
	rb_wput_u32(b, interleave);
	rb_wput_bytes(b, &d->opts.ksyms, sizeof(d->opts.ksyms));
	/* the helper sets of the object's (type, attach type) pairs, probed
	 * once per run here and handed over: a child probing them again cost
	 * about 250 loads per pair and object (issue 26); only for the helper
	 * ids the pair's programs call (the scan's), the ones a verification
	 * asks about: the run's process probed all 255 per pair before */
	uint32_t pairs[RB_HELPER_PROBE_MAX][2], np = 0;
	uint64_t ids[RB_HELPER_PROBE_MAX][4];
	for (size_t k = 0; k < os->nprogs && !d->helpers->off; k++) {
		uint32_t t = os->progs[k].prog_type, a = os->progs[k].attach_type, j = 0;
		while (j < np && !(pairs[j][0] == t && pairs[j][1] == a))
			j++;
		if (j == np && np < RB_HELPER_PROBE_MAX) {
			pairs[np][0] = t;
			pairs[np][1] = a;
			memset(ids[np++], 0, sizeof(ids[0]));
		}
		for (int w = 0; j < np && w < 4; w++)
			ids[j][w] |= os->progs[k].helpers[w];
	}
	rb_wput_u32(b, d->helpers->off);
	rb_wput_u32(b, np);
	for (uint32_t j = 0; j < np; j++) {
		uint64_t set[4];
		bool ok = rb_drv_helper_known(d, pairs[j][0], pairs[j][1], ids[j], set);
		rb_wput_u32(b, pairs[j][0]);
		rb_wput_u32(b, pairs[j][1]);
		rb_wput_u32(b, ok);
		for (int w = 0; w < 4; w++)
			rb_wput_u64(b, ok ? set[w] : 0);
		for (int w = 0; w < 4; w++)
			rb_wput_u64(b, ids[j][w]);
	}
	rb_wput_u64(b, os->nprogs);
	for (size_t k = 0; k < os->nprogs; k++)
		rb_wput_u64(b, os->progs[k].idx);
}

/* start a verifier child for pairs q..q1-1 and hand it its job; the pid,
 * or -1 with err naming what failed */
static pid_t spawn_child(struct rb_driver *d, const struct obj_state *os, size_t i, size_t q, size_t q1,
			 bool interleave, int *rfd, struct rb_err *err)
{
	struct rb_wbuf job = {0};
	job_frame(d, os, i, q, q1, interleave, &job);
	if (job.oom) {
		rb_wbuf_free(&job);
		rb_errf(err, "%s: out of memory", os->job->path);
		return -1;
	}
	char *argv[] = {(char *)d->opts.child_exe, "run", "--child", NULL};
	int wfd;
	struct rb_err e;
	pid_t pid = rb_spawn(argv, &wfd, rfd, &e);
	if (pid < 0) {
		rb_wbuf_free(&job);
		rb_errf(err, "%s: %s", os->job->path, e.msg);
		return -1;
	}
	/* a child that dies before reading it is seen as the child's end */
	rb_wire_send(wfd, &job);
	close(wfd);
	rb_wbuf_free(&job);
	return pid;
}

/* a child's row of pair m->q: its identity from the scan, its result from the child */
static void put_row(struct rb_driver *d, const struct obj_state *os, size_t i, const struct msg *m,
		    struct rb_result_row *row)
{
	size_t k;
	unsigned t;
	pair_of(d->opts.ntrackers, i, m->q, &k, &t);
	memset(row, 0, sizeof(*row));
	row->run_id = d->opts.run_id;
	rb_drv_ident(&row->prog, os, k);
	snprintf(row->tracker, sizeof(row->tracker), "%s", d->opts.trackers[t]);
	row->res = m->res;
	row->repeats = m->repeats;
	rb_drv_put(d, row);
}

void rb_drv_run_object(struct rb_driver *d, size_t i, struct rb_stretch *s)
{
	if (!d->opts.child_exe) {
		run_in_process(d, i);
		return;
	}
	const struct obj_state *os = &d->objs[d->order[i]];
	size_t npairs = os->nprogs * d->opts.ntrackers;
	/* (only this worker moves s->next) */
	size_t q = s ? s->next : 0;
	unsigned repeat = d->opts.repeat ? d->opts.repeat : 1;
	/* the budget of one (program, tracker): every repeat at the time
	 * limit, plus slack for loading (up to 5 s) */
	double tl = d->opts.time_limit_s;
	double budget = tl > 0 ? tl * repeat + (tl < 5 ? tl : 5) : 0;
	/* run --interleave: children verify groups of pairs in rounds, until
	 * one dies in a group (then one pair after the other, as without) */
	bool il = d->opts.interleave;
	struct msg m;
	struct rb_result_row *row = malloc(sizeof(*row));
	while (row && q < rb_drv_stretch_end(d, s, npairs) && !rb_drv_stop_requested(d)) {
		int rfd;
		struct rb_err e = {{0}};
		pid_t pid = spawn_child(d, os, i, q, rb_drv_stretch_end(d, s, npairs), il, &rfd, &e);
		if (pid < 0) {
			rb_drv_fail(d, &e);
			break;
		}
		/* TAKEN: the child started a pair another worker took since;
		 * SHARED: a group of pairs another worker has some of */
		enum { EXITED, STOPPED, OVER_BUDGET, OVER_MEMORY, TAKEN, SHARED } how = EXITED;
		uint64_t rss_mib = 0;
		bool inflight = false;
		size_t cur = q, group_end = 0;
		double started = 0, limit = budget;
		for (;;) {
			struct pollfd p = {.fd = rfd, .events = POLLIN};
			int r = poll(&p, 1, 100);
			if (rb_drv_stop_requested(d)) {
				how = STOPPED;
				break;
			}
			if (inflight && limit > 0 && now_s() - started > limit) {
				how = OVER_BUDGET;
				break;
			}
			if (d->opts.mem_limit_mib && (rss_mib = rb_rss_of(pid) >> 20) > d->opts.mem_limit_mib) {
				how = OVER_MEMORY;
				break;
			}
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break; /* treated as the child's end */
			if (r == 0)
				continue;
			ssize_t n = rb_read_all(rfd, &m, sizeof(m));
			if (n != (ssize_t)sizeof(m) || m.q >= npairs)
				break; /* end of file, or the child died mid-message */
			if (m.type == MSG_START) {
				if (!rb_drv_stretch_start(d, s, m.q)) {
					how = TAKEN;
					break;
				}
				inflight = true;
				cur = m.q;
				started = now_s();
				limit = budget;
			} else if (m.type == MSG_GROUP) {
				if (!m.repeats || !rb_drv_stretch_start(d, s, (size_t)m.q + m.repeats - 1)) {
					how = SHARED;
					break;
				}
				inflight = true;
				cur = m.q;
				group_end = (size_t)m.q + m.repeats;
				started = now_s();
				limit = budget * m.repeats;
			} else if (m.type == MSG_ROW) {
				put_row(d, os, i, &m, row);
				inflight = false;
				q = (size_t)m.q + 1;
			} else if (m.type == MSG_OPEN_FAILED) {
				/* opened in the scan, not now (the file changed?) */
				m.res.msg[sizeof(m.res.msg) - 1] = 0;
				/* the whole object's one row where no other worker
				 * has any of its pairs, else a row for each of this
				 * stretch's (nobody can take them now) */
				size_t end = rb_drv_stretch_close(d, s, q, npairs);
				if (q == 0 && end == npairs) {
					struct rb_err oe;
					snprintf(oe.msg, sizeof(oe.msg), "%s", m.res.msg);
					rb_drv_object_failed(d, os, &oe, true);
				} else {
					for (; q < end; q++)
						lost_row(d, os, i, q, RB_LOAD_ERROR, m.res.msg);
				}
				q = end;
			}
		}
		if (how != EXITED)
			kill(pid, SIGKILL);
		close(rfd);
		int status = rb_wait_child(pid);
		if (how == STOPPED || how == TAKEN)
			break;
		if (how == SHARED || q < group_end) {
			il = false; /* its pairs again, one after the other */
			continue;
		}
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
			/* before any START the child was still loading: the next
			 * pair (unless another worker took it) */
			size_t bad = inflight ? cur : q;
			if (bad >= rb_drv_stretch_end(d, s, npairs))
				break;
			lost_row(d, os, i, bad, RB_LIMIT, why);
			q = bad + 1;
			continue;
		}
		if (q >= rb_drv_stretch_end(d, s, npairs))
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
	rb_drv_stretch_free(d, s);
	free(row);
}

/* the child's job (job_frame) into d, job and os; false when malformed */
static bool read_job(struct rb_wcur *c, struct rb_driver *d, struct rb_job_obj *job, struct obj_state *os,
		     size_t *rot, size_t *q0, size_t *q1)
{
	job->path = (char *)rb_wget_str(c);
	job->source = (char *)rb_wget_str(c);
	*rot = rb_wget_u64(c);
	*q0 = rb_wget_u64(c);
	*q1 = rb_wget_u64(c);
	d->opts.run_id = (int64_t)rb_wget_u64(c);
	d->opts.repeat = rb_wget_u32(c);
	d->opts.insn_limit = rb_wget_u64(c);
	rb_wget_bytes(c, &d->opts.time_limit_s, sizeof(d->opts.time_limit_s));
	d->opts.ntrackers = rb_wget_u32(c);
	if (d->opts.ntrackers == 0 || d->opts.ntrackers > RB_DRIVER_MAX_TRACKERS)
		return false;
	for (unsigned t = 0; t < d->opts.ntrackers; t++) {
		d->opts.trackers[t] = rb_wget_str(c);
		d->opts.kernel_inputs[t] = rb_wget_str(c);
		d->fault[t] = rb_fault_parse(rb_fault_env(), d->opts.trackers[t]);
		if (d->fault[t] < 0)
			d->fault[t] = 0;
	}
	job->prog_type = (char *)rb_wget_str(c);
	d->opts.compiled_helpers = rb_wget_u32(c) != 0;
	d->opts.explore_time = rb_wget_u32(c) != 0;
	d->opts.interleave = rb_wget_u32(c) != 0;
	rb_wget_bytes(c, &d->opts.ksyms, sizeof(d->opts.ksyms));
	/* the sets the parent probed (job_frame): this child probes nothing it was given */
	rb_helper_probe_init_off(d->helpers, rb_wget_u32(c) != 0);
	rb_drv_helper_source_init(d);
	uint32_t np = rb_wget_u32(c);
	if (np > RB_HELPER_PROBE_MAX)
		return false;
	for (uint32_t j = 0; j < np && !c->bad; j++) {
		uint32_t t = rb_wget_u32(c), a = rb_wget_u32(c);
		bool ok = rb_wget_u32(c) != 0;
		uint64_t set[4], known[4];
		for (int w = 0; w < 4; w++)
			set[w] = rb_wget_u64(c);
		for (int w = 0; w < 4; w++)
			known[w] = rb_wget_u64(c);
		/* the ids the programs call, measured; any other probed here if asked */
		rb_helper_probe_seed_known(d->helpers, t, a, ok ? set : NULL, known);
	}
	uint64_t n = rb_wget_u64(c);
	if (c->bad || n > (c->n - c->off) / sizeof(uint64_t))
		return false;
	os->job = job;
	os->progs = calloc(n ? n : 1, sizeof(*os->progs));
	if (!os->progs)
		return false;
	for (uint64_t k = 0; k < n; k++)
		os->progs[os->nprogs++].idx = rb_wget_u64(c);
	return !c->bad;
}

int rb_driver_child_main(int argc, char **argv)
{
	/* run --child, its job on stdin (job_frame) */
	if (argc != 2 || strcmp(argv[1], "--child")) {
		fprintf(stderr, "rangebench run --child: internal use only\n");
		return 2;
	}
	/* a driver that dies (kill -9) takes its verifier with it */
	if (!rb_child_bind_parent())
		return 2;
	struct rb_wbuf jb = {0};
	struct rb_driver *d = calloc(1, sizeof(*d));
	if (d && (!(d->vmlinux = rb_vmlinux_new()) || !(d->helpers = malloc(sizeof(*d->helpers))))) {
		rb_vmlinux_free(d->vmlinux);
		free(d);
		d = NULL;
	}
	if (d)
		pthread_mutex_init(&d->lock, NULL);
	struct rb_job_obj job = {0};
	struct obj_state os = {0};
	size_t rot = 0, q0 = 0, q1 = 0;
	struct rb_wcur c;
	if (!d || rb_wire_recv(STDIN_FILENO, &jb) != 1 ||
	    (c = rb_wcur_of(&jb), !read_job(&c, d, &job, &os, &rot, &q0, &q1))) {
		fprintf(stderr, "rangebench run --child: no job, or a malformed one, on stdin\n");
		if (d) {
			rb_vmlinux_free(d->vmlinux);
			free(d->helpers);
			free(d);
		}
		free(os.progs);
		rb_wbuf_free(&jb);
		return 2;
	}
	d->measure_rss = true;
	d->rss = (struct rb_rss)RB_RSS_INIT;

	/* the rows go to the pipe the parent gave as stdout; anything else
	 * printed to stdout (a library's message) goes to stderr instead */
	int out = dup(STDOUT_FILENO);
	int rc = 0;
	struct rb_btf_lend lend = rb_vmlinux_lend(d->vmlinux); /* libbpf's parse is the engine's */
	struct rb_object *obj = NULL;
	struct rb_err e = {{0}};
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		rc = 2;
	} else if (rb_object_open(job.path,
				  &(struct rb_load_opts){.prog_type = job.prog_type[0] ? job.prog_type : NULL, .lend_btf = &lend},
				  &obj, &e) < 0 &&
		   rb_drv_other_inputs(d)) {
		/* opened by the scan as on another kernel (driver.c): the rows of
		 * the trackers standing for it are verified, the others say why not */
		verify_pairs(d, &os, NULL, e.msg, rot, q0, q1, out);
	} else if (!obj) {
		struct msg m = {.type = MSG_OPEN_FAILED};
		snprintf(m.res.msg, sizeof(m.res.msg), "%.255s", e.msg);
		rb_write_all(out, &m, sizeof(m));
	} else {
		snprintf(os.sha256, sizeof(os.sha256), "%s", obj->sha256);
		/* names for the rows built here (the parent replaces them by the scan's) */
		for (size_t k = 0; k < os.nprogs; k++) {
			struct prog_ref *ref = &os.progs[k];
			if (ref->idx < obj->prog_cnt) {
				struct rb_prog *pr = &obj->progs[ref->idx];
				ref->name = pr->name;
				ref->section = pr->section;
				ref->prog_type = pr->prog_type;
				ref->attach_type = pr->expected_attach_type;
				ref->insn_cnt = pr->insn_cnt;
			}
		}
		verify_pairs(d, &os, obj, NULL, rot, q0, q1, out);
		rb_object_free(obj);
	}
	free(os.progs);
	rb_wbuf_free(&jb);
	rb_rss_close(&d->rss);
	rb_vmlinux_free(d->vmlinux);
	free(d->helpers);
	free(d);
	if (out >= 0)
		close(out);
	return rc;
}
