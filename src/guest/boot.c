/* boot.c — starting a guest and watching it (see guest_impl.h). */
#include "guest/guest_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest/initramfs.h"
#include "util/file.h"
#include "util/array_size.h"

extern char **environ;

double rb_gst_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

bool rb_gst_find_in_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[8192];
	snprintf(buf, sizeof(buf), "%s", path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (snprintf(out, len, "%s/%s", d, name) < (int)len && access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* Start QEMU with stdin from /dev/null and stdout+stderr into outp. The
 * child asks the kernel to kill it with SIGKILL when this process dies
 * (PR_SET_PDEATHSIG), so a guest never outlives a `run`, `verify`, `kdiff`
 * or `attribute` stopped by a signal, even one it cannot catch. An exec
 * failure comes back through a close-on-exec pipe as errno. Only
 * async-signal-safe calls run between fork and exec. */
static int spawn_qemu(const char *qemu, const char **argv, const char *outp, pid_t *pid, struct rb_err *err)
{
	int out = open(outp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return rb_errf(err, "%s: cannot create: %s", outp, strerror(errno));
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int ep[2];
	if (in < 0 || pipe2(ep, O_CLOEXEC) < 0) {
		int e = errno;
		close(out);
		if (in >= 0)
			close(in);
		return rb_errf(err, "%s: cannot start: %s", qemu, strerror(e));
	}
	pid_t parent = getpid();
	pid_t p = fork();
	if (p == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		int e = 0;
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
			e = errno;
		else if (getppid() != parent)
			e = ESRCH; /* this process died before the request took hold */
		else if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			e = errno;
		else {
			execve(qemu, (char *const *)argv, environ);
			e = errno;
		}
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(126);
		_exit(127);
	}
	int fe = errno;
	close(ep[1]);
	close(in);
	close(out);
	if (p < 0) {
		close(ep[0]);
		return rb_errf(err, "%s: cannot start: %s", qemu, strerror(fe));
	}
	int ce = 0;
	ssize_t n;
	while ((n = read(ep[0], &ce, sizeof(ce))) < 0 && errno == EINTR)
		;
	close(ep[0]);
	if (n == (ssize_t)sizeof(ce)) {
		waitpid(p, NULL, 0);
		return rb_errf(err, "%s: cannot start: %s", qemu, strerror(ce));
	}
	*pid = p;
	return 0;
}


/* Under TCG the second vCPU costs a boot about 0.8 s of QEMU CPU (its
 * bring-up, and spinning while the host does not run the other): a guest
 * of two objects of a couple of KiB, whose verification takes little
 * next to the boot, 4.34 -> 3.53 s with one (5 pairs booted side by side,
 * load 12-15), no slower. So a batch of at most SMALL_BATCH objects, each
 * under SMALL_OBJ bytes, gets one; a larger batch, or one with a larger
 * object (its verification may take minutes under TCG), keeps a vCPU per
 * object up to r->vcpus. */
#define SMALL_BATCH 2
#define SMALL_OBJ (64 * 1024)
static bool few_small(const struct runner *r, const struct guest *g)
{
	if (g->nbatch > SMALL_BATCH)
		return false;
	for (size_t j = 0; j < g->nbatch; j++) {
		struct stat st;
		if (stat(r->objs[g->batch[j]].path, &st) < 0 || st.st_size >= SMALL_OBJ)
			return false;
	}
	return true;
}

int rb_gst_start_guest(struct runner *r, struct guest *g, struct rb_err *err)
{
	char tmpl[] = "/tmp/rb-guest-XXXXXX";
	const char *td = getenv("TMPDIR");
	if (td && *td)
		snprintf(g->dir, sizeof(g->dir), "%s/rb-guest-XXXXXX", td);
	else
		snprintf(g->dir, sizeof(g->dir), "%s", tmpl);
	if (!mkdtemp(g->dir))
		return rb_errf(err, "%s: cannot create a directory for the guest: %s", g->dir, strerror(errno));
	/* a vCPU per object at most: a guest verifies one object per vCPU
	 * at a time, so the rest would only idle, and under TCG a second
	 * vCPU costs CPU even so (its bring-up, IPIs, spinning on locks the
	 * other holds while the host does not run it): a one-object guest
	 * of Debian's 7.2 under TCG executes ~6% fewer guest instructions
	 * with -smp 1 */
	g->vcpus = r->vcpus;
	if (g->nbatch < g->vcpus)
		g->vcpus = g->nbatch ? (unsigned)g->nbatch : 1;
	if (g->vcpus > 1 && strcmp(g->accel, "kvm") != 0 && few_small(r, g))
		g->vcpus = 1;
	char initrd[PATH_MAX + 32];
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", g->dir);
	char config[PATH_MAX + 32];
	snprintf(config, sizeof(config), "%s/inputs/config", r->kdir);
	struct rb_initramfs_spec spec = {
		.config = access(config, R_OK) == 0 ? config : NULL,
		.exe = r->exe,
		.objs = r->objs,
		.batch = g->batch,
		.nbatch = g->nbatch,
		.workers = g->vcpus,
		.want_log = r->o->want_log,
		.log_head = r->o->log_head,
		.log_digest = r->o->log_digest,
		.dump_inputs = g->dump_inputs,
	};
	if (rb_initramfs_write(initrd, &spec, err) < 0)
		return -1;
	char mem[32], smp[16], accel[64], ser[MAX_PORTS + 1][PATH_MAX + 40], outp[PATH_MAX + 32];
	snprintf(mem, sizeof(mem), "%uM", r->k->mem_mib);
	snprintf(smp, sizeof(smp), "%u", g->vcpus);
	snprintf(accel, sizeof(accel), "%s", !strcmp(g->accel, "kvm") ? "kvm" : "tcg,thread=multi");
	const char *argv[64];
	int a = 0;
	argv[a++] = r->qemu;
	argv[a++] = "-nodefaults";
	argv[a++] = "-no-user-config";
	argv[a++] = "-display";
	argv[a++] = "none";
	argv[a++] = "-no-reboot";
	argv[a++] = "-accel";
	argv[a++] = accel;
	argv[a++] = "-cpu";
	/* under TCG without ERMS/FSRM: the guest kernel then clears and
	 * copies pages with string moves of 8 bytes (or unrolled loops), not
	 * "rep stosb/movsb", which QEMU 7.2 runs a byte per iteration, each
	 * iteration a pass through its loop (one-object boot: 57 M fewer
	 * guest instructions of 832 M, page clearing 30 M -> 4 M) */
	argv[a++] = !strcmp(g->accel, "kvm") ? "host" : "max,-erms,-fsrm";
	argv[a++] = "-smp";
	argv[a++] = smp;
	argv[a++] = "-m";
	argv[a++] = mem;
	argv[a++] = "-kernel";
	argv[a++] = r->boot;
	argv[a++] = "-initrd";
	argv[a++] = initrd;
	argv[a++] = "-append";
	/* no_timer_check: on a loaded host a TCG guest's timer can look
	 * broken to the kernel's boot check ("IO-APIC + timer doesn't work!"
	 * panic, seen here under a load of 15). lpj: no delay-loop
	 * calibration, which under TCG fails on the second CPU
	 * ("calibrate_delay_direct() failed") and falls back to a loop of
	 * some 0.2-1 s; x86 delays use the TSC (use_tsc_delay), the value is
	 * only a BogoMIPS figure here. cryptomgr.notests: no self-test of
	 * each crypto algorithm as it registers (CONFIG_CRYPTO_SELFTESTS,
	 * Debian's 7.2 has it), about 1 s of CPU a boot under TCG; the
	 * verifier uses none of them. init_on_alloc=0: pages are not zeroed
	 * as they are allocated (Debian's default is on, a hardening the
	 * verifier does not need): 5% of a TCG boot's guest instructions.
	 * No load_system_certificate_list: the kernel's built-in X.509
	 * certificates (module and program signatures; nothing here loads a
	 * module or signs a program) are not parsed and checked, 2.6%. No
	 * trace_eval_init: the enum names in the trace events' print formats
	 * (tracefs format files, for perf and trace readers) are not replaced
	 * by their values; nothing reads them here, and loading a tracepoint
	 * program checks its context by size only (7.2's
	 * tp_prog_is_valid_access). Its trace_event_update_all was 99 M of a
	 * one-object boot's 832 M guest instructions, the largest function.
	 * No ftrace_check_for_weak_functions: ftrace's records of overridden
	 * weak functions are not looked for and disabled, work that only
	 * matters to a tracer enabling ftrace on them (nothing here attaches
	 * or traces; loading a tracing program finds its target through BTF
	 * and kallsyms, not ftrace's records). It looked up each of the 46,295
	 * records by name in kallsyms (linear walks of the compressed names):
	 * a one-object boot 652 M -> 563 M guest instructions */
	argv[a++] = "console=ttyS0 quiet panic=-1 oops=panic no_timer_check lpj=4000000 cryptomgr.notests=1 "
		    "init_on_alloc=0 initcall_blacklist=load_system_certificate_list,trace_eval_init,"
		    "ftrace_check_for_weak_functions";
	for (unsigned p = 0; p <= g->vcpus; p++) {
		snprintf(ser[p], sizeof(ser[p]), "file:%s/ttyS%u", g->dir, p);
		argv[a++] = "-serial";
		argv[a++] = ser[p];
	}
	argv[a] = NULL;
	snprintf(outp, sizeof(outp), "%s/qemu.out", g->dir);
	if (spawn_qemu(r->qemu, argv, outp, &g->pid, err) < 0)
		return -1;
	g->started = g->last_output = rb_gst_now_s();
	g->boots++;
	r->st->guests++;
	if (r->o->progress)
		fprintf(r->o->progress, "%s: guest %d booting (%s, %zu objects, %u vCPUs)\n", r->k->name, (int)g->pid,
			g->accel, g->nbatch, g->vcpus);
	return 0;
}


/* the line of the console that says why the guest kernel died, or "" */
void rb_gst_crash_line(const char *dir, char *out, size_t len, char *last, size_t lastlen)
{
	char path[PATH_MAX + 16], line[512];
	snprintf(path, sizeof(path), "%s/ttyS0", dir);
	out[0] = last[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	static const char *const marks[] = {"Kernel panic", "BUG:", "Oops", "general protection fault",
					    "Out of memory", "KVM internal error"};
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0])
			snprintf(last, lastlen, "%s", line);
		for (size_t m = 0; !out[0] && m < ARRAY_SIZE(marks); m++)
			if (strstr(line, marks[m]))
				snprintf(out, len, "%s", line);
	}
	fclose(f);
}

bool rb_gst_file_has(const char *path, const char *needle)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	if (rb_read_file(path, 64 << 20, &buf, &len, NULL) < 0)
		return false;
	bool has = memmem(buf, len, needle, strlen(needle)) != NULL;
	free(buf);
	return has;
}

void rb_gst_rm_dir(const char *dir)
{
	static const char *const files[] = {"initramfs.cpio", "qemu.out", "ttyS0", "ttyS1", "ttyS2", "ttyS3"};
	char p[PATH_MAX + 32];
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	rmdir(dir);
}


/* output seen since the last look? (console and ports) */
bool rb_gst_grew(struct guest *g)
{
	bool any = false;
	for (unsigned p = 0; p <= g->vcpus; p++) {
		char path[PATH_MAX + 16];
		struct stat sb;
		snprintf(path, sizeof(path), "%s/ttyS%u", g->dir, p);
		if (stat(path, &sb) == 0 && sb.st_size != g->sizes[p]) {
			g->sizes[p] = sb.st_size;
			any = true;
		}
	}
	return any;
}

