/* test_opgen.c — opdiff's program generator and tracker replay, without
 * the kernel: generated programs are deterministic and well formed (the
 * layout opdiff relies on), and the replay records the states and jump
 * outcomes a hand-worked program must give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/opgen.h"
#include "oracle/replay.h"
#include "tracker/tracker.h"

#include "insn_macros.h"
#include "util/array_size.h"

static void test_deterministic(void **state)
{
	(void)state;
	struct rb_opgen_case a, b;
	unsigned differ = 0;
	for (uint64_t k = 0; k < 200; k++) {
		rb_opgen_case(5, k, &a);
		rb_opgen_case(5, k, &b);
		assert_int_equal(a.insn_cnt, b.insn_cnt);
		assert_memory_equal(a.insns, b.insns, a.insn_cnt * sizeof(a.insns[0]));
		rb_opgen_case(6, k, &b);
		differ += a.insn_cnt != b.insn_cnt || memcmp(a.insns, b.insns, a.insn_cnt * sizeof(a.insns[0]));
	}
	assert_true(differ > 190); /* another seed gives other programs */
}

/* jumps stay inside, the last insn is exit, every conditional jump's
 * fall-through is reached only from that jump, the exit block is used */
static void test_layout(void **state)
{
	(void)state;
	struct rb_opgen_case c;
	unsigned jmp_ops = 0, alu_ops = 0;
	for (uint64_t k = 0; k < 2000; k++) {
		rb_opgen_case(1, k, &c);
		assert_true(c.insn_cnt > 5 && c.insn_cnt <= RB_OPGEN_MAX_INSNS);
		assert_int_equal(c.insns[c.insn_cnt - 1].code, BPF_JMP | BPF_EXIT);
		assert_int_equal(c.insns[0].code, BPF_JMP | BPF_JA);
		unsigned *targeted = calloc(c.insn_cnt + 1, sizeof(unsigned));
		assert_non_null(targeted);
		for (unsigned i = 0; i < c.insn_cnt; i++) {
			const struct bpf_insn *in = &c.insns[i];
			uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
			if (in->code == (BPF_LD | BPF_DW | BPF_IMM)) {
				i++;
				continue;
			}
			if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_CALL || op == BPF_EXIT)
				continue;
			int t = (int)i + in->off + 1;
			assert_true(t >= 0 && (unsigned)t < c.insn_cnt);
			targeted[t]++;
		}
		assert_true(targeted[RB_OPGEN_OUT] >= 1);
		for (unsigned i = 0; i < c.insn_cnt; i++) {
			const struct bpf_insn *in = &c.insns[i];
			uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
			if ((cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT && op != BPF_JA)
				assert_int_equal(targeted[i + 1], 0);
		}
		free(targeted);
		if (c.op_is_jmp)
			jmp_ops++;
		else
			alu_ops++;
		assert_true(c.what[0] != 0);
	}
	assert_true(jmp_ops > 800 && alu_ops > 800);
}

/* every operation the issue lists shows up */
static void test_coverage(void **state)
{
	(void)state;
	static const char *const want[] = {
		"alu64 add X", "alu32 sub K", "alu64 mul X", "alu64 div K", "alu32 sdiv X", "alu64 mod X",
		"alu32 smod K", "alu64 or K", "alu64 and X", "alu32 xor X", "alu64 lsh K", "alu32 rsh X",
		"alu64 arsh X", "alu64 neg", "alu32 neg", "alu64 mov X", "alu64 movsx8", "alu64 movsx16",
		"alu64 movsx32", "alu32 movsx8", "alu64 bswap16", "alu64 bswap64", "alu32 be32", "alu32 le16",
		"jmp jeq X", "jmp32 jne K", "jmp jset K", "jmp32 jset X", "jmp jgt X", "jmp32 jge K",
		"jmp jlt K", "jmp32 jle X", "jmp jsgt K", "jmp32 jsge X", "jmp jslt X", "jmp32 jsle K",
	};
	bool seen[ARRAY_SIZE(want)] = {0};
	struct rb_opgen_case c;
	for (uint64_t k = 0; k < 5000; k++) {
		rb_opgen_case(1, k, &c);
		for (size_t i = 0; i < ARRAY_SIZE(want); i++)
			if (!strcmp(c.what, want[i]))
				seen[i] = true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (!seen[i])
			fail_msg("never generated: %s", want[i]);
}

/* call; r6 = r0; if r6 > 8 goto +1; exit; exit */
static void test_replay_hand_worked(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("old", 64);
	assert_non_null(t);
	const struct bpf_insn p[] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),
				     I(BPF_ALU64 | BPF_MOV | BPF_X, 6, 0, 0, 0),
				     I(BPF_JMP | BPF_JGT | BPF_K, 6, 0, 1, 8), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	struct rb_replay *r = malloc(sizeof(*r));
	struct rb_err err;
	assert_non_null(r);
	assert_int_equal(rb_replay_run(t, p, 5, r, &err), 0);
	const struct rb_replay_event *e = rb_replay_find(r, RB_VLOG_AFTER, 2, -1);
	assert_non_null(e);
	assert_true(e->touched == (1u << 6));
	struct rb_bounds b;
	t->bounds(&e->regs[6], &b);
	assert_int_equal(b.umax, 8);
	assert_int_equal(b.umin, 0);
	e = rb_replay_find(r, RB_VLOG_BRANCH, 4, 2);
	assert_non_null(e);
	t->bounds(&e->regs[6], &b);
	assert_int_equal(b.umin, 9);
	assert_int_equal(b.umax, UINT64_MAX);
	const struct rb_replay_jump *j = rb_replay_jump_at(r, 2);
	assert_non_null(j);
	assert_int_equal(j->taken, RB_BR_UNKNOWN);
	assert_int_equal(r->visits[3], 1);
	assert_int_equal(r->visits[4], 1);
	/* a decided jump: r6 = 5; if r6 > 8 goto +1 -> never, only the fall-through */
	const struct bpf_insn q[] = {I(BPF_ALU64 | BPF_MOV | BPF_K, 6, 0, 0, 5),
				     I(BPF_JMP | BPF_JGT | BPF_K, 6, 0, 1, 8), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	assert_int_equal(rb_replay_run(t, q, 4, r, &err), 0);
	j = rb_replay_jump_at(r, 1);
	assert_non_null(j);
	assert_int_equal(j->taken, RB_BR_NEVER);
	assert_int_equal(r->visits[2], 1);
	assert_int_equal(r->visits[3], 0);
	assert_null(rb_replay_find(r, RB_VLOG_BRANCH, 3, 1));
	/* what the replay does not model is an error, not a guess */
	const struct bpf_insn bad[] = {I(BPF_LDX | BPF_MEM | BPF_DW, 0, 10, -8, 0), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	assert_int_equal(rb_replay_run(t, bad, 2, r, &err), -1);
	assert_non_null(strstr(err.msg, "unsupported"));
	free(r);
}

/* "if r6 s< r6" / "if w6 & w6": one register compared with itself. Linux
 * 7.2.13 decides it (is_scalar_branch_taken() with reg1 == reg2), so the
 * replay of cnum-mainline follows one outcome; 6.18 (cnum) refines the
 * register as both operands and explores both. An undecided JSET leaves
 * the register as it was on both paths. */
static void test_replay_same_register(void **state)
{
	(void)state;
	const struct rb_tracker *ml = rb_tracker_get("cnum-mainline", 64);
	const struct rb_tracker *cn = rb_tracker_get("cnum", 64);
	assert_non_null(ml);
	assert_non_null(cn);
	struct rb_replay *r = malloc(sizeof(*r));
	struct rb_err err;
	assert_non_null(r);
	/* call; r6 = r0; if r6 s< r6 goto +1; exit; exit */
	const struct bpf_insn p[] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),
				     I(BPF_ALU64 | BPF_MOV | BPF_X, 6, 0, 0, 0),
				     I(BPF_JMP | BPF_JSLT | BPF_X, 6, 6, 1, 0), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	assert_int_equal(rb_replay_run(ml, p, 5, r, &err), 0);
	assert_int_equal(rb_replay_jump_at(r, 2)->taken, RB_BR_NEVER);
	assert_int_equal(r->visits[4], 0);
	assert_int_equal(rb_replay_run(cn, p, 5, r, &err), 0);
	assert_int_equal(rb_replay_jump_at(r, 2)->taken, RB_BR_UNKNOWN);
	/* w6 = (w0 & 0xff) | 1 lies in [1, 255], never 0: "if w6 & w6"
	 * always (cnum-mainline); w6 = w0 | 1 may be negative as s32, so 0
	 * lies within its signed bounds: undecided, as in 7.2 */
	const struct bpf_insn q[] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),
				     I(BPF_ALU | BPF_MOV | BPF_X, 6, 0, 0, 0), I(BPF_ALU | BPF_AND | BPF_K, 6, 0, 0, 0xff),
				     I(BPF_ALU | BPF_OR | BPF_K, 6, 0, 0, 1),
				     I(BPF_JMP32 | BPF_JSET | BPF_X, 6, 6, 1, 0), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	assert_int_equal(rb_replay_run(ml, q, 7, r, &err), 0);
	assert_int_equal(rb_replay_jump_at(r, 4)->taken, RB_BR_ALWAYS);
	struct bpf_insn q2[7];
	memcpy(q2, q, sizeof(q));
	q2[2] = I(BPF_ALU | BPF_MOV | BPF_X, 6, 6, 0, 0); /* no mask */
	assert_int_equal(rb_replay_run(ml, q2, 7, r, &err), 0);
	assert_int_equal(rb_replay_jump_at(r, 4)->taken, RB_BR_UNKNOWN);
	/* r6 may be 0: undecided, both paths keep r6 as it was */
	const struct bpf_insn u[] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),
				     I(BPF_ALU64 | BPF_MOV | BPF_X, 6, 0, 0, 0),
				     I(BPF_JMP | BPF_JSET | BPF_X, 6, 6, 1, 0), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	assert_int_equal(rb_replay_run(ml, u, 5, r, &err), 0);
	assert_int_equal(rb_replay_jump_at(r, 2)->taken, RB_BR_UNKNOWN);
	const struct rb_replay_event *before = rb_replay_find(r, RB_VLOG_AFTER, 1, -1);
	const struct rb_replay_event *fall = rb_replay_find(r, RB_VLOG_AFTER, 2, -1);
	const struct rb_replay_event *taken = rb_replay_find(r, RB_VLOG_BRANCH, 4, 2);
	assert_non_null(before);
	assert_non_null(fall);
	assert_non_null(taken);
	assert_true(ml->equal(&before->regs[6], &fall->regs[6]));
	assert_true(ml->equal(&before->regs[6], &taken->regs[6]));
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_replay_hand_worked),
		cmocka_unit_test(test_replay_same_register),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
