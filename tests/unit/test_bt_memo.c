/* test_bt_memo.c — precision walks remembered (src/engine/bt_memo.c): what
 * a walk from one request leaves is stored per state and position, a later
 * walk takes the union of what its requests left only when every request
 * is stored for that very state and position and no other frame has any,
 * copies of a state start without its walks, and old positions give way
 * to new ones; a walk through a jump whose history links registers of the
 * walk's own frame, or through a helper call, is remembered, one linking
 * another frame's or through a call of a callback is not, and both mark
 * the same register precise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/backtrack.h"
#include "engine/bt_memo.h"

struct fix {
	struct rb_env env;
	struct rb_bt_memo memo;
	struct rb_vstate *st;
};

static void setup(struct fix *f)
{
	memset(f, 0, sizeof(*f));
	f->st = rb_state_new(NULL, 8);
	assert_non_null(f->st);
	f->env.bt_frame = 0;
}

/* one request of frame 0: its single bit, registers first, then slots */
static void test_single(void **state)
{
	(void)state;
	struct fix f;
	setup(&f);
	assert_int_equal(rb_bt_memo_single(&f.env, 0, 1u << 3), 3);
	assert_int_equal(rb_bt_memo_single(&f.env, 0, (1u << 3) | (1u << 2)), -1);
	f.env.bt_stack[0] = 1ull << 5;
	assert_int_equal(rb_bt_memo_single(&f.env, 0, 0), RB_MAX_REG + 5);
	assert_int_equal(rb_bt_memo_single(&f.env, 0, 1u << 3), -1);
	/* a request of another frame: none */
	f.env.bt_stack[0] = 0;
	f.env.bt_frame = 1;
	f.env.bt_regs[0] = 1u << 1;
	assert_int_equal(rb_bt_memo_single(&f.env, 1, 1u << 3), -1);
	rb_state_free(f.st);
}

static void test_union(void **state)
{
	(void)state;
	struct fix f;
	setup(&f);
	assert_int_equal(rb_bt_memo_positions(&f.memo, f.st), 0);
	/* r3 leaves fp-8 (slot 0), r2 leaves r2 and r3, at insn 13 with 5 entries */
	rb_bt_memo_store(&f.memo, f.st, 13, 5, 3, 0, 1ull << 0);
	assert_int_not_equal(f.st->bt_memo_id, 0);
	rb_bt_memo_store(&f.memo, f.st, 13, 5, 2, (1u << 2) | (1u << 3), 0);
	assert_int_equal(rb_bt_memo_positions(&f.memo, f.st), 1ull << 13);

	uint32_t regs = (1u << 2) | (1u << 3);
	assert_true(rb_bt_memo_apply(&f.env, &f.memo, f.st, 13, 5, 0, &regs));
	assert_int_equal(regs, (1u << 2) | (1u << 3));
	assert_int_equal(f.env.bt_stack[0], 1ull << 0);

	/* a request not stored: nothing changes */
	f.env.bt_stack[0] = 0;
	regs = (1u << 3) | (1u << 4);
	assert_false(rb_bt_memo_apply(&f.env, &f.memo, f.st, 13, 5, 0, &regs));
	assert_int_equal(regs, (1u << 3) | (1u << 4));
	assert_int_equal(f.env.bt_stack[0], 0);
	/* another position of the same insn, or another insn */
	regs = 1u << 3;
	assert_false(rb_bt_memo_apply(&f.env, &f.memo, f.st, 13, 4, 0, &regs));
	assert_false(rb_bt_memo_apply(&f.env, &f.memo, f.st, 12, 5, 0, &regs));
	/* a request of another frame */
	f.env.bt_frame = 1;
	f.env.bt_regs[0] = 1u << 1;
	assert_false(rb_bt_memo_apply(&f.env, &f.memo, f.st, 13, 5, 1, &regs));
	f.env.bt_frame = 0;
	f.env.bt_regs[0] = 0;
	/* a request emptied: the walk leaves nothing */
	rb_bt_memo_store(&f.memo, f.st, 13, 5, RB_MAX_REG + 1, 0, 0);
	f.env.bt_stack[0] = 1ull << 1;
	regs = 0;
	assert_true(rb_bt_memo_apply(&f.env, &f.memo, f.st, 13, 5, 0, &regs));
	assert_int_equal(regs, 0);
	assert_int_equal(f.env.bt_stack[0], 0);
	rb_state_free(f.st);
}

static void test_copies_and_eviction(void **state)
{
	(void)state;
	struct fix f;
	setup(&f);
	rb_bt_memo_store(&f.memo, f.st, 7, 2, 3, 1u << 5, 0);
	/* a copy's history may grow apart: it starts without the walks */
	struct rb_vstate *c = rb_state_copy(NULL, f.st);
	assert_non_null(c);
	assert_int_equal(c->bt_memo_id, 0);
	uint32_t regs = 1u << 3;
	assert_false(rb_bt_memo_apply(&f.env, &f.memo, c, 7, 2, 0, &regs));
	assert_int_equal(rb_bt_memo_positions(&f.memo, c), 0);
	rb_bt_memo_store(&f.memo, c, 7, 2, 3, 1u << 6, 0);
	assert_int_not_equal(c->bt_memo_id, f.st->bt_memo_id);
	assert_true(rb_bt_memo_apply(&f.env, &f.memo, f.st, 7, 2, 0, &regs));
	assert_int_equal(regs, 1u << 5);

	/* BT_MEMO_SLOTS newer positions push the first one out */
	for (int k = 0; k < BT_MEMO_SLOTS; k++)
		rb_bt_memo_store(&f.memo, f.st, 20 + k, 3 + k, 1, 1u << 1, 0);
	regs = 1u << 3;
	assert_false(rb_bt_memo_apply(&f.env, &f.memo, f.st, 7, 2, 0, &regs));
	regs = 1u << 1;
	assert_true(rb_bt_memo_apply(&f.env, &f.memo, f.st, 20 + BT_MEMO_SLOTS - 1, 3 + BT_MEMO_SLOTS - 1, 0, &regs));
	rb_state_free(c);
	rb_state_free(f.st);
}

/* a walk asking for r3 at insn 3 of insns (the state's first insn 0, a
 * history entry at insn 2 from 1 with these linked registers), its
 * parent's r1 a scalar: *r1_precise whether the walk marked it, and
 * whether the walk was remembered (at insn 3) */
static void walk(const struct bpf_insn *insns, bool calls_callback_1, uint64_t linked, bool *remembered,
		 bool *r1_precise)
{
	struct rb_aux aux[5];
	memset(aux, 0, sizeof(aux));
	aux[1].calls_callback = calls_callback_1;
	struct rb_env env;
	memset(&env, 0, sizeof(env));
	env.insns = (struct bpf_insn *)insns;
	env.insn_cnt = 5;
	env.aux = aux;
	struct rb_vstate *parent = rb_state_new(NULL, 8), *st = rb_state_new(NULL, 8);
	assert_non_null(parent);
	assert_non_null(st);
	parent->frame[0]->regs[1].type = RT_SCALAR;
	parent->last_insn_idx = -1;
	st->parent = parent;
	st->insn_idx = 3;
	st->frame[0]->regs[3].type = RT_SCALAR;
	env.cur = st;
	env.insn_idx = 2;
	env.prev_insn_idx = 1;
	assert_int_equal(rb_push_hist(&env, st, 0), 0);
	st->hist[0].linked = linked;
	assert_int_equal(rb_mark_chain_precision(&env, 3), 0);
	*r1_precise = parent->frame[0]->regs[1].precise;
	*remembered = st->bt_memo_id && env.bt_memo && (rb_bt_memo_positions(env.bt_memo, st) & (1ull << 3));
	free(env.bt_desc);
	free(env.bt_memo);
	rb_state_free(st);
	rb_state_free(parent);
}

/* 0: r7 = r1; 1: w3 = w7; 2: if w7 != 0 goto +1, linking r3 and r7 (of
 * frame 0, then of frame 1); r3 is asked for at 3 */
static void test_linked_walk(void **state)
{
	(void)state;
	const struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 7, .src_reg = 1},
		{.code = BPF_ALU | BPF_MOV | BPF_X, .dst_reg = 3, .src_reg = 7},
		{.code = BPF_JMP32 | BPF_JNE | BPF_K, .dst_reg = 7, .off = 1},
		{.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 0, .src_reg = 3},
		{.code = BPF_JMP | BPF_EXIT},
	};
	bool remembered, precise;
	for (uint64_t fr = 0; fr < 2; fr++) {
		uint64_t r3 = fr | 8u | (3u << 4), r7 = fr | 8u | (7u << 4);
		walk(insns, false, r3 | (r7 << 10) | (2ull << 60), &remembered, &precise);
		assert_true(precise);
		assert_true(remembered == (fr == 0));
	}
}

/* 0: r6 = r1; 1: a helper call; 2: r3 = r6, asked for at 3: the call
 * takes its decoded step (r0 set there), unless it calls a callback */
static void test_call_walk(void **state)
{
	(void)state;
	const struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1},
		{.code = BPF_JMP | BPF_CALL, .imm = 1},
		{.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 3, .src_reg = 6},
		{.code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 0, .src_reg = 3},
		{.code = BPF_JMP | BPF_EXIT},
	};
	bool remembered, precise;
	walk(insns, false, 0, &remembered, &precise);
	assert_true(precise);
	assert_true(remembered);
	walk(insns, true, 0, &remembered, &precise);
	assert_true(precise);
	assert_false(remembered);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_copies_and_eviction),
		cmocka_unit_test(test_linked_walk),
		cmocka_unit_test(test_call_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
