/* explain.h — why two verifiers explore one program differently.
 *
 * rb_explain_prog() runs the engine with two trackers (a baseline and a
 * candidate) on one program, each with an observer of its exploration
 * (engine.h's recorder), and finds
 *  - where the explorations part: the first event (instruction visit or
 *    prune) of the depth-first exploration that differs, turned into its
 *    decision: a branch decided differently, a state pruned by one side
 *    only, a different verdict;
 *  - the deciding location there (a register or a spilled stack slot) and,
 *    walking back along its history on the common path (def-use: a copy,
 *    a fill or a call argument moves to its source), the instruction where
 *    the two sides' value sets first differ, with both sides' values
 *    printed in each representation's own terms (rb_tracker.print_repr);
 *  - a one-line cause class (wrap across 2^63, two-run set lost by one
 *    arc, collapse to a constant, ...);
 *  - a counterfactual check: the candidate re-run with the baseline's
 *    value set for that location right after that instruction (converted
 *    through the tracker interface: bounds(), then from_bounds()), or the
 *    reverse; the explanation passes when the re-run's verdict and
 *    instruction count become the other side's.
 * Engine trackers only (registry names). */
#ifndef RB_EXPLAIN_EXPLAIN_H
#define RB_EXPLAIN_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "loader/object.h"
#include "result/result.h"
#include "util/err.h"

struct rb_vmlinux;
struct rb_helper_source;

struct rb_explain_opts {
	const char *baseline, *candidate; /* NULL: RB_ROLE_BASELINE / RB_ROLE_CANDIDATE */
	struct rb_vmlinux *vmlinux;       /* shared vmlinux BTF, or NULL */
	const struct rb_helper_source *helpers;
	uint64_t insn_limit;  /* 0: the kernel's 1,000,000 */
	double time_limit_s;  /* per engine run, 0: none */
	bool no_counterfactual;
};

enum rb_part_kind {
	RB_PART_NONE = 0, /* the explorations never part */
	RB_PART_BRANCH,   /* a branch decided differently */
	RB_PART_PRUNE,    /* a state pruned by one side only */
	RB_PART_VERDICT,  /* one side stops (rejects, hits a limit) where the other goes on */
	RB_PART_COUNTS,   /* the same events, different verdicts or counts at the end */
};

enum rb_cf_outcome {
	RB_CF_NOT_RUN = 0,
	RB_CF_VANISHED,  /* verdict and instruction count became the other side's */
	RB_CF_VERDICT,   /* the verdict became the other side's, the count did not */
	RB_CF_REMAINS,   /* neither */
	RB_CF_FAILED,    /* the re-run could not be made (no such location at that event) */
};

struct rb_explain {
	char names[2][32];      /* baseline, candidate */
	struct rb_result res[2];
	bool changed;           /* verdicts or instruction counts differ */
	enum rb_part_kind part;
	int part_insn;          /* where the explorations part (-1: nowhere) */
	uint64_t part_event;    /* its index among the exploration's events */
	char part_what[512];    /* one line, e.g. "branch decided differently: old takes it, cnum falls through" */
	bool found;             /* a deciding location and a cause instruction were found */
	char deciding[32];      /* the deciding location at part_insn, e.g. "r1" */
	int cause_insn;         /* where its value sets first differ (-1: not found) */
	char cause_loc[32];     /* the location whose value differs right after cause_insn */
	char cause_text[128];   /* the instruction, disassembled */
	char source[256];       /* "file:line: text" from BTF line info, or "" */
	char val[2][2][768];    /* [side][0 before, 1 after] the location's value, own terms */
	char cls[64];           /* cause class, never "unclassified" when found */
	int walk_steps;         /* locations followed back (def-use moves) */
	/* where the walk back found the value sets to differ first; the
	 * cause above is the first instruction along that history whose
	 * counterfactual makes the change vanish (often the same one) */
	int first_insn;
	char first_text[128];
	char first_loc[32];
	int cf_tried;           /* instructions along the history tried */
	/* a prune by one side only with equal current values (the stored
	 * states differ): the counterfactual ends the other side's path there
	 * as a prune would */
	bool cf_prune;
	/* the counterfactual: which side was given the other's value set */
	enum rb_cf_outcome cf;
	int cf_side;            /* 1: the candidate got the baseline's value, 0: the reverse */
	struct rb_result cf_res;
	enum rb_cf_outcome cf_other; /* the other direction, when tried */
	struct rb_result cf_other_res;
	/* when no single cause's counterfactual makes the change vanish: the
	 * further causes (the first difference of each exploration that still
	 * parts once the earlier ones are given), and the counterfactual with
	 * all of them given at once */
	int ncauses;            /* 1 + the further causes */
	char more[512];         /* "insn 12 r0 (class); insn 18 r0 (class)" */
	enum rb_cf_outcome cf_all;
	int cf_all_side;        /* the side given the other's value sets */
	struct rb_result cf_all_res;
};

/* a cause was found and a counterfactual (single, or with every cause
 * given) made the change vanish */
bool rb_explain_ok(const struct rb_explain *x);

/* Explain one program; 0 with *out filled (also when nothing changed),
 * < 0 with err when the program cannot be run (unknown tracker, bad index,
 * out of memory). */
int rb_explain_prog(const struct rb_object *obj, size_t prog_idx, const struct rb_explain_opts *opts,
		    struct rb_explain *out, struct rb_err *err);

/* the explanation as text, several lines */
void rb_explain_print(FILE *f, const struct rb_object *obj, size_t prog_idx, const struct rb_explain *x);
/* "vanished", "verdict only", "remains", "not run", "failed" */
const char *rb_cf_name(enum rb_cf_outcome o);
/* "none", "branch", "prune", "verdict", "counts" */
const char *rb_part_name(enum rb_part_kind k);

#endif
