/* driver.c — the parallel run loop (see driver.h). */
#include "driver/driver.h"

#include <linux/bpf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver_impl.h"
#include "result/metrics.h"
#include "driver/shard_plan.h"
#include "driver/fault.h"
#include "driver/rss.h"
#include "driver/scan.h"
#include "util/pool.h"
#include "kernels/kernels.h"
#include "loader/object.h"
#include "loader/sha256.h"
#include "store/writer.h"
#include "util/file.h"
#include "util/filter.h"
#include "verify/verify.h"
#include "util/sort.h"

bool rb_drv_stop_requested(struct rb_driver *d)
{
	if (__atomic_load_n(&d->stopped, __ATOMIC_RELAXED))
		return true;
	if (d->opts.stop && *d->opts.stop) {
		__atomic_store_n(&d->stopped, 1, __ATOMIC_RELAXED);
		return true;
	}
	return false;
}

const uint64_t *rb_drv_helper_set(struct rb_driver *d, uint32_t prog_type, uint32_t attach_type)
{
	pthread_mutex_lock(&d->lock);
	const uint64_t *set = rb_helper_probe_set(d->helpers, prog_type, attach_type);
	pthread_mutex_unlock(&d->lock);
	return set;
}

static const uint64_t *helper_lookup(void *ctx, uint32_t prog_type, uint32_t attach_type)
{
	return rb_drv_helper_set(ctx, prog_type, attach_type);
}

static int helper_has(void *ctx, uint32_t prog_type, uint32_t attach_type, int32_t id)
{
	struct rb_driver *d = ctx;
	pthread_mutex_lock(&d->lock);
	int r = rb_helper_probe_has(d->helpers, prog_type, attach_type, id);
	pthread_mutex_unlock(&d->lock);
	return r;
}

bool rb_drv_helper_known(struct rb_driver *d, uint32_t prog_type, uint32_t attach_type, const uint64_t ids[4],
			 uint64_t set[4])
{
	memset(set, 0, 4 * sizeof(uint64_t));
	for (int id = 1; id < 256; id++) {
		if (!((ids[id / 64] >> (id % 64)) & 1))
			continue;
		int r = helper_has(d, prog_type, attach_type, id);
		if (r < 0)
			return false;
		if (r)
			set[id / 64] |= 1ull << (id % 64);
	}
	/* a pair none of whose programs calls a helper: measured if trusted */
	pthread_mutex_lock(&d->lock);
	bool ok = rb_helper_probe_measured(d->helpers, prog_type, attach_type);
	pthread_mutex_unlock(&d->lock);
	return ok;
}

void rb_drv_helper_source_init(struct rb_driver *d)
{
	d->helper_src.ctx = d;
	d->helper_src.set = helper_lookup;
	d->helper_src.has = helper_has;
}

void rb_drv_fail(struct rb_driver *d, const struct rb_err *e)
{
	pthread_mutex_lock(&d->lock);
	if (!d->failed) {
		d->failed = true;
		d->err = *e;
	}
	pthread_mutex_unlock(&d->lock);
	__atomic_store_n(&d->stopped, 1, __ATOMIC_RELAXED);
}

void rb_drv_put(struct rb_driver *d, const struct rb_result_row *row)
{
	struct rb_result_row k;
	struct utsname u;
	/* a row of the running kernel names its exact release */
	if (rb_kernel_is_running(row->tracker) && !row->kernel_release[0] && uname(&u) == 0) {
		k = *row;
		snprintf(k.kernel_release, sizeof(k.kernel_release), "%s", u.release);
		row = &k;
	}
	if (rb_writer_put(d->w, row) < 0) {
		struct rb_err e;
		rb_errf(&e, "%s: the database writer failed", rb_store_path(d->st));
		rb_drv_fail(d, &e);
	}
	__atomic_add_fetch(&d->done, 1, __ATOMIC_RELAXED);
	if (row->res.verdict != RB_ACCEPT)
		__atomic_add_fetch(&d->not_accepted, 1, __ATOMIC_RELAXED);
}

unsigned rb_driver_shard_of(const char *sha256, const char *section, const char *name, unsigned n)
{
	if (n <= 1)
		return 1;
	return (unsigned)(rb_shard_identity_hash(sha256, section, name) % n) + 1;
}

static bool in_shard(const struct rb_driver *d, const char *sha256, const char *section, const char *name)
{
	if (d->opts.shard_n <= 1)
		return true;
	unsigned k = d->opts.shard_plan ? rb_shard_plan_of(d->opts.shard_plan, sha256, section, name) : 0;
	if (!k)
		k = rb_driver_shard_of(sha256, section, name, d->opts.shard_n);
	return k == d->opts.shard_k;
}

void rb_drv_ident(struct rb_prog_ident *id, const struct obj_state *os, size_t k)
{
	memset(id, 0, sizeof(*id));
	snprintf(id->obj_path, sizeof(id->obj_path), "%s", os->job->path);
	snprintf(id->source, sizeof(id->source), "%s", os->job->source);
	snprintf(id->obj_sha256, sizeof(id->obj_sha256), "%s", os->sha256);
	const struct prog_ref *p = &os->progs[k];
	snprintf(id->section, sizeof(id->section), "%s", p->section ? p->section : "");
	snprintf(id->name, sizeof(id->name), "%s", p->name ? p->name : "");
	id->ordinal = p->ordinal;
	id->prog_type = p->prog_type;
	id->insn_cnt = p->insn_cnt;
}

/* An object that cannot be opened: one "(object)" row per tracker,
 * identified by a hash of its path. When the
 * scan had counted its programs (was_counted), the total is corrected. */
void rb_drv_object_failed(struct rb_driver *d, const struct obj_state *os, const struct rb_err *e,
			  bool was_counted)
{
	const struct rb_job_obj *job = os->job;
	if (was_counted)
		__atomic_sub_fetch(&d->total, os->nprogs * d->opts.ntrackers, __ATOMIC_RELAXED);
	struct rb_result_row row;
	memset(&row, 0, sizeof(row));
	/* a path too long for the column (it could not be opened either)
	 * is stored shortened; its key below is the hash of the whole path */
	char pb[256];
	snprintf(row.prog.obj_path, sizeof(row.prog.obj_path), "%s",
		 strlen(job->path) < sizeof(row.prog.obj_path) ? job->path : rb_path_shown(job->path, pb, sizeof(pb)));
	snprintf(row.prog.source, sizeof(row.prog.source), "%s", job->source);
	/* keyed by the path, never by reading the file again (it may be huge,
	 * a FIFO, or gone): two failed objects never share a row, and the
	 * same failed path is the same row in every run */
	char h[65];
	rb_sha256_hex(job->path, strlen(job->path), h);
	snprintf(row.prog.obj_sha256, sizeof(row.prog.obj_sha256), "path:%.59s", h);
	snprintf(row.prog.name, sizeof(row.prog.name), "(object)");
	if (!in_shard(d, row.prog.obj_sha256, row.prog.section, row.prog.name))
		return; /* another shard's row */
	__atomic_add_fetch(&d->load_errors, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&d->total, d->opts.ntrackers, __ATOMIC_RELAXED);
	row.run_id = d->opts.run_id;
	row.repeats = 1;
	row.res.verdict = RB_LOAD_ERROR;
	row.res.err_insn = -1;
	snprintf(row.res.msg, sizeof(row.res.msg), "%.255s", e->msg);
	for (unsigned t = 0; t < d->opts.ntrackers; t++) {
		snprintf(row.tracker, sizeof(row.tracker), "%s", d->opts.trackers[t]);
		rb_drv_put(d, &row);
	}
}

/* rows and identities hold names whole: as long as the loader keeps them */
_Static_assert(sizeof(((struct rb_prog_ident *)0)->name) == RB_PROG_NAME_MAX, "name bound");
_Static_assert(sizeof(((struct rb_prog_ident *)0)->section) == RB_PROG_SECTION_MAX, "section bound");

static int cmp_ident(const void *a, const void *b, void *ctx)
{
	const struct rb_scan_prog *p = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(p[x].section, p[y].section);
	if (!c)
		c = strcmp(p[x].name, p[y].name);
	return c ? c : (x > y) - (x < y);
}

/* ord[p] (zeroed by the caller): program p's ordinal among the programs
 * of equal section and name, in object order; false when out of memory */
static bool ordinals(const struct rb_scan_obj *so, uint32_t *ord)
{
	size_t *idx = malloc((so->nprogs ? so->nprogs : 1) * sizeof(*idx));
	if (!idx)
		return false;
	for (size_t p = 0; p < so->nprogs; p++)
		idx[p] = p;
	qsort_r(idx, so->nprogs, sizeof(*idx), cmp_ident, so->progs);
	for (size_t i = 1; i < so->nprogs; i++) {
		const struct rb_scan_prog *a = &so->progs[idx[i - 1]], *b = &so->progs[idx[i]];
		if (!strcmp(a->section, b->section) && !strcmp(a->name, b->name))
			ord[idx[i]] = ord[idx[i - 1]] + 1;
	}
	free(idx);
	return true;
}

/* the programs of an opened object that pass the filter and the shard
 * (their names taken from so) */
static void scan_keep(struct rb_driver *d, struct obj_state *os, struct rb_scan_obj *so)
{
	snprintf(os->sha256, sizeof(os->sha256), "%s", so->sha256);
	uint32_t *ord = calloc(so->nprogs ? so->nprogs : 1, sizeof(*ord));
	os->progs = ord && ordinals(so, ord) ? calloc(so->nprogs ? so->nprogs : 1, sizeof(*os->progs)) : NULL;
	for (size_t p = 0; os->progs && p < so->nprogs; p++) {
		struct rb_scan_prog *pr = &so->progs[p];
		if (!rb_filter_match(d->opts.filter, os->job->path, pr->name) ||
		    !in_shard(d, so->sha256, pr->section, pr->name))
			continue;
		struct prog_ref *ref = &os->progs[os->nprogs++];
		ref->idx = pr->idx;
		ref->name = pr->name;
		ref->section = pr->section;
		pr->name = pr->section = NULL;
		ref->ordinal = ord[p];
		ref->prog_type = pr->prog_type;
		ref->attach_type = pr->attach_type;
		ref->insn_cnt = pr->insn_cnt;
		memcpy(ref->helpers, pr->helpers, sizeof(ref->helpers));
	}
	free(ord);
	__atomic_add_fetch(&d->total, os->nprogs * d->opts.ntrackers, __ATOMIC_RELAXED);
}

const char *rb_drv_other_inputs(const struct rb_driver *d)
{
	for (unsigned t = 0; t < d->opts.ntrackers; t++)
		if (d->opts.kernel_inputs[t] && d->opts.kernel_inputs[t][0])
			return d->opts.kernel_inputs[t];
	return NULL;
}

/* an object opened here, in the run's own process (no child_exe) */
static int scan_in_process(const char *path, const struct rb_load_opts *lo, struct rb_scan_obj *so,
			   struct rb_err *e)
{
	struct rb_object *obj = NULL;
	memset(so, 0, sizeof(*so));
	if (rb_object_open(path, lo, &obj, e) < 0)
		return RB_SCAN_FAILED;
	snprintf(so->sha256, sizeof(so->sha256), "%s", obj->sha256);
	so->progs = calloc(obj->prog_cnt ? obj->prog_cnt : 1, sizeof(*so->progs));
	for (size_t p = 0; so->progs && p < obj->prog_cnt; p++) {
		struct rb_scan_prog *sp = &so->progs[so->nprogs++];
		sp->idx = (uint32_t)p;
		sp->name = strdup(obj->progs[p].name);
		sp->section = strdup(obj->progs[p].section);
		sp->prog_type = obj->progs[p].prog_type;
		sp->attach_type = obj->progs[p].expected_attach_type;
		sp->insn_cnt = obj->progs[p].insn_cnt;
		rb_scan_helper_calls(&obj->progs[p], sp->helpers);
		if (!sp->name || !sp->section)
			break;
	}
	bool oom = !so->progs || (so->nprogs && (!so->progs[so->nprogs - 1].name || !so->progs[so->nprogs - 1].section));
	rb_object_free(obj);
	if (oom) {
		rb_scan_obj_free(so);
		return rb_errf(e, "%s: out of memory", path);
	}
	return 0;
}

static bool stop_cb(void *arg) { return rb_drv_stop_requested(arg); }

/* an object's row as one that cannot be opened, or, when the scan runs
 * before the writer (scanned_early), its message kept for it */
static void scan_failed(struct rb_driver *d, struct obj_state *os, const struct rb_err *e)
{
	os->load_failed = true;
	if (d->w) {
		rb_drv_object_failed(d, os, e, false);
	} else if (!(os->early_err = strdup(e->msg))) {
		struct rb_err oom;
		rb_errf(&oom, "run: out of memory");
		rb_drv_fail(d, &oom);
	}
}

/* phase 1: each worker opens objects in a scan child of its own (scan.h),
 * so that a loader crashing on one object costs that object's row */
static void *scan_worker(void *arg)
{
	struct rb_driver *d = arg;
	struct rb_scan *sc = d->opts.child_exe ? rb_scan_new(d->opts.child_exe, stop_cb, d, d->opts.mem_limit_mib)
					       : NULL;
	if (d->opts.child_exe && !sc) {
		struct rb_err e;
		rb_errf(&e, "run: out of memory");
		rb_drv_fail(d, &e);
		return NULL;
	}
	for (;;) {
		size_t i = __atomic_fetch_add(&d->next, 1, __ATOMIC_RELAXED);
		if (i >= d->jobs->n || rb_drv_stop_requested(d))
			break;
		struct obj_state *os = &d->objs[i];
		struct rb_err e = {{0}};
		struct rb_load_opts lo = {.prog_type = rb_driver_job_prog_type(&d->opts, os->job)};
		struct rb_scan_obj so;
		if (os->job->error) {
			/* found by the walk but not openable (jobs.h): its row */
			char pb[256];
			rb_errf(&e, "%s: %s", rb_path_shown(os->job->path, pb, sizeof(pb)), os->job->error);
			scan_failed(d, os, &e);
			__atomic_add_fetch(&d->scanned, 1, __ATOMIC_RELAXED);
			continue;
		}
		/* the run's last object (or its only one to open), none to retry
		 * on another kernel: the child (a fork shares this process's
		 * pages) ends once it answers */
		if (sc && (i + 1 == d->jobs->n || d->scanned_early) && !rb_drv_other_inputs(d))
			rb_scan_last(sc);
		int rc = sc ? rb_scan_object(sc, os->job->path, &lo, &so, &e) : scan_in_process(os->job->path, &lo, &so, &e);
		/* refused as on the running kernel (libbpf prepares it from that
		 * kernel's BTF: a sched_ext object on 6.18): opened as on the
		 * kernel of a row that stands for another one, if any, whose
		 * rows can then be verified (child.c; the others say why not) */
		const char *inputs = rb_drv_other_inputs(d);
		if (rc == RB_SCAN_FAILED && inputs) {
			struct rb_err e2 = {{0}};
			lo.kernel_inputs = inputs;
			int rc2 = sc ? rb_scan_object(sc, os->job->path, &lo, &so, &e2)
				     : scan_in_process(os->job->path, &lo, &so, &e2);
			if (rc2 != RB_SCAN_FAILED)
				rc = rc2, e = e2;
		}
		if (rc < 0) {
			rb_drv_fail(d, &e);
			break;
		}
		if (rc == RB_SCAN_STOPPED)
			break;
		if (rc == RB_SCAN_OK) {
			scan_keep(d, os, &so);
			rb_scan_obj_free(&so);
		} else {
			scan_failed(d, os, &e);
		}
		__atomic_add_fetch(&d->scanned, 1, __ATOMIC_RELAXED);
	}
	/* its answers are in; a child that dies at its exit is still told */
	char why[128];
	if (!rb_scan_end(sc, why, sizeof(why))) {
		pthread_mutex_lock(&d->lock);
		if (!d->scan_exits_bad++)
			snprintf(d->scan_exit_why, sizeof(d->scan_exit_why), "%s", why);
		pthread_mutex_unlock(&d->lock);
	}
	rb_scan_free(sc);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Verify one program with one tracker `repeat` times; keep the first
 * result's counts and the median time. */
/* A verification that parsed vmlinux BTF (the first tracing program of a
 * child) has the parse in its peak RSS; the BTF then stays for every later
 * one, so the verification is measured once more without it. */
static uint64_t measure_again(struct rb_driver *d, const struct rb_object *obj, size_t pidx,
			      const struct rb_verify_opts *vo, unsigned loads_before, uint64_t kib)
{
	if (!vo->vmlinux || rb_vmlinux_loads(vo->vmlinux) == loads_before || !rb_rss_reset_peak(&d->rss))
		return kib;
	struct rb_result res;
	struct rb_err e = {{0}};
	memset(&res, 0, sizeof(res));
	rb_pool_release(vo->pool); /* from an empty pool, as the first */
	return rb_verify(obj, pidx, vo, &res, &e) < 0 ? kib : rb_rss_peak_kib(&d->rss);
}

bool rb_drv_meas_begin(struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
		       struct rb_vmlinux *vmlinux, struct rb_pool *pool, size_t k, unsigned t,
		       struct rb_result_row *row, struct rb_drv_meas *m)
{
	memset(row, 0, sizeof(*row));
	row->run_id = d->opts.run_id;
	rb_drv_ident(&row->prog, os, k);
	snprintf(row->tracker, sizeof(row->tracker), "%s", d->opts.trackers[t]);
	m->done = true;
	m->n = 0;
	size_t pidx = os->progs[k].idx;
	if (pidx >= obj->prog_cnt) {
		row->res.verdict = RB_LOAD_ERROR;
		row->res.err_insn = -1;
		snprintf(row->res.msg, sizeof(row->res.msg), "program %zu vanished from the object", pidx);
		return false;
	}
	m->vo = (struct rb_verify_opts){
		.pool = pool,
		.tracker = d->opts.trackers[t],
		.insn_limit = d->opts.insn_limit,
		.time_limit_s = d->opts.time_limit_s,
		.vmlinux = vmlinux ? vmlinux : d->vmlinux,
		.helpers = d->helpers ? &d->helper_src : NULL,
		.ksyms = d->opts.explore_time ? &d->opts.ksyms : NULL,
	};
	m->obj = obj;
	m->pool = pool;
	m->pidx = pidx;
	m->t = t;
	/* the program's helpers probed now, not inside the timed verification */
	if (d->helpers && !rb_kernel_is_running(m->vo.tracker)) {
		uint64_t ids[4], set[4];
		rb_scan_helper_calls(&obj->progs[pidx], ids);
		rb_drv_helper_known(d, obj->progs[pidx].prog_type, obj->progs[pidx].expected_attach_type, ids, set);
	}
	m->repeat = d->opts.repeat ? d->opts.repeat : 1;
	if (m->repeat > 64)
		m->repeat = 64;
	m->done = false;
	return true;
}

bool rb_drv_meas_once(struct rb_driver *d, struct rb_drv_meas *m, struct rb_result_row *row)
{
	if (m->done)
		return false;
	unsigned r = m->n;
	struct rb_verify_opts *vo = &m->vo;
	struct rb_result res;
	struct rb_err e = {{0}};
	memset(&res, 0, sizeof(res));
	res.err_insn = -1;
	/* the first verification's peak RSS, for userspace trackers */
	bool rss = r == 0 && d->measure_rss && !rb_kernel_is_running(vo->tracker) && rb_rss_reset_peak(&d->rss);
	/* the state memory kept from the verification before (the
	 * repeats after the first reuse it), except where the peak RSS
	 * is measured: that one starts from an empty pool */
	if (rss)
		rb_pool_release(m->pool);
	unsigned loads = rss && vo->vmlinux ? rb_vmlinux_loads(vo->vmlinux) : 0;
	int rc = rb_verify(m->obj, m->pidx, vo, &res, &e);
	if (rss && rc >= 0)
		res.peak_rss_kib = measure_again(d, m->obj, m->pidx, vo, loads, rb_rss_peak_kib(&d->rss));
	if (rss)
		rb_rss_after(res.peak_rss_kib);
	rb_fault_during(d->fault[m->t], vo->tracker);
	if (rc < 0) {
		memset(&res, 0, sizeof(res));
		res.verdict = RB_LOAD_ERROR;
		res.err_insn = -1;
		snprintf(res.msg, sizeof(res.msg), "%.255s", e.msg);
	}
	/* the verifier's own time (0 when it did not verify) */
	m->times[0][m->n] = res.verify_us;
	m->times[1][m->n] = res.explore_us;
	m->times[2][m->n++] = res.explore_cpu_us;
	if (r == 0)
		row->res = res;
	/* repeat only verifications whose time means something: not
	 * errors, refusals or exhausted budgets, but the instruction
	 * budget (both sides stop at the same count; unrepeated, the
	 * engine's one time was the cold first one of a warm kernel) */
	bool insn_budget = res.verdict == RB_LIMIT && res.insns_processed > (vo->insn_limit ? vo->insn_limit : 1000000);
	if (rc < 0 || (res.verdict != RB_ACCEPT && res.verdict != RB_REJECT && !insn_budget) ||
	    m->n >= m->repeat || rb_drv_stop_requested(d))
		m->done = true;
	return !m->done;
}

void rb_drv_meas_end(struct rb_driver *d, struct rb_drv_meas *m, struct rb_result_row *row)
{
	unsigned n = m->n;
	if (n == 0)
		return; /* nothing measured: the row says why (begin) */
	/* median, least and most of each */
	static const enum rb_metric spread[3][3] = {
		{RB_M_TIME, RB_M_TIME_MIN, RB_M_TIME_MAX},
		{RB_M_EXPLORE, RB_M_EXPLORE_MIN, RB_M_EXPLORE_MAX},
		{RB_M_EXPLORE_CPU, RB_M_EXPLORE_CPU_MIN, RB_M_EXPLORE_CPU_MAX},
	};
	for (int k = 0; k < 3; k++) {
		double *v = m->times[k];
		rb_sort(v, n, sizeof(v[0]), cmp_double);
		rb_metric_set(&row->res, spread[k][0], n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
		rb_metric_set(&row->res, spread[k][1], v[0]);
		rb_metric_set(&row->res, spread[k][2], v[n - 1]);
	}
	row->repeats = n;
	rb_fault_apply(d->fault[m->t], &row->res);
}

void rb_drv_verify_one(struct rb_driver *d, const struct obj_state *os, const struct rb_object *obj,
		       struct rb_vmlinux *vmlinux, struct rb_pool *pool, size_t k, unsigned t,
		       struct rb_result_row *row)
{
	struct rb_drv_meas meas, *m = &meas;
	if (rb_drv_meas_begin(d, os, obj, vmlinux, pool, k, t, row, m))
		while (rb_drv_meas_once(d, m, row))
			;
	rb_drv_meas_end(d, m, row);
}

/* the objects in order, then shares of the others' stretches (driver_impl.h) */
static void *run_worker(void *arg)
{
	struct rb_driver *d = arg;
	size_t i;
	struct rb_stretch *s;
	while (!rb_drv_stop_requested(d) && rb_drv_next_work(d, &i, &s))
		rb_drv_run_object(d, i, s);
	return NULL;
}

static int cmp_order(const void *a, const void *b, void *ctx)
{
	const struct rb_driver *d = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t nx = d->objs[x].nprogs, ny = d->objs[y].nprogs;
	if (nx != ny)
		return nx < ny ? 1 : -1;
	return (x > y) - (x < y);
}

static void run_phase(struct rb_driver *d, void *(*fn)(void *))
{
	unsigned n = d->opts.jobs ? d->opts.jobs : 1;
	pthread_t *t = calloc(n, sizeof(*t));
	unsigned started = 0;
	__atomic_store_n(&d->next, 0, __ATOMIC_RELAXED);
	for (unsigned i = 0; t && i < n; i++)
		if (pthread_create(&t[i], NULL, fn, d) == 0)
			started++;
		else
			break;
	if (started == 0)
		fn(d); /* no threads: do the work here */
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
}

static int cmp_sha(const void *a, const void *b, void *ctx)
{
	const struct rb_driver *d = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(d->objs[x].sha256, d->objs[y].sha256);
	return c ? c : (x > y) - (x < y);
}

/* The same object content under several paths is verified once (the
 * first path in order): the database keys programs by content hash. */
static void drop_duplicates(struct rb_driver *d)
{
	size_t *idx = calloc(d->jobs->n ? d->jobs->n : 1, sizeof(*idx));
	if (!idx)
		return;
	size_t n = 0;
	for (size_t i = 0; i < d->jobs->n; i++)
		if (!d->objs[i].load_failed)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_sha, d);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(d->objs[idx[i]].sha256, d->objs[idx[i - 1]].sha256)) {
			struct obj_state *os = &d->objs[idx[i]];
			os->duplicate = true;
			__atomic_sub_fetch(&d->total, os->nprogs * d->opts.ntrackers, __ATOMIC_RELAXED);
			d->duplicates++;
		}
	free(idx);
}

/* One object to open (most runs of the tests): opened by rb_driver_start
 * itself, before any thread of the run, its scan child a fork (scan.h:
 * rb_spawn_main), not an exec (a sanitizer-built run of tiny.o: ~45 ms of
 * CPU less, the child's start-up and leak check), and ended as soon as it
 * has answered, before this process allocates again: while a fork lives
 * each page this process writes is copied (and in the sanitizer build the
 * allocator's huge pages split, a fault per page from then on). Forks made
 * there for every worker, the run's threads starting while they opened
 * objects, cost the run about what they saved; so more objects are opened
 * as before, by the workers' exec'd children, in parallel. Its row, if it
 * cannot be opened, is put once the writer runs. */
static void scan_early(struct rb_driver *d)
{
	size_t openable = 0;
	for (size_t i = 0; i < d->jobs->n; i++)
		openable += !d->jobs->objs[i].error;
	if (!d->opts.child_exe || openable != 1)
		return;
	d->scanned_early = true;
	scan_worker(d);
}

static void *manager(void *arg)
{
	struct rb_driver *d = arg;
	__atomic_store_n(&d->scanning, 1, __ATOMIC_RELAXED);
	if (!d->scanned_early)
		run_phase(d, scan_worker);
	if (!rb_drv_stop_requested(d))
		drop_duplicates(d);
	__atomic_store_n(&d->scanning, 0, __ATOMIC_RELAXED);
	if (!rb_drv_stop_requested(d)) {
		d->order = calloc(d->jobs->n ? d->jobs->n : 1, sizeof(*d->order));
		for (size_t i = 0; d->order && i < d->jobs->n; i++)
			if (!d->objs[i].load_failed && !d->objs[i].duplicate && d->objs[i].nprogs)
				d->order[d->norder++] = i;
		if (d->order)
			qsort_r(d->order, d->norder, sizeof(*d->order), cmp_order, d);
		rb_drv_stretches_init(d);
		run_phase(d, run_worker);
	}
	__atomic_store_n(&d->idle, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void free_objs(struct rb_driver *d)
{
	for (size_t i = 0; i < d->jobs->n; i++) {
		for (size_t k = 0; d->objs[i].progs && k < d->objs[i].nprogs; k++) {
			free(d->objs[i].progs[k].name);
			free(d->objs[i].progs[k].section);
		}
		free(d->objs[i].progs);
		free(d->objs[i].early_err);
	}
	free(d->objs);
}

int rb_driver_start(const struct rb_driver_opts *opts, const struct rb_joblist *jobs,
		    struct rb_store *st, struct rb_driver **out, struct rb_err *err)
{
	*out = NULL;
	if (opts->ntrackers == 0 || opts->ntrackers > RB_DRIVER_MAX_TRACKERS)
		return rb_errf(err, "run: between 1 and %d trackers, not %u", RB_DRIVER_MAX_TRACKERS,
			       opts->ntrackers);
	struct rb_driver *d = calloc(1, sizeof(*d));
	if (!d)
		return rb_errf(err, "run: out of memory");
	d->opts = *opts;
	d->jobs = jobs;
	d->st = st;
	for (unsigned t = 0; t < opts->ntrackers; t++) {
		d->fault[t] = rb_fault_parse(opts->fault, opts->trackers[t]);
		if (d->fault[t] < 0) {
			free(d);
			return rb_errf(err, "RB_TEST_FAULT: bad spec '%s' (TRACKER:states|insns|verdict|slow,...)",
				       opts->fault);
		}
	}
	d->objs = calloc(jobs->n ? jobs->n : 1, sizeof(*d->objs));
	d->vmlinux = rb_vmlinux_new();
	d->helpers = malloc(sizeof(*d->helpers));
	if (!d->objs || !d->vmlinux || !d->helpers) {
		free(d->objs);
		rb_vmlinux_free(d->vmlinux);
		free(d->helpers);
		free(d);
		return rb_errf(err, "run: out of memory");
	}
	rb_helper_probe_init(d->helpers, !opts->compiled_helpers);
	rb_drv_helper_source_init(d);
	for (size_t i = 0; i < jobs->n; i++)
		d->objs[i].job = &jobs->objs[i];
	pthread_mutex_init(&d->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &d->t0);
	scan_early(d); /* before any thread of the run */

	/* the threads started from here inherit a mask without SIGINT,
	 * SIGTERM, SIGHUP and SIGPIPE: those reach the caller's thread (and a
	 * write to a child that died fails with EPIPE in the thread itself) */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int rc = rb_writer_start(st, 256, &d->w, err);
	/* the rows of what scan_early could not open */
	for (size_t i = 0; rc == 0 && i < jobs->n; i++)
		if (d->objs[i].early_err) {
			struct rb_err e;
			snprintf(e.msg, sizeof(e.msg), "%s", d->objs[i].early_err);
			rb_drv_object_failed(d, &d->objs[i], &e, false);
		}
	if (rc == 0 && pthread_create(&d->manager, NULL, manager, d) != 0) {
		rb_writer_finish(d->w, NULL);
		rc = rb_errf(err, "run: cannot start threads");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		pthread_mutex_destroy(&d->lock);
		rb_vmlinux_free(d->vmlinux);
		free(d->helpers);
		free_objs(d);
		free(d);
		return -1;
	}
	*out = d;
	return 0;
}

void rb_driver_progress(struct rb_driver *d, struct rb_progress *p)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	p->scanning = __atomic_load_n(&d->scanning, __ATOMIC_RELAXED);
	p->objects = d->jobs->n;
	p->objects_scanned = __atomic_load_n(&d->scanned, __ATOMIC_RELAXED);
	p->total = __atomic_load_n(&d->total, __ATOMIC_RELAXED);
	p->done = __atomic_load_n(&d->done, __ATOMIC_RELAXED);
	p->not_accepted = __atomic_load_n(&d->not_accepted, __ATOMIC_RELAXED);
	p->load_errors = __atomic_load_n(&d->load_errors, __ATOMIC_RELAXED);
	p->duplicates = p->scanning ? 0 : d->duplicates;
	p->elapsed_s = (double)(ts.tv_sec - d->t0.tv_sec) + (double)(ts.tv_nsec - d->t0.tv_nsec) / 1e9;
	pthread_mutex_lock(&d->lock);
	p->scan_exits_bad = d->scan_exits_bad;
	snprintf(p->scan_exit_why, sizeof(p->scan_exit_why), "%s", d->scan_exit_why);
	pthread_mutex_unlock(&d->lock);
}

bool rb_driver_idle(struct rb_driver *d) { return __atomic_load_n(&d->idle, __ATOMIC_ACQUIRE); }

int64_t rb_driver_finish(struct rb_driver *d, bool *complete, struct rb_err *err)
{
	pthread_join(d->manager, NULL);
	struct rb_err werr = {{0}};
	int64_t stored = rb_writer_finish(d->w, &werr);
	if (stored < 0) {
		/* the writer's own reason (disk full, ...) rather than the
		 * "writer failed" its producers saw */
		d->failed = true;
		d->err = werr;
	}
	*complete = !d->failed && !d->stopped && d->done == d->total;
	int64_t rc = stored;
	if (d->failed) {
		if (err)
			*err = d->err;
		rc = -1;
	}
	free_objs(d);
	free(d->order);
	free(d->stretch);
	rb_vmlinux_free(d->vmlinux);
	free(d->helpers);
	pthread_mutex_destroy(&d->lock);
	free(d);
	return rc;
}

bool rb_driver_tracker_available(const char *tracker, char *why, size_t len)
{
	struct bpf_insn insns[2] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	struct rb_prog prog;
	memset(&prog, 0, sizeof(prog));
	snprintf(prog.name, sizeof(prog.name), "rb_probe");
	snprintf(prog.section, sizeof(prog.section), "socket");
	snprintf(prog.license, sizeof(prog.license), "GPL");
	prog.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	prog.autoload = true;
	prog.type_known = true;
	prog.insns = insns;
	prog.insn_cnt = 2;
	struct rb_object *obj = calloc(1, sizeof(*obj));
	if (!obj) {
		snprintf(why, len, "out of memory");
		return false;
	}
	snprintf(obj->path, sizeof(obj->path), "(availability probe)");
	memset(obj->sha256, '0', 64);
	obj->progs = &prog;
	obj->prog_cnt = 1;
	struct rb_verify_opts vo = {.tracker = tracker};
	struct rb_result res;
	struct rb_err e = {{0}};
	memset(&res, 0, sizeof(res));
	int rc = rb_verify(obj, 0, &vo, &res, &e);
	free(obj);
	if (rc < 0) {
		snprintf(why, len, "%s", e.msg);
		return false;
	}
	if (res.verdict != RB_ACCEPT) {
		snprintf(why, len, "%s on a trivial program%s%s", rb_verdict_name(res.verdict),
			 res.msg[0] ? ": " : "", res.msg);
		return false;
	}
	why[0] = 0;
	return true;
}

const char *rb_driver_job_prog_type(const struct rb_driver_opts *o, const struct rb_job_obj *job)
{
	if (job->prog_type && job->prog_type[0])
		return job->prog_type;
	return o->prog_type && o->prog_type[0] ? o->prog_type : NULL;
}
