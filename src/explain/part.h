/* part.h — where two explorations part (part.c). */
#ifndef RB_EXPLAIN_PART_H
#define RB_EXPLAIN_PART_H

#include "explain/internal.h"

struct ex_part {
	enum rb_part_kind kind;
	size_t k;       /* the first differing event */
	int64_t d;      /* the deciding event (common to both sides), -1: none */
	int pruned_by;  /* RB_PART_PRUNE: 0 baseline, 1 candidate */
	char what[512];
};

/* tr, res, names: the baseline's and the candidate's (two each) */
void ex_find_part(const struct ex_trace *tr, const struct rb_result *res, const char *const *names,
		  const struct bpf_insn *insns, struct ex_part *p);

#endif
