/* explanations.h — stored explanations of changed programs (`compare
 * --changed --explain`, table `explanations`, db/schema.sql). */
#ifndef RB_STORE_EXPLANATIONS_H
#define RB_STORE_EXPLANATIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct rb_explanation_row {
	int64_t run_id;
	const char *obj_path, *program; /* the program (programs.obj_path, name) */
	const char *baseline, *candidate;
	const char *part;       /* branch, prune, verdict, counts, none */
	int part_insn, first_insn, cause_insn; /* -1: none */
	const char *deciding, *cause_loc, *cause_text, *source_line, *cls;
	const char *counterfactual; /* vanished, verdict only, remains, not run, failed */
	const char *cf_given;   /* the side given the other's value set */
	const char *more_causes; /* the further causes the counterfactual needed, or NULL */
	bool explained;         /* cause found and counterfactual vanished */
};

/* insert or replace one row (keyed by run, program, baseline, candidate) */
int rb_store_explanation(struct rb_store *st, const struct rb_explanation_row *r, struct rb_err *err);

#endif
