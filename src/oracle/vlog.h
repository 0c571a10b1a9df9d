/* vlog.h — parse the running kernel's verifier log (Linux 6.18 format).
 *
 * Level 2 (per-instruction) logs hold, after a "Live regs before insn:"
 * block (indented lines, skipped):
 *   "N: (op) insn text[   ; R1=... R2=...]"  instruction N; the optional
 *        tail is the state of the registers N touched, after N;
 *   "N: R1=... R2=..."       a state on its own line: after insn N when
 *        insn N was the last printed instruction and its state was not
 *        yet printed (other output, e.g. precision backtracking, came in
 *        between), otherwise the full state on entry to insn N (start of
 *        a path);
 *   "from J to T: R1=..."    the full state when exploring the jump J -> T;
 *   "from J to T: safe", "N: safe"   a path pruned at T / N;
 *   "mark_precise: ..."      precision backtracking (ignored);
 * and at the end (level 4) "verification time N usec", "stack depth ..."
 * and "processed N insns (limit L) max_states_per_insn M total_states T
 * peak_states P mark_read R". Anything else is a message (errors).
 *
 * A register is printed as `R6=scalar(id=1,smin=0,umax=5,var_off=(0x0; 0x7))`,
 * `R6=P5` (constant, "P" = precise), `R1=ctx()`, `R10=fp0`, ...; a
 * scalar's omitted fields take their unbounded defaults.
 */
#ifndef RB_ORACLE_VLOG_H
#define RB_ORACLE_VLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracker/tracker.h"
#include "util/err.h"

#define RB_VLOG_MAX_REGS 11

struct rb_vlog_reg {
	uint8_t regno;
	bool scalar;   /* a scalar (range or constant); else a pointer/ctx/fp... */
	bool is_const; /* printed as a plain number */
	bool precise;  /* "P" mark */
	char id[24];   /* "id=..." value as printed ("" if none) */
	struct rb_bounds b; /* scalars: the bounds the text denotes */
	/* scalars: the text with "P", "scalar(...)" and "id=" removed, i.e. the
	 * kernel's field list ("smin=0,umax=5,var_off=(0x0; 0x7)", "" when
	 * unbounded) or the constant ("5", "0xffffffff"); other types: the
	 * raw text after '=' */
	char text[320];
};

enum rb_vlog_kind {
	RB_VLOG_AFTER,  /* state after insn `insn` */
	RB_VLOG_ENTRY,  /* full state on entry to `insn` */
	RB_VLOG_BRANCH, /* full state at `insn` when taking the jump at `from` */
};

struct rb_vlog_state {
	enum rb_vlog_kind kind;
	int insn, from; /* from: RB_VLOG_BRANCH only, else -1 */
	bool safe;      /* the path was pruned here (no registers) */
	unsigned nregs;
	struct rb_vlog_reg regs[RB_VLOG_MAX_REGS];
};

struct rb_vlog_stats {
	bool have_processed, have_time;
	uint64_t insns_processed, insn_limit, max_states_per_insn, total_states, peak_states,
		mark_read;
	uint64_t verify_us;
};

struct rb_vlog {
	struct rb_vlog_state *states; /* in log order */
	size_t nstates, cap;
	unsigned *visits; /* per insn index: number of "N: (op)" lines */
	size_t nvisits;   /* length of visits[] (highest index + 1) */
	struct rb_vlog_stats stats;
	char last_msg[256]; /* the last message line (the error, for a rejection) */
	int last_msg_insn;  /* the instruction printed last before it, or -1 */
};

/* Parse a whole log. Returns 0, or < 0 (out of memory / malformed register
 * text) with err set. Free with rb_vlog_free(). */
int rb_vlog_parse(const char *log, struct rb_vlog *out, struct rb_err *err);
void rb_vlog_free(struct rb_vlog *v);

/* Only the statistics lines (any log level). Returns true if the
 * "processed" line was found. */
bool rb_vlog_parse_stats(const char *log, struct rb_vlog_stats *st);

/* One register assignment "R6=..." (up to len bytes, no trailing space).
 * Returns 0 or -1 if it is not a register assignment or the scalar text is
 * malformed. */
int rb_vlog_parse_reg(const char *s, size_t len, struct rb_vlog_reg *r);

/* The scalar field list (inside "scalar(...)", id allowed) -> bounds, with
 * the defaults of omitted fields. Returns 0 or -1 if malformed. */
int rb_vlog_parse_scalar(const char *fields, size_t len, struct rb_bounds *b);

/* Only the last message line (the error of a rejection) and the index of
 * the instruction printed before it (-1 if none), without keeping any
 * state: for logs of any size. partial_first: the log was rotated and its
 * first line is cut (skip it). */
/* The length of line s without a "verification time N usec" glued to its
 * end: 6.18 prints some messages without a newline (record_func_key's
 * "expected prog array map for tail call"), so the statistics that follow
 * run on in the same line. len if there is none. */
size_t rb_vlog_glued_len(const char *s, size_t len);
void rb_vlog_last_message(const char *log, bool partial_first, char *msg, size_t len, int *insn);
/* Whether line s (len bytes) is one of the statistics lines (6.18's or
 * 7.2's), never a message */
bool rb_vlog_is_stats_line(const char *s, size_t len);

/* The state a given kind/insn/from names, the first one in log order, or NULL */
const struct rb_vlog_state *rb_vlog_find(const struct rb_vlog *v, enum rb_vlog_kind kind, int insn,
					 int from);
/* A register in a state, or NULL */
const struct rb_vlog_reg *rb_vlog_state_reg(const struct rb_vlog_state *s, unsigned regno);

/* print the instruction listing of a level-2 log (its "Live regs before
 * insn:" block) to f, each line indented by four spaces; liveness: keep
 * the live-register column */
void rb_vlog_print_listing(FILE *f, const char *log, bool liveness);

#endif
