/* engine.h — the userspace verifier engine: an abstract interpreter of BPF
 * programs following Linux 6.18's verifier, parameterised by a scalar
 * tracker (see tracker/tracker.h). */
#ifndef RB_ENGINE_ENGINE_H
#define RB_ENGINE_ENGINE_H

#include <stdio.h>

#include "loader/object.h"
#include "tracker/tracker.h"
#include "util/err.h"
#include "result/result.h"

struct rb_engine_opts {
	uint64_t insn_limit;   /* 0 = 1,000,000 like the kernel */
	double time_limit_s;   /* 0 = none */
	FILE *log;             /* non-NULL: per-instruction log in the kernel's level-2 format */
};

int rb_engine_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
		     const struct rb_engine_opts *opts, struct rb_result *res, struct rb_err *err);

#endif
