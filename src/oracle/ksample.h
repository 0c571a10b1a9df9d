/* ksample.h — the running kernel's exploration time, sampled.
 *
 * The kernel log's "verification time" (Linux 6.18 bpf_check(), and 7.2's)
 * runs from the start of bpf_check() to after the post-verification
 * passes: dead-code removal, convert_ctx_accesses, do_misc_fixups (ld_abs
 * and helper rewrites, one bpf_patch_insn_data() copy of the program per
 * patch), zero extension and, for programs with subprograms, jit_subprogs()
 * (every subprogram JITed). The engine's time covers none of that. The
 * kernel offers no finer figure: BPF stats (bpf_stats_enabled) time program
 * runs, not loads; on these machines (FACTS.md) there are no kprobes and
 * set_ftrace_filter is refused, so the exploration cannot be timed by its
 * entry and exit.
 *
 * What remains is sampling: a per-thread CPU-clock perf event with kernel
 * call chains, enabled around one BPF_PROG_LOAD. Every `period_ns` of the
 * thread's CPU time one sample; a sample whose call chain passes through
 * do_check_common() (6.18: do_check_main() and do_check_subprogs() are
 * inlined into bpf_check() and each calls do_check_common(): the states'
 * set-up, do_check() and free_states()) is exploration. A sample costs
 * tens of microseconds here (a virtual machine's timer), which would
 * inflate a time read from samples, so kload.c takes only shares from a
 * second, sampled load and scales the unsampled load's figures:
 *   explore wall = log's verification time x explore / bpf_check samples
 *   explore CPU  = the bpf() call's thread CPU time x explore / all samples
 * A load of less than a few periods gets few samples: its share is coarse
 * (and 0 samples leave it unmeasured). */
#ifndef RB_ORACLE_KSAMPLE_H
#define RB_ORACLE_KSAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

/* The address ranges of the functions the samples are sorted by (read
 * once from /proc/kallsyms; plain data, shared by every thread). */
struct rb_ksyms {
	uint64_t check_lo, check_hi;     /* bpf_check() */
	uint64_t explore_lo, explore_hi; /* do_check_common() */
};

struct rb_ksample {
	uint64_t samples;  /* every sample of the load */
	uint64_t check;    /* samples inside bpf_check() */
	uint64_t explore;  /* samples inside do_check_common() */
	uint64_t lost;     /* samples the ring buffer could not hold (figures invalid) */
	double load_cpu_us; /* the thread's CPU time over the whole bpf() call (kload.c) */
};

/* The default sampling period: 100 us of CPU time (each sample costs
 * tens of microseconds on these virtual machines: a share, not a time, is
 * taken from the samples) */
#define RB_KSAMPLE_PERIOD_NS 100000u

/* Read the ranges from /proc/kallsyms (`path`, NULL: that file). Fails with
 * err set where the addresses are hidden (kptr_restrict, not root) or a
 * function is missing (another kernel's names). */
int rb_ksyms_read(struct rb_ksyms *k, const char *path, struct rb_err *err);

/* A sampler of the calling thread (its CPU clock, kernel call chains),
 * created disabled, for one load: start it just before the bpf() call, stop
 * it just after, on the same thread. NULL with err set when the kernel
 * refuses perf_event_open. */
struct rb_ksampler *rb_ksampler_new(const struct rb_ksyms *k, uint64_t period_ns, struct rb_err *err);
void rb_ksampler_free(struct rb_ksampler *s);
void rb_ksampler_start(struct rb_ksampler *s);
void rb_ksampler_stop(struct rb_ksampler *s, struct rb_ksample *out);

#endif
