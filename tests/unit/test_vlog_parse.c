/* test_vlog_parse.c — the verifier log parser on logs written by the
 * running kernel (Linux 6.18.44, captured from real loads). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/vlog.h"
#include "util/array_size.h"

/* a level-6 log: precision backtracking between an insn and its state,
 * branch states, a pruned path, statistics */
static const char LOG1[] =
	"func#0 @0\n"
	"Live regs before insn:\n"
	"      0: .......... (05) goto pc+2\n"
	"      1: .......... (b7) r0 = 0\n"
	"      2: 0......... (95) exit\n"
	"0: R1=ctx() R10=fp0\n"
	"0: (05) goto pc+2\n"
	"3: (85) call bpf_ktime_get_ns#5       ; R0=scalar()\n"
	"4: (bf) r6 = r0                       ; R0=scalar(id=1) R6=scalar(id=1)\n"
	"6: (bc) w7 = w0                       ; R0=scalar() R7=scalar(smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff))\n"
	"7: (25) if r6 > 0x64 goto pc-7        ; R6=scalar(id=1,smin=smin32=0,smax=umax=smax32=umax32=100,var_off=(0x0; 0x7f))\n"
	"8: (c6) if w7 s< 0xfffffffb goto pc-8         ; R7=scalar(smin=0,smax=umax=0xffffffff,smin32=-5,var_off=(0x0; 0xffffffff))\n"
	"9: (18) r1 = 0x8000000000000000       ; R1=0x8000000000000000\n"
	"11: (2d) if r7 > r1 goto pc-11\n"
	"mark_precise: frame0: last_idx 11 first_idx 11 subseq_idx -1 \n"
	"mark_precise: frame0: parent state regs=r7 stack=:  R0=scalar() R1=0x8000000000000000 R7=Pscalar(smin=0) R10=fp0\n"
	"11: R1=P0x8000000000000000 R7=scalar(smin=0,smax=umax=0xffffffff,smin32=-5,var_off=(0x0; 0xffffffff))\n"
	"12: (0f) r6 += r7                     ; R6=scalar(smin=0,smax=umax=0x100000063,var_off=(0x0; 0x1ffffffff)) R7=scalar(smin=0,smax=umax=0xffffffff,smin32=-5,var_off=(0x0; 0xffffffff))\n"
	"14: (6d) if r6 s> r7 goto pc+1        ; R6=scalar(id=2,smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff)) R7=scalar(smin=0,smax=umax=0xffffffff,smin32=-5,var_off=(0x0; 0xffffffff))\n"
	"15: (95) exit\n"
	"\n"
	"from 14 to 16: R0=scalar(id=2,smin=umin=1,smax=umax=0x100000063,var_off=(0x0; 0x1ffffffff)) R1=0x8000000000000000 R6=scalar(id=2,smin=umin=1,smax=umax=0x100000063,var_off=(0x0; 0x1ffffffff)) R10=fp0\n"
	"16: R0=scalar(id=2,smin=umin=1,smax=umax=0x100000063,var_off=(0x0; 0x1ffffffff)) R10=fp0\n"
	"16: (b7) r0 = 1                       ; R0=1\n"
	"17: (95) exit\n"
	"\n"
	"from 8 to 1: R6=scalar(id=1,smin=smin32=0,smax=umax=smax32=umax32=100,var_off=(0x0; 0x7f)) R7=scalar(smin=umin=umin32=0x80000000,smax=umax=umax32=0xfffffffa,smax32=-6,var_off=(0x80000000; 0x7fffffff)) R10=fp0\n"
	"1: (b7) r0 = 0                        ; R0=0\n"
	"2: (95) exit\n"
	"\n"
	"from 7 to 1: safe\n"
	"verification time 1354 usec\n"
	"stack depth 0\n"
	"processed 19 insns (limit 1000000) max_states_per_insn 0 total_states 2 peak_states 2 mark_read 0\n";

static void test_kinds_and_order(void **state)
{
	(void)state;
	struct rb_vlog v;
	assert_int_equal(rb_vlog_parse(LOG1, &v, NULL), 0);
	/* entry 0; after 3,4,6,7,8,9; after 11 (own line); 12, 14; branch 14->16;
	 * entry 16; after 16; branch 8->1; after 1; branch 7->1 (safe) */
	const struct rb_vlog_state *s = rb_vlog_find(&v, RB_VLOG_ENTRY, 0, -1);
	assert_non_null(s);
	assert_int_equal(s->nregs, 2);
	assert_false(s->regs[0].scalar); /* ctx() */
	assert_string_equal(s->regs[0].text, "ctx()");
	s = rb_vlog_find(&v, RB_VLOG_AFTER, 11, -1);
	assert_non_null(s); /* the state line after precision backtracking */
	assert_int_equal(s->nregs, 2);
	assert_true(s->regs[0].precise);
	assert_true(s->regs[0].is_const);
	assert_int_equal(s->regs[0].b.umin, UINT64_C(0x8000000000000000));
	s = rb_vlog_find(&v, RB_VLOG_ENTRY, 16, -1);
	assert_non_null(s); /* after "from 14 to 16" it is the entry state, not "after 16" */
	s = rb_vlog_find(&v, RB_VLOG_AFTER, 16, -1);
	assert_non_null(s);
	assert_int_equal(s->regs[0].b.umin, 1);
	s = rb_vlog_find(&v, RB_VLOG_BRANCH, 16, 14);
	assert_non_null(s);
	assert_int_equal(s->nregs, 4);
	s = rb_vlog_find(&v, RB_VLOG_BRANCH, 1, 7);
	assert_non_null(s);
	assert_true(s->safe);
	assert_int_equal(s->nregs, 0);
	assert_null(rb_vlog_find(&v, RB_VLOG_BRANCH, 1, 9));
	/* visits: insns printed as instructions */
	assert_true(v.nvisits > 17);
	assert_int_equal(v.visits[0], 1);
	assert_int_equal(v.visits[1], 1);
	assert_int_equal(v.visits[5], 0); /* only in the live-regs listing */
	assert_int_equal(v.visits[16], 1);
	rb_vlog_free(&v);
}

static void test_scalar_fields(void **state)
{
	(void)state;
	struct rb_vlog v;
	assert_int_equal(rb_vlog_parse(LOG1, &v, NULL), 0);
	const struct rb_vlog_state *s = rb_vlog_find(&v, RB_VLOG_AFTER, 7, -1);
	assert_non_null(s);
	const struct rb_vlog_reg *r = rb_vlog_state_reg(s, 6);
	assert_non_null(r);
	assert_true(r->scalar);
	assert_false(r->is_const);
	assert_string_equal(r->id, "1");
	/* id removed, the rest as printed */
	assert_string_equal(r->text, "smin=smin32=0,smax=umax=smax32=umax32=100,var_off=(0x0; 0x7f)");
	assert_int_equal(r->b.smin, 0);
	assert_int_equal(r->b.smax, 100);
	assert_int_equal(r->b.umin, 0); /* omitted: default */
	assert_int_equal(r->b.umax, 100);
	assert_int_equal(r->b.s32_min, 0);
	assert_int_equal(r->b.s32_max, 100);
	assert_int_equal(r->b.u32_min, 0);
	assert_int_equal(r->b.u32_max, 100);
	assert_int_equal(r->b.var_off.value, 0);
	assert_int_equal(r->b.var_off.mask, 0x7f);
	/* negative decimal s32, omitted 32-bit fields unbounded */
	s = rb_vlog_find(&v, RB_VLOG_BRANCH, 1, 8);
	r = rb_vlog_state_reg(s, 7);
	assert_non_null(r);
	assert_int_equal(r->b.smin, 0x80000000);
	assert_int_equal(r->b.umax, 0xfffffffa);
	assert_int_equal(r->b.s32_min, INT32_MIN);
	assert_int_equal(r->b.s32_max, -6);
	assert_int_equal(r->b.u32_min, 0x80000000u);
	assert_int_equal(r->b.u32_max, 0xfffffffau);
	/* scalar() with no fields: unbounded */
	s = rb_vlog_find(&v, RB_VLOG_AFTER, 3, -1);
	r = rb_vlog_state_reg(s, 0);
	assert_non_null(r);
	assert_string_equal(r->text, "");
	assert_int_equal(r->b.smin, INT64_MIN);
	assert_int_equal(r->b.umax, UINT64_MAX);
	assert_int_equal(r->b.var_off.mask, UINT64_MAX);
	rb_vlog_free(&v);
}

static void test_register_forms(void **state)
{
	(void)state;
	struct rb_vlog_reg r;
	const char *s = "R3=P-5";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), 0);
	assert_int_equal(r.regno, 3);
	assert_true(r.precise && r.is_const && r.scalar);
	assert_int_equal(r.b.smin, -5);
	assert_int_equal(r.b.umin, (uint64_t)-5);
	assert_int_equal(r.b.u32_min, 0xfffffffbu);
	assert_int_equal(r.b.s32_max, -5);
	assert_string_equal(r.text, "-5");
	/* s32 bounds are printed sign-extended to 64 bits when not "small" */
	s = "R9_w=scalar(smin32=0xffffffff80000000,smax32=-1)";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), 0);
	assert_int_equal(r.regno, 9);
	assert_int_equal(r.b.s32_min, INT32_MIN);
	assert_int_equal(r.b.s32_max, -1);
	s = "R10=fp0";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), 0);
	assert_false(r.scalar);
	/* malformed */
	s = "R6=scalar(smin=zz)";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), -1);
	s = "R6=scalar(bogus=1)";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), -1);
	s = "R12=0";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), -1);
	s = "fp-8=0";
	assert_int_equal(rb_vlog_parse_reg(s, strlen(s), &r), -1);
}

static void test_stats(void **state)
{
	(void)state;
	struct rb_vlog_stats st;
	assert_true(rb_vlog_parse_stats(LOG1, &st));
	assert_int_equal(st.insns_processed, 19);
	assert_int_equal(st.insn_limit, 1000000);
	assert_int_equal(st.max_states_per_insn, 0);
	assert_int_equal(st.total_states, 2);
	assert_int_equal(st.peak_states, 2);
	assert_int_equal(st.mark_read, 0);
	assert_true(st.have_time);
	assert_int_equal(st.verify_us, 1354);
	assert_false(rb_vlog_parse_stats("invalid read from stack R10 off=0 size=8\n", &st));
}

/* a level-5 rejection: the failing insn and the message */
static void test_rejection(void **state)
{
	(void)state;
	static const char log[] = "0: R1=ctx() R10=fp0\n"
				  "0: (b7) r1 = 0                        ; R1=0\n"
				  "1: (7b) *(u64 *)(r10 -8) = r1         ; R1=0 R10=fp0 fp-8=0\n"
				  "2: (79) r0 = *(u64 *)(r10 +0)\n"
				  "invalid read from stack R10 off=0 size=8\n"
				  "verification time 30 usec\n"
				  "stack depth 8\n"
				  "processed 3 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n";
	struct rb_vlog v;
	assert_int_equal(rb_vlog_parse(log, &v, NULL), 0);
	assert_string_equal(v.last_msg, "invalid read from stack R10 off=0 size=8");
	assert_int_equal(v.last_msg_insn, 2);
	const struct rb_vlog_state *s = rb_vlog_find(&v, RB_VLOG_AFTER, 1, -1);
	assert_non_null(s);
	assert_int_equal(s->nregs, 2); /* the stack slot is not a register */
	assert_int_equal(v.stats.insns_processed, 3);
	rb_vlog_free(&v);
	/* a malformed register in a state line is an error, not a silent skip */
	struct rb_err err;
	assert_int_equal(rb_vlog_parse("5: (bf) r1 = r2   ; R1=scalar(smin=)\n", &v, &err), -1);
	assert_non_null(strstr(err.msg, "R1=scalar(smin=)"));
}

static void test_last_message(void **state)
{
	(void)state;
	/* a rotated log: the first line is cut */
	static const char tail[] = "lf (61) r1 = *(u32 *)(r1 +0)\n"
				   "41: (bf) r2 = r10                      ; R2=fp0 R10=fp0\n"
				   "mark_precise: frame0: regs=r2 stack= before 40\n"
				   "42: (79) r0 = *(u64 *)(r2 +8)\n"
				   "invalid read from stack R2 off=8 size=8\n"
				   "verification time 30 usec\n"
				   "stack depth 0\n"
				   "processed 43 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n";
	char msg[64];
	int insn;
	rb_vlog_last_message(tail, true, msg, sizeof(msg), &insn);
	assert_string_equal(msg, "invalid read from stack R2 off=8 size=8");
	assert_int_equal(insn, 42);
	/* the same text read as complete: the cut line is a message of its own,
	 * but the last message still wins */
	rb_vlog_last_message(tail, false, msg, sizeof(msg), &insn);
	assert_string_equal(msg, "invalid read from stack R2 off=8 size=8");
	/* truncated to the buffer */
	char small[8];
	rb_vlog_last_message(tail, true, small, sizeof(small), &insn);
	assert_string_equal(small, "invalid");
	/* Linux 7.2's statistics add "insns processed N": not the message
	 * (it was, for every kernel-7.2 failure logged at level 4) */
	static const char tail72[] = "35: (7b) *(u64 *)(r7 +24) = r8\n"
				     "R7 invalid mem access 'scalar'\n"
				     "verification time 158417 usec\n"
				     "stack depth 0 max 0\n"
				     "insns processed 22+4\n"
				     "processed 22 insns (limit 1000000) max_states_per_insn 0 total_states 2 "
				     "peak_states 2 mark_read 0\n";
	rb_vlog_last_message(tail72, false, msg, sizeof(msg), &insn);
	assert_string_equal(msg, "R7 invalid mem access 'scalar'");
	assert_int_equal(insn, 35);
	/* the statistics lines, one by one (a cached guest row's message is
	 * never one: guest/collect.c cache_stale) */
	static const char *const stats[] = {"insns processed 1000001", "insns processed 22+4", "stack depth 0 max 0",
					    "verification time 158417 usec",
					    "processed 22 insns (limit 1000000) max_states_per_insn 0"};
	for (size_t i = 0; i < ARRAY_SIZE(stats); i++)
		assert_true(rb_vlog_is_stats_line(stats[i], strlen(stats[i])));
	static const char too_large[] = "BPF program is too large. Processed 1000001 insn";
	assert_false(rb_vlog_is_stats_line(too_large, strlen(too_large)));
	assert_false(rb_vlog_is_stats_line("R7 invalid mem access 'scalar'", 30));
	/* no message at all */
	rb_vlog_last_message("0: R1=ctx() R10=fp0\n0: (b7) r0 = 0 ; R0=0\n1: (95) exit\n", false, msg, sizeof(msg), &insn);
	assert_string_equal(msg, "");
	assert_int_equal(insn, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_and_order), cmocka_unit_test(test_scalar_fields),
		cmocka_unit_test(test_register_forms), cmocka_unit_test(test_stats),
		cmocka_unit_test(test_rejection), cmocka_unit_test(test_last_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
