/* progdiff.h — the program-level sibling of opdiff: random programs from
 * progen (progen/progen.h) verified by the running kernel (raw bpf(), log
 * level 2|4) and by the engine with one tracker (normally old), compared on
 * verdict, error message, processed instructions and every logged state
 * line (the registers and stack slots printed after each instruction, at
 * path starts and at branches), after kdiff's normalisation.
 *
 * The reference may also be a kernel image of kernels.conf (kernel-7.2):
 * the programs then go to its guest (src/guest/) as progen batch files
 * (progen/batch.h), a few hundred programs per object and many objects per
 * boot; the guest sends back each program's row and, instead of its log,
 * the log's summary (rb_progdiff_sum: the trace's and the state lines'
 * digests), which the host compares with the engine's. The first `show`
 * differing programs are verified once more in one guest, with whole logs,
 * to print them. A guest that stops answering is killed after
 * guest_timeout_s; its programs count as no_reference, not as differences. */
#ifndef RB_VERIFY_PROGDIFF_H
#define RB_VERIFY_PROGDIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

#define RB_PROGDIFF_MAX_FAMILIES 32

struct rb_progdiff_opts {
	int family;            /* a progen family, or -1 for every family */
	uint64_t seed;
	uint64_t first, cases; /* program indexes first .. first+cases-1 of each family */
	const char *tracker;   /* a registry tracker (NULL: rb_progdiff_default_tracker) */
	/* what it is compared with: "kernel" (default, the running kernel's
	 * verifier), another registry tracker (then no bpf() is needed) or a
	 * kernel image (its guest) */
	const char *reference;
	unsigned show;         /* differing programs to print in full */
	/* a kernel image reference: */
	unsigned guest_jobs;      /* guests at once (0: 1) */
	unsigned batch;           /* programs per batch file (0: 500) */
	uint64_t round;           /* programs per guest run (0: 20000): rows and
	                           * progress arrive when a round ends */
	unsigned guest_timeout_s; /* a guest silent this long is killed (0: 300) */
	bool no_logs;             /* verdicts, messages and counts only: the guest
	                           * verifies at log level 4 (1 for a rejection),
	                           * several times faster under TCG than level 2 */
	FILE *progress;           /* a line per round (NULL: quiet) */
	bool logs;             /* with both complete logs */
	FILE *out;             /* where differing programs are printed (NULL: nowhere) */
};

struct rb_progdiff_counts {
	uint64_t programs;
	uint64_t kernel_accepts;
	uint64_t verdict_diffs;  /* accept/reject differs */
	uint64_t message_diffs;  /* both reject, with different messages or instructions */
	uint64_t insn_diffs;     /* processed instructions differ */
	uint64_t log_diffs;      /* programs whose normalised logs differ anywhere */
	uint64_t trace_diffs;    /* programs whose traces differ (ktrace.h: instructions
	                          * walked, branch switches, prunings; states left out) */
	uint64_t no_reference;   /* the reference gave no row (a guest killed or failed) */
	uint64_t states;         /* the kernel's state lines */
	uint64_t states_same;    /* ... equal to the engine's line at the same place */
	uint64_t engine_other;   /* engine verdict neither accept nor reject (unsupported, limit) */
	uint64_t ref_only;       /* the reference accepts, the tracker rejects */
	uint64_t tracker_only;   /* the tracker accepts, the reference rejects */
};

struct rb_progdiff_stats {
	bool skipped; /* bpf() not permitted, or no guest for a kernel image */
	char tracker[64]; /* the tracker compared (opts.tracker or the default) */
	char skip_reason[96];
	int nfam;
	int fam_id[RB_PROGDIFF_MAX_FAMILIES];
	struct rb_progdiff_counts fam[RB_PROGDIFF_MAX_FAMILIES];
	struct rb_progdiff_counts total;
	/* a kernel image reference */
	char release[96];      /* the guest kernel's release */
	char accel[8];         /* "tcg" or "kvm" */
	bool logs_compared;    /* false: no_logs (logs, trace, states columns empty) */
	unsigned guests;       /* guests booted */
};

/* A log in short: the digest and length of its trace (rb_ktrace_digest)
 * and of its state lines (kdiff's normalisation). */
struct rb_progdiff_sum {
	uint64_t trace, states;
	size_t ntrace, nstates;
};
/* 0, or -1 when out of memory */
int rb_progdiff_summarise(const char *log, struct rb_progdiff_sum *s);
/* as one line of text, and back (0, or -1 when malformed) */
void rb_progdiff_sum_format(const struct rb_progdiff_sum *s, char *out, size_t len);
int rb_progdiff_sum_parse(const char *text, struct rb_progdiff_sum *s);

/* Returns 0 (whatever was found) or < 0 with err (unknown family or
 * tracker, out of memory). */
int rb_progdiff_run(const struct rb_progdiff_opts *o, struct rb_progdiff_stats *st, struct rb_err *err);

/* The tracker a reference is compared with by default: for a kernel image
 * named kernel-P where P is an engine profile other than the default one
 * (kernel-7.2), cnum-mainline@P (the kernels after 6.18 carry cnum);
 * otherwise old. */
const char *rb_progdiff_default_tracker(const char *reference, char *buf, size_t len);

/* any difference at all in these counts */
bool rb_progdiff_differs(const struct rb_progdiff_counts *c);

#endif
