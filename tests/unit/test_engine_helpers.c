/* test_engine_helpers.c — helper argument and availability kinds of
 * Linux 6.18 beyond plain memory and scalars: strings in read-only map
 * values (bpf_strncmp, bpf_snprintf and its format), values written into
 * queue maps (bpf_map_pop_elem), helpers that might sleep, and the measured
 * helper sets of iterator and tp_btf programs. Each engine verdict is
 * checked against the expected one and, where bpf() is permitted, against
 * the running kernel's (message and instruction included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <bpf/btf.h>

#include "engine/engine.h"
#include "oracle/bpf_sys.h"
#include "oracle/kload.h"

#include "insn_macros.h"
#include "kernel_fixture.h"
#include "util/array_size.h"

/* a map value's address: ld_imm64 with BPF_PSEUDO_MAP_IDX_VALUE */
#define LD_MAP_VALUE(d, idx, off)                                                                                      \
	I(BPF_LD | BPF_IMM | BPF_DW, d, BPF_PSEUDO_MAP_IDX_VALUE, 0, idx), I(0, 0, 0, 0, off)

/* map 0 "ro": a frozen BPF_F_RDONLY_PROG array of one 32-byte value holding
 * "abc" at 0, "%d %d" at 4 and 16 bytes without a NUL at 16; map 1 "rw": the
 * same, writable; map 2: a queue of 8-byte values; map 3: a hash; map 4: a
 * sockmap */
#define NMAPS 5
static uint8_t ro_init[32];

struct fixture {
	struct rb_object obj;
	struct rb_prog prog;
	struct rb_map maps[NMAPS];
};

static void init_strings(void)
{
	memset(ro_init, 0, sizeof(ro_init));
	memcpy(ro_init, "abc", 4);
	memcpy(ro_init + 4, "%d %d", 6);
	memset(ro_init + 16, 'x', 16);
}

static void mkobj(struct fixture *f, uint32_t type, uint32_t flags, const struct bpf_insn *insns, size_t n)
{
	init_strings();
	memset(f, 0, sizeof(*f));
	snprintf(f->obj.path, sizeof(f->obj.path), "test");
	snprintf(f->prog.name, sizeof(f->prog.name), "prog");
	f->prog.prog_type = type;
	f->prog.prog_flags = flags;
	f->prog.insns = (struct bpf_insn *)insns;
	f->prog.insn_cnt = n;
	snprintf(f->prog.license, sizeof(f->prog.license), "GPL");
	f->maps[0] = (struct rb_map){.name = "ro", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 32,
				     .max_entries = 1, .map_flags = BPF_F_RDONLY_PROG, .frozen = true,
				     .global_data = true, .init = ro_init, .init_size = 32, .inner_map_idx = -1};
	f->maps[1] = (struct rb_map){.name = "rw", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 32,
				     .max_entries = 1, .inner_map_idx = -1};
	f->maps[2] = (struct rb_map){.name = "queue", .type = BPF_MAP_TYPE_QUEUE, .key_size = 0, .value_size = 8,
				     .max_entries = 4, .inner_map_idx = -1};
	f->maps[3] = (struct rb_map){.name = "hash", .type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8,
				     .max_entries = 16, .inner_map_idx = -1};
	f->maps[4] = (struct rb_map){.name = "sockmap", .type = BPF_MAP_TYPE_SOCKMAP, .key_size = 4, .value_size = 8,
				     .max_entries = 2, .inner_map_idx = -1};
	f->obj.maps = f->maps;
	f->obj.map_cnt = NMAPS;
	f->obj.progs = &f->prog;
	f->obj.prog_cnt = 1;
}

/* the same maps in the running kernel; false where bpf() is not permitted */
static bool kernel_verify(uint32_t type, uint32_t flags, const struct bpf_insn *p, size_t n, struct rb_result *kr)
{
	if (!fx_bpf_available())
		return false;
	init_strings();
	int fds[NMAPS];
	uint32_t zero = 0;
	fds[0] = rb_sys_map_create(BPF_MAP_TYPE_ARRAY, "ro", 4, 32, 1, BPF_F_RDONLY_PROG, -1, 0, 0, 0, -1, 0);
	assert_true(fds[0] >= 0);
	assert_int_equal(rb_sys_map_update(fds[0], &zero, ro_init, 0), 0);
	assert_int_equal(rb_sys_map_freeze(fds[0]), 0);
	fds[1] = rb_sys_map_create(BPF_MAP_TYPE_ARRAY, "rw", 4, 32, 1, 0, -1, 0, 0, 0, -1, 0);
	fds[2] = rb_sys_map_create(BPF_MAP_TYPE_QUEUE, "queue", 0, 8, 4, 0, -1, 0, 0, 0, -1, 0);
	fds[3] = rb_sys_map_create(BPF_MAP_TYPE_HASH, "hash", 4, 8, 16, 0, -1, 0, 0, 0, -1, 0);
	fds[4] = rb_sys_map_create(BPF_MAP_TYPE_SOCKMAP, "sockmap", 4, 8, 2, 0, -1, 0, 0, 0, -1, 0);
	assert_true(fds[1] >= 0 && fds[2] >= 0 && fds[3] >= 0 && fds[4] >= 0);
	struct rb_kload_args a = {.prog_type = type, .prog_flags = flags, .insns = p, .insn_cnt = n,
				  .prog_btf_fd = -1, .fd_array = fds, .log_level = 1 | 4};
	fx_kernel_result(&a, kr);
	for (int i = 0; i < NMAPS; i++)
		close(fds[i]);
	return true;
}

static void same(const char *who, const struct rb_result *r, enum rb_verdict v, int at, const char *msg)
{
	bool ok = r->verdict == v && (v != RB_REJECT || (r->err_insn == at && strstr(r->msg, msg)));
	if (!ok)
		print_error("%s: verdict %s insn %d msg '%s' (expected %s at %d: '%s')\n", who, rb_verdict_name(r->verdict),
			    r->err_insn, r->msg, rb_verdict_name(v), at, msg ? msg : "");
	assert_true(ok);
}

/* old and cnum give verdict v (a rejection at insn `at` naming msg), and
 * so does the running kernel where bpf() is permitted */
static void expect(uint32_t type, uint32_t flags, const struct bpf_insn *p, size_t n, enum rb_verdict v, int at,
		   const char *msg)
{
	static const char *const trackers[] = {"old", "cnum"};
	struct fixture f;
	mkobj(&f, type, flags, p, n);
	for (int i = 0; i < 2; i++) {
		const struct rb_tracker *t = rb_tracker_get(trackers[i], 64);
		assert_non_null(t);
		struct rb_engine_opts o = {0};
		struct rb_err err = {{0}};
		struct rb_result res;
		assert_int_equal(rb_engine_verify(&f.obj, 0, t, &o, &res, &err), 0);
		same(trackers[i], &res, v, at, msg);
	}
	struct rb_result kr;
	if (kernel_verify(type, flags, p, n, &kr))
		same("kernel", &kr, v, at, msg);
}

/* bpf_strncmp(buf, 8, string at map `map` offset `off`) from a socket filter */
static void strncmp_case(int map, int off, enum rb_verdict v, const char *msg)
{
	struct bpf_insn p[] = {
		ST(BPF_DW, 10, -8, 0),
		MOV_X(1, 10),
		ALU_K(BPF_ADD, 1, -8),
		MOV_K(2, 8),
		LD_MAP_VALUE(3, map, off),
		CALL(BPF_FUNC_strncmp),
		MOV_K(0, 0),
		EXIT(),
	};
	expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, p, ARRAY_SIZE(p), v, 6, msg);
}

static void test_const_str(void **state)
{
	(void)state;
	strncmp_case(0, 0, RB_ACCEPT, NULL);
	strncmp_case(0, 4, RB_ACCEPT, NULL);
	strncmp_case(1, 0, RB_REJECT, "R3 does not point to a readonly map'");
	strncmp_case(0, 16, RB_REJECT, "string is not zero-terminated");
	/* a variable offset into the string */
	struct bpf_insn var[] = {
		CALL(BPF_FUNC_get_prandom_u32),
		MOV_X(4, 0),
		ALU_K(BPF_AND, 4, 1),
		LD_MAP_VALUE(3, 0, 0),
		ALU_X(BPF_ADD, 3, 4),
		ST(BPF_DW, 10, -8, 0),
		MOV_X(1, 10),
		ALU_K(BPF_ADD, 1, -8),
		MOV_K(2, 8),
		CALL(BPF_FUNC_strncmp),
		MOV_K(0, 0),
		EXIT(),
	};
	expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, var, ARRAY_SIZE(var), RB_REJECT, 10,
	       "R3 is not a constant address'");
}

/* bpf_snprintf(buf, 8, "%d %d", data, data_len) */
static void snprintf_case(int data_len, enum rb_verdict v, const char *msg)
{
	struct bpf_insn p[] = {
		ST(BPF_DW, 10, -24, 1),
		ST(BPF_DW, 10, -16, 2),
		MOV_X(1, 10),
		ALU_K(BPF_ADD, 1, -8),
		MOV_K(2, 8),
		LD_MAP_VALUE(3, 0, 4),
		MOV_X(4, 10),
		ALU_K(BPF_ADD, 4, -24),
		MOV_K(5, data_len),
		CALL(BPF_FUNC_snprintf),
		MOV_K(0, 0),
		EXIT(),
	};
	expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, p, ARRAY_SIZE(p), v, 10, msg);
}

static void test_snprintf_format(void **state)
{
	(void)state;
	snprintf_case(16, RB_ACCEPT, NULL);
	snprintf_case(8, RB_REJECT, "Invalid format string"); /* two conversions, one argument */
}

/* bpf_map_pop_elem(map, fp-8): queue and stack maps only; the value is written */
static void test_map_pop(void **state)
{
	(void)state;
	for (int m = 2; m <= 3; m++) {
		struct bpf_insn p[] = {
			LD_MAP(1, m),
			MOV_X(2, 10),
			ALU_K(BPF_ADD, 2, -8),
			CALL(BPF_FUNC_map_pop_elem),
			LDX(BPF_DW, 0, 10, -8),
			MOV_K(0, 0),
			EXIT(),
		};
		expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, p, ARRAY_SIZE(p), m == 2 ? RB_ACCEPT : RB_REJECT, 4,
		       "cannot pass map_type 1 into func bpf_map_pop_elem#88");
	}
}

/* bpf_copy_from_user might sleep: sleepable (uprobe) kprobes only */
static void test_might_sleep(void **state)
{
	(void)state;
	struct bpf_insn p[] = {
		MOV_X(1, 10), ALU_K(BPF_ADD, 1, -8), MOV_K(2, 8), MOV_K(3, 0), CALL(BPF_FUNC_copy_from_user),
		MOV_K(0, 0),  EXIT(),
	};
	size_t n = ARRAY_SIZE(p);
	expect(BPF_PROG_TYPE_KPROBE, 0, p, n, RB_REJECT, 4, "helper call might sleep in a non-sleepable prog");
	expect(BPF_PROG_TYPE_KPROBE, BPF_F_SLEEPABLE, p, n, RB_ACCEPT, 0, NULL);
}

/* a tc program puts a socket from bpf_sk_lookup_tcp into a sockmap with
 * bpf_map_update_elem: the value argument is a socket (6.18
 * resolve_map_arg_type), a stack pointer is refused */
static void test_sockmap_update(void **state)
{
	(void)state;
	for (int bad = 0; bad <= 1; bad++) {
		struct bpf_insn p[] = {
			MOV_X(6, 1),
			ST(BPF_DW, 10, -16, 0),
			ST(BPF_DW, 10, -8, 0),
			MOV_X(1, 6),
			MOV_X(2, 10),
			ALU_K(BPF_ADD, 2, -16),
			MOV_K(3, 12),
			MOV_K(4, -1),
			MOV_K(5, 0),
			CALL(BPF_FUNC_sk_lookup_tcp),
			MOV_X(7, 0),
			JMP_K(BPF_JEQ, 7, 0, 10),
			ST(BPF_W, 10, -20, 0),
			LD_MAP(1, 4),
			MOV_X(2, 10),
			ALU_K(BPF_ADD, 2, -20),
			bad ? MOV_X(3, 10) : MOV_X(3, 7),
			MOV_K(4, 0),
			CALL(BPF_FUNC_map_update_elem),
			MOV_X(1, 7),
			CALL(BPF_FUNC_sk_release),
			MOV_K(0, 0),
			EXIT(),
		};
		expect(BPF_PROG_TYPE_SCHED_CLS, 0, p, ARRAY_SIZE(p), bad ? RB_REJECT : RB_ACCEPT, 19,
		       "R3 type=fp expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_");
	}
}

/* reads of struct bpf_array through an array's map pointer (6.18
 * check_ptr_to_map_access); writes and negative offsets are refused */
static void test_map_ptr_access(void **state)
{
	(void)state;
	struct bpf_insn rd[] = {LD_MAP(1, 1), LDX(BPF_DW, 2, 1, 0), MOV_K(0, 0), EXIT()};
	expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, rd, 5, RB_ACCEPT, 0, NULL);
	struct bpf_insn neg[] = {LD_MAP(1, 1), LDX(BPF_DW, 2, 1, -8), MOV_K(0, 0), EXIT()};
	expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, neg, 5, RB_REJECT, 2, "R1 is bpf_array invalid negative access: off=-8");
	struct bpf_insn wr[] = {LD_MAP(1, 1), MOV_K(2, 0), STX(BPF_DW, 1, 2, 8), MOV_K(0, 0), EXIT()};
	expect(BPF_PROG_TYPE_SOCKET_FILTER, 0, wr, 6, RB_REJECT, 3, "only read from bpf_array is supported");
}

static bool refused(const struct rb_result *r)
{
	return r->verdict == RB_REJECT && (strstr(r->msg, "cannot use helper") || strstr(r->msg, "unknown func"));
}

/* Every helper id from iterator (task, tcp) and tp_btf programs: the
 * engine refuses "cannot use helper" exactly where the kernel does (the
 * measured sets of engine/helper_sets.c). */
static void test_tracing_sets_vs_kernel(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why)) {
		print_message("bpf() not permitted (%s): skipped\n", why);
		skip();
	}
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	const struct btf *vm = rb_vmlinux_get(v);
	if (!vm) {
		rb_vmlinux_free(v);
		print_message("no vmlinux BTF: skipped\n");
		skip();
	}
	static const struct {
		uint32_t attach;
		const char *target;
		int kind;
	} cfgs[] = {
		{BPF_TRACE_ITER, "bpf_iter_task", BTF_KIND_FUNC},
		{BPF_TRACE_ITER, "bpf_iter_tcp", BTF_KIND_FUNC},
		{BPF_TRACE_RAW_TP, "btf_trace_sched_switch", BTF_KIND_TYPEDEF},
	};
	const struct rb_tracker *t = rb_tracker_get("old", 64);
	int total = 0, bad = 0, ref = 0;
	for (size_t c = 0; c < ARRAY_SIZE(cfgs); c++) {
		int id = btf__find_by_name_kind(vm, cfgs[c].target, cfgs[c].kind);
		assert_true(id > 0);
		for (int h = 1; h < 212; h++) {
			struct bpf_insn p[3] = {CALL(h), MOV_K(0, 0), EXIT()};
			struct fixture f;
			mkobj(&f, BPF_PROG_TYPE_TRACING, 0, p, 3);
			f.prog.expected_attach_type = cfgs[c].attach;
			f.prog.attach_btf_id = (uint32_t)id;
			struct rb_engine_opts o = {.vmlinux = v};
			struct rb_err err = {{0}};
			struct rb_result res, kr;
			assert_int_equal(rb_engine_verify(&f.obj, 0, t, &o, &res, &err), 0);
			struct rb_kload_args a = {.prog_type = BPF_PROG_TYPE_TRACING,
						  .expected_attach_type = cfgs[c].attach,
						  .attach_btf_id = (uint32_t)id, .insns = p, .insn_cnt = 3,
						  .prog_btf_fd = -1, .log_level = 1};
			fx_kernel_result(&a, &kr);
			total++;
			ref += refused(&kr);
			if (refused(&kr) == refused(&res))
				continue;
			print_error("%s helper %d: engine %s '%s', kernel %s '%s'\n", cfgs[c].target, h,
				    rb_verdict_name(res.verdict), res.msg, rb_verdict_name(kr.verdict), kr.msg);
			bad++;
		}
	}
	rb_vmlinux_free(v);
	print_message("%d helper calls, %d refused by the kernel, %d disagreements\n", total, ref, bad);
	assert_true(ref > 0);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_const_str),   cmocka_unit_test(test_snprintf_format),
		cmocka_unit_test(test_map_pop),     cmocka_unit_test(test_might_sleep),
		cmocka_unit_test(test_sockmap_update), cmocka_unit_test(test_map_ptr_access),
		cmocka_unit_test(test_tracing_sets_vs_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
