/* engine.h — the userspace verifier engine: an abstract interpreter of BPF
 * programs following Linux 6.18's verifier, parameterised by a scalar
 * tracker (see tracker/tracker.h). */
#ifndef RB_ENGINE_ENGINE_H
#define RB_ENGINE_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "loader/object.h"
#include "tracker/tracker.h"
#include "engine/vmlinux.h"
#include "util/err.h"
#include "result/result.h"

struct rb_vstate;
struct rb_pool;
struct rb_profile;

/* An optional observer of the exploration (execcheck uses it to check
 * concrete runs against the states explored). Every callback may be NULL;
 * with no recorder the engine pays one pointer test per instruction.
 * `st` is the current path's state (its rec_node field is the recorder's
 * to use: copies made for pushed branches and checkpoints inherit it). */
#define RB_REC_END_PATH 2
struct rb_engine_recorder {
	void *ctx;
	/* the current path reaches insn idx (after pruning, before the insn
	 * runs); ckpt: the checkpoint just stored for this very state, or NULL.
	 * RB_REC_END_PATH ends this path there as a prune would (explain's
	 * counterfactual of a prune made by one tracker only); any other
	 * non-zero return stops verification (as out of memory). */
	int (*insn)(void *ctx, int idx, struct rb_vstate *st, struct rb_vstate *ckpt);
	/* the current path at idx is pruned: it is safe because the stored
	 * state `old` is; live: registers of the current frame live at idx */
	int (*prune)(void *ctx, int idx, struct rb_vstate *st, const struct rb_vstate *old, uint16_t live);
	/* exploration is over: stored states still hold their final precision marks */
	void (*done)(void *ctx);
};

/* Helper availability measured on the running kernel (oracle/helper_probe.h):
 * set() gives the helper ids (a bit per id, 256 bits) a program of this
 * type and attach type may call, or NULL where nothing was measured; the
 * compiled-in 6.18 sets (prog_types.c) are used then, and when there is
 * no source at all. */
struct rb_helper_source {
	void *ctx;
	const uint64_t *(*set)(void *ctx, uint32_t prog_type, uint32_t attach_type);
	/* optional, used instead of set(): whether helper id (1..255) is in
	 * that set, 1 or 0, or -1 where nothing was measured; a source that
	 * measures lazily asks the kernel about the ids asked about only */
	int (*has)(void *ctx, uint32_t prog_type, uint32_t attach_type, int32_t id);
};

struct rb_engine_opts {
	uint64_t insn_limit;   /* 0 = 1,000,000 like the kernel */
	double time_limit_s;   /* 0 = none */
	FILE *log;             /* non-NULL: per-instruction log in the kernel's level-2 format */
	const struct rb_engine_recorder *rec; /* NULL: none */
	struct rb_vmlinux *vmlinux; /* shared vmlinux BTF (engine/vmlinux.h); NULL: parsed per program */
	const struct rb_helper_source *helpers; /* NULL: the compiled-in helper sets */
	const struct rb_profile *profile; /* the kernel followed (engine/profile.h); NULL: 6.18 */
	unsigned nr_cpu_ids; /* bpf_get_smp_processor_id's range is [0, nr_cpu_ids - 1] (6.18
			      * do_refine_retval_range); 0: 2, the machines this was first measured on */
	/* the verification's states come from here (util/pool.h), reset at
	 * its end for the next one (one caller at a time); NULL: a pool of
	 * its own */
	struct rb_pool *pool;
};

int rb_engine_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
		     const struct rb_engine_opts *opts, struct rb_result *res, struct rb_err *err);

#endif
