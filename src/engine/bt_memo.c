/* bt_memo.c — precision walks remembered (an engine shortcut, no kernel
 * counterpart: the result is the walk's, as Linux 6.18
 * __mark_chain_precision computes it).
 *
 * Within one state, a backtracking walk (backtrack.c) changes nothing but
 * the requested registers and slots, and when it takes only the decoded
 * steps of one frame, each step is a union homomorphism on them (if any
 * trigger is requested: clear some, request others). The requests left
 * at the state's first insn are then the union, over the requests the
 * walk started from, of what each alone leaves. A walk from one request
 * stores that per position (insn, history entries not yet passed); a
 * later walk of the same state reaching the position with requests all
 * stored takes their union and skips the rest of the state. A state's
 * history below a position never changes (entries are only appended,
 * and merged only into the current insn's), so a position identifies the
 * walk below it; a state gets an id when its first walk is stored, a
 * copy starts without one, and a checkpoint taken of the current state
 * takes the id with the history (prune.c). Loops re-walk the same
 * iterations at every bounds check: loop3 walks 50 insns per check. */
#include "engine/bt_memo.h"

uint64_t rb_bt_memo_positions(const struct rb_bt_memo *m, const struct rb_vstate *st)
{
	uint64_t pos = 0;
	if (st->bt_memo_id)
		for (int k = 0; k < BT_MEMO_SLOTS; k++)
			if (m->slot[k].id == st->bt_memo_id)
				pos |= 1ull << (m->slot[k].i & 63);
	return pos;
}

static bool others_empty(const struct rb_env *env, int fr)
{
	for (int f = 0; f <= env->bt_frame; f++)
		if (f != fr && (env->bt_regs[f] || env->bt_stack[f]))
			return false;
	return true;
}

bool rb_bt_memo_apply(struct rb_env *env, struct rb_bt_memo *m, const struct rb_vstate *st, int i, int history,
		      int fr, uint32_t *regs)
{
	const struct rb_bt_memo_slot *s = NULL;
	for (int k = 0; k < BT_MEMO_SLOTS; k++)
		if (m->slot[k].id == st->bt_memo_id && m->slot[k].i == i && m->slot[k].history == history)
			s = &m->slot[k];
	uint64_t stack = env->bt_stack[fr];
	if (!s || (*regs & ~s->regs_known) || (stack & ~s->stack_known) || !others_empty(env, fr))
		return false;
	uint32_t r = 0;
	uint64_t out = 0;
	for (uint32_t b = *regs; b; b &= b - 1) {
		int k = __builtin_ctz(b);
		r |= s->out_regs[k];
		out |= s->out_stack[k];
	}
	for (uint64_t b = stack; b; b &= b - 1) {
		int k = RB_MAX_REG + __builtin_ctzll(b);
		r |= s->out_regs[k];
		out |= s->out_stack[k];
	}
	*regs = r;
	env->bt_stack[fr] = out;
	return true;
}

int rb_bt_memo_single(const struct rb_env *env, int fr, uint32_t r)
{
	uint64_t s = env->bt_stack[fr];
	if (!others_empty(env, fr))
		return -1;
	if (r && !s && !(r & (r - 1)) && r < (1u << RB_MAX_REG))
		return __builtin_ctz(r);
	if (!r && s && !(s & (s - 1)))
		return RB_MAX_REG + __builtin_ctzll(s);
	return -1;
}

void rb_bt_memo_store(struct rb_bt_memo *m, struct rb_vstate *st, int i, int history, int bit, uint32_t regs,
		      uint64_t stack)
{
	struct rb_bt_memo_slot *s = NULL;
	if (st->bt_memo_id)
		for (int k = 0; k < BT_MEMO_SLOTS; k++)
			if (m->slot[k].id == st->bt_memo_id && m->slot[k].i == i && m->slot[k].history == history)
				s = &m->slot[k];
	if (!s) {
		if (!st->bt_memo_id) {
			if (m->next_id == UINT32_MAX)
				return;
			st->bt_memo_id = ++m->next_id;
		}
		s = &m->slot[m->victim];
		m->victim = (m->victim + 1) % BT_MEMO_SLOTS;
		s->id = st->bt_memo_id;
		s->i = i;
		s->history = history;
		s->regs_known = 0;
		s->stack_known = 0;
	}
	if (bit < RB_MAX_REG)
		s->regs_known |= 1u << bit;
	else
		s->stack_known |= 1ull << (bit - RB_MAX_REG);
	s->out_regs[bit] = regs;
	s->out_stack[bit] = stack;
}
