/* kload.c — load programs into the running kernel and classify the
 * verdict (see kload.h). Follows Linux 6.18's BPF_PROG_LOAD interface:
 * log_true_size tells how big the log had to be; a log that did not fit
 * fails the load with ENOSPC even when the program verified, so the load
 * is repeated with a big enough buffer. */
#include "oracle/kload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/bpf_sys.h"
#include "oracle/vlog.h"

#define ENOTSUPP_COMPAT 524 /* the kernel-internal ENOTSUPP */
#define LOG_MAX ((size_t)1 << 30) /* the kernel accepts at most UINT_MAX >> 2 */

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
		int fd = rb_sys_prog_load(&at);
		if (fd >= 0)
			return fd;
		*sys_errno = errno;
		if (errno == ENOSPC && want && want < LOG_MAX) {
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
	struct rb_vlog_stats st;
	bool have = log && rb_vlog_parse_stats(log, &st);
	if (have) {
		res->insns_processed = st.insns_processed;
		res->total_states = st.total_states;
		res->peak_states = st.peak_states;
		res->max_states_per_insn = st.max_states_per_insn;
		res->mark_read = st.mark_read;
		res->verify_us = (double)st.verify_us;
	}
	if (fd >= 0) {
		res->verdict = RB_ACCEPT;
		return;
	}
	res->sys_errno = sys_errno;
	/* the last message line of the log and the insn printed before it */
	struct rb_vlog v;
	bool parsed = log && log[0] && rb_vlog_parse(log, &v, NULL) == 0;
	if (parsed) {
		snprintf(res->msg, sizeof(res->msg), "%s", v.last_msg);
		res->err_insn = v.last_msg_insn;
		rb_vlog_free(&v);
	}
	if (have) {
		/* the verifier ran: a verifier verdict */
		res->verdict = RB_REJECT;
		if (sys_errno == E2BIG || strstr(res->msg, "too large") || strstr(res->msg, "BPF program is too large"))
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
