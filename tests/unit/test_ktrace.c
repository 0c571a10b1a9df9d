/* test_ktrace.c — where two kernels' level-2 logs part (oracle/ktrace.h)
 * and the mechanism named there. The logs are short hand-written ones in
 * the formats of Linux 6.18.44 and 7.2.13 (states after ';' differ
 * between them and are ignored; 7.2's liveness preamble precedes the
 * first state). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/ktrace.h"

/* 6.18: a socket filter reading a map value, one branch explored both ways */
static const char log618[] =
	"func#0 @0\n"
	"Live regs before insn:\n"
	"      0: .1........ (b7) r1 = 0\n"
	"0: R1=ctx() R10=fp0\n"
	"0: (b7) r2 = 0                        ; R2_w=0\n"
	"1: (18) r1 = 0xffff8881234567890     ; R1_w=map_ptr(ks=4,vs=8)\n"
	"3: (15) if r2 == 0x0 goto pc+1        ; R2_w=0\n"
	"4: (b7) r0 = 1                        ; R0_w=1\n"
	"5: (95) exit\n"
	"from 3 to 5: R0=scalar() R10=fp0\n"
	"5: (95) exit\n"
	"processed 6 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 mark_read 0\n";

/* the same in 7.2's format: another map address and state text, a
 * liveness preamble of its own */
static const char log72_same[] =
	"func#0 @0\n"
	"Live regs before insn:\n"
	"      0: .1........ (b7) r1 = 0\n"
	"0: R1=ctx() R10=fp0\n"
	"0: (b7) r2 = 0                        ; R2=0\n"
	"1: (18) r1 = 0xffff88810000abcd0     ; R1=map_ptr(map=m,ks=4,vs=8)\n"
	"3: (15) if r2 == 0x0 goto pc+1        ; R2=0\n"
	"4: (b7) r0 = 1                        ; R0=1\n"
	"5: (95) exit\n"
	"from 3 to 5: R0=scalar() R10=fp0\n"
	"5: (95) exit\n"
	"processed 6 insns (limit 1000000) max_states_per_insn 0 total_states 2 peak_states 2 mark_read 0\n";

/* 7.2 rewrote the decided jump into a goto before exploring */
static const char log72_fold[] =
	"0: R1=ctx() R10=fp0\n"
	"0: (b7) r2 = 0\n"
	"1: (18) r1 = 0xffff88810000abcd0\n"
	"3: (05) goto pc+1\n"
	"5: (95) exit\n"
	"processed 4 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n";

/* 7.2 prunes the second path at once */
static const char log72_prune[] =
	"0: R1=ctx() R10=fp0\n"
	"0: (b7) r2 = 0\n"
	"1: (18) r1 = 0xffff88810000abcd0\n"
	"3: (15) if r2 == 0x0 goto pc+1\n"
	"4: (b7) r0 = 1\n"
	"5: (95) exit\n"
	"from 3 to 5: safe\n"
	"processed 5 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 mark_read 0\n";

/* 7.2 decides the jump taken */
static const char log72_branch[] =
	"0: R1=ctx() R10=fp0\n"
	"0: (b7) r2 = 0\n"
	"1: (18) r1 = 0xffff88810000abcd0\n"
	"3: (15) if r2 == 0x0 goto pc+1\n"
	"5: (95) exit\n"
	"processed 4 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 mark_read 0\n";

/* 7.2 stops with an error after the jump's fall-through */
static const char log72_ends[] =
	"0: R1=ctx() R10=fp0\n"
	"0: (b7) r2 = 0\n"
	"1: (18) r1 = 0xffff88810000abcd0\n"
	"3: (15) if r2 == 0x0 goto pc+1\n"
	"4: (b7) r0 = 1\n"
	"R0 leaks addr as return value\n";

static void same_path_map_addresses_and_preamble(void **state)
{
	(void)state;
	struct rb_ktrace_part p;
	assert_int_equal(rb_ktrace_part(log618, log72_same, &p), 0);
	assert_int_equal(p.index, -1);
	assert_int_equal(p.n_a, 7);
	assert_int_equal(p.n_b, 7);
	assert_string_equal(rb_ktrace_mechanism(&p), "checkpoints");
}

static void const_fold(void **state)
{
	(void)state;
	struct rb_ktrace_part p;
	assert_int_equal(rb_ktrace_part(log618, log72_fold, &p), 0);
	assert_int_equal(p.index, 2);
	assert_string_equal(p.common, "1: (18) r1 = 0xADDR");
	assert_string_equal(p.a, "3: (15) if r2 == 0x0 goto pc+1");
	assert_string_equal(p.b, "3: (05) goto pc+1");
	assert_string_equal(rb_ktrace_mechanism(&p), "const_fold");
}

static void prune_earlier_and_later(void **state)
{
	(void)state;
	struct rb_ktrace_part p;
	assert_int_equal(rb_ktrace_part(log618, log72_prune, &p), 0);
	assert_int_equal(p.index, 5);
	assert_string_equal(p.a, "from 3 to 5");
	assert_string_equal(p.b, "from 3 to 5: safe");
	assert_string_equal(rb_ktrace_mechanism(&p), "prune_earlier");
	assert_int_equal(rb_ktrace_part(log72_prune, log618, &p), 0);
	assert_string_equal(rb_ktrace_mechanism(&p), "prune_later");
}

static void branch_decided(void **state)
{
	(void)state;
	struct rb_ktrace_part p;
	assert_int_equal(rb_ktrace_part(log618, log72_branch, &p), 0);
	assert_int_equal(p.index, 3);
	assert_string_equal(p.common, "3: (15) if r2 == 0x0 goto pc+1");
	assert_string_equal(p.a, "4: (b7) r0 = 1");
	assert_string_equal(p.b, "5: (95) exit");
	assert_string_equal(rb_ktrace_mechanism(&p), "branch");
}

static void ends_and_path_ends(void **state)
{
	(void)state;
	struct rb_ktrace_part p;
	assert_int_equal(rb_ktrace_part(log618, log72_ends, &p), 0);
	assert_int_equal(p.index, 4);
	assert_string_equal(p.b, "(end)");
	assert_string_equal(rb_ktrace_mechanism(&p), "stops_earlier");
	assert_int_equal(rb_ktrace_part(log72_ends, log618, &p), 0);
	assert_string_equal(rb_ktrace_mechanism(&p), "stops_later");
	/* one side refuses before exploring: its trace is empty (7.2's
	 * pre-passes reject a bad register before do_check; 6.18 counts the
	 * instruction it rejects) */
	static const char upfront[] = "R15 is invalid\nprocessed 0 insns (limit 1000000)\n";
	static const char at_insn[] = "0: R1=ctx() R10=fp0\n0: (bf) r0 = r15\nR15 is invalid\n";
	assert_int_equal(rb_ktrace_part(at_insn, upfront, &p), 0);
	assert_int_equal(p.index, 0);
	assert_string_equal(rb_ktrace_mechanism(&p), "rejects_upfront");
	assert_int_equal(rb_ktrace_part(upfront, at_insn, &p), 0);
	assert_string_equal(rb_ktrace_mechanism(&p), "explores_now");
	/* a path ended on one side only: a pop where the other goes on */
	static const char popped[] = "0: R1=ctx() R10=fp0\n0: (b7) r2 = 0\nfrom 3 to 5: R0=0\n5: (95) exit\n";
	static const char goes_on[] = "0: R1=ctx() R10=fp0\n0: (b7) r2 = 0\n1: (b7) r3 = 0\n5: (95) exit\n";
	assert_int_equal(rb_ktrace_part(popped, goes_on, &p), 0);
	assert_string_equal(rb_ktrace_mechanism(&p), "path_ends");
}

/* logs cut at a head: parting past the head is not the cut log's end */
static void beyond_head(void **state)
{
	(void)state;
	struct rb_ktrace_part p;
	/* log72_ends stops early: a real end when whole, past its head when cut */
	assert_int_equal(rb_ktrace_part(log618, log72_ends, &p), 0);
	assert_false(rb_ktrace_beyond_head(&p, false, false));
	assert_true(rb_ktrace_beyond_head(&p, false, true));
	assert_false(rb_ktrace_beyond_head(&p, true, false)); /* the whole side is not the one that ends */
	/* the same trace: past the heads only when one was cut */
	assert_int_equal(rb_ktrace_part(log618, log72_same, &p), 0);
	assert_false(rb_ktrace_beyond_head(&p, false, false));
	assert_true(rb_ktrace_beyond_head(&p, true, false));
	/* a parting inside both heads stays where it is */
	assert_int_equal(rb_ktrace_part(log618, log72_branch, &p), 0);
	assert_false(rb_ktrace_beyond_head(&p, true, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_path_map_addresses_and_preamble),
		cmocka_unit_test(const_fold),
		cmocka_unit_test(prune_earlier_and_later),
		cmocka_unit_test(branch_decided),
		cmocka_unit_test(ends_and_path_ends),
		cmocka_unit_test(beyond_head),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
