/* progdiff.h — the program-level sibling of opdiff: random programs from
 * progen (progen/progen.h) verified by the running kernel (raw bpf(), log
 * level 2|4) and by the engine with one tracker (normally old), compared on
 * verdict, error message, processed instructions and every logged state
 * line (the registers and stack slots printed after each instruction, at
 * path starts and at branches), after kdiff's normalisation. */
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
	const char *tracker;   /* a registry tracker (default "old") */
	/* what it is compared with: "kernel" (default, the running kernel's
	 * verifier) or another registry tracker (then no bpf() is needed) */
	const char *reference;
	unsigned show;         /* differing programs to print in full */
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
	uint64_t states;         /* the kernel's state lines */
	uint64_t states_same;    /* ... equal to the engine's line at the same place */
	uint64_t engine_other;   /* engine verdict neither accept nor reject (unsupported, limit) */
	uint64_t ref_only;       /* the reference accepts, the tracker rejects */
	uint64_t tracker_only;   /* the tracker accepts, the reference rejects */
};

struct rb_progdiff_stats {
	bool skipped; /* bpf() not permitted */
	char skip_reason[96];
	int nfam;
	int fam_id[RB_PROGDIFF_MAX_FAMILIES];
	struct rb_progdiff_counts fam[RB_PROGDIFF_MAX_FAMILIES];
	struct rb_progdiff_counts total;
};

/* Returns 0 (whatever was found) or < 0 with err (unknown family or
 * tracker, out of memory). */
int rb_progdiff_run(const struct rb_progdiff_opts *o, struct rb_progdiff_stats *st, struct rb_err *err);

/* any difference at all in these counts */
bool rb_progdiff_differs(const struct rb_progdiff_counts *c);

#endif
