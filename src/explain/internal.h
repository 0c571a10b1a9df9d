/* internal.h — shared by the files of src/explain/ (see explain.h). */
#ifndef RB_EXPLAIN_INTERNAL_H
#define RB_EXPLAIN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/state.h"
#include "explain/explain.h"
#include "tracker/tracker.h"

/* one event of an exploration: an instruction visit or a prune */
enum { EV_INSN = 0, EV_PRUNE = 1 };
struct ex_event {
	int32_t insn;
	int32_t parent; /* the previous visit on this path, -1 at the start */
	uint8_t kind;
};

/* the events of one run (pass 1) */
struct ex_trace {
	struct ex_event *ev;
	size_t n, cap, max;
	bool overflow, nomem;
};

/* pass 2: copies of the states at marked events (the path to the
 * decision), stopping after event `stop` */
struct ex_snaps {
	const uint8_t *want; /* one byte per event: 1 = copy the state */
	size_t nwant;
	uint64_t stop;
	uint64_t count;      /* events seen */
	struct rb_vstate **st; /* [event], NULL where not copied */
	bool nomem;
};

/* a location: a register or a spilled stack slot of one frame */
enum { LOC_REG = 0, LOC_SLOT = 1 };
struct ex_loc {
	int8_t frame, kind;
	int16_t no; /* register number, or slot index (fp-8*(no+1)) */
};

/* the counterfactual: at event `at`, give location `loc` the value `val`;
 * several such fixes for a change with several causes */
#define EX_MAX_FIX 8
struct ex_fix {
	uint64_t at;
	struct ex_loc loc;
	rb_val val;
};
struct ex_inject {
	struct ex_fix fix[EX_MAX_FIX];
	int nfix, done;
	uint64_t count;
	bool missing;
	/* end the path at events end_at[] as a prune would (the
	 * counterfactual of prunes made by the other side only) */
	uint64_t end_at[EX_MAX_FIX];
	int nend, ended;
};

/* a recorder that applies inj's fixes, then calls inner (may have NULL
 * callbacks) */
struct ex_combo {
	struct ex_inject *inj;
	const struct rb_engine_recorder *inner;
};

/* one engine run of a tracker, with a recorder (NULL: none) */
int ex_run(const struct rb_object *obj, size_t idx, const struct rb_explain_opts *o, const char *tracker,
	   const struct rb_engine_recorder *rec, struct rb_result *res, struct rb_err *err);
void ex_trace_recorder(struct ex_trace *tr, struct rb_engine_recorder *rec);
void ex_snaps_recorder(struct ex_snaps *s, struct rb_engine_recorder *rec);
void ex_combo_recorder(struct ex_combo *k, struct rb_engine_recorder *rec);
void ex_snaps_free(struct ex_snaps *s, size_t n);

/* the register or spilled slot a location names in a state, or NULL */
struct rb_reg *ex_loc_reg(const struct rb_vstate *st, struct ex_loc l);
/* values whose membership tells two value sets apart where their bounds
 * agree (an arc with a hole: "w8 != 5" kept by a 32-bit arc) */
#define EX_MAX_PROBES 64
struct ex_probes {
	uint64_t v[EX_MAX_PROBES];
	int n;
};
/* do the two sides' values at l differ? (bounds, then membership of each
 * probe; probes may be NULL) */
bool ex_loc_differs(const struct rb_tracker *ta, const struct rb_vstate *a, const struct rb_tracker *tb,
		    const struct rb_vstate *b, struct ex_loc l, const struct ex_probes *probes);
void ex_loc_name(struct ex_loc l, int curframe, char *buf, size_t len);
/* the value at l in the tracker's own terms (print_repr, else print) */
void ex_loc_value(const struct rb_tracker *t, const struct rb_vstate *st, struct ex_loc l, char *buf, size_t len);

/* what insn does to location l (walk.c) */
struct ex_effect {
	bool writes;   /* l is (or may be) written */
	bool full;     /* l's old value does not feed its new one */
	int nin;
	struct ex_loc in[5]; /* the other locations feeding l's new value */
};
void ex_insn_effect(const struct bpf_insn *insn, const struct rb_vstate *before, const struct rb_vstate *after,
		    struct ex_loc l, struct ex_effect *e);
/* the locations an instruction decides on (a jump's operands, an access's
 * address and value, a call's arguments, exit's r0), in order */
int ex_insn_operands(const struct bpf_insn *insn, const struct rb_vstate *st, struct ex_loc *out, int max);

/* the cause class of insn for location l, from both sides' values before
 * (may be NULL) and after (classify.c) */
void ex_classify(const struct bpf_insn *insn, const struct rb_tracker *const t[2], const struct rb_reg *before[2],
		 const struct rb_reg *after[2], char *cls, size_t len);

/* source line of insn idx from BTF line info, "" if none (source.c) */
void ex_source_line(const struct rb_object *obj, size_t prog_idx, int insn, char *buf, size_t len);

#endif
