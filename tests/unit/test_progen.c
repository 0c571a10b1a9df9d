/* test_progen.c — the random program generator (progen): the same
 * (family, seed, index) gives the same program, different indexes give
 * different programs, every program is well-formed (jumps land inside it,
 * it ends in exit, ld_imm64 pairs are whole, maps referenced exist), every
 * family uses the instructions it is named for, and the engine (old)
 * verifies generated programs without "unsupported" verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "progen/progen.h"
#include "verify/verify.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

static void test_deterministic(void **state)
{
	(void)state;
	struct rb_progen_prog *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(rb_progen_generate(rb_progen_family_count(), 1, 0, a), -1);
	assert_int_equal(rb_progen_family_find("nope"), -1);
	for (int f = 0; f < rb_progen_family_count(); f++) {
		assert_int_equal(rb_progen_family_find(rb_progen_family_name(f)), f);
		unsigned same = 0;
		for (uint64_t i = 0; i < 20; i++) {
			assert_int_equal(rb_progen_generate(f, 7, i, a), 0);
			assert_int_equal(rb_progen_generate(f, 7, i, b), 0);
			assert_int_equal(a->insn_cnt, b->insn_cnt);
			assert_memory_equal(a->insns, b->insns, a->insn_cnt * sizeof(a->insns[0]));
			assert_int_equal(rb_progen_generate(f, 7, i + 1, b), 0);
			if (a->insn_cnt == b->insn_cnt && !memcmp(a->insns, b->insns, a->insn_cnt * sizeof(a->insns[0])))
				same++;
		}
		assert_true(same < 2);
	}
	free(a);
	free(b);
}

static bool is_jmp(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT;
}

static void test_well_formed(void **state)
{
	(void)state;
	struct rb_progen_prog *p = malloc(sizeof(*p));
	assert_non_null(p);
	for (int f = 0; f < rb_progen_family_count(); f++) {
		/* what each family must contain at least once in 200 programs */
		bool seen_memsx = false, seen_sdiv = false, seen_neg = false, seen_end = false, seen_back = false,
		     seen_jset = false, seen_jx = false, seen_map = false, seen_alu32 = false, seen_atomic = false,
		     seen_fetch = false, seen_call = false, seen_pkt = false, seen_varstack = false,
		     seen_ringbuf = false, seen_dynptr = false, seen_jmp32x = false, seen_maygoto = false,
		     seen_gotol = false;
		for (uint64_t i = 0; i < 200; i++) {
			assert_int_equal(rb_progen_generate(f, 3, i, p), 0);
			assert_true(p->insn_cnt > 2 && p->insn_cnt <= RB_PROGEN_MAX_INSNS);
			assert_int_equal(p->insns[p->insn_cnt - 1].code, BPF_JMP | BPF_EXIT);
			for (size_t k = 0; k < p->insn_cnt; k++) {
				const struct bpf_insn *in = &p->insns[k];
				if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
					assert_true(k + 1 < p->insn_cnt);
					if (in->src_reg == BPF_PSEUDO_MAP_IDX) {
						assert_true((size_t)in->imm < p->map_cnt);
						seen_map = true;
					}
					k++;
					continue;
				}
				if (is_jmp(in)) {
					long delta = in->code == (BPF_JMP32 | BPF_JA) ? in->imm : in->off; /* gotol: imm */
					long to = (long)k + 1 + delta;
					assert_true(to >= 0 && to < (long)p->insn_cnt);
					if (delta < 0)
						seen_back = true;
					if (BPF_OP(in->code) == BPF_JSET)
						seen_jset = true;
					if (BPF_OP(in->code) != BPF_JA && BPF_SRC(in->code) == BPF_X)
						seen_jx = true;
				}
				if (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC) {
					seen_atomic = true;
					seen_fetch |= (in->imm & BPF_FETCH) != 0;
				}
				if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) {
					long to = (long)k + 1 + in->imm;
					assert_true(to > (long)k && to < (long)p->insn_cnt);
					seen_call = true;
				}
				if (in->code == (BPF_JMP | BPF_JGT | BPF_X) || in->code == (BPF_JMP | BPF_JLE | BPF_X))
					seen_pkt |= p->prog_type == BPF_PROG_TYPE_SCHED_CLS;
				if (BPF_CLASS(in->code) == BPF_LDX && BPF_MODE(in->code) == BPF_MEMSX)
					seen_memsx = true;
				/* a stack access through a register other than r10 */
				if ((BPF_CLASS(in->code) == BPF_LDX || BPF_CLASS(in->code) == BPF_STX ||
				     BPF_CLASS(in->code) == BPF_ST) && k > 0 &&
				    p->insns[k - 1].code == (BPF_ALU64 | BPF_ADD | BPF_X) &&
				    p->insns[k - 1].dst_reg == (BPF_CLASS(in->code) == BPF_LDX ? in->src_reg : in->dst_reg))
					seen_varstack = true;
				if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0) {
					seen_ringbuf |= in->imm == BPF_FUNC_ringbuf_reserve;
					seen_dynptr |= in->imm == BPF_FUNC_ringbuf_reserve_dynptr;
				}
				if (BPF_CLASS(in->code) == BPF_JMP32 && BPF_OP(in->code) != BPF_JA)
					seen_jmp32x = true;
				seen_maygoto |= in->code == (BPF_JMP | 0xe0);
				seen_gotol |= in->code == (BPF_JMP32 | BPF_JA);
				if ((BPF_OP(in->code) == BPF_DIV || BPF_OP(in->code) == BPF_MOD) &&
				    (BPF_CLASS(in->code) == BPF_ALU || BPF_CLASS(in->code) == BPF_ALU64) && in->off == 1)
					seen_sdiv = true;
				if ((BPF_CLASS(in->code) == BPF_ALU || BPF_CLASS(in->code) == BPF_ALU64) &&
				    BPF_OP(in->code) == BPF_NEG)
					seen_neg = true;
				if ((BPF_CLASS(in->code) == BPF_ALU || BPF_CLASS(in->code) == BPF_ALU64) &&
				    BPF_OP(in->code) == BPF_END)
					seen_end = true;
				if (BPF_CLASS(in->code) == BPF_ALU && BPF_OP(in->code) != BPF_END)
					seen_alu32 = true;
			}
		}
		const char *name = rb_progen_family_name(f);
		if (!strcmp(name, "movsx"))
			assert_true(seen_memsx);
		if (!strcmp(name, "muldiv"))
			assert_true(seen_sdiv);
		if (!strcmp(name, "neg"))
			assert_true(seen_neg);
		if (!strcmp(name, "bswap"))
			assert_true(seen_end);
		if (!strcmp(name, "loop"))
			assert_true(seen_back);
		if (!strcmp(name, "jset"))
			assert_true(seen_jset);
		if (!strcmp(name, "regjmp"))
			assert_true(seen_jx);
		if (!strcmp(name, "ptr"))
			assert_true(seen_map);
		if (!strcmp(name, "alu32"))
			assert_true(seen_alu32);
		if (!strcmp(name, "atomic"))
			assert_true(seen_atomic && seen_fetch);
		if (!strcmp(name, "call"))
			assert_true(seen_call);
		if (!strcmp(name, "pkt"))
			assert_true(seen_pkt);
		if (!strcmp(name, "stack"))
			assert_true(seen_varstack);
		if (!strcmp(name, "memsx"))
			assert_true(seen_memsx && seen_sdiv);
		if (!strcmp(name, "link32"))
			assert_true(seen_jmp32x && seen_map);
		if (!strcmp(name, "maygoto"))
			assert_true(seen_maygoto && seen_gotol && seen_back);
		if (!strcmp(name, "ringbuf"))
			assert_true(seen_ringbuf && seen_dynptr);
	}
	free(p);
}

/* the engine verifies them: accepted or rejected, never unsupported */
static void test_engine_runs_them(void **state)
{
	(void)state;
	struct rb_progen_prog *p = malloc(sizeof(*p));
	struct rb_progen_object *h = malloc(sizeof(*h));
	assert_non_null(p);
	assert_non_null(h);
	unsigned accepted = 0, total = 0;
	for (int f = 0; f < rb_progen_family_count(); f++)
		for (uint64_t i = 0; i < 25; i++) {
			assert_int_equal(rb_progen_generate(f, 5, i, p), 0);
			rb_progen_object(p, h);
			struct rb_verify_opts o = {.tracker = "old"};
			struct rb_result res;
			struct rb_err err = {{0}};
			assert_int_equal(rb_verify(&h->obj, 0, &o, &res, &err), 0);
			if (res.verdict != RB_ACCEPT && res.verdict != RB_REJECT)
				fail_msg("%s: %s %s", h->obj.path, rb_verdict_name(res.verdict), res.msg);
			accepted += res.verdict == RB_ACCEPT;
			total++;
		}
	/* mostly valid programs: they explore deep rather than fail early */
	assert_true(accepted * 10 >= total * 8);
	free(p);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_well_formed),
		cmocka_unit_test(test_engine_runs_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
