/* bt_memo.h — precision walks remembered (see bt_memo.c). */
#ifndef RB_ENGINE_BT_MEMO_H
#define RB_ENGINE_BT_MEMO_H

#include "engine/state.h"

/* the requests one walk left at a state's first insn, per request it
 * started from: a register r of the walk's frame (bit r) or a stack slot
 * s (bit RB_MAX_REG + s) */
#define BT_MEMO_BITS (RB_MAX_REG + 64)
struct rb_bt_memo_slot {
	uint32_t id;      /* the state's bt_memo_id; 0: free */
	int i, history;   /* the position: insn i stepped, history entries not yet passed */
	uint32_t regs_known;
	uint64_t stack_known;
	uint32_t out_regs[BT_MEMO_BITS];
	uint64_t out_stack[BT_MEMO_BITS];
};
#define BT_MEMO_SLOTS 4
struct rb_bt_memo {
	struct rb_bt_memo_slot slot[BT_MEMO_SLOTS];
	int victim;       /* the slot a new position takes */
	uint32_t next_id; /* the last id given to a state */
};

/* the insns of st's positions remembered, as bits i % 64 (the walk's cheap test) */
uint64_t rb_bt_memo_positions(const struct rb_bt_memo *m, const struct rb_vstate *st);
/* at insn i with history entries left in st, the requests (frame fr's
 * *regs and env->bt_stack[fr], every other frame's empty) replaced by what
 * the rest of st's walk leaves; false: not remembered (nothing changed) */
bool rb_bt_memo_apply(struct rb_env *env, struct rb_bt_memo *m, const struct rb_vstate *st, int i, int history,
		      int fr, uint32_t *regs);
/* the single request bit (rb_bt_memo_slot) of frame fr (its registers
 * regs, its slots env->bt_stack[fr]), -1 when there are more or other
 * frames have some */
int rb_bt_memo_single(const struct rb_env *env, int fr, uint32_t regs);
/* a walk of st from insn i with history entries left, started from
 * request bit, left frame fr's regs and stack */
void rb_bt_memo_store(struct rb_bt_memo *m, struct rb_vstate *st, int i, int history, int bit, uint32_t regs,
		      uint64_t stack);

#endif
