/* guest.c — the guest runner (see guest.h): the batches, their guests
 * started and watched until every one has ended. */
#include "guest/guest_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest/initramfs.h"
#include "guest/memo.h"
#include "guest/pvh.h"
#include "loader/sha256.h"
#include "util/file.h"

bool rb_guest_available(const struct rb_kernel *k, char *why, size_t len)
{
	struct rb_err e = {{0}};
	char p[PATH_MAX];
	if (k->backend != RB_KBACK_QEMU) {
		snprintf(why, len, "%s is not a kernel image", k->name);
		return false;
	}
	if (rb_kernel_image(k, p, sizeof(p), &e) < 0) {
		snprintf(why, len, "%s", e.msg);
		return false;
	}
	if (!rb_gst_find_in_path("qemu-system-x86_64", p, sizeof(p))) {
		snprintf(why, len, "no qemu-system-x86_64: install Debian's qemu-system-x86 (make kernels does)");
		return false;
	}
	if (rb_initramfs_busybox(p, sizeof(p), &e) < 0) {
		snprintf(why, len, "%s", e.msg);
		return false;
	}
	return true;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(buf, 0755);
			*s = '/';
		}
	return mkdir(buf, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* path's content hash, from the kernel directory's memo (memo.h) or
 * read, hashed and remembered; *data (if asked) keeps what was read, NULL
 * when the memo answered */
static int file_hash(const char *kdir, const char *path, char hex[65], uint8_t **data, size_t *len,
		     struct rb_err *err)
{
	if (data)
		*data = NULL;
	if (rb_gst_memo_get(kdir, path, hex))
		return 0;
	struct stat before;
	bool known = stat(path, &before) == 0;
	uint8_t *b = NULL;
	size_t l = 0;
	if (rb_read_file(path, (size_t)1 << 30, &b, &l, err) < 0)
		return -1;
	rb_sha256_hex(b, l, hex);
	if (known)
		rb_gst_memo_put(kdir, path, &before, hex);
	if (data) {
		*data = b;
		*len = l;
	} else {
		free(b);
	}
	return 0;
}

/* the runner's fixed parts: this executable, the image's and the
 * executable's content hashes (with each object's, the cache key), the
 * package version make kernels recorded */
static int setup(struct runner *r, struct rb_err *err)
{
	char why[600];
	if (!rb_guest_available(r->k, why, sizeof(why)))
		return rb_errf(err, "%s", why);
	rb_kernel_image(r->k, r->image, sizeof(r->image), err);
	rb_gst_find_in_path("qemu-system-x86_64", r->qemu, sizeof(r->qemu));
	rb_kernel_dir(r->k, r->kdir, sizeof(r->kdir));
	if (r->o->exe) {
		snprintf(r->exe, sizeof(r->exe), "%s", r->o->exe);
	} else {
		ssize_t l = readlink("/proc/self/exe", r->exe, sizeof(r->exe) - 1);
		if (l <= 0)
			return rb_errf(err, "cannot find this executable (/proc/self/exe)");
		r->exe[l] = 0;
	}
	r->vcpus = r->o->vcpus ? r->o->vcpus : 2;
	if (r->vcpus > MAX_PORTS)
		r->vcpus = MAX_PORTS;
	char vp[PATH_MAX + 16];
	snprintf(vp, sizeof(vp), "%s/version", r->kdir);
	FILE *vf = fopen(vp, "r");
	if (vf) {
		if (fscanf(vf, "%63s", r->pkgver) != 1)
			r->pkgver[0] = 0;
		fclose(vf);
	}
	if (mkdir_p(r->kdir) < 0)
		return rb_errf(err, "%s: cannot create the kernel's cache directory: %s", r->kdir, strerror(errno));
	uint8_t *img = NULL;
	size_t ilen = 0;
	char ih[65], eh[65];
	if (file_hash(r->kdir, r->image, ih, &img, &ilen, err) < 0)
		return -1;
	if (!rb_pvh_cached(r->kdir, ih, r->boot, sizeof(r->boot))) {
		if (!img && rb_read_file(r->image, (size_t)1 << 30, &img, &ilen, err) < 0)
			return -1;
		if (!rb_pvh_image(r->kdir, ih, img, ilen, r->boot, sizeof(r->boot)))
			snprintf(r->boot, sizeof(r->boot), "%s", r->image);
	}
	free(img);
	/* the executable the guest runs prepares each object (libbpf, the
	 * loader's fix-ups, .rbvt tracing targets) before the kernel sees it,
	 * so a row is only reused by the same executable: keyed by image and
	 * object alone, a row of an older build outlived a loader change */
	if (file_hash(r->kdir, r->exe, eh, NULL, NULL, err) < 0)
		return -1;
	snprintf(r->cache, sizeof(r->cache), "%s/results/%.16s/%.16s", r->kdir, ih, eh);
	if (!r->o->no_cache && mkdir_p(r->cache) < 0)
		return rb_errf(err, "%s: cannot create: %s", r->cache, strerror(errno));
	/* RB_GUEST_ACCEL: tcg or kvm; unset: KVM where /dev/kvm opens, else TCG */
	const char *acc = getenv("RB_GUEST_ACCEL");
	bool try_kvm = acc && !strcmp(acc, "kvm")   ? true
		       : acc && !strcmp(acc, "tcg") ? false
						    : access("/dev/kvm", R_OK | W_OK) == 0;
	r->kvm_broken = !try_kvm;
	return 0;
}

/* every object's hash; the cached ones answered, the others in todo */
static int lookup(struct runner *r, size_t *todo, size_t *ntodo)
{
	int rc = 0;
	*ntodo = 0;
	for (size_t i = 0; i < r->n && rc == 0; i++) {
		uint8_t *b = NULL;
		size_t l = 0;
		struct rb_err e;
		if (r->objs[i].error) {
			char pb[256];
			rb_errf(&e, "%s: %s", rb_path_shown(r->objs[i].path, pb, sizeof(pb)), r->objs[i].error);
			rc = rb_gst_object_row(r, i, RB_LOAD_ERROR, "", "", "%.0s%s", e.msg);
			continue;
		}
		if (rb_read_file(r->objs[i].path, (size_t)1 << 30, &b, &l, &e) < 0) {
			rc = rb_gst_object_row(r, i, RB_LOAD_ERROR, "", "", "%.0s%s", e.msg);
			continue;
		}
		rb_sha256_hex(b, l, r->os[i].sha256);
		free(b);
		bool hit = false;
		if (!r->o->no_cache && !r->o->want_log && !r->objs[i].prog)
			rc = rb_gst_from_cache(r, i, &hit);
		if (hit)
			r->st->cached++;
		else
			todo[(*ntodo)++] = i;
	}
	return rc;
}

/* CPU seconds (user + system) process pid has used, or -1 */
static double proc_cpu_s(pid_t pid)
{
	char buf[1024];
	const char *s = rb_proc_stat_fields(pid, buf, sizeof(buf));
	/* state, then fields 4..13, then utime and stime */
	unsigned long long ut, st;
	if (!s || sscanf(s, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* a TCG guest's CPU budget before its report: RB_GUEST_BOOT_CPU seconds
 * (tests), else TCG_BOOT_CPU_S */
static double boot_cpu_s(void)
{
	const char *e = getenv("RB_GUEST_BOOT_CPU");
	double v = e && *e ? strtod(e, NULL) : 0;
	return v > 0 ? v : TCG_BOOT_CPU_S;
}

/* kill a guest past its budget (no report by boot_s or, under TCG, within
 * its CPU budget; no output for idle_s) or on a stop request */
static void watch(struct runner *r, struct guest *g, unsigned boot_s, unsigned idle_s)
{
	double t = rb_gst_now_s();
	if (rb_gst_grew(g))
		g->last_output = t;
	char p1[PATH_MAX + 16];
	snprintf(p1, sizeof(p1), "%s/ttyS1", g->dir);
	bool tcg = strcmp(g->accel, "kvm") != 0;
	/* (a KVM guest that has not reported after a minute is taken for
	 * KVM failing here, e.g. paused on an emulation failure when nested:
	 * the batch runs again under TCG. A TCG guest that has spent its CPU
	 * budget without a report is taken for hung: seen once at a load of
	 * 17, both vCPUs spinning in QEMU without running guest code and
	 * without a line, until boot_s, 300 s, killed it) */
	bool pending = !g->killed_boot && !g->reported;
	bool late = pending && t - g->started > (tcg ? boot_s : KVM_BOOT_S);
	bool spent = pending && tcg && !late && proc_cpu_s(g->pid) > boot_cpu_s();
	bool due = late || spent;
	if (due && rb_gst_file_has(p1, "RBG\tuname\t")) {
		g->reported = true;
		due = false;
	}
	if (r->o->stop && *r->o->stop && !g->stopped) {
		g->stopped = true;
		kill(g->pid, SIGKILL);
	} else if (due) {
		g->killed_boot = true;
		g->killed_cpu = spent;
		kill(g->pid, SIGKILL);
	} else if (!g->killed_idle && t - g->last_output > idle_s) {
		g->killed_idle = true;
		kill(g->pid, SIGKILL);
	}
}

/* Run the batches: guest 0 first while it is unknown whether KVM works
 * (it says so by reporting, or by failing), then the others. */
static int run_batches(struct runner *r, struct guest *g, unsigned nb, unsigned jobs, bool need_inputs,
		       struct rb_err *err)
{
	unsigned boot_s = r->o->boot_timeout_s ? r->o->boot_timeout_s : DEF_BOOT_S;
	unsigned idle_s = r->o->idle_timeout_s ? r->o->idle_timeout_s : DEF_IDLE_S;
	bool kvm_known = r->kvm_broken;
	int rc = 0;
	for (;;) {
		unsigned left = 0, running = 0;
		for (unsigned b = 0; b < nb; b++)
			running += g[b].pid != 0;
		bool stopping = r->o->stop && *r->o->stop;
		for (unsigned b = 0; b < nb; b++) {
			if (!g[b].done && !g[b].pid && stopping)
				g[b].done = true; /* not started: no rows, the run is incomplete */
			if (!g[b].done && !g[b].pid && rc == 0 && (b == 0 || kvm_known) && running < jobs) {
				running++;
				snprintf(g[b].accel, sizeof(g[b].accel), "%s", r->kvm_broken ? "tcg" : "kvm");
				memset(g[b].sizes, 0, sizeof(g[b].sizes));
				g[b].killed_boot = g[b].killed_idle = g[b].reported = g[b].killed_cpu = false;
				g[b].dump_inputs = need_inputs && b == 0;
				if (rb_gst_start_guest(r, &g[b], err) < 0) {
					rc = -1;
					g[b].done = true;
				}
			}
			left += !g[b].done;
		}
		if (!left)
			return rc;
		usleep(250 * 1000);
		for (unsigned b = 0; b < nb; b++) {
			if (!g[b].pid)
				continue;
			watch(r, &g[b], boot_s, idle_s);
			if (!kvm_known && b == 0) {
				char p1[PATH_MAX + 16];
				snprintf(p1, sizeof(p1), "%s/ttyS1", g[b].dir);
				kvm_known = rb_gst_file_has(p1, "RBG\tuname\t");
			}
			int status;
			if (waitpid(g[b].pid, &status, WNOHANG) == 0)
				continue;
			int fr = rc == 0 ? rb_gst_finish_guest(r, &g[b], status) : 0;
			g[b].pid = 0;
			if (fr == 1) {
				/* KVM does not work here: this batch again, and the rest, under TCG */
				kvm_known = true;
			} else {
				g[b].done = true;
				if (fr < 0)
					rc = rb_errf(err, "%s: storing the guest's rows failed", r->k->name);
			}
			for (unsigned c = 0; rc < 0 && c < nb; c++) {
				if (g[c].pid)
					kill(g[c].pid, SIGKILL);
				if (!g[c].pid)
					g[c].done = true;
			}
		}
	}
}

int rb_guest_run(const struct rb_kernel *k, const struct rb_guest_obj *objs, size_t n,
		 const struct rb_guest_opts *o, rb_guest_row_fn fn, void *ctx, struct rb_guest_stats *st,
		 struct rb_err *err)
{
	struct runner r = {.k = k, .objs = objs, .n = n, .o = o, .fn = fn, .ctx = ctx, .st = st};
	memset(st, 0, sizeof(*st));
	st->objects = n;
	if (setup(&r, err) < 0)
		return -1;
	r.os = calloc(n ? n : 1, sizeof(*r.os));
	size_t *todo = calloc(n ? n : 1, sizeof(*todo)), ntodo = 0;
	/* batches of at most BATCH_MAX objects, round robin, up to jobs
	 * guests at once: a guest's rows reach the caller and the cache when
	 * it ends, so a long run stopped half way keeps all but the running
	 * batches (a boot costs about 12 s under TCG) */
	unsigned jobs = o->jobs ? o->jobs : 1;
	int rc = r.os && todo ? lookup(&r, todo, &ntodo) : rb_errf(err, "out of memory");
	if (rc < 0 && r.cb_failed)
		rb_errf(err, "%s: storing the cached rows failed", k->name);
	if (jobs > ntodo)
		jobs = ntodo ? (unsigned)ntodo : 1;
	size_t nbz = (ntodo + BATCH_MAX - 1) / BATCH_MAX;
	unsigned nb = nbz > jobs ? (unsigned)nbz : jobs;
	struct guest *g = calloc(nb, sizeof(*g));
	if (!g && rc == 0)
		rc = rb_errf(err, "out of memory");
	for (unsigned b = 0; rc == 0 && b < nb; b++)
		if (!(g[b].batch = calloc(ntodo / nb + 1, sizeof(size_t))))
			rc = rb_errf(err, "out of memory");
	for (size_t j = 0; rc == 0 && j < ntodo; j++)
		g[j % nb].batch[g[j % nb].nbatch++] = todo[j];
	char inputs[PATH_MAX + 32];
	snprintf(inputs, sizeof(inputs), "%s/inputs/btf", r.kdir);
	/* RB_GUEST_INPUTS=0: not now (the copy takes about a minute under TCG) */
	const char *wi = getenv("RB_GUEST_INPUTS");
	bool need_inputs = access(inputs, R_OK) != 0 && !(wi && !strcmp(wi, "0"));
	if (rc == 0 && ntodo)
		rc = run_batches(&r, g, nb, jobs, need_inputs, err);
	if (rc == 0 && o->stop && *o->stop)
		rc = rb_errf(err, "%s: stopped", k->name);
	for (unsigned b = 0; g && b < nb; b++)
		free(g[b].batch);
	free(g);
	free(todo);
	free(r.os);
	return rc;
}
