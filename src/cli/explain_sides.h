/* explain_sides.h — `rangebench explain` with sides that are not two
 * engine trackers run here (cmd_explain_sides.c): a kernel (the running
 * one, or a kernel image of kernels.conf in its guest) and the rows of a
 * run in the database. A kernel cannot be re-run with a value set given,
 * so each kernel side is stood in for by the engine row that reproduces
 * its figures (verdict, instructions, states): the explanation and its
 * counterfactual are the engine's between the two stand-ins; a side no
 * engine row reproduces leaves the change unexplained, with where the
 * kernels' level-2 logs part (oracle/ktrace.h) when they were taken. Each
 * engine row runs on the object opened with the inputs of the kernel it
 * stands for, as run opens it (explain_inputs.h); stand-ins with different
 * inputs: the change is classed "kernel inputs" when the inputs alone make
 * it both ways, else the engine's change and the inputs' are two steps. */
#ifndef RB_CLI_EXPLAIN_SIDES_H
#define RB_CLI_EXPLAIN_SIDES_H

#include <stdbool.h>

#include "explain/explain.h"
#include "loader/object.h"

struct rb_xs_opts {
	const char *side[2];     /* baseline, candidate: engine rows or kernels */
	const char *stand_ins;   /* comma-separated engine rows to try for a kernel side */
	const char *db, *run;    /* the run mode: rows of this run; NULL: verify here */
	const char *run_b;       /* the candidate's rows from this run (NULL: run) */
	bool store;              /* the run mode: store the explanations (table explanations) */
	bool quiet;              /* the run mode: only the summary */
	struct rb_explain_opts *eo;
	const struct rb_load_opts *lo; /* lo->kernel_inputs: --kernel-inputs, as run's */
};

/* the default stand-ins: the engine rows that follow a real kernel
 * (old: 6.18's tracker; cnum-mainline: 7.2's; each with the 6.18 and the
 * 7.2 profile) */
#define RB_XS_STAND_INS "old,cnum-mainline,old@7.2,cnum-mainline@7.2"

/* the programs args name (OBJ:PROG, or OBJ: each of its programs), each
 * side verified with a level-2 log (a kernel image's programs in one guest
 * batch). Exit code: 0 every change explained, 1 one is not, 2 an error. */
int rb_explain_sides_live(const struct rb_xs_opts *o, int argc, char **argv);
/* every program whose verdict, instructions or states differ between the
 * two sides' rows of a run (or the baseline's of run and the candidate's of
 * run_b: two runs, made by another build perhaps: an engine row side is
 * then checked to reproduce its run's figures too), both success or
 * failure, the logs' parting point from kernel_attributions where
 * `attribute` stored it; a summary by cause class. Same exit codes. */
int rb_explain_sides_run(const struct rb_xs_opts *o);

#endif
