/* kload.h — load programs into the running kernel through bpf() and
 * classify the answer: the kernel oracle.
 *
 * rb_kload_raw() loads one instruction array as given (opdiff, tests).
 * rb_kload_object_prog() loads one program of an object opened by the
 * loader (loader/object.h): it creates the real maps from the object's
 * map table, fills and freezes global data, loads the object's BTF when
 * the program carries func_info/line_info or a map needs it, passes the
 * map fds as fd_array (the instructions use BPF_PSEUDO_MAP_IDX[_VALUE]),
 * and fills an rb_result from the verifier log: log level 4 (statistics)
 * by default, 1|4 again after a rejection to learn the failing
 * instruction, 2|4 when a per-instruction log is asked for. */
#ifndef RB_ORACLE_KLOAD_H
#define RB_ORACLE_KLOAD_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loader/object.h"
#include "oracle/ksample.h"
#include "util/err.h"
#include "result/result.h"

/* a growable verifier log buffer owned by the caller (free with rb_klog_free) */
struct rb_klog {
	char *buf;
	size_t size;
};
void rb_klog_free(struct rb_klog *l);

struct rb_kload_args {
	uint32_t prog_type, expected_attach_type, attach_btf_id, prog_flags, kern_version;
	const struct bpf_insn *insns;
	size_t insn_cnt;
	const char *license; /* NULL: "GPL" */
	const char *name;    /* NULL: none */
	int prog_btf_fd;     /* -1: none */
	const void *func_info, *line_info;
	uint32_t func_info_rec_size, func_info_cnt, line_info_rec_size, line_info_cnt;
	const int *fd_array; /* NULL: none */
	uint32_t log_level;
	/* 0: grow the log buffer until the whole log fits; else use exactly this
	 * many bytes: the kernel keeps the END of a longer log and fails the
	 * load with ENOSPC */
	size_t log_fixed;
	/* non-NULL: the load sampled (oracle/ksample.h) into *sample */
	struct rb_ksampler *sampler;
	struct rb_ksample *sample;
};

/* Load; the log (NUL-terminated) is left in `log`, grown as needed.
 * Returns the program fd (caller closes) or -1 with *sys_errno set. */
int rb_kload_raw(const struct rb_kload_args *a, struct rb_klog *log, int *sys_errno);

/* Fill res from a finished load: verdict from fd/errno, message, insn and
 * statistics from the log. `env_refusal` names a refusal found before the
 * program load (map creation...), or NULL. */
void rb_kload_classify(int fd, int sys_errno, const char *log, uint32_t prog_type,
		       uint32_t expected_attach_type, struct rb_result *res);

struct rb_kload_opts {
	bool want_log; /* log level 2|4 and copy the log to `log` */
	FILE *log;
	/* want_log: only the log's first log_head bytes (0: the whole log).
	 * The verdict and figures come from a load without a log, the head
	 * from a second load that keeps the start of the log (BPF_LOG_FIXED):
	 * the way to see where a program of 10^5 instructions and more starts
	 * to differ, whose whole level-2 log runs into gigabytes */
	size_t log_head;
	/* non-NULL: the exploration's time sampled (oracle/ksample.h) into
	 * res->explore_us and explore_cpu_us */
	const struct rb_ksyms *ksyms;
};

/* Verify program prog_idx of obj with the running kernel. Returns 0 and
 * fills res (any verdict, RB_UNAVAILABLE where bpf() is not permitted);
 * < 0 only for a bad call (index out of range). */
int rb_kload_object_prog(const struct rb_object *obj, size_t prog_idx,
			 const struct rb_kload_opts *opts, struct rb_result *res, struct rb_err *err);

#endif
