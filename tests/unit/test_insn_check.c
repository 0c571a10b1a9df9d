/* test_insn_check.c — the instruction-encoding checks the kernel makes on
 * every instruction before exploring (engine/cfg.c): malformed
 * instructions in code no path reaches are rejected with the kernel's
 * words, and the opcode table matches the running kernel's (where bpf()
 * is permitted). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "oracle/bpf_sys.h"
#include "oracle/kload.h"

#include "insn_macros.h"
#include "kernel_fixture.h"
#include "util/array_size.h"

#define MOV0() MOV_K(0, 0)

static void engine(const char *tracker, const struct bpf_insn *insns, size_t n, struct rb_result *res)
{
	struct rb_prog prog;
	struct rb_object obj;
	memset(&prog, 0, sizeof(prog));
	memset(&obj, 0, sizeof(obj));
	snprintf(obj.path, sizeof(obj.path), "test");
	snprintf(prog.name, sizeof(prog.name), "prog");
	snprintf(prog.license, sizeof(prog.license), "GPL");
	prog.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	prog.type_known = true;
	prog.insns = (struct bpf_insn *)insns;
	prog.insn_cnt = n;
	obj.progs = &prog;
	obj.prog_cnt = 1;
	struct rb_engine_opts o = {0};
	struct rb_err err = {{0}};
	assert_int_equal(rb_engine_verify(&obj, 0, rb_tracker_get(tracker, 64), &o, res, &err), 0);
}

/* the kernel's verdict and message; false where bpf() is not permitted */
static bool kernel(const struct bpf_insn *insns, size_t n, struct rb_result *kr)
{
	if (!fx_bpf_available())
		return false;
	struct rb_kload_args a = {.prog_type = BPF_PROG_TYPE_SOCKET_FILTER, .insns = insns, .insn_cnt = n,
				  .prog_btf_fd = -1, .log_level = 1};
	fx_kernel_result(&a, kr);
	return true;
}

/* a malformed instruction after the exit, where no path goes */
static void dead_code(void **state)
{
	(void)state;
	static const struct {
		struct bpf_insn bad[2];
		size_t nbad;
		const char *msg;
	} cases[] = {
		{{I(0xf7, 0, 0, 0, 0)}, 1, "unknown opcode f7"},
		{{I(0x00, 0, 0, 0, 0)}, 1, "unknown opcode 00"},
		{{I(0x99, 0, 1, 0, 0)}, 1, "unknown opcode 99"}, /* LDX MEMSX DW */
		{{I(BPF_LDX | BPF_MEM | BPF_W, 0, 1, 0, 5)}, 1, "BPF_LDX uses reserved fields"},
		{{I(BPF_LDX | BPF_ABS | BPF_W, 0, 1, 0, 0)}, 1, "BPF_LDX uses reserved fields"},
		{{I(BPF_LD | BPF_IMM | BPF_DW, 0, 0, 0, 1), I(0x40, 0, 0, 0, 0)}, 2, "invalid bpf_ld_imm64 insn"},
		{{I(BPF_LD | BPF_IMM | BPF_DW, 0, 0, 0, 1), I(0, 0, 1, 0, 0)}, 2, "invalid bpf_ld_imm64 insn"},
	};
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct bpf_insn p[6] = {MOV0(), EXIT()};
		size_t n = 2;
		for (size_t k = 0; k < cases[c].nbad; k++)
			p[n++] = cases[c].bad[k];
		p[n++] = EXIT();
		for (int t = 0; t < 2; t++) {
			struct rb_result res;
			engine(t ? "cnum" : "old", p, n, &res);
			if (res.verdict != RB_REJECT || strcmp(res.msg, cases[c].msg))
				fail_msg("case %zu (%s): %s '%s'", c, t ? "cnum" : "old", rb_verdict_name(res.verdict),
					 res.msg);
			assert_int_equal(res.insns_processed, 0);
		}
		struct rb_result kr;
		if (kernel(p, n, &kr) && (kr.verdict != RB_REJECT || !strstr(kr.msg, cases[c].msg)))
			fail_msg("case %zu: the kernel says %s '%s'", c, rb_verdict_name(kr.verdict), kr.msg);
	}
	/* a good ld_imm64 is skipped whole; what follows is still checked */
	struct bpf_insn p[] = {MOV0(), EXIT(), I(BPF_LD | BPF_IMM | BPF_DW, 0, 0, 0, 1), I(0, 0, 0, 0, 7),
			       I(0xf7, 0, 0, 0, 0), EXIT()};
	struct rb_result res;
	engine("old", p, 6, &res);
	assert_string_equal(res.msg, "unknown opcode f7");
}

/* a message of the encoding checks */
static bool static_msg(const struct rb_result *r)
{
	return r->verdict == RB_REJECT && (!strncmp(r->msg, "unknown opcode", 14) ||
					   strstr(r->msg, "BPF_LDX uses reserved fields") ||
					   strstr(r->msg, "bpf_ld_imm64 insn"));
}

/* every one of the 256 opcodes as { code, exit }: rejected for its
 * encoding by the engine exactly when by the kernel */
static void opcode_table_matches_kernel(void **state)
{
	(void)state;
	unsigned known = 0, differ = 0;
	bool have_kernel = true;
	for (unsigned c = 0; c < 256; c++) {
		struct bpf_insn p[2] = {I((uint8_t)c, 0, 0, 0, 0), EXIT()};
		struct rb_result res, kr;
		engine("old", p, 2, &res);
		bool e_static = static_msg(&res);
		known += !e_static;
		if (!have_kernel || !(have_kernel = kernel(p, 2, &kr)))
			continue;
		bool k_static = static_msg(&kr);
		if (e_static != k_static) {
			differ++;
			print_message("opcode %02x: engine %s '%s', kernel %s '%s'\n", c, rb_verdict_name(res.verdict),
				      res.msg, rb_verdict_name(kr.verdict), kr.msg);
		}
	}
	assert_true(known > 100);
	assert_int_equal(differ, 0);
	if (!have_kernel)
		print_message("note: bpf() not permitted here; the opcode table was not compared with the kernel\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dead_code),
		cmocka_unit_test(opcode_table_matches_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
