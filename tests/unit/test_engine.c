/* test_engine.c — the verifier engine on hand-made programs: one unsafe
 * program per check family (packet, map value, stack and ctx bounds,
 * unchecked null, division by zero, pointer leak, uninitialised register)
 * rejected by both trackers with the kernel's message and instruction;
 * safe programs accepted; and, where bpf() is permitted, the running
 * kernel's verdict, processed-instruction and state counts matched by the
 * old tracker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/map_compat.h"
#include "oracle/bpf_sys.h"
#include "oracle/kload.h"

#include "insn_macros.h"
#include "kernel_fixture.h"
#include "util/array_size.h"

/* map 0: array (key 4, value 8, 4 entries); map 1: hash (key 4, value 8) */
struct fixture {
	struct rb_object obj;
	struct rb_prog prog;
	struct rb_map maps[2];
};

static void mkobj(struct fixture *f, uint32_t type, const struct bpf_insn *insns, size_t n)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->obj.path, sizeof(f->obj.path), "test");
	snprintf(f->prog.name, sizeof(f->prog.name), "prog");
	f->prog.prog_type = type;
	f->prog.insns = (struct bpf_insn *)insns;
	f->prog.insn_cnt = n;
	snprintf(f->prog.license, sizeof(f->prog.license), "GPL");
	f->maps[0] = (struct rb_map){.name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
				     .max_entries = 4, .inner_map_idx = -1};
	f->maps[1] = (struct rb_map){.name = "hash", .type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8,
				     .max_entries = 16, .inner_map_idx = -1};
	f->obj.maps = f->maps;
	f->obj.map_cnt = 2;
	f->obj.progs = &f->prog;
	f->obj.prog_cnt = 1;
}

static void run(struct fixture *f, const char *tracker, struct rb_result *res, FILE *log)
{
	const struct rb_tracker *t = rb_tracker_get(tracker, 64);
	assert_non_null(t);
	struct rb_engine_opts o = {.log = log};
	struct rb_err err = {{0}};
	assert_int_equal(rb_engine_verify(&f->obj, 0, t, &o, res, &err), 0);
}

/* load into the running kernel (maps as in mkobj); false where bpf() is not permitted */
static bool kernel_verify(uint32_t type, const struct bpf_insn *p, size_t n, struct rb_result *kr)
{
	if (!fx_bpf_available())
		return false;
	int fds[2];
	fds[0] = rb_sys_map_create(BPF_MAP_TYPE_ARRAY, "arr", 4, 8, 4, 0, -1, 0, 0, 0, -1, 0);
	fds[1] = rb_sys_map_create(BPF_MAP_TYPE_HASH, "hash", 4, 8, 16, 0, -1, 0, 0, 0, -1, 0);
	assert_true(fds[0] >= 0 && fds[1] >= 0);
	struct rb_kload_args a = {.prog_type = type, .insns = p, .insn_cnt = n, .prog_btf_fd = -1, .fd_array = fds,
				  .log_level = 1 | 4};
	fx_kernel_result(&a, kr);
	close(fds[0]);
	close(fds[1]);
	return true;
}

/* the running kernel (where bpf() is permitted) rejects it the same way */
static void kernel_rejects(uint32_t type, const struct bpf_insn *p, size_t n, int at, const char *msg)
{
	struct rb_result kr;
	if (!kernel_verify(type, p, n, &kr))
		return;
	if (kr.verdict != RB_REJECT || kr.err_insn != at || !strstr(kr.msg, msg))
		print_error("kernel: verdict %s insn %d msg '%s' (expected reject at %d: '%s')\n",
			    rb_verdict_name(kr.verdict), kr.err_insn, kr.msg, at, msg);
	assert_int_equal(kr.verdict, RB_REJECT);
	assert_int_equal(kr.err_insn, at);
	assert_non_null(strstr(kr.msg, msg));
}

/* both trackers reject at insn `at` with a message containing `msg`, as
 * the kernel does */
static void expect_reject(uint32_t type, const struct bpf_insn *p, size_t n, int at, const char *msg)
{
	static const char *const trackers[] = {"old", "cnum"};
	struct fixture f;
	mkobj(&f, type, p, n);
	for (int i = 0; i < 2; i++) {
		struct rb_result res;
		run(&f, trackers[i], &res, NULL);
		if (res.verdict != RB_REJECT || res.err_insn != at || !strstr(res.msg, msg))
			print_error("%s: verdict %s insn %d msg '%s' (expected reject at %d: '%s')\n", trackers[i],
				    rb_verdict_name(res.verdict), res.err_insn, res.msg, at, msg);
		assert_int_equal(res.verdict, RB_REJECT);
		assert_int_equal(res.err_insn, at);
		assert_non_null(strstr(res.msg, msg));
	}
	kernel_rejects(type, p, n, at, msg);
}

static void expect_accept(uint32_t type, const struct bpf_insn *p, size_t n)
{
	static const char *const trackers[] = {"old", "cnum"};
	struct fixture f;
	mkobj(&f, type, p, n);
	for (int i = 0; i < 2; i++) {
		struct rb_result res;
		run(&f, trackers[i], &res, NULL);
		if (res.verdict != RB_ACCEPT)
			print_error("%s: %s at %d: %s\n", trackers[i], rb_verdict_name(res.verdict), res.err_insn, res.msg);
		assert_int_equal(res.verdict, RB_ACCEPT);
		assert_true(res.insns_processed > 0);
		struct rb_result kr;
		if (i == 0 && kernel_verify(type, p, n, &kr)) {
			/* the kernel accepts too, after the same number of instructions */
			assert_int_equal(kr.verdict, RB_ACCEPT);
			assert_int_equal(kr.insns_processed, res.insns_processed);
		}
	}
}

/* xdp: r2 = data, r3 = data_end, r1 = r2 + 14, if r1 > r3 exit, load at +off */
#define PKT_PROG(loadoff)                                                                                         \
	{                                                                                                             \
		LDX(BPF_W, 2, 1, 0), LDX(BPF_W, 3, 1, 4), MOV_X(1, 2), ALU_K(BPF_ADD, 1, 14),                        \
		    JMP_X(BPF_JGT, 1, 3, 1), LDX(BPF_B, 0, 2, loadoff), MOV_K(0, 2), EXIT()                           \
	}

static void test_packet_bounds(void **state)
{
	(void)state;
	static const struct bpf_insn bad[] = PKT_PROG(14);
	static const struct bpf_insn good[] = PKT_PROG(13);
	expect_reject(BPF_PROG_TYPE_XDP, bad, 8, 5, "R2 offset is outside of the packet");
	expect_accept(BPF_PROG_TYPE_XDP, good, 8);
	/* no comparison with data_end at all */
	static const struct bpf_insn unchecked[] = {LDX(BPF_W, 2, 1, 0), LDX(BPF_B, 0, 2, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_XDP, unchecked, 3, 1, "offset is outside of the packet");
}

/* *(u32 *)(fp-4) = 0; r2 = fp-4; lookup(map, r2); if r0 == 0 exit; r0 = *(r0 + off) */
#define MAP_PROG(map, sz, off)                                                                                   \
	{                                                                                                        \
		ST(BPF_W, 10, -4, 0), MOV_X(2, 10), ALU_K(BPF_ADD, 2, -4), LD_MAP(1, map), CALL(BPF_FUNC_map_lookup_elem), \
		    JMP_K(BPF_JEQ, 0, 0, 1), LDX(sz, 0, 0, off), MOV_K(0, 0), EXIT()                          \
	}

static void test_map_value_bounds(void **state)
{
	(void)state;
	static const struct bpf_insn bad[] = MAP_PROG(1, BPF_DW, 8);
	static const struct bpf_insn bad2[] = MAP_PROG(1, BPF_W, 6);
	static const struct bpf_insn good[] = MAP_PROG(1, BPF_W, 4);
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, bad, 10, 7, "R0 min value is outside of the allowed memory range");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, bad2, 10, 7, "outside of the allowed memory range");
	expect_accept(BPF_PROG_TYPE_SOCKET_FILTER, good, 10);
	/* a variable index that was never bounded */
	static const struct bpf_insn var[] = {
		ST(BPF_W, 10, -4, 0), MOV_X(2, 10), ALU_K(BPF_ADD, 2, -4), LD_MAP(1, 1),
		CALL(BPF_FUNC_map_lookup_elem), JMP_K(BPF_JEQ, 0, 0, 5), MOV_X(6, 0), CALL(BPF_FUNC_get_prandom_u32),
		ALU_K(BPF_RSH, 0, 1), ALU_X(BPF_ADD, 6, 0), LDX(BPF_B, 0, 6, 0), MOV_K(0, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, var, 14, 11, "R6 unbounded memory access");
	/* an unknown 64-bit scalar added to a map value pointer */
	static const struct bpf_insn var2[] = {
		ST(BPF_W, 10, -4, 0), MOV_X(2, 10), ALU_K(BPF_ADD, 2, -4), LD_MAP(1, 1),
		CALL(BPF_FUNC_map_lookup_elem), JMP_K(BPF_JEQ, 0, 0, 4), MOV_X(6, 0), CALL(BPF_FUNC_get_prandom_u32),
		ALU_X(BPF_ADD, 6, 0), LDX(BPF_B, 0, 6, 0), MOV_K(0, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, var2, 13, 9, "with unbounded min value is not allowed");
}

static void test_stack_bounds(void **state)
{
	(void)state;
	static const struct bpf_insn below[] = {ST(BPF_DW, 10, -520, 0), MOV_K(0, 0), EXIT()};
	static const struct bpf_insn above[] = {ST(BPF_W, 10, 0, 0), MOV_K(0, 0), EXIT()};
	static const struct bpf_insn read_fp[] = {LDX(BPF_DW, 0, 10, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, below, 3, 0, "invalid write to stack R10 off=-520 size=8");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, above, 3, 0, "invalid write to stack R10 off=0 size=4");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, read_fp, 2, 0, "invalid read from stack R10 off=0 size=8");
	static const struct bpf_insn ok[] = {ST(BPF_DW, 10, -512, 7), LDX(BPF_DW, 0, 10, -512), EXIT()};
	expect_accept(BPF_PROG_TYPE_SOCKET_FILTER, ok, 3);
}

static void test_ctx_bounds(void **state)
{
	(void)state;
	static const struct bpf_insn skb[] = {LDX(BPF_W, 0, 1, 200), EXIT()};
	static const struct bpf_insn xdp_write[] = {ST(BPF_W, 1, 0, 0), MOV_K(0, 2), EXIT()};
	static const struct bpf_insn modified[] = {ALU_K(BPF_ADD, 1, 4), LDX(BPF_W, 0, 1, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, skb, 2, 0, "invalid bpf_context access off=200 size=4");
	expect_reject(BPF_PROG_TYPE_XDP, xdp_write, 3, 0, "invalid bpf_context access off=0 size=4");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, modified, 3, 1, "dereference of modified ctx ptr R1 off=4 disallowed");
	static const struct bpf_insn len[] = {LDX(BPF_W, 0, 1, 0), EXIT()};
	expect_accept(BPF_PROG_TYPE_SOCKET_FILTER, len, 2);
}

static void test_null_check(void **state)
{
	(void)state;
	/* hash lookups may fail: the result must be checked */
	static const struct bpf_insn p[] = {ST(BPF_W, 10, -4, 0), MOV_X(2, 10), ALU_K(BPF_ADD, 2, -4), LD_MAP(1, 1),
					    CALL(BPF_FUNC_map_lookup_elem), LDX(BPF_DW, 0, 0, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, p, 8, 6, "R0 invalid mem access 'map_value_or_null'");
	/* arithmetic before the check is refused too */
	static const struct bpf_insn q[] = {ST(BPF_W, 10, -4, 0), MOV_X(2, 10), ALU_K(BPF_ADD, 2, -4), LD_MAP(1, 1),
					    CALL(BPF_FUNC_map_lookup_elem), ALU_K(BPF_ADD, 0, 4), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, q, 8, 6, "null-check it first");
}

static void test_division(void **state)
{
	(void)state;
	static const struct bpf_insn imm0[] = {MOV_K(0, 5), ALU_K(BPF_DIV, 0, 0), EXIT()};
	static const struct bpf_insn mod0[] = {MOV_K(0, 5), I(BPF_ALU | BPF_MOD | BPF_K, 0, 0, 0, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, imm0, 3, 1, "div by zero");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, mod0, 3, 1, "div by zero");
	/* a register that may be zero is accepted (runtime semantics: x/0 == 0) */
	static const struct bpf_insn reg[] = {CALL(BPF_FUNC_get_prandom_u32), MOV_X(1, 0), MOV_K(0, 5),
					      ALU_X(BPF_DIV, 0, 1), EXIT()};
	expect_accept(BPF_PROG_TYPE_SOCKET_FILTER, reg, 5);
}

static void test_pointer_leak_and_uninit(void **state)
{
	(void)state;
	/* cgroup_skb must return a known scalar in [0, 1] */
	static const struct bpf_insn leak[] = {MOV_X(0, 1), EXIT()};
	expect_reject(BPF_PROG_TYPE_CGROUP_SKB, leak, 2, 1, "At program exit the register R0 is not a known value (ctx)");
	static const struct bpf_insn range[] = {MOV_K(0, 2), EXIT()};
	expect_reject(BPF_PROG_TYPE_CGROUP_SKB, range, 2, 1, "should have been in [0, 1]");
	static const struct bpf_insn uninit[] = {MOV_X(0, 2), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, uninit, 2, 0, "R2 !read_ok");
	static const struct bpf_insn noret[] = {EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, noret, 1, 0, "R0 !read_ok");
}

static void test_unsupported_feature(void **state)
{
	(void)state;
	/* a kfunc of a module's BTF (off: its fd_array index) is not modelled:
	 * unsupported, never accept or reject */
	static const struct bpf_insn p[] = {I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 1, 1234), MOV_K(0, 0), EXIT()};
	struct fixture f;
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, p, 3);
	struct rb_result res;
	run(&f, "old", &res, NULL);
	assert_int_equal(res.verdict, RB_UNSUPPORTED);
	assert_int_equal(res.err_insn, 0);
	assert_non_null(strstr(res.msg, "kfunc"));
}

/* ---- agreement with the running kernel ---- */

struct kcase {
	const char *name;
	uint32_t type;
	const struct bpf_insn *p;
	size_t n;
};

/* a bounded loop, branches on a helper result, spills and a map lookup */
/* found by execcheck: 6.18.44's sync_linked_regs skips a register linked by
 * a 64-bit add when the known register was linked by a 32-bit one (and the
 * reverse), and zero-extends when either link is 32-bit. The engine synced
 * mixed links through a 32-bit add: old and cnum accepted both programs,
 * whose reads are really out of bounds; the kernel rejects both with these
 * messages (kdiff: logs agree line for line). */
static void test_mixed_width_links(void **state)
{
	(void)state;
	static const struct bpf_insn zext_target[] = {
		I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32),
		I(BPF_ALU64 | BPF_MOV | BPF_X, 5, 0, 0, 0),
		I(BPF_ALU64 | BPF_AND | BPF_K, 5, 0, 0, 7),
		I(BPF_ALU64 | BPF_MOV | BPF_X, 4, 5, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, -7), /* 64-bit link: r4 = r5 - 7 < 0 */
		I(BPF_ALU | BPF_ADD | BPF_K, 5, 0, 0, 0),    /* 32-bit link */
		I(BPF_JMP32 | BPF_JEQ | BPF_K, 5, 0, 5, 0),
		I(BPF_ALU64 | BPF_RSH | BPF_K, 4, 0, 0, 32), /* really 0xffffffff */
		I(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 1, 4, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_B, 0, 1, 0, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static const struct bpf_insn wrap_link[] = {
		I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32),
		I(BPF_ALU | BPF_MOV | BPF_X, 3, 0, 0, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_X, 4, 3, 0, 0),
		I(BPF_ALU | BPF_ADD | BPF_K, 4, 0, 0, -4),   /* r4 = (u32)(r3 - 4) */
		I(BPF_JMP32 | BPF_JLT | BPF_K, 4, 0, 8, -4), /* falls through: r3 in [0, 3] */
		I(BPF_ALU64 | BPF_RSH | BPF_K, 3, 0, 0, 32), /* really 0 */
		I(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 1),
		I(BPF_ALU64 | BPF_SUB | BPF_X, 2, 3, 0, 0),
		I(BPF_ALU64 | BPF_LSH | BPF_K, 2, 0, 0, 4),  /* really 16 */
		I(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 0, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, zext_target, ARRAY_SIZE(zext_target), 11,
		      "invalid unbounded variable-offset read from stack R1");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, wrap_link, ARRAY_SIZE(wrap_link), 12,
		      "invalid read from stack R1 off=8 size=8");
}

static const struct bpf_insn loop_prog[] = {
	MOV_K(1, 0), MOV_K(0, 0), ALU_X(BPF_ADD, 0, 1), ALU_K(BPF_ADD, 1, 1), JMP_K(BPF_JLT, 1, 10, -3), EXIT()};
static const struct bpf_insn branchy[] = {
	CALL(BPF_FUNC_get_prandom_u32), MOV_X(6, 0), STX(BPF_DW, 10, 6, -8), ALU_K(BPF_AND, 6, 7),
	JMP_K(BPF_JGT, 6, 3, 2), MOV_K(7, 1), I(BPF_JMP | BPF_JA, 0, 0, 1, 0), MOV_K(7, 2),
	LDX(BPF_DW, 8, 10, -8), JMP_K(BPF_JEQ, 8, 5, 1), MOV_K(7, 3), MOV_X(0, 7), EXIT()};
static const struct bpf_insn maps_prog[] = MAP_PROG(0, BPF_W, 4);
/* a BPF-to-BPF call whose callee branches on its argument */
static const struct bpf_insn call_prog[] = {
	CALL(BPF_FUNC_get_prandom_u32), MOV_X(1, 0), I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 2),
	ALU_K(BPF_ADD, 0, 1), EXIT(),
	/* subprogram */
	MOV_K(0, 0), JMP_K(BPF_JGT, 1, 100, 1), MOV_K(0, 7), EXIT()};
static const struct bpf_insn pkt_prog[] = PKT_PROG(13);

static void test_kernel_agreement(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why)) {
		print_message("skipping: %s\n", why);
		skip();
	}
	const struct kcase cases[] = {
		{"loop", BPF_PROG_TYPE_SOCKET_FILTER, loop_prog, ARRAY_SIZE(loop_prog)},
		{"branchy", BPF_PROG_TYPE_SOCKET_FILTER, branchy, ARRAY_SIZE(branchy)},
		{"maps", BPF_PROG_TYPE_SOCKET_FILTER, maps_prog, ARRAY_SIZE(maps_prog)},
		{"pkt", BPF_PROG_TYPE_XDP, pkt_prog, ARRAY_SIZE(pkt_prog)},
		{"call", BPF_PROG_TYPE_SOCKET_FILTER, call_prog, ARRAY_SIZE(call_prog)},
	};
	int fds[2];
	fds[0] = rb_sys_map_create(BPF_MAP_TYPE_ARRAY, "arr", 4, 8, 4, 0, -1, 0, 0, 0, -1, 0);
	fds[1] = rb_sys_map_create(BPF_MAP_TYPE_HASH, "hash", 4, 8, 16, 0, -1, 0, 0, 0, -1, 0);
	assert_true(fds[0] >= 0 && fds[1] >= 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rb_kload_args a = {.prog_type = cases[i].type, .insns = cases[i].p, .insn_cnt = cases[i].n,
					  .prog_btf_fd = -1, .fd_array = fds, .log_level = 1 | 4};
		struct rb_result kr, er;
		fx_kernel_result(&a, &kr);
		struct fixture f;
		mkobj(&f, cases[i].type, cases[i].p, cases[i].n);
		run(&f, "old", &er, NULL);
		if (kr.verdict != er.verdict || kr.insns_processed != er.insns_processed ||
		    kr.total_states != er.total_states || kr.peak_states != er.peak_states)
			print_error("%s: kernel %s %llu insns %llu states %llu peak; old %s %llu %llu %llu (%s)\n",
				    cases[i].name, rb_verdict_name(kr.verdict), (unsigned long long)kr.insns_processed,
				    (unsigned long long)kr.total_states, (unsigned long long)kr.peak_states,
				    rb_verdict_name(er.verdict), (unsigned long long)er.insns_processed,
				    (unsigned long long)er.total_states, (unsigned long long)er.peak_states, er.msg);
		if (kr.verdict != RB_ACCEPT)
			print_error("%s: kernel %s: %s\n", cases[i].name, rb_verdict_name(kr.verdict), kr.msg);
		assert_int_equal(kr.verdict, RB_ACCEPT);
		assert_int_equal(er.verdict, kr.verdict);
		assert_int_equal(er.insns_processed, kr.insns_processed);
		assert_int_equal(er.total_states, kr.total_states);
		assert_int_equal(er.peak_states, kr.peak_states);
	}
	close(fds[0]);
	close(fds[1]);
}

/* A jump cnum proves impossible (w6 != K already known: a wrapped range
 * excludes one value) is dropped after being pushed; the memory accounting
 * must then be as if it had never been pushed: same peak and total states
 * as the program with that jump replaced by a no-op. Old cannot prove it,
 * so both of its versions push a branch. */
static void test_impossible_branch_mem(void **state)
{
	(void)state;
	const uint32_t K = 0xfecaefbe;
	const struct bpf_insn jump[] = {
		LDX(BPF_W, 6, 1, 0),
		MOV_K(0, 1),
		I(BPF_JMP32 | BPF_JEQ | BPF_K, 6, 0, 1, (int32_t)K),
		MOV_K(0, 0),
		I(BPF_JMP32 | BPF_JEQ | BPF_K, 6, 0, 1, (int32_t)K), /* impossible on the fall-through path of 2 */
		MOV_K(0, 0),
		EXIT(),
	};
	struct bpf_insn nojump[7];
	memcpy(nojump, jump, sizeof(jump));
	nojump[4] = MOV_K(0, 0);
	struct fixture f;
	struct rb_result a, b;
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, jump, 7);
	run(&f, "cnum", &a, NULL);
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, nojump, 7);
	run(&f, "cnum", &b, NULL);
	assert_int_equal(a.verdict, RB_ACCEPT);
	assert_int_equal(b.verdict, RB_ACCEPT);
	assert_true(a.peak_state_mem > 0);
	assert_int_equal(a.peak_state_mem, b.peak_state_mem);
	assert_int_equal(a.total_states, b.total_states);
	/* old keeps the branch: one more path, more memory at the peak */
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, jump, 7);
	run(&f, "old", &a, NULL);
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, nojump, 7);
	run(&f, "old", &b, NULL);
	assert_true(a.peak_state_mem > b.peak_state_mem);
}

static void test_log_format(void **state)
{
	(void)state;
	static const struct bpf_insn p[] = {MOV_K(0, 0), LDX(BPF_W, 1, 1, 0), JMP_K(BPF_JGT, 1, 8, 1), MOV_K(0, 1),
					    EXIT()};
	struct fixture f;
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, p, 5);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct rb_result res;
	run(&f, "old", &res, m);
	fclose(m);
	/* the running kernel's level-2 log of this program, line for line */
	static const char *const want[] = {
		"0: R1=ctx() R10=fp0\n0: (b7) r0 = 0                        ; R0=0\n",
		"1: (61) r1 = *(u32 *)(r1 +0)          ; R1=scalar(smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff))\n",
		"2: (25) if r1 > 0x8 goto pc+1         ; R1=scalar(smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf))\n",
		"4: (95) exit\n\nfrom 2 to 4: R0=0 R1=scalar(smin=umin=umin32=9,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff)) R10=fp0\n"
		"4: R0=0 R1=scalar(smin=umin=umin32=9,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff)) R10=fp0\n4: (95) exit\n",
		"processed 6 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n",
	};
	int missing = -1;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (!strstr(buf, want[i]) && missing < 0)
			missing = (int)i;
	if (missing >= 0)
		print_error("log:\n%s\nmissing:\n%s", buf, want[missing]);
	free(buf);
	assert_int_equal(res.verdict, RB_ACCEPT);
	assert_int_equal(missing, -1);
}

/* which maps a helper may take (engine/map_compat.c, 6.18
 * check_map_func_compatibility): both directions of the rule, and a
 * ringbuf helper given a hash map rejected as the kernel does */
static void test_map_helper_compat(void **state)
{
	(void)state;
	assert_true(rb_map_helper_compatible(BPF_MAP_TYPE_PROG_ARRAY, BPF_FUNC_tail_call));
	assert_false(rb_map_helper_compatible(BPF_MAP_TYPE_HASH, BPF_FUNC_tail_call));
	assert_false(rb_map_helper_compatible(BPF_MAP_TYPE_PROG_ARRAY, BPF_FUNC_map_lookup_elem));
	assert_true(rb_map_helper_compatible(BPF_MAP_TYPE_HASH, BPF_FUNC_map_lookup_elem));
	assert_true(rb_map_helper_compatible(BPF_MAP_TYPE_SOCKMAP, BPF_FUNC_map_lookup_elem));
	assert_false(rb_map_helper_compatible(BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, BPF_FUNC_map_lookup_elem));
	assert_true(rb_map_helper_compatible(BPF_MAP_TYPE_DEVMAP, BPF_FUNC_map_update_elem));
	assert_false(rb_map_helper_compatible(BPF_MAP_TYPE_XSKMAP, BPF_FUNC_map_update_elem));
	assert_true(rb_map_helper_compatible(BPF_MAP_TYPE_XSKMAP, BPF_FUNC_redirect_map));
	assert_false(rb_map_helper_compatible(BPF_MAP_TYPE_ARRAY, BPF_FUNC_redirect_map));
	assert_true(rb_map_helper_compatible(BPF_MAP_TYPE_SOCKHASH, BPF_FUNC_sk_select_reuseport));
	assert_false(rb_map_helper_compatible(BPF_MAP_TYPE_SOCKHASH, BPF_FUNC_sock_map_update));
	assert_true(rb_helper_takes_sock_map(BPF_FUNC_msg_redirect_hash));
	assert_false(rb_helper_takes_sock_map(BPF_FUNC_redirect_map));
	/* ringbuf_output(hash map, fp-8, 8, 0): 6.18 check_map_func_compatibility */
	static const struct bpf_insn ringbuf_hash[] = {ST(BPF_DW, 10, -8, 0), LD_MAP(1, 1), MOV_X(2, 10),
						       ALU_K(BPF_ADD, 2, -8), MOV_K(3, 8), MOV_K(4, 0),
						       CALL(BPF_FUNC_ringbuf_output), MOV_K(0, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, ringbuf_hash, 10, 7,
		      "cannot pass map_type 1 into func bpf_ringbuf_output#130");
}

/* local dynptrs (dynptr.c, Linux 6.18 process_dynptr_func): built over a
 * map value and read through bpf_dynptr_read; a write into its stack slots
 * destroys it, a read of its bytes and a dynptr over the stack are refused */
#define DYNPTR_PROG(extra)                                                                                        \
	{                                                                                                             \
		ST(BPF_W, 10, -4, 0), MOV_X(2, 10), ALU_K(BPF_ADD, 2, -4), LD_MAP(1, 0),                               \
		    CALL(BPF_FUNC_map_lookup_elem), JMP_K(BPF_JNE, 0, 0, 2), MOV_K(0, 0), EXIT(), MOV_X(1, 0),        \
		    MOV_K(2, 8), MOV_K(3, 0), MOV_X(4, 10), ALU_K(BPF_ADD, 4, -16), CALL(BPF_FUNC_dynptr_from_mem),   \
		    extra, MOV_X(1, 10), ALU_K(BPF_ADD, 1, -24), MOV_K(2, 8), MOV_X(3, 10), ALU_K(BPF_ADD, 3, -16),   \
		    MOV_K(4, 0), MOV_K(5, 0), CALL(BPF_FUNC_dynptr_read), MOV_K(0, 0), EXIT()                          \
	}

static void test_local_dynptr(void **state)
{
	(void)state;
	static const struct bpf_insn ok[] = DYNPTR_PROG(MOV_K(6, 0));
	static const struct bpf_insn overwritten[] = DYNPTR_PROG(ST(BPF_W, 10, -4, 0));
	static const struct bpf_insn read_bytes[] = DYNPTR_PROG(LDX(BPF_DW, 6, 10, -16));
	static const struct bpf_insn over_stack[] = {MOV_X(1, 10), ALU_K(BPF_ADD, 1, -32), MOV_K(2, 8), MOV_K(3, 0),
						     MOV_X(4, 10), ALU_K(BPF_ADD, 4, -16), CALL(BPF_FUNC_dynptr_from_mem),
						     MOV_K(0, 0), EXIT()};
	expect_accept(BPF_PROG_TYPE_SOCKET_FILTER, ok, 26);
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, overwritten, 26, 23, "Expected an initialized dynptr as arg #2");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, read_bytes, 26, 15, "invalid read from stack off -16+0 size 8");
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, over_stack, 9, 6,
		      "Unsupported reg type fp for bpf_dynptr_from_mem data");
}

/* bpf_this_cpu_ptr takes a per-CPU BTF pointer (ARG_PTR_TO_PERCPU_BTF_ID) */
static void test_this_cpu_ptr_arg(void **state)
{
	(void)state;
	static const struct bpf_insn scalar[] = {MOV_K(1, 0), CALL(BPF_FUNC_this_cpu_ptr), MOV_K(0, 0), EXIT()};
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, scalar, 4, 1,
		      "R1 type=scalar expected=percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_");
}

/* pruning stays sound with every registry tracker: a branch outcome a
 * tracker's refinement proves impossible (empty) is a decided branch, so
 * the compared registers are marked precise as for one is_branch_taken
 * decides (6.18 check_cond_jmp_op); else a later path without that
 * knowledge is pruned against a checkpoint whose continuation never
 * explored the outcome. */
#define JMP32_K(op, d, i, o) I(BPF_JMP32 | (op) | BPF_K, d, 0, o, i)
#define JA(o) I(BPF_JMP | BPF_JA, 0, 0, o, 0)

/* Path A (explored first) learns "w8 != 5" at 6 (a wrapped 32-bit arc
 * holds it, old's ranges cannot) and reaches 13, where "if w8 != 5"'s
 * fall-through is empty for cnum and arc2: dead. Path B (r7 == 0) reaches
 * 13 with w8 unknown; pruned against path A's checkpoint unless R8 was
 * marked precise, it would never reach the scalar dereference at 14. */
static const struct bpf_insn w8_ne_5[] = {
	CALL(BPF_FUNC_get_prandom_u32),                  /* 0 */
	MOV_X(8, 0),                    /* 1 */
	CALL(BPF_FUNC_get_prandom_u32),                  /* 2 */
	MOV_X(7, 0),                    /* 3 */
	MOV_K(1, 0),                    /* 4 */
	JMP_K(BPF_JEQ, 7, 0, 6),        /* 5: path B -> 12 */
	JMP32_K(BPF_JEQ, 8, 5, 10),     /* 6: w8 == 5 -> 17 */
	MOV_K(1, 1),                    /* 7 */
	MOV_K(2, 2),                    /* 8 */
	MOV_K(3, 3),                    /* 9 */
	MOV_K(4, 4),                    /* 10 */
	JA(1),                          /* 11 -> 13 */
	MOV_K(1, 2),                    /* 12 */
	JMP32_K(BPF_JNE, 8, 5, 3),      /* 13: -> 17 */
	LDX(BPF_DW, 0, 8, 0),           /* 14: r8 is a scalar */
	MOV_K(0, 0),                    /* 15 */
	EXIT(),                         /* 16 */
	MOV_K(0, 0),                    /* 17 */
	EXIT(),                         /* 18 */
};

static void test_dead_outcome_precise(void **state)
{
	(void)state;
	struct fixture f;
	size_t n = ARRAY_SIZE(w8_ne_5);
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, w8_ne_5, n);
	for (const struct rb_tracker *const *t = rb_trackers(64); *t; t++) {
		struct rb_result res;
		struct rb_engine_opts o = {0};
		struct rb_err err = {{0}};
		assert_int_equal(rb_engine_verify(&f.obj, 0, *t, &o, &res, &err), 0);
		if (res.verdict != RB_REJECT || res.err_insn != 14)
			print_error("%s: %s at %d: %s\n", (*t)->name, rb_verdict_name(res.verdict), res.err_insn,
				    res.msg);
		assert_int_equal(res.verdict, RB_REJECT);
		assert_int_equal(res.err_insn, 14);
	}
	kernel_rejects(BPF_PROG_TYPE_SOCKET_FILTER, w8_ne_5, n, 14, "R8 invalid mem access 'scalar'");
}

/* "if r6 s< r6" never jumps. Linux 7.2.13 decides it in
 * is_scalar_branch_taken() (reg1 == reg2), so cnum-mainline never walks
 * into the scalar dereference behind it and accepts after 5 insns; 6.18
 * (old, cnum, and the running kernel) refines r6 as both operands, finds
 * the outcome possible and rejects there. */
static const struct bpf_insn self_slt[] = {
	CALL(BPF_FUNC_get_prandom_u32), /* 0 */
	MOV_X(6, 0),                    /* 1 */
	JMP_X(BPF_JSLT, 6, 6, 2),       /* 2: -> 5 */
	MOV_K(0, 0),                    /* 3 */
	EXIT(),                         /* 4 */
	LDX(BPF_DW, 0, 6, 0),           /* 5: r6 is a scalar */
	EXIT(),                         /* 6 */
};

static void test_same_register_jump(void **state)
{
	(void)state;
	struct fixture f;
	size_t n = ARRAY_SIZE(self_slt);
	mkobj(&f, BPF_PROG_TYPE_SOCKET_FILTER, self_slt, n);
	struct rb_result res;
	run(&f, "cnum-mainline", &res, NULL);
	if (res.verdict != RB_ACCEPT)
		print_error("cnum-mainline: %s at %d: %s\n", rb_verdict_name(res.verdict), res.err_insn, res.msg);
	assert_int_equal(res.verdict, RB_ACCEPT);
	assert_int_equal(res.insns_processed, 5);
	expect_reject(BPF_PROG_TYPE_SOCKET_FILTER, self_slt, n, 5, "R6 invalid mem access 'scalar'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packet_bounds),  cmocka_unit_test(test_map_value_bounds),
		cmocka_unit_test(test_stack_bounds),   cmocka_unit_test(test_ctx_bounds),
		cmocka_unit_test(test_null_check),     cmocka_unit_test(test_division),
		cmocka_unit_test(test_pointer_leak_and_uninit), cmocka_unit_test(test_unsupported_feature),
		cmocka_unit_test(test_kernel_agreement), cmocka_unit_test(test_log_format),
		cmocka_unit_test(test_mixed_width_links),
		cmocka_unit_test(test_impossible_branch_mem),
		cmocka_unit_test(test_map_helper_compat),
		cmocka_unit_test(test_local_dynptr), cmocka_unit_test(test_this_cpu_ptr_arg),
		cmocka_unit_test(test_dead_outcome_precise),
		cmocka_unit_test(test_same_register_jump),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
