/* scan.c — opening objects in a scan child (see scan.h). */
#include "driver/scan.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "driver/fault.h"
#include "driver/spawn.h"
#include "driver/wire.h"
#include "engine/vmlinux.h"

/* bytes of answer room kept from the start (a program takes ~60 + its
 * names: a few hundred programs) */
#define RB_SCAN_ANSWER_ROOM (64u << 10)

struct rb_scan {
	char *exe;
	bool (*stop)(void *);
	void *stop_arg;
	uint64_t mem_limit_mib;
	pid_t pid; /* 0: no child */
	uint64_t base_rss; /* a forked child's resident bytes when forked (shared with this process); 0: exec'd */
	int to, from;
	struct rb_wbuf buf;
	bool last;         /* rb_scan_last: end the child once it answers */
	bool ended, ended_late; /* ended so, and how: for rb_scan_end */
	int ended_status;
};

void rb_scan_obj_free(struct rb_scan_obj *o)
{
	for (size_t i = 0; o->progs && i < o->nprogs; i++) {
		free(o->progs[i].name);
		free(o->progs[i].section);
	}
	free(o->progs);
	memset(o, 0, sizeof(*o));
}

struct rb_scan *rb_scan_new(const char *exe, bool (*stop)(void *), void *stop_arg, uint64_t mem_limit_mib)
{
	struct rb_scan *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->exe = strdup(exe);
	if (!s->exe) {
		free(s);
		return NULL;
	}
	s->stop = stop;
	s->stop_arg = stop_arg;
	s->mem_limit_mib = mem_limit_mib;
	return s;
}

/* Does child pid exit (become reapable) within limit_s seconds? Waited on
 * a pidfd (Linux >= 5.3); where there is none, looked at every 10 ms. */
static bool exits_within(pid_t pid, double limit_s)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r;
		while ((r = poll(&p, 1, (int)(limit_s * 1000))) < 0 && errno == EINTR)
			;
		close(fd);
		return r > 0;
	}
	struct timespec nap = {0, 10 * 1000 * 1000};
	for (double waited = 0; waited <= limit_s; waited += 0.01) {
		siginfo_t si = {0};
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == pid)
			return true;
		nanosleep(&nap, NULL);
	}
	return false;
}

static double exit_limit_s(void)
{
	/* test builds: with RB_TEST_FAULT=scan-exit:hang the child never exits,
	 * and the test waits 1 s for the kill, not RB_SCAN_EXIT_S */
	return rb_fault_named(rb_fault_env(), "scan-exit:hang") ? 1.0 : RB_SCAN_EXIT_S;
}

/* close the pipes, kill the child if asked, reap it: its status. A child
 * not killed (stdin closed: an idle child reads end of file and exits) has
 * exit_limit_s() seconds (RB_SCAN_EXIT_S) to do so; then it is killed, and *late set. */
static int end_child_late(struct rb_scan *s, bool kill_it, bool *late)
{
	if (!s->pid)
		return 0;
	close(s->to);
	if (kill_it)
		kill(s->pid, SIGKILL);
	close(s->from);
	int status = 0;
	if (!kill_it && !exits_within(s->pid, exit_limit_s())) {
		if (late)
			*late = true;
		kill(s->pid, SIGKILL);
	}
	status = rb_wait_child(s->pid);
	s->pid = 0;
	return status;
}

static int end_child(struct rb_scan *s, bool kill_it) { return end_child_late(s, kill_it, NULL); }

void rb_scan_last(struct rb_scan *s) { s->last = true; }

bool rb_scan_end(struct rb_scan *s, char *why, size_t len)
{
	if (!s || (!s->pid && !s->ended))
		return true;
	bool late = false;
	int status;
	if (s->ended) {
		status = s->ended_status;
		late = s->ended_late;
		s->ended = false;
	} else {
		status = end_child_late(s, false, &late);
	}
	if (late) {
		snprintf(why, len, "did not exit within %.0f s of its last object: killed", exit_limit_s());
		return false;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	rb_status_text(status, why, len);
	return false;
}

void rb_scan_free(struct rb_scan *s)
{
	if (!s)
		return;
	end_child(s, false);
	rb_wbuf_free(&s->buf);
	free(s->exe);
	free(s);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int parse_reply(struct rb_scan *s, const char *path, struct rb_scan_obj *out, struct rb_err *err)
{
	struct rb_wcur c = rb_wcur_of(&s->buf);
	uint32_t kind = rb_wget_u32(&c);
	if (kind == RB_SCAN_FAILED) {
		const char *msg = rb_wget_str(&c);
		if (!c.bad) {
			rb_errf(err, "%s", msg);
			return RB_SCAN_FAILED;
		}
	}
	snprintf(out->sha256, sizeof(out->sha256), "%s", rb_wget_str(&c));
	uint32_t n = rb_wget_u32(&c);
	/* each program takes at least 26 bytes of the frame: n is bounded by it */
	if (!c.bad && (size_t)n > s->buf.n / 26) {
		c.bad = true;
	} else if (!c.bad) {
		out->progs = calloc(n ? n : 1, sizeof(*out->progs));
		if (!out->progs) {
			rb_errf(err, "%s: out of memory", path);
			return -1;
		}
	}
	for (uint32_t i = 0; !c.bad && i < n; i++) {
		struct rb_scan_prog *p = &out->progs[out->nprogs++];
		p->idx = rb_wget_u32(&c);
		p->name = strdup(rb_wget_str(&c));
		p->section = strdup(rb_wget_str(&c));
		p->prog_type = rb_wget_u32(&c);
		p->attach_type = rb_wget_u32(&c);
		p->insn_cnt = rb_wget_u64(&c);
		for (int w = 0; w < 4; w++)
			p->helpers[w] = rb_wget_u64(&c);
		if (!p->name || !p->section) {
			rb_scan_obj_free(out);
			rb_errf(err, "%s: out of memory", path);
			return -1;
		}
	}
	if (kind != RB_SCAN_OK || c.bad) {
		rb_scan_obj_free(out);
		rb_errf(err, "%s: malformed answer from the scan process", path);
		return RB_SCAN_CRASHED;
	}
	return RB_SCAN_OK;
}

/* start the child (scan.h); -1 (err) when none could be started */
static int start_child(struct rb_scan *s, struct rb_err *err)
{
	if (s->pid)
		return 0;
	/* room for most answers before the child starts (rb_scan_object) */
	if (s->buf.cap < RB_SCAN_ANSWER_ROOM) {
		char *q = realloc(s->buf.p, RB_SCAN_ANSWER_ROOM);
		if (!q)
			return rb_errf(err, "out of memory");
		s->buf.p = q;
		s->buf.cap = RB_SCAN_ANSWER_ROOM;
	}
	char *argv[] = {s->exe, "run", "--scan-child", NULL};
	bool forked = false;
	pid_t pid = rb_spawn_main(argv, rb_scan_child_main, &s->to, &s->from, &forked, err);
	if (pid < 0)
		return -1;
	s->pid = pid;
	/* what a fork shares with this process is not its own: measured now,
	 * before it has opened anything (only where it is limited) */
	s->base_rss = forked && s->mem_limit_mib ? rb_rss_of(pid) : 0;
	return 0;
}

/* the child's own resident bytes: an exec'd child's resident size, a
 * forked one's growth since the fork */
static uint64_t own_rss(const struct rb_scan *s)
{
	uint64_t rss = rb_rss_of(s->pid);
	return rss > s->base_rss ? rss - s->base_rss : 0;
}

int rb_scan_object(struct rb_scan *s, const char *path, const struct rb_load_opts *lo, struct rb_scan_obj *out,
		   struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	s->buf.n = 0;
	s->buf.oom = false;
	rb_wput_str(&s->buf, path);
	rb_wput_str(&s->buf, lo && lo->prog_type ? lo->prog_type : "");
	rb_wput_str(&s->buf, lo && lo->attach_type ? lo->attach_type : "");
	rb_wput_str(&s->buf, lo && lo->btf_path ? lo->btf_path : "");
	rb_wput_str(&s->buf, lo && lo->kernel_inputs ? lo->kernel_inputs : "");
	if (s->buf.oom)
		return rb_errf(err, "%s: out of memory", path);
	/* room for most answers before the child starts, so that nothing is
	 * allocated here while it answers (rb_scan_last) */
	if (s->buf.cap < RB_SCAN_ANSWER_ROOM) {
		char *q = realloc(s->buf.p, RB_SCAN_ANSWER_ROOM);
		if (!q)
			return rb_errf(err, "%s: out of memory", path);
		s->buf.p = q;
		s->buf.cap = RB_SCAN_ANSWER_ROOM;
	}
	/* a child that died since its last answer is replaced once */
	for (int attempt = 0;; attempt++) {
		struct rb_err e;
		if (!s->pid && start_child(s, &e) < 0)
			return rb_errf(err, "%s: cannot open it in a child process: %s", path, e.msg);
		if (rb_wire_send(s->to, &s->buf) == 0)
			break;
		end_child(s, true);
		if (attempt)
			return rb_errf(err, "%s: the scan process does not take requests", path);
	}
	double t0 = now_s();
	for (;;) {
		struct pollfd p = {.fd = s->from, .events = POLLIN};
		int r = poll(&p, 1, 100);
		if (s->stop && s->stop(s->stop_arg)) {
			end_child(s, true);
			rb_errf(err, "%s: stopped", path);
			return RB_SCAN_STOPPED;
		}
		if (now_s() - t0 > RB_SCAN_BUDGET_S) {
			end_child(s, true);
			rb_errf(err, "%s: opening it took longer than %.0f s: stopped", path, RB_SCAN_BUDGET_S);
			return RB_SCAN_CRASHED;
		}
		uint64_t rss_mib;
		if (s->mem_limit_mib && (rss_mib = own_rss(s) >> 20) > s->mem_limit_mib) {
			end_child(s, true);
			rb_errf(err, "%s: opening it passed the memory limit of %llu MiB (resident %llu MiB): stopped", path,
				(unsigned long long)s->mem_limit_mib, (unsigned long long)rss_mib);
			return RB_SCAN_CRASHED;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			continue;
		if (r > 0 && rb_wire_recv(s->from, &s->buf) == 1) {
			if (s->last) {
				s->ended_late = false;
				s->ended_status = end_child_late(s, false, &s->ended_late);
				s->ended = true;
				s->last = false;
			}
			return parse_reply(s, path, out, err);
		}
		/* end of file or a broken frame: the child died opening it */
		char how[96];
		rb_status_text(end_child(s, true), how, sizeof(how));
		rb_errf(err, "%s: the loader crashed opening it: %s", path, how);
		return RB_SCAN_CRASHED;
	}
}

/* the child's parses of kernel BTF, one per file, kept from object to
 * object and lent to libbpf (rb_load_opts.lend_btf): a run's objects are
 * mostly opened for the same kernel, whose BTF libbpf otherwise parsed
 * once per object (and once more per retry of one) */
#define SCAN_BTFS 8
struct scan_btf {
	char *path; /* NULL: the running kernel's */
	struct rb_vmlinux *v;
	struct rb_btf_lend lend;
};

static const struct rb_btf_lend *scan_lend(struct scan_btf *b, size_t *n, const struct rb_load_opts *lo)
{
	char file[4200];
	const char *path = lo->btf_path;
	if (!path && lo->kernel_inputs) {
		snprintf(file, sizeof(file), "%s/btf", lo->kernel_inputs);
		path = file;
	}
	for (size_t i = 0; i < *n; i++)
		if (path ? b[i].path && !strcmp(b[i].path, path) : !b[i].path)
			return &b[i].lend;
	if (*n == SCAN_BTFS)
		return NULL;
	struct scan_btf *e = &b[*n];
	e->path = NULL; /* the running kernel's BTF: scan_lend finds it again by a NULL path */
	if (!(e->v = rb_vmlinux_new_file(path)))
		return NULL;
	if (path && !(e->path = strdup(path))) {
		rb_vmlinux_free(e->v);
		return NULL;
	}
	e->lend = rb_vmlinux_lend(e->v);
	(*n)++;
	return &e->lend;
}

void rb_scan_helper_calls(const struct rb_prog *p, uint64_t out[4])
{
	memset(out, 0, 4 * sizeof(uint64_t));
	for (size_t i = 0; p->insns && i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0 && in->imm > 0 && in->imm < 256)
			out[in->imm / 64] |= 1ull << (in->imm % 64);
	}
}

int rb_scan_child_main(void)
{
	if (!rb_child_bind_parent())
		return 2;
	/* answers go to the pipe the parent gave as stdout; anything else
	 * printed to stdout (a library's message) goes to stderr instead */
	int out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return 2;
	const char *fault = rb_fault_env();
	struct rb_wbuf req = {0}, rep = {0};
	struct scan_btf btfs[SCAN_BTFS] = {0};
	size_t nbtfs = 0;
	int rc = 0;
	for (;;) {
		int r = rb_wire_recv(STDIN_FILENO, &req);
		if (r <= 0) {
			rc = r < 0 ? 2 : 0;
			break;
		}
		struct rb_wcur c = rb_wcur_of(&req);
		const char *path = rb_wget_str(&c), *pt = rb_wget_str(&c), *at = rb_wget_str(&c),
			   *btf = rb_wget_str(&c), *inputs = rb_wget_str(&c);
		if (c.bad) {
			rc = 2;
			break;
		}
		struct rb_load_opts lo = {.prog_type = *pt ? pt : NULL,
					  .attach_type = *at ? at : NULL,
					  .btf_path = *btf ? btf : NULL,
					  .kernel_inputs = *inputs ? inputs : NULL};
		lo.lend_btf = scan_lend(btfs, &nbtfs, &lo);
		rb_fault_during(rb_fault_open(fault, path), "open");
		struct rb_object *obj = NULL;
		struct rb_err e = {{0}};
		rep.n = 0;
		rep.oom = false;
		if (rb_object_open(path, &lo, &obj, &e) < 0) {
			rb_wput_u32(&rep, RB_SCAN_FAILED);
			rb_wput_str(&rep, e.msg);
		} else {
			rb_wput_u32(&rep, RB_SCAN_OK);
			rb_wput_str(&rep, obj->sha256);
			rb_wput_u32(&rep, (uint32_t)obj->prog_cnt);
			for (size_t i = 0; i < obj->prog_cnt; i++) {
				const struct rb_prog *p = &obj->progs[i];
				rb_wput_u32(&rep, (uint32_t)i);
				rb_wput_str(&rep, p->name);
				rb_wput_str(&rep, p->section);
				rb_wput_u32(&rep, p->prog_type);
				rb_wput_u32(&rep, p->expected_attach_type);
				rb_wput_u64(&rep, p->insn_cnt);
				uint64_t h[4];
				rb_scan_helper_calls(p, h);
				for (int w = 0; w < 4; w++)
					rb_wput_u64(&rep, h[w]);
			}
			rb_object_free(obj);
		}
		if (rb_wire_send(out, &rep) < 0) {
			rc = 2;
			break;
		}
	}
	rb_wbuf_free(&req);
	rb_wbuf_free(&rep);
	for (size_t i = 0; i < nbtfs; i++) {
		rb_vmlinux_free(btfs[i].v);
		free(btfs[i].path);
	}
	close(out);
	/* test builds: RB_TEST_FAULT=scan-exit:crash dies here, after the last
	 * answer, as the child of 1c3f93b's release build did (rb_scan_end) */
	if (rb_fault_named(fault, "scan-exit:crash"))
		abort();
	/* and RB_TEST_FAULT=scan-exit:hang never exits (until killed) */
	while (rb_fault_named(fault, "scan-exit:hang"))
		pause();
	return rc;
}
