/* test_kfuncs.c — the kfunc table and the kfunc call check on hand-made
 * programs: the table is in name order and every row is a kfunc of the
 * running kernel's BTF; a call left unresolved (imm 0) changes nothing and
 * is rejected after verification when reachable, a BTF id that is not a
 * function before it; and, where bpf() is permitted, the table's measured
 * availability equals what the running kernel answers to a call-only
 * probe program per kfunc and program type (the measurement that made
 * the table, repeated). */
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
#include "engine/kfunc_table.h"
#include "engine/kfunc_table72.h"
#include "engine/profile.h"
#include "engine/struct_ops.h"
#include "engine/struct_ops_scx.h"
#include "engine/vmlinux.h"
#include "oracle/bpf_sys.h"
#include "oracle/kload.h"

#include "insn_macros.h"
#include "util/array_size.h"

#define KCALL(id) I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)

struct fixture {
	struct rb_object obj;
	struct rb_prog prog;
};

static void verify(uint32_t type, const struct bpf_insn *insns, size_t n, struct rb_result *res)
{
	struct fixture f;
	memset(&f, 0, sizeof(f));
	snprintf(f.obj.path, sizeof(f.obj.path), "test");
	snprintf(f.prog.name, sizeof(f.prog.name), "prog");
	f.prog.prog_type = type;
	f.prog.insns = (struct bpf_insn *)insns;
	f.prog.insn_cnt = n;
	snprintf(f.prog.license, sizeof(f.prog.license), "GPL");
	f.obj.progs = &f.prog;
	f.obj.prog_cnt = 1;
	const struct rb_tracker *t = rb_tracker_get("old", 64);
	assert_non_null(t);
	struct rb_engine_opts o = {0};
	struct rb_err err = {{0}};
	assert_int_equal(rb_engine_verify(&f.obj, 0, t, &o, res, &err), 0);
}

static void test_table_order(void **state)
{
	(void)state;
	int n;
	const struct rb_kfunc *rows = rb_kfunc_rows(&n);
	assert_true(n > 100);
	for (int i = 1; i < n; i++)
		assert_true(strcmp(rows[i - 1].name, rows[i].name) < 0);
	assert_non_null(rb_kfunc_row("bpf_skb_ct_lookup"));
	assert_null(rb_kfunc_row("rb_no_such_kfunc"));
	const struct rb_kfunc *r = rb_kfunc_row("bpf_ct_insert_entry");
	assert_non_null(r);
	assert_true(r->flags_known);
	assert_int_equal(r->flags, KF_ACQUIRE | KF_RET_NULL | KF_RELEASE);
	/* conntrack kfuncs: xdp and sched_cls only */
	assert_int_equal(rb_kfunc_row("bpf_skb_ct_lookup")->prog_types,
			 (1ull << BPF_PROG_TYPE_SCHED_CLS) | (1ull << BPF_PROG_TYPE_XDP));
}

/* the 7.2 profile's sched_ext rows: name order, flags and sets as 7.2.13
 * registers them, and scx_kfunc_context_filter's per-op answers */
static void test_table72(void **state)
{
	(void)state;
	int n;
	const struct rb_kfunc72 *rows = rb_kfunc72_rows(&n);
	assert_true(n >= 70);
	for (int i = 1; i < n; i++)
		assert_true(strcmp(rows[i - 1].k.name, rows[i].k.name) < 0);
	const struct rb_kfunc72 *dfl = rb_kfunc72_row("scx_bpf_select_cpu_dfl");
	assert_non_null(dfl);
	assert_int_equal(dfl->k.flags, KF_IMPLICIT_ARGS | KF_RCU);
	assert_int_equal(dfl->sets, RB_SCX_SET_UNLOCKED | RB_SCX_SET_CPU_ONLY | RB_SCX_SET_SELECT_CPU);
	/* unlocked and select_cpu: struct_ops and syscall programs */
	assert_int_equal(dfl->k.prog_types, (1ull << BPF_PROG_TYPE_STRUCT_OPS) | (1ull << BPF_PROG_TYPE_SYSCALL));
	const struct rb_kfunc72 *now = rb_kfunc72_row("scx_bpf_now");
	assert_non_null(now);
	assert_int_equal(now->k.prog_types, (1ull << BPF_PROG_TYPE_STRUCT_OPS) | (1ull << BPF_PROG_TYPE_TRACING) |
						    (1ull << BPF_PROG_TYPE_SYSCALL));
	assert_null(rb_kfunc72_row("bpf_task_acquire")); /* the 6.18 table's */
	/* each row comes in with its profile switch: sched_ext's, the arena's,
	 * and bpf_verify_pkcs7_signature (kfunc_sets_72) in 7.2 only */
	const struct rb_profile *p618 = rb_profile_get("6.18"), *p72 = rb_profile_get("7.2");
	const char *gated[] = {"scx_bpf_now", "bpf_arena_alloc_pages", "bpf_verify_pkcs7_signature", "bpf_obj_new",
			       "bpf_list_del"};
	for (size_t i = 0; i < ARRAY_SIZE(gated); i++) {
		assert_null(rb_kfunc72_row_in(gated[i], p618));
		assert_ptr_equal(rb_kfunc72_row_in(gated[i], p72), rb_kfunc72_row(gated[i]));
	}
	assert_int_equal(rb_kfunc72_row("bpf_verify_pkcs7_signature")->gate, RB_K72_BUILD);
	/* 7.2.13's implicit-argument graph kfuncs (graph_kfuncs_72), with
	 * their "_impl" forms' checkers */
	assert_int_equal(rb_kfunc72_row("bpf_obj_new")->gate, RB_K72_GRAPH);
	assert_int_equal(rb_kfunc72_row("bpf_obj_new")->k.flags, KF_ACQUIRE | KF_RET_NULL | KF_IMPLICIT_ARGS);
	assert_ptr_equal(rb_kfunc72_row("bpf_list_push_front")->k.special, rb_kfunc_row("bpf_list_push_front_impl")->special);
	const struct rb_st_ops *scx = rb_struct_ops_scx("sched_ext_ops"), *cid = rb_struct_ops_scx("sched_ext_ops_cid");
	assert_non_null(scx);
	assert_non_null(cid);
	assert_null(rb_struct_ops_scx("tcp_congestion_ops"));
	const struct rb_st_member *sel = NULL, *run = NULL, *init = NULL;
	for (int i = 0; i < scx->nmembers; i++) {
		if (!strcmp(scx->members[i].member, "select_cpu"))
			sel = &scx->members[i];
		if (!strcmp(scx->members[i].member, "running"))
			run = &scx->members[i];
		if (!strcmp(scx->members[i].member, "init"))
			init = &scx->members[i];
	}
	assert_true(sel && run && init && init->sleepable && !run->sleepable);
	uint32_t so = BPF_PROG_TYPE_STRUCT_OPS;
	uint32_t mtl = rb_kfunc72_row("scx_bpf_dsq_move_to_local")->sets;
	assert_true(rb_kfunc72_filter(dfl->sets, so, scx, sel));
	assert_true(rb_kfunc72_filter(dfl->sets, so, scx, init));  /* unlocked */
	assert_false(rb_kfunc72_filter(dfl->sets, so, scx, run)); /* no group */
	assert_false(rb_kfunc72_filter(dfl->sets, so, cid, sel)); /* cpu-only in the cid form */
	assert_false(rb_kfunc72_filter(mtl, so, scx, sel));
	assert_true(rb_kfunc72_filter(now->sets, so, scx, run)); /* any */
	assert_false(rb_kfunc72_filter(now->sets, so, NULL, NULL)); /* another struct_ops type */
	assert_true(rb_kfunc72_filter(now->sets, BPF_PROG_TYPE_TRACING, NULL, NULL));
	assert_false(rb_kfunc72_filter(dfl->sets, BPF_PROG_TYPE_TRACING, NULL, NULL));
	assert_true(rb_kfunc72_filter(dfl->sets, BPF_PROG_TYPE_SYSCALL, NULL, NULL));
	/* a kfunc only in the cid set is not filtered */
	assert_true(rb_kfunc72_filter(rb_kfunc72_row("scx_bpf_cpu_to_cid")->sets, so, NULL, NULL));
}

/* the unresolved call leaves r0 as it was; reached, it is rejected after
 * verification with the kernel's message and counts */
static void test_unresolved_call(void **state)
{
	(void)state;
	struct rb_result res;
	static const struct bpf_insn reached[] = {KCALL(0), MOV_K(0, 1), EXIT()};
	verify(BPF_PROG_TYPE_SOCKET_FILTER, reached, 3, &res);
	assert_int_equal(res.verdict, RB_REJECT);
	assert_string_equal(res.msg, "invalid kernel function call not eliminated in verifier pass");
	assert_int_equal(res.insns_processed, 3);
	/* r0 is not set by the call */
	static const struct bpf_insn r0[] = {KCALL(0), EXIT()};
	verify(BPF_PROG_TYPE_SOCKET_FILTER, r0, 2, &res);
	assert_int_equal(res.verdict, RB_REJECT);
	assert_string_equal(res.msg, "R0 !read_ok");
	/* dead code: removed by the kernel, accepted */
	static const struct bpf_insn dead[] = {MOV_K(0, 0), JMP_K(BPF_JEQ, 0, 0, 1), KCALL(0), EXIT()};
	verify(BPF_PROG_TYPE_SOCKET_FILTER, dead, 4, &res);
	assert_int_equal(res.verdict, RB_ACCEPT);
}

static void test_not_a_function(void **state)
{
	(void)state;
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	if (!rb_vmlinux_get(v)) {
		rb_vmlinux_free(v);
		skip();
	}
	rb_vmlinux_free(v);
	struct rb_result res;
	/* type 1 of vmlinux BTF is never a FUNC */
	static const struct bpf_insn p[] = {MOV_K(0, 0), KCALL(1), EXIT()};
	verify(BPF_PROG_TYPE_SOCKET_FILTER, p, 3, &res);
	if (res.verdict != RB_REJECT)
		print_error("%s\n", res.msg);
	assert_int_equal(res.verdict, RB_REJECT);
	assert_string_equal(res.msg, "kernel btf_id 1 is not a function");
	assert_int_equal(res.insns_processed, 0);
}

/* the probe the table was measured with: r0 = 0; call; r0 = 0; exit.
 * 1: allowed, 0: "is not allowed", -1: the type cannot be loaded here */
static int probe(uint32_t type, uint32_t attach, uint32_t attach_btf, int32_t id)
{
	const struct bpf_insn p[] = {MOV_K(0, 0), KCALL(id), MOV_K(0, 0), EXIT()};
	static char buf[65536];
	struct rb_prog_load_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.insn_cnt = 4;
	a.insns = (uint64_t)(uintptr_t)p;
	a.license = (uint64_t)(uintptr_t) "GPL";
	a.log_level = 1;
	a.log_size = sizeof(buf);
	a.log_buf = (uint64_t)(uintptr_t)buf;
	a.expected_attach_type = attach;
	a.attach_btf_id = attach_btf;
	if (type == BPF_PROG_TYPE_SYSCALL)
		a.prog_flags = BPF_F_SLEEPABLE;
	buf[0] = 0;
	int fd = rb_sys_prog_load(&a);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (strstr(buf, "is not allowed"))
		return 0;
	return buf[0] ? 1 : -1;
}

static void test_availability_measured(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why))
		skip();
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	const struct btf *b = rb_vmlinux_get(v);
	if (!b) {
		rb_vmlinux_free(v);
		skip();
	}
	int tp = btf__find_by_name_kind(b, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	assert_true(tp > 0);
	/* struct_ops: the ssthresh member (0) of tcp_congestion_ops */
	int st = btf__find_by_name_kind(b, "tcp_congestion_ops", BTF_KIND_STRUCT);
	assert_true(st > 0);
	static const struct {
		uint32_t type, attach;
	} types[] = {
		{1, 0},  {2, 0},  {3, 0},  {4, 0},  {5, 0},  {6, 0},  {7, 0},
		{8, 0},  {9, BPF_CGROUP_INET_SOCK_CREATE}, {10, 0}, {11, 0}, {12, 0}, {13, 0}, {14, 0},
		{15, 0}, {16, 0}, {17, 0}, {18, BPF_CGROUP_INET4_CONNECT}, {19, 0}, {21, 0}, {22, 0},
		{23, 0}, {24, 0}, {25, BPF_CGROUP_GETSOCKOPT}, {26, BPF_TRACE_RAW_TP}, {27, 0}, {30, BPF_SK_LOOKUP}, {31, 0},
		{32, 45 /* BPF_NETFILTER */},
	};
	int n, bad = 0;
	const struct rb_kfunc *rows = rb_kfunc_rows(&n);
	for (int i = 0; i < n; i++) {
		int id = btf__find_by_name_kind(b, rows[i].name, BTF_KIND_FUNC);
		if (id <= 0) {
			print_error("%s: not a FUNC in this kernel's BTF\n", rows[i].name);
			bad++;
			continue;
		}
		uint64_t got = 0;
		for (size_t k = 0; k < ARRAY_SIZE(types); k++) {
			uint32_t target = types[k].type == 26 ? (uint32_t)tp : types[k].type == 27 ? (uint32_t)st : 0;
			int r = probe(types[k].type, types[k].attach, target, id);
			assert_true(r >= 0 || !((rb_kfunc_measured_types >> types[k].type) & 1));
			if (r == 1)
				got |= 1ull << types[k].type;
		}
		if (got != rows[i].prog_types) {
			print_error("%s: kernel 0x%llx table 0x%llx\n", rows[i].name, (unsigned long long)got,
				    (unsigned long long)rows[i].prog_types);
			bad++;
		}
	}
	rb_vmlinux_free(v);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_order),
		cmocka_unit_test(test_table72),
		cmocka_unit_test(test_unresolved_call),
		cmocka_unit_test(test_not_a_function),
		cmocka_unit_test(test_availability_measured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
