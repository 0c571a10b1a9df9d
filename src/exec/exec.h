/* exec.h — execcheck: concrete runs of accepted programs checked against
 * the abstract states the engine explored.
 *
 * Each program is verified with one tracker while a recorder (record.h)
 * keeps the exploration tree. Then a concrete interpreter runs it on
 * synthesised inputs (random packets and ctx fields, map lookups that
 * return a zeroed or random value or NULL, helpers returning random values
 * their prototypes allow, global data with its initial contents) and, at
 * every executed instruction, compares every register of the current frame
 * with the node of the tree the run is on: a scalar must lie in the
 * abstract value (tracker `contains`), a pointer must point into the region
 * of its abstract type at an offset the abstract offset allows. A pruned
 * path continues in the stored state it matched; registers that prune did
 * not compare (dead, or scalars the stored state does not need precise) and
 * the stack are exempt from then on, as is everything computed from them
 * ("taint"), since 6.18's pruning makes no claim about them. Every memory
 * access is checked against its region's bounds, and a run that takes a
 * branch the engine never explored is a violation too (unless the branch
 * reads an exempt value). */
#ifndef RB_EXEC_EXEC_H
#define RB_EXEC_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exec/record.h"
#include "loader/object.h"
#include "tracker/tracker.h"
#include "util/err.h"

struct rb_exec_violation {
	char prog[200];   /* object:program */
	int insn;         /* instruction index */
	int reg;          /* register, or -1 (memory access, path) */
	uint64_t value;   /* the concrete value (pointers: the offset in their region) */
	char what[96];    /* what was wrong */
	char state[320];  /* the abstract state it was checked against */
	uint64_t seed;    /* the run's input seed */
};

struct rb_exec_stats {
	uint64_t programs;      /* accepted programs run */
	uint64_t executions;    /* concrete runs that reached exit or a violation */
	uint64_t insns_checked; /* executed instructions compared with their node */
	uint64_t regs_checked;  /* register comparisons */
	uint64_t violations;
	uint64_t diverged;      /* runs that left the explored tree on an exempt value */
	uint64_t aborted;       /* runs stopped at something not modelled (see aborts) */
	uint64_t skipped;       /* programs not run: skipped_type + skipped_verdict + skipped_tree */
	uint64_t skipped_type;    /* program type without a concrete model */
	uint64_t skipped_verdict; /* not accepted by the engine */
	uint64_t skipped_tree;    /* exploration tree over the node budget */
	/* why runs were aborted: the first RB_EXEC_ABORT_KINDS distinct reasons, counted */
#define RB_EXEC_ABORT_KINDS 12
	struct {
		char why[96];
		uint64_t n;
	} aborts[RB_EXEC_ABORT_KINDS];
	int naborts;
};

typedef void (*rb_exec_report_fn)(void *ctx, const struct rb_exec_violation *v);

struct rb_exec_opts {
	uint64_t seed;
	unsigned runs;          /* concrete runs per program */
	uint64_t max_steps;     /* per run; 0 = 1,000,000 */
	uint64_t insn_limit;    /* verification budget; 0 = the kernel's */
	size_t max_nodes;       /* tree budget; 0 = 200,000 */
	FILE *log;              /* non-NULL: the engine's per-instruction log of each program */
	rb_exec_report_fn report;
	void *report_ctx;
};

/* Verify program prog_idx of obj with tracker t and, if accepted, check
 * opts->runs concrete runs against its exploration. Returns 0 (findings in
 * stats and through report), < 0 on an internal error. */
int rb_exec_check_prog(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
		       const struct rb_exec_opts *opts, struct rb_exec_stats *stats, struct rb_err *err);

/* One run of an already recorded tree (used by rb_exec_check_prog). */
int rb_exec_run(const struct rb_object *obj, size_t prog_idx, const struct rb_xtree *tr, uint64_t seed,
		const struct rb_exec_opts *opts, struct rb_exec_stats *stats);

/* does the engine have a concrete model of this program type? */
bool rb_exec_prog_type_ok(uint32_t prog_type);

#endif
