/* kload.c — load programs into the running kernel and classify the
 * verdict (see kload.h). Follows Linux 6.18's BPF_PROG_LOAD interface:
 * log_true_size tells how big the log had to be; a log that did not fit
 * fails the load with ENOSPC even when the program verified, so the load
 * is repeated with a big enough buffer. */
#include "oracle/kload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loader/prog_type.h"
#include "oracle/bpf_sys.h"
#include "oracle/vlog.h"

#define ENOTSUPP_COMPAT 524 /* the kernel-internal ENOTSUPP */
#define LOG_MAX (((size_t)1 << 30) - 1) /* the kernel accepts at most UINT_MAX >> 2 (EINVAL above) */

void rb_klog_free(struct rb_klog *l)
{
	free(l->buf);
	l->buf = NULL;
	l->size = 0;
}

static int klog_reserve(struct rb_klog *l, size_t size)
{
	if (l->size >= size && l->buf)
		return 0;
	char *n = realloc(l->buf, size);
	if (!n)
		return -1;
	l->buf = n;
	l->size = size;
	return 0;
}

int rb_kload_raw(const struct rb_kload_args *a, struct rb_klog *log, int *sys_errno)
{
	size_t want = a->log_level & (RB_LOG_LEVEL1 | RB_LOG_LEVEL2) ? (size_t)1 << 20 : (size_t)1 << 16;
	if (a->log_fixed)
		want = a->log_fixed;
	if (!a->log_level)
		want = 0;
	for (;;) {
		if (want && klog_reserve(log, want)) {
			*sys_errno = ENOMEM;
			return -1;
		}
		if (log->buf && log->size)
			log->buf[0] = 0;
		struct rb_prog_load_attr at;
		memset(&at, 0, sizeof(at));
		at.prog_type = a->prog_type;
		at.expected_attach_type = a->expected_attach_type;
		at.attach_btf_id = a->attach_btf_id;
		at.prog_flags = a->prog_flags;
		at.kern_version = a->kern_version;
		at.insns = (uint64_t)(uintptr_t)a->insns;
		at.insn_cnt = (uint32_t)a->insn_cnt;
		at.license = (uint64_t)(uintptr_t)(a->license ? a->license : "GPL");
		if (a->name) {
			/* the kernel accepts [A-Za-z0-9_.] in names */
			size_t j = 0;
			for (size_t i = 0; a->name[i] && j < sizeof(at.prog_name) - 1; i++) {
				char c = a->name[i];
				if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.')
					at.prog_name[j++] = c;
			}
		}
		if (a->prog_btf_fd >= 0) {
			at.prog_btf_fd = (uint32_t)a->prog_btf_fd;
			if (a->func_info && a->func_info_cnt) {
				at.func_info = (uint64_t)(uintptr_t)a->func_info;
				at.func_info_cnt = a->func_info_cnt;
				at.func_info_rec_size = a->func_info_rec_size;
			}
			if (a->line_info && a->line_info_cnt) {
				at.line_info = (uint64_t)(uintptr_t)a->line_info;
				at.line_info_cnt = a->line_info_cnt;
				at.line_info_rec_size = a->line_info_rec_size;
			}
		}
		at.fd_array = (uint64_t)(uintptr_t)a->fd_array;
		if (want) {
			at.log_level = a->log_level;
			at.log_buf = (uint64_t)(uintptr_t)log->buf;
			at.log_size = (uint32_t)(log->size > LOG_MAX ? LOG_MAX : log->size);
		}
		struct timespec c0, c1;
		if (a->sample)
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		if (a->sampler)
			rb_ksampler_start(a->sampler);
		int fd = rb_sys_prog_load(&at);
		int saved = errno;
		if (a->sampler)
			rb_ksampler_stop(a->sampler, a->sample);
		if (a->sample) {
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
			a->sample->load_cpu_us =
				(double)(c1.tv_sec - c0.tv_sec) * 1e6 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e3;
		}
		errno = saved;
		if (fd >= 0)
			return fd;
		*sys_errno = errno;
		if (errno == ENOSPC && want && want < LOG_MAX && !a->log_fixed) {
			size_t need = at.log_true_size > want ? (size_t)at.log_true_size + 1 : want * 4;
			want = need > LOG_MAX ? LOG_MAX : need;
			continue;
		}
		return -1;
	}
}

/* trampoline programs: refused under lockdown with EPERM and an empty log */
static bool is_trampoline(uint32_t type, uint32_t eat)
{
	if (type == BPF_PROG_TYPE_LSM)
		return true;
	if (type == BPF_PROG_TYPE_TRACING || type == BPF_PROG_TYPE_EXT)
		return eat == BPF_TRACE_FENTRY || eat == BPF_TRACE_FEXIT || eat == BPF_MODIFY_RETURN ||
		       type == BPF_PROG_TYPE_EXT;
	return false;
}

void rb_kload_classify(int fd, int sys_errno, const char *log, uint32_t prog_type,
		       uint32_t expected_attach_type, struct rb_result *res)
{
	memset(res, 0, sizeof(*res));
	res->err_insn = -1;
	/* the figures the log prints, each under its metric's key (result/metrics.h) */
	bool have = rb_metrics_from_klog(log, res);
	if (fd >= 0) {
		res->verdict = RB_ACCEPT;
		return;
	}
	res->sys_errno = sys_errno;
	/* the last message line of the log and the insn printed before it */
	if (log && log[0])
		rb_vlog_last_message(log, false, res->msg, sizeof(res->msg), &res->err_insn);
	if (have && !res->msg[0] && (sys_errno == EPERM || res->insns_processed == 0)) {
		/* statistics but no message and nothing verified: refused around
		 * the verifier (e.g. EPERM for an attach point under lockdown) */
		res->verdict = RB_REFUSED;
		snprintf(res->msg, sizeof(res->msg), "%s without a verifier message (%llu insns processed)",
			 strerror(sys_errno), (unsigned long long)res->insns_processed);
		return;
	}
	if (have) {
		/* the verifier ran: a verifier verdict */
		res->verdict = RB_REJECT;
		/* a limit is the instruction budget ("BPF program is too large.
		 * Processed 1000001 insn"); 6.18 answers E2BIG for other
		 * rejections too (the call stack too deep, the sequence of jumps
		 * too complex), which the engine reports as rejections */
		if (strstr(res->msg, "too large"))
			res->verdict = RB_LIMIT;
		if (!res->msg[0])
			snprintf(res->msg, sizeof(res->msg), "rejected (%s)", strerror(sys_errno));
		return;
	}
	/* no statistics: refused before or outside verification */
	if (sys_errno == EPERM && (!log || !log[0])) {
		res->verdict = RB_REFUSED;
		snprintf(res->msg, sizeof(res->msg), "%s",
			 is_trampoline(prog_type, expected_attach_type)
				 ? "EPERM with an empty log: trampoline programs are refused here (lockdown)"
				 : "EPERM with an empty log");
		return;
	}
	if (res->msg[0]) {
		/* a message without statistics: checks before do_check (CFG,
		 * BTF, attach target...). Attach problems are the environment's. */
		if (strstr(res->msg, "attach") || strstr(res->msg, "Attach") || strstr(res->msg, "not found") ||
		    sys_errno == ESRCH || sys_errno == ENOENT || sys_errno == EOPNOTSUPP || sys_errno == ENOTSUPP_COMPAT)
			res->verdict = RB_REFUSED;
		else
			res->verdict = RB_REJECT;
		return;
	}
	res->verdict = RB_REFUSED;
	snprintf(res->msg, sizeof(res->msg), "BPF_PROG_LOAD failed: %s (empty log)", strerror(sys_errno));
}

/* ---- programs of an opened object ---- */

struct kenv {
	int btf_fd;
	int *fds; /* per map index, -1 when not created */
	size_t n;
};

static void kenv_close(struct kenv *k)
{
	if (k->fds)
		for (size_t i = 0; i < k->n; i++)
			if (k->fds[i] >= 0)
				close(k->fds[i]);
	free(k->fds);
	if (k->btf_fd >= 0)
		close(k->btf_fd);
	k->fds = NULL;
	k->btf_fd = -1;
}

/* which maps the program refers to (ld_imm64 with BPF_PSEUDO_MAP_IDX[_VALUE]) */
static int mark_used(const struct rb_object *obj, const struct rb_prog *p, bool *used, struct rb_result *res)
{
	for (size_t i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code != (BPF_LD | BPF_DW | BPF_IMM))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) {
			if (in->imm < 0 || (size_t)in->imm >= obj->map_cnt) {
				res->verdict = RB_LOAD_ERROR;
				snprintf(res->msg, sizeof(res->msg), "insn %zu refers to map %d of %zu", i, in->imm,
					 obj->map_cnt);
				return -1;
			}
			used[in->imm] = true;
		}
		i++; /* the second half of ld_imm64 */
	}
	/* map-in-map: the inner template must exist too */
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (used[i] && obj->maps[i].inner_map_idx >= 0 && (size_t)obj->maps[i].inner_map_idx < obj->map_cnt)
			used[obj->maps[i].inner_map_idx] = true;
	return 0;
}

static int create_map(const struct rb_object *obj, struct kenv *k, size_t i, struct rb_result *res)
{
	const struct rb_map *m = &obj->maps[i];
	int inner = -1;
	if (m->inner_map_idx >= 0 && (size_t)m->inner_map_idx < obj->map_cnt && (size_t)m->inner_map_idx != i) {
		if (k->fds[m->inner_map_idx] < 0 && create_map(obj, k, (size_t)m->inner_map_idx, res))
			return -1;
		inner = k->fds[m->inner_map_idx];
	}
	int fd = rb_sys_map_create(m->type, m->name, m->key_size, m->value_size, m->max_entries, m->map_flags,
				   k->btf_fd, m->btf_key_type_id, m->btf_value_type_id,
				   m->btf_vmlinux_value_type_id, inner, m->map_extra);
	if (fd < 0 && k->btf_fd >= 0 && !m->btf_vmlinux_value_type_id) /* as libbpf: retry without BTF */
		fd = rb_sys_map_create(m->type, m->name, m->key_size, m->value_size, m->max_entries,
				       m->map_flags, -1, 0, 0, 0, inner, m->map_extra);
	if (fd < 0 && errno == E2BIG && m->type == BPF_MAP_TYPE_CPUMAP) {
		/* a CPU map cannot have more entries than this machine has CPUs;
		 * its user space sizes it at run time: do the same */
		long n = sysconf(_SC_NPROCESSORS_CONF);
		fd = rb_sys_map_create(m->type, m->name, m->key_size, m->value_size, n > 0 ? (uint32_t)n : 1,
				       m->map_flags, -1, 0, 0, 0, inner, m->map_extra);
	}
	if (fd < 0) {
		int e = errno;
		res->verdict = e == EPERM ? RB_UNAVAILABLE : RB_REFUSED;
		res->sys_errno = e;
		snprintf(res->msg, sizeof(res->msg), "cannot create map '%s' (type %u, key %u, value %u, max %u): %s",
			 m->name, m->type, m->key_size, m->value_size, m->max_entries, strerror(e));
		return -1;
	}
	k->fds[i] = fd;
	if (m->init && m->init_size && m->value_size) {
		uint8_t *val = calloc(1, m->value_size);
		uint32_t key = 0;
		if (!val) {
			res->verdict = RB_LOAD_ERROR;
			snprintf(res->msg, sizeof(res->msg), "out of memory");
			return -1;
		}
		memcpy(val, m->init, m->init_size < m->value_size ? m->init_size : m->value_size);
		int r = rb_sys_map_update(fd, &key, val, BPF_ANY);
		int e = errno;
		free(val);
		if (r < 0) {
			res->verdict = RB_REFUSED;
			res->sys_errno = e;
			snprintf(res->msg, sizeof(res->msg), "cannot fill global data map '%s': %s", m->name, strerror(e));
			return -1;
		}
	}
	if (m->frozen && rb_sys_map_freeze(fd) < 0) {
		int e = errno;
		res->verdict = RB_REFUSED;
		res->sys_errno = e;
		snprintf(res->msg, sizeof(res->msg), "cannot freeze map '%s': %s", m->name, strerror(e));
		return -1;
	}
	return 0;
}

/* tc's bpf_fill_prog_arrays (loader/prog_arrays.c): the programs of the
 * object's "N/M" sections that fill prog array map_idx are loaded (no log;
 * the maps they use are created, not filled) and stored in their slots
 * before the program that uses the array is loaded, so that the kernel
 * checks that program against the array's owner as it would under tc. A
 * target the kernel refuses leaves its slot empty. */
static void fill_prog_array(const struct rb_object *obj, struct kenv *k, size_t map_idx, bool *used)
{
	for (size_t t = 0; t < obj->prog_cnt; t++) {
		const struct rb_prog *tp = &obj->progs[t];
		if (!tp->tail_filled || tp->tail_map_idx != map_idx || !tp->insns)
			continue;
		struct rb_result ignored;
		memset(used, 0, (obj->map_cnt + 1) * sizeof(bool));
		if (mark_used(obj, tp, used, &ignored))
			continue;
		bool ok = true;
		for (size_t i = 0; i < obj->map_cnt && ok; i++)
			if (used[i] && k->fds[i] < 0)
				ok = create_map(obj, k, i, &ignored) == 0;
		if (!ok)
			continue;
		struct rb_kload_args a = {
			.prog_type = tp->prog_type,
			.expected_attach_type = tp->expected_attach_type,
			.prog_flags = tp->prog_flags,
			.kern_version = tp->kern_version,
			.insns = tp->insns,
			.insn_cnt = tp->insn_cnt,
			.license = tp->license,
			.name = tp->name,
			.prog_btf_fd = k->btf_fd,
			.func_info = tp->func_info,
			.func_info_rec_size = tp->func_info_rec_size,
			.func_info_cnt = tp->func_info_cnt,
			.line_info = tp->line_info,
			.line_info_rec_size = tp->line_info_rec_size,
			.line_info_cnt = tp->line_info_cnt,
			.fd_array = k->fds,
		};
		struct rb_klog log = {0};
		int serr = 0, fd = rb_kload_raw(&a, &log, &serr);
		if (fd < 0 && k->btf_fd >= 0) {
			a.prog_btf_fd = -1;
			fd = rb_kload_raw(&a, &log, &serr);
		}
		rb_klog_free(&log);
		if (fd < 0)
			continue;
		uint32_t key = tp->tail_slot;
		rb_sys_map_update(k->fds[map_idx], &key, &fd, BPF_ANY);
		close(fd); /* the array holds the program */
	}
}

/* refusals that come from this machine's configuration, not verification */
static bool env_message(const char *msg)
{
	/* lockdown removes these helpers: the verifier then calls them unknown */
	return strstr(msg, "unknown func bpf_probe_write_user") || strstr(msg, "unknown func bpf_override_return") ||
	       strstr(msg, "unknown func bpf_probe_read#") || strstr(msg, "unknown func bpf_probe_read_str#") ||
	       /* a typed ksym this kernel has in BTF but not in kallsyms */
	       strstr(msg, "failed to find the address for kernel symbol");
}

/* The exploration's share of a load (ksyms given, oracle/ksample.h): the
 * load `a` is made once more under the sampler, and the shares of its
 * samples in do_check_common() (among bpf_check()'s, among all) scale the
 * unsampled load's log time and CPU time: the samples' own cost (large
 * on these virtual machines at short periods) stays out of the figures.
 * A load whose samples overflow the ring buffer is sampled again at a ten
 * times longer period. res->explore_* stay 0 (not measured) where the
 * kernel refuses the sampler or no sample fell in bpf_check(). */
static void explore_share(struct rb_kload_args *a, const struct rb_ksyms *ksyms, double load_cpu_us,
			  struct rb_result *res)
{
	uint64_t period = RB_KSAMPLE_PERIOD_NS;
	for (int attempt = 0; attempt < 3; attempt++, period *= 10) {
		struct rb_err e = {{0}};
		struct rb_ksampler *s = rb_ksampler_new(ksyms, period, &e);
		if (!s)
			return;
		struct rb_ksample ks = {0};
		struct rb_klog log = {0};
		int serr = 0;
		a->sampler = s;
		a->sample = &ks;
		int fd = rb_kload_raw(a, &log, &serr);
		a->sampler = NULL;
		a->sample = NULL;
		rb_ksampler_free(s);
		rb_klog_free(&log);
		if (fd >= 0)
			close(fd);
		if (ks.lost)
			continue;
		if (ks.check && ks.samples) {
			res->explore_us = res->verify_us * (double)ks.explore / (double)ks.check;
			res->explore_cpu_us = load_cpu_us * (double)ks.explore / (double)ks.samples;
		}
		return;
	}
}

int rb_kload_object_prog(const struct rb_object *obj, size_t prog_idx,
			 const struct rb_kload_opts *opts, struct rb_result *res, struct rb_err *err)
{
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu (%zu programs)", obj->path, prog_idx, obj->prog_cnt);
	const struct rb_prog *p = &obj->progs[prog_idx];
	if (rb_prog_prepare_outcome(p, res))
		return 0;
	const char *why = NULL;
	if (!rb_bpf_available(&why)) {
		res->verdict = RB_UNAVAILABLE;
		snprintf(res->msg, sizeof(res->msg), "%s", why ? why : "bpf() unavailable");
		return 0;
	}
	struct kenv k = {.btf_fd = -1, .n = obj->map_cnt};
	bool *used = calloc(obj->map_cnt + 1, sizeof(bool));
	k.fds = malloc((obj->map_cnt + 1) * sizeof(int));
	struct rb_klog log = {0};
	if (!used || !k.fds) {
		res->verdict = RB_LOAD_ERROR;
		snprintf(res->msg, sizeof(res->msg), "out of memory");
		goto out;
	}
	for (size_t i = 0; i < obj->map_cnt; i++)
		k.fds[i] = -1;
	if (mark_used(obj, p, used, res))
		goto out;
	if (obj->btf && obj->btf_size) {
		k.btf_fd = rb_sys_btf_load(obj->btf, obj->btf_size, NULL, 0);
		/* a BTF the kernel refuses: load without it (no func/line info), as
		 * libbpf does when the kernel lacks BTF support */
	}
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (used[i] && k.fds[i] < 0 && create_map(obj, &k, i, res))
			goto out;
	bool *scratch = NULL;
	for (size_t i = 0; i < obj->map_cnt; i++) {
		if (!used[i] || obj->maps[i].type != BPF_MAP_TYPE_PROG_ARRAY)
			continue;
		for (size_t t = 0; t < obj->prog_cnt && !scratch; t++)
			if (obj->progs[t].tail_filled && obj->progs[t].tail_map_idx == i)
				scratch = calloc(obj->map_cnt + 1, sizeof(bool));
		if (scratch)
			fill_prog_array(obj, &k, i, scratch);
	}
	free(scratch);
	struct rb_kload_args a = {
		.prog_type = p->prog_type,
		.expected_attach_type = p->expected_attach_type,
		.attach_btf_id = p->attach_btf_id,
		.prog_flags = p->prog_flags,
		.kern_version = p->kern_version,
		.insns = p->insns,
		.insn_cnt = p->insn_cnt,
		/* as the object carries it: libbpf passes "" for an object
		 * without a licence section, which the kernel takes as non-GPL */
		.license = p->license,
		.name = p->name,
		.prog_btf_fd = k.btf_fd,
		.func_info = p->func_info,
		.func_info_rec_size = p->func_info_rec_size,
		.func_info_cnt = p->func_info_cnt,
		.line_info = p->line_info,
		.line_info_rec_size = p->line_info_rec_size,
		.line_info_cnt = p->line_info_cnt,
		.fd_array = k.fds,
		.log_level = (opts && opts->want_log && !opts->log_head) ? RB_LOG_LEVEL2 | RB_LOG_STATS : RB_LOG_STATS,
	};
	int serr = 0;
	struct rb_ksample ks = {0};
	a.sample = &ks; /* the load's CPU time */
	int fd = rb_kload_raw(&a, &log, &serr);
	if (fd < 0 && k.btf_fd >= 0 && (serr == EINVAL) && log.buf &&
	    (strstr(log.buf, "func_info") || strstr(log.buf, "line_info") || strstr(log.buf, "BTF")) &&
	    (!strstr(log.buf, "processed ") || strstr(log.buf, "processed 0 insns"))) {
		/* func/line info the kernel does not take (refused before any
		 * instruction is processed): retry without. Not a verifier
		 * refusal whose message names BTF ("expects refcounted
		 * PTR_TO_BTF_ID"): without the program's BTF, bpf_obj_new fails
		 * at once ("requires prog BTF"), a different verdict. */
		a.prog_btf_fd = -1;
		fd = rb_kload_raw(&a, &log, &serr);
	}
	a.sample = NULL;
	rb_kload_classify(fd, serr, log.buf, p->prog_type, p->expected_attach_type, res);
	if (opts && opts->ksyms && (res->verdict == RB_ACCEPT || res->verdict == RB_REJECT || res->verdict == RB_LIMIT))
		explore_share(&a, opts->ksyms, ks.load_cpu_us, res);
	if (res->verdict == RB_REJECT && res->err_insn < 0 && !(a.log_level & RB_LOG_LEVEL2)) {
		/* Rejected by the verifier: level 4 prints no instructions, so load
		 * once more at level 1 for the index of the failing one. Level 1
		 * holds the current path only, which for a program that runs into
		 * a limit is up to a million lines: keep the last 4 MiB (the kernel
		 * rotates the log and answers ENOSPC). Verdict, message and
		 * statistics stay those of the level-4 load. */
		struct rb_klog tail = {0};
		a.log_level = RB_LOG_LEVEL1 | RB_LOG_STATS;
		a.log_fixed = (size_t)4 << 20;
		int e2 = 0;
		int fd2 = rb_kload_raw(&a, &tail, &e2);
		if (fd2 >= 0)
			close(fd2); /* cannot happen unless the verdict is unstable */
		else if (tail.buf) {
			char msg[sizeof(res->msg)];
			int insn = -1;
			rb_vlog_last_message(tail.buf, e2 == ENOSPC, msg, sizeof(msg), &insn);
			if (!strcmp(msg, res->msg))
				res->err_insn = insn;
		}
		rb_klog_free(&tail);
	}
	if (res->verdict == RB_REJECT && env_message(res->msg)) {
		res->verdict = RB_REFUSED;
		snprintf(res->msg + strlen(res->msg), sizeof(res->msg) - strlen(res->msg), " (not available here)");
	}
	if (opts && opts->want_log && opts->log && serr == ENOSPC && log.buf) {
		/* a log over the kernel's 1 GiB cap: the buffer holds its end
		 * (verdict and statistics, classified above); a log is compared
		 * from its start, so load once more keeping the head */
		struct rb_klog head = {0};
		a.log_level |= RB_LOG_FIXED;
		a.log_fixed = LOG_MAX;
		int e2 = 0, fd2 = rb_kload_raw(&a, &head, &e2);
		if (fd2 >= 0)
			close(fd2);
		if (head.buf) {
			rb_klog_free(&log);
			log = head;
		}
	}
	if (opts && opts->want_log && opts->log && opts->log_head && res->verdict != RB_UNAVAILABLE) {
		/* the head alone: the verdict above came from a load without it */
		rb_klog_free(&log);
		a.log_level = RB_LOG_LEVEL2 | RB_LOG_STATS | RB_LOG_FIXED;
		a.log_fixed = opts->log_head > LOG_MAX ? LOG_MAX : opts->log_head;
		int e2 = 0, fd2 = rb_kload_raw(&a, &log, &e2);
		if (fd2 >= 0)
			close(fd2);
	}
	if (opts && opts->want_log && opts->log && log.buf)
		fputs(log.buf, opts->log);
	if (fd >= 0)
		close(fd);
out:
	rb_klog_free(&log);
	kenv_close(&k);
	free(used);
	return 0;
}
