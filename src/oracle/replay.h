/* replay.h — run a straight-line opdiff program (see opgen.h) through one
 * userspace tracker the way the kernel's verifier walks it: depth first,
 * fall-through first, the taken side of each undecided jump later, and
 * record the register states the kernel's level-2 log would show.
 *
 * Handles only what the generator emits: helper calls (r0 := unknown,
 * r1-r5 clobbered), ALU/ALU64 on scalars, ld_imm64 constants, ja,
 * conditional jumps (K and X, 64/32-bit) and exit. */
#ifndef RB_ORACLE_REPLAY_H
#define RB_ORACLE_REPLAY_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "oracle/vlog.h"
#include "tracker/tracker.h"
#include "util/err.h"

#define RB_REPLAY_MAX_EVENTS 96
#define RB_REPLAY_MAX_INSNS 128

struct rb_replay_event {
	enum rb_vlog_kind kind; /* RB_VLOG_AFTER or RB_VLOG_BRANCH */
	int insn, from;
	uint16_t scalar;  /* registers holding a scalar (regs[] valid) */
	uint16_t touched; /* AFTER: registers the insn wrote or read (printed by the kernel) */
	rb_val regs[RB_VLOG_MAX_REGS];
};

struct rb_replay_jump {
	int insn;
	int taken; /* RB_BR_NEVER / RB_BR_ALWAYS / RB_BR_UNKNOWN, as the tracker decided */
	bool true_impossible, false_impossible; /* branch_refine() said the outcome is empty */
};

struct rb_replay {
	struct rb_replay_event ev[RB_REPLAY_MAX_EVENTS];
	unsigned nev;
	struct rb_replay_jump jumps[RB_REPLAY_MAX_INSNS];
	unsigned njumps;
	unsigned visits[RB_REPLAY_MAX_INSNS];
};

/* Returns 0, or < 0 if the program uses something the replay does not
 * model or is too long (err says what). */
int rb_replay_run(const struct rb_tracker *t, const struct bpf_insn *insns, unsigned n,
		  struct rb_replay *out, struct rb_err *err);

/* the first event of a kind at insn (and from, for branches), or NULL */
const struct rb_replay_event *rb_replay_find(const struct rb_replay *r, enum rb_vlog_kind kind,
					     int insn, int from);
const struct rb_replay_jump *rb_replay_jump_at(const struct rb_replay *r, int insn);

#endif
