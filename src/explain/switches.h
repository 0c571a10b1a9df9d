/* switches.h — which switches of the engine's kernel profile make a
 * program's change between two profiles (6.18 -> 7.2).
 *
 * A change between "old" and "old@7.2" (one tracker, two profiles) is not
 * a difference of value sets: the explanation by value sets (explain.h)
 * places where the explorations part, but its counterfactual gives one
 * side the other's value there, which a change in pruning, in a call's
 * result or in a static pass cannot undo. Its cause is one of the named
 * behaviours that differ between the kernels, each a switch of struct
 * rb_profile (engine/profile.h). rb_explain_switches() finds them by
 * re-running the engine with profiles built between the two:
 *  - for each switch that differs, profile A with that switch turned as
 *    in B ("sufficient" when the run gives B's verdict, instructions and
 *    states) and profile B with it turned back as in A ("necessary" when
 *    the run gives A's: the counterfactual, the change vanishes);
 *  - when no single switch is both, the smallest set found by dropping
 *    switches one at a time from all of them while A with the rest still
 *    gives B's figures, then B with that set turned back as the
 *    counterfactual; when that fails (switches acting only together), the
 *    union with the smallest set that turns B into A, both checks again.
 * A switch set passes when both hold. Engine rows only. */
#ifndef RB_EXPLAIN_SWITCHES_H
#define RB_EXPLAIN_SWITCHES_H

#include <stdbool.h>
#include <stdio.h>

#include "explain/explain.h"

struct rb_switch_cause {
	bool profile_step;   /* the rows differ in the profile only (else nothing was run) */
	int nswitch;         /* switches in the cause, 0: none found */
	char names[256];     /* "ptr_off_in_var" or "a+b" */
	bool sufficient;     /* A with them turned as in B gives B's figures */
	bool necessary;      /* B with them turned back gives A's figures: the change vanishes */
	int ndiffer;         /* switches that differ between the two profiles */
	int runs;            /* engine runs made */
	struct rb_result res[2];      /* A's and B's own runs */
	struct rb_result with, without; /* A with the set, B without it */
};

/* the set passed both checks */
bool rb_switch_cause_ok(const struct rb_switch_cause *c);

/* Attribute the change of program idx between engine rows a and b (the
 * same tracker under two profiles, e.g. "old" and "old@7.2"). 0 with *out
 * filled (profile_step false when a and b are not such a pair), < 0 with
 * err when a run cannot be made. */
int rb_explain_switches(const struct rb_object *obj, size_t idx, const struct rb_explain_opts *o, const char *a,
			const char *b, struct rb_switch_cause *out, struct rb_err *err);

/* the "switches:" line(s) of an explanation */
void rb_switch_cause_print(FILE *f, const struct rb_switch_cause *c, const char *a, const char *b);

#endif
