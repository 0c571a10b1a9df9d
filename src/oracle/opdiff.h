/* opdiff.h — compare a userspace tracker with the running kernel's
 * verifier on random short programs (opgen.h): load each program with
 * log level 2|4, parse the scalar states the kernel prints after each
 * instruction and at jump targets, replay the program through the tracker
 * (replay.h) and compare r6/r7 at the same places (printed text and the
 * bounds it denotes), and whether each jump outcome was explored. */
#ifndef RB_ORACLE_OPDIFF_H
#define RB_ORACLE_OPDIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tracker/tracker.h"
#include "util/err.h"

struct rb_opdiff_opts {
	uint64_t seed;
	uint64_t first, cases; /* case indexes first .. first+cases-1 */
	const char *tracker;   /* "old" */
	const struct rb_tracker *impl; /* if non-NULL, used instead of `tracker` (tests) */
	bool verbose;          /* every case's comparisons */
	bool print_log;        /* the kernel's log of every printed case */
	unsigned show;         /* mismatching cases to print in full */
	FILE *out;             /* where cases are printed (NULL: nowhere) */
};

#define RB_OPDIFF_MAX_CATS 400

/* one kind of mismatch: "<setup|op> <operation> <where>: <what differs>";
 * only the earliest mismatches of each case are categorised */
struct rb_opdiff_cat {
	char key[256];
	uint64_t count;
	uint64_t first_case;
};

struct rb_opdiff_stats {
	bool skipped;          /* bpf() not permitted: nothing was run */
	char skip_reason[96];
	uint64_t cases, rejected, unreplayable;
	uint64_t states;       /* kernel states matched with a tracker state */
	uint64_t regs;         /* register values compared */
	uint64_t branches;     /* jump outcomes compared */
	uint64_t mismatches;   /* register values + jump outcomes that differ */
	uint64_t print_only;   /* of those: same bounds, different text */
	uint64_t cases_mismatching;
	uint64_t downstream;   /* mismatches after an earlier one in the same case (not categorised) */
	uint64_t invariant_violations; /* kernel logs reporting REG INVARIANTS VIOLATION */
	struct rb_opdiff_cat cats[RB_OPDIFF_MAX_CATS];
	unsigned ncats;
	uint64_t uncategorised; /* mismatches beyond RB_OPDIFF_MAX_CATS categories */
};

/* Returns 0 (whatever was found; see st) or < 0 with err (unknown
 * tracker, out of memory, a log that cannot be parsed). */
int rb_opdiff_run(const struct rb_opdiff_opts *o, struct rb_opdiff_stats *st, struct rb_err *err);

#endif
