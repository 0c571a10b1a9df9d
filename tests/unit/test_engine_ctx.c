/* test_engine_ctx.c — context access rules of the socket and cgroup
 * program types (engine/ctx_sock.c, engine/ctx_cgroup.c).
 *
 * Engine-only cases: for cgroup_sock_addr, sk_lookup, cgroup_sockopt and
 * sock_ops, one allowed access is accepted and one out-of-bounds or
 * forbidden access is rejected with the kernel's message at the
 * instruction; packet-like ranges (sockopt optval) need a bounds check.
 *
 * Where bpf() is permitted, a sweep: for every modelled program type and
 * attach type, every offset of its context struct (and past it), every
 * size and each of load, register store and immediate store, the engine's
 * verdict equals the running kernel's (an engine "unsupported" is allowed
 * only for socket pointer fields, which the kernel accepts); the same for
 * the exit-code ranges; and the helper calls the kernel refuses before it
 * looks at their arguments (test_helper_access_vs_kernel). */
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
#include "engine/prog_types.h"
#include "engine/vmlinux.h"
#include "oracle/bpf_sys.h"
#include "oracle/helper_probe.h"
#include "oracle/kload.h"

#include "insn_macros.h"
#include "kernel_fixture.h"
#include "util/array_size.h"

struct fixture {
	struct rb_object obj;
	struct rb_prog prog;
};

static const char *fx_license = "GPL"; /* the licence mkobj() and kernel() give a program */
static uint32_t fx_attach_btf_id;      /* struct_ops: the struct's vmlinux BTF id */
static uint32_t fx_prog_flags;

static void mkobj(struct fixture *f, uint32_t type, uint32_t attach, const struct bpf_insn *insns, size_t n)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->obj.path, sizeof(f->obj.path), "test");
	snprintf(f->prog.name, sizeof(f->prog.name), "prog");
	f->prog.prog_type = type;
	f->prog.expected_attach_type = attach;
	f->prog.insns = (struct bpf_insn *)insns;
	f->prog.insn_cnt = n;
	snprintf(f->prog.license, sizeof(f->prog.license), "%s", fx_license);
	f->prog.attach_btf_id = fx_attach_btf_id;
	f->prog.prog_flags = fx_prog_flags;
	f->obj.progs = &f->prog;
	f->obj.prog_cnt = 1;
}

/* the helper sets the engine is given (NULL: compiled-in); the tests
 * comparing with the kernel give the running kernel's (oracle/helper_probe.h) */
static const struct rb_helper_source *fx_helpers;

static const struct rb_helper_source *kernel_helpers(void)
{
	static struct rb_helper_probe hp;
	if (!hp.src.set)
		rb_helper_probe_init(&hp, true);
	return &hp.src;
}

/* one parsed vmlinux BTF for every program of the process (struct_ops
 * contexts, LSM hooks) */
static struct rb_vmlinux *shared_vmlinux(void)
{
	static struct rb_vmlinux *shared;
	if (!shared)
		shared = rb_vmlinux_new();
	return shared;
}

static void engine(uint32_t type, uint32_t attach, const struct bpf_insn *p, size_t n, struct rb_result *res)
{
	struct fixture f;
	mkobj(&f, type, attach, p, n);
	const struct rb_tracker *t = rb_tracker_get("old", 64);
	assert_non_null(t);
	struct rb_engine_opts o = {.vmlinux = shared_vmlinux(), .helpers = fx_helpers};
	struct rb_err err = {{0}};
	assert_int_equal(rb_engine_verify(&f.obj, 0, t, &o, res, &err), 0);
}

/* false where bpf() is not permitted */
static bool kernel(uint32_t type, uint32_t attach, const struct bpf_insn *p, size_t n, struct rb_result *kr)
{
	if (!fx_bpf_available())
		return false;
	struct rb_kload_args a = {.prog_type = type, .expected_attach_type = attach, .insns = p, .insn_cnt = n,
				  .prog_btf_fd = -1, .log_level = 1, .license = fx_license,
				  .attach_btf_id = fx_attach_btf_id, .prog_flags = fx_prog_flags};
	fx_kernel_result(&a, kr);
	return true;
}

/* the engine's verdict (and, for rejections, instruction and message) */
static void expect(uint32_t type, uint32_t attach, const struct bpf_insn *p, size_t n, enum rb_verdict v, int at,
		   const char *msg)
{
	struct rb_result res, kr;
	engine(type, attach, p, n, &res);
	if (res.verdict != v || (v == RB_REJECT && (res.err_insn != at || !strstr(res.msg, msg))))
		print_error("engine: %s at %d '%s' (expected %s at %d '%s')\n", rb_verdict_name(res.verdict),
			    res.err_insn, res.msg, rb_verdict_name(v), at, msg ? msg : "");
	assert_int_equal(res.verdict, v);
	if (v == RB_REJECT) {
		assert_int_equal(res.err_insn, at);
		assert_non_null(strstr(res.msg, msg));
	}
	if (kernel(type, attach, p, n, &kr)) {
		if (kr.verdict != v || (v == RB_REJECT && (kr.err_insn != at || !strstr(kr.msg, msg))))
			print_error("kernel: %s at %d '%s'\n", rb_verdict_name(kr.verdict), kr.err_insn, kr.msg);
		assert_int_equal(kr.verdict, v);
		if (v == RB_REJECT) {
			assert_int_equal(kr.err_insn, at);
			assert_non_null(strstr(kr.msg, msg));
		}
		if (v == RB_ACCEPT)
			assert_int_equal(kr.insns_processed, res.insns_processed);
	}
}

#define EXPECT(type, attach, v, at, msg, ...)                                                                     \
	do {                                                                                                      \
		const struct bpf_insn _p[] = {__VA_ARGS__};                                                       \
		expect(type, attach, _p, ARRAY_SIZE(_p), v, at, msg);                                 \
	} while (0)

static void test_sock_addr(void **state)
{
	(void)state;
	uint32_t pt = BPF_PROG_TYPE_CGROUP_SOCK_ADDR;
	/* connect4: read user_ip4 one byte at a time, rewrite the port */
	EXPECT(pt, BPF_CGROUP_INET4_CONNECT, RB_ACCEPT, -1, NULL,
	       LDX(BPF_B, 2, 1, offsetof(struct bpf_sock_addr, user_ip4) + 1),
	       ST(BPF_W, 1, offsetof(struct bpf_sock_addr, user_port), 0x5000), MOV_K(0, 1), EXIT());
	/* an IPv6 field from an IPv4 hook */
	EXPECT(pt, BPF_CGROUP_INET4_CONNECT, RB_REJECT, 0, "invalid bpf_context access off=8 size=4",
	       LDX(BPF_W, 2, 1, offsetof(struct bpf_sock_addr, user_ip6)), MOV_K(0, 1), EXIT());
	/* family is read-only */
	EXPECT(pt, BPF_CGROUP_INET6_CONNECT, RB_REJECT, 1, "invalid bpf_context access off=28 size=4",
	       MOV_K(2, 10), STX(BPF_W, 1, 2, offsetof(struct bpf_sock_addr, family)), MOV_K(0, 1), EXIT());
	/* getsockname must return 1 */
	EXPECT(pt, BPF_CGROUP_INET4_GETSOCKNAME, RB_REJECT, 1, "R0 has smin=0 smax=0 should have been in [1, 1]",
	       MOV_K(0, 0), EXIT());
}

static void test_sk_lookup(void **state)
{
	(void)state;
	uint32_t pt = BPF_PROG_TYPE_SK_LOOKUP;
	/* narrow read of remote_port, full read of local_port */
	EXPECT(pt, BPF_SK_LOOKUP, RB_ACCEPT, -1, NULL,
	       LDX(BPF_H, 2, 1, offsetof(struct bpf_sk_lookup, remote_port)),
	       LDX(BPF_W, 3, 1, offsetof(struct bpf_sk_lookup, local_port)), MOV_K(0, 1), EXIT());
	/* the context is read-only */
	EXPECT(pt, BPF_SK_LOOKUP, RB_REJECT, 0, "invalid bpf_context access off=60 size=4",
	       ST(BPF_W, 1, offsetof(struct bpf_sk_lookup, local_port), 1), MOV_K(0, 1), EXIT());
	/* past the end */
	EXPECT(pt, BPF_SK_LOOKUP, RB_REJECT, 0, "invalid bpf_context access off=72 size=4",
	       LDX(BPF_W, 2, 1, sizeof(struct bpf_sk_lookup)), MOV_K(0, 1), EXIT());
}

static void test_sockopt(void **state)
{
	(void)state;
	uint32_t pt = BPF_PROG_TYPE_CGROUP_SOCKOPT;
	int ov = offsetof(struct bpf_sockopt, optval), ove = offsetof(struct bpf_sockopt, optval_end);
	/* optval is packet-like: one byte written after a check against optval_end */
	EXPECT(pt, BPF_CGROUP_SETSOCKOPT, RB_ACCEPT, -1, NULL, LDX(BPF_DW, 2, 1, ov), LDX(BPF_DW, 3, 1, ove),
	       MOV_X(4, 2), ALU_K(BPF_ADD, 4, 1), JMP_X(BPF_JGT, 4, 3, 1), ST(BPF_B, 2, 0, 7), MOV_K(0, 1), EXIT());
	/* without the check */
	EXPECT(pt, BPF_CGROUP_SETSOCKOPT, RB_REJECT, 1, "R2 offset is outside of the packet", LDX(BPF_DW, 2, 1, ov),
	       ST(BPF_B, 2, 0, 7), MOV_K(0, 1), EXIT());
	/* retval is only for getsockopt */
	EXPECT(pt, BPF_CGROUP_SETSOCKOPT, RB_REJECT, 0, "invalid bpf_context access off=36 size=4",
	       LDX(BPF_W, 2, 1, offsetof(struct bpf_sockopt, retval)), MOV_K(0, 1), EXIT());
	EXPECT(pt, BPF_CGROUP_GETSOCKOPT, RB_ACCEPT, -1, NULL, ST(BPF_W, 1, offsetof(struct bpf_sockopt, retval), 0),
	       MOV_K(0, 1), EXIT());
}

static void test_sock_ops(void **state)
{
	(void)state;
	uint32_t pt = BPF_PROG_TYPE_SOCK_OPS;
	/* read op and bytes_acked, write reply */
	EXPECT(pt, 0, RB_ACCEPT, -1, NULL, LDX(BPF_W, 2, 1, offsetof(struct bpf_sock_ops, op)),
	       LDX(BPF_DW, 3, 1, offsetof(struct bpf_sock_ops, bytes_acked)),
	       STX(BPF_W, 1, 2, offsetof(struct bpf_sock_ops, reply)), MOV_K(0, 1), EXIT());
	/* a narrow read of a u32 field other than skb_tcp_flags */
	EXPECT(pt, 0, RB_REJECT, 0, "invalid bpf_context access off=20 size=2",
	       LDX(BPF_H, 2, 1, offsetof(struct bpf_sock_ops, family)), MOV_K(0, 1), EXIT());
	/* the packet range is read-only */
	EXPECT(pt, 0, RB_REJECT, 5, "cannot write into packet",
	       LDX(BPF_DW, 2, 1, offsetof(struct bpf_sock_ops, skb_data)),
	       LDX(BPF_DW, 3, 1, offsetof(struct bpf_sock_ops, skb_data_end)), MOV_X(4, 2), ALU_K(BPF_ADD, 4, 1),
	       JMP_X(BPF_JGT, 4, 3, 1), ST(BPF_B, 2, 0, 7), MOV_K(0, 1), EXIT());
}

/* raw_tracepoint_writable: the first argument is the tracepoint's buffer,
 * at constant offsets only (check_tp_buffer_access) */
static void test_raw_tp_writable(void **state)
{
	(void)state;
	uint32_t pt = BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE;
	EXPECT(pt, 0, RB_ACCEPT, -1, NULL, LDX(BPF_DW, 6, 1, 0), LDX(BPF_W, 0, 6, 8), ST(BPF_W, 6, 16, 7),
	       MOV_K(0, 0), EXIT());
	EXPECT(pt, 0, RB_REJECT, 1, "R6 invalid tracepoint buffer access: off=-8, size=4", LDX(BPF_DW, 6, 1, 0),
	       LDX(BPF_W, 0, 6, -8), MOV_K(0, 0), EXIT());
	EXPECT(pt, 0, RB_REJECT, 4, "R6 invalid variable buffer offset: off=0, var_off=(0x0; 0x7)", LDX(BPF_DW, 6, 1, 0),
	       LDX(BPF_DW, 2, 1, 8), ALU_K(BPF_AND, 2, 7), ALU_X(BPF_ADD, 6, 2), LDX(BPF_B, 0, 6, 0), MOV_K(0, 0),
	       EXIT());
	/* the buffer pointer is 8 bytes, read-only in the context */
	EXPECT(pt, 0, RB_REJECT, 0, "invalid bpf_context access off=0 size=4", LDX(BPF_W, 6, 1, 0), MOV_K(0, 0),
	       EXIT());
}

/* lsm (refused by the kernel here: the engine alone, 6.18 rules): the
 * exit range of an int hook is [-MAX_ERRNO, 0] on the subregister and the
 * hook's return value so far is read with that range; a void hook reads no
 * R0; lsm_cgroup wants [0, 1] ([1, 1] on a void hook) */
static void lsm_expect(const char *hook, uint32_t attach, const struct bpf_insn *p, size_t n, enum rb_verdict v,
		       const char *msg)
{
	struct rb_vmlinux *vm = shared_vmlinux();
	const struct btf *b = vm ? rb_vmlinux_get(vm) : NULL;
	int id = b ? btf__find_by_name_kind(b, hook, BTF_KIND_FUNC) : -1;
	if (id <= 0)
		skip();
	fx_attach_btf_id = (uint32_t)id;
	struct rb_result res;
	engine(BPF_PROG_TYPE_LSM, attach, p, n, &res);
	fx_attach_btf_id = 0;
	if (res.verdict != v || (msg && !strstr(res.msg, msg)))
		print_error("%s: engine %s '%s'\n", hook, rb_verdict_name(res.verdict), res.msg);
	assert_int_equal(res.verdict, v);
	if (msg)
		assert_non_null(strstr(res.msg, msg));
}

static void test_lsm(void **state)
{
	(void)state;
	const struct bpf_insn ok[] = {MOV_K(0, 0), EXIT()};
	const struct bpf_insn one[] = {MOV_K(0, 1), EXIT()};
	const struct bpf_insn bare[] = {EXIT()};
	/* file_mprotect(vma, reqprot, prot) returns int: its value so far is ctx[3] */
	const struct bpf_insn pass_on[] = {LDX(BPF_DW, 0, 1, 24), EXIT()};
	const struct bpf_insn arg_out[] = {LDX(BPF_DW, 0, 1, 16), EXIT()};
	lsm_expect("bpf_lsm_file_mprotect", BPF_LSM_MAC, ok, 2, RB_ACCEPT, NULL);
	lsm_expect("bpf_lsm_file_mprotect", BPF_LSM_MAC, one, 2, RB_REJECT, "should have been in [-4095, 0]");
	lsm_expect("bpf_lsm_file_mprotect", BPF_LSM_MAC, pass_on, 2, RB_ACCEPT, NULL);
	lsm_expect("bpf_lsm_file_mprotect", BPF_LSM_MAC, arg_out, 2, RB_REJECT, "should have been in [-4095, 0]");
	lsm_expect("bpf_lsm_file_mprotect", BPF_LSM_MAC, bare, 1, RB_REJECT, "R0 !read_ok");
	lsm_expect("bpf_lsm_task_free", BPF_LSM_MAC, bare, 1, RB_ACCEPT, NULL);
	lsm_expect("bpf_lsm_task_free", BPF_LSM_CGROUP, ok, 2, RB_REJECT, "should have been in [1, 1]");
	lsm_expect("bpf_lsm_file_mprotect", BPF_LSM_CGROUP, one, 2, RB_ACCEPT, NULL);
	/* not an LSM hook */
	lsm_expect("bpf_map_lookup_elem", BPF_LSM_MAC, ok, 2, RB_REJECT, "points to wrong type name");
}

/* ---- the sweep against the kernel ---- */

struct cfg {
	uint32_t type, attach;
	int size; /* bytes of the context struct to sweep (plus 8 past it) */
};

static const struct cfg cfgs[] = {
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_BIND, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_CONNECT, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_SENDMSG, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_SENDMSG, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_RECVMSG, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_RECVMSG, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETPEERNAME, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETSOCKNAME, sizeof(struct bpf_sock_addr)},
	{BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, sizeof(struct bpf_sock)},
	{BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_RELEASE, sizeof(struct bpf_sock)},
	{BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET4_POST_BIND, sizeof(struct bpf_sock)},
	{BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET6_POST_BIND, sizeof(struct bpf_sock)},
	{BPF_PROG_TYPE_SOCK_OPS, 0, sizeof(struct bpf_sock_ops) + 8},
	{BPF_PROG_TYPE_SK_LOOKUP, BPF_SK_LOOKUP, sizeof(struct bpf_sk_lookup)},
	{BPF_PROG_TYPE_SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT, sizeof(struct sk_reuseport_md)},
	{BPF_PROG_TYPE_SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT_OR_MIGRATE, sizeof(struct sk_reuseport_md)},
	{BPF_PROG_TYPE_SK_MSG, 0, sizeof(struct sk_msg_md)},
	{BPF_PROG_TYPE_SK_SKB, 0, sizeof(struct __sk_buff)},
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_GETSOCKOPT, sizeof(struct bpf_sockopt)},
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_SETSOCKOPT, sizeof(struct bpf_sockopt)},
	{BPF_PROG_TYPE_CGROUP_SYSCTL, 0, sizeof(struct bpf_sysctl)},
	{BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_CGROUP_SYSCTL, sizeof(struct bpf_sysctl)},
	{BPF_PROG_TYPE_CGROUP_DEVICE, 0, sizeof(struct bpf_cgroup_dev_ctx)},
	{BPF_PROG_TYPE_CGROUP_DEVICE, BPF_CGROUP_DEVICE, sizeof(struct bpf_cgroup_dev_ctx)},
	{BPF_PROG_TYPE_SOCK_OPS, BPF_CGROUP_SOCK_OPS, sizeof(struct bpf_sock_ops) + 8},
	{BPF_PROG_TYPE_FLOW_DISSECTOR, BPF_FLOW_DISSECTOR, sizeof(struct __sk_buff)},
	/* attach type 0: the kernel verifies it as inet_sock_create */
	{BPF_PROG_TYPE_CGROUP_SOCK, 0, sizeof(struct bpf_sock)},
	{BPF_PROG_TYPE_LWT_IN, 0, sizeof(struct __sk_buff)},
	{BPF_PROG_TYPE_LWT_OUT, 0, sizeof(struct __sk_buff)},
	{BPF_PROG_TYPE_LWT_XMIT, 0, sizeof(struct __sk_buff)},
	{BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, sizeof(struct __sk_buff)},
	{BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 96},
	{BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, 96},
	/* syscall programs load only sleepable; their context is any size (the first 64 bytes) */
	{BPF_PROG_TYPE_SYSCALL, 0, 64},
};

static const char *const kinds[] = {"ldx", "stx", "st"};

/* the context's socket (or flow keys) pointer field, -1 if none */
static int sk_field(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		return offsetof(struct bpf_sock_addr, sk);
	case BPF_PROG_TYPE_SOCK_OPS:
		return offsetof(struct bpf_sock_ops, sk);
	case BPF_PROG_TYPE_SK_LOOKUP:
		return offsetof(struct bpf_sk_lookup, sk);
	case BPF_PROG_TYPE_SK_REUSEPORT:
		return offsetof(struct sk_reuseport_md, migrating_sk);
	case BPF_PROG_TYPE_SK_MSG:
		return offsetof(struct sk_msg_md, sk);
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
		return offsetof(struct __sk_buff, sk);
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return offsetof(struct bpf_sockopt, sk);
	case BPF_PROG_TYPE_FLOW_DISSECTOR: /* not a socket: struct bpf_flow_keys */
		return offsetof(struct __sk_buff, flow_keys);
	default:
		return -1;
	}
}

/* returns the number of disagreements (printed) */
static int compare(const struct cfg *c, const struct bpf_insn *p, size_t n, const char *what, int *unsupp)
{
	struct rb_result res, kr;
	engine(c->type, c->attach, p, n, &res);
	assert_true(kernel(c->type, c->attach, p, n, &kr));
	if (res.verdict == RB_UNSUPPORTED && kr.verdict == RB_ACCEPT && strstr(res.msg, "socket pointer")) {
		(*unsupp)++;
		return 0;
	}
	bool same = res.verdict == kr.verdict &&
		    (res.verdict != RB_REJECT || (res.err_insn == kr.err_insn && !strcmp(res.msg, kr.msg)));
	if (same)
		return 0;
	print_error("type %u attach %u %s: engine %s at %d '%s', kernel %s at %d '%s'\n", c->type, c->attach, what,
		    rb_verdict_name(res.verdict), res.err_insn, res.msg, rb_verdict_name(kr.verdict), kr.err_insn,
		    kr.msg);
	return 1;
}

static void test_sweep_vs_kernel(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why))
		skip();
	fx_helpers = kernel_helpers();
	int bad = 0, total = 0, unsupp = 0;
	static const int sizes[] = {1, 2, 4, 8};
	static const int sz_code[] = {BPF_B, BPF_H, BPF_W, BPF_DW};
	for (size_t ci = 0; ci < ARRAY_SIZE(cfgs); ci++) {
		const struct cfg *c = &cfgs[ci];
		fx_prog_flags = c->type == BPF_PROG_TYPE_SYSCALL ? BPF_F_SLEEPABLE : 0;
		for (int si = 0; si < 4; si++) {
			for (int off = -sizes[si]; off < c->size + 8; off += sizes[si]) {
				for (int k = 0; k < 3; k++) {
					struct bpf_insn p[4];
					p[0] = MOV_K(2, 1);
					if (k == 0)
						p[1] = LDX(sz_code[si], 3, 1, off);
					else if (k == 1)
						p[1] = STX(sz_code[si], 1, 2, off);
					else
						p[1] = ST(sz_code[si], 1, off, 1);
					p[2] = MOV_K(0, 1);
					p[3] = EXIT();
					char what[64];
					snprintf(what, sizeof(what), "%s off=%d size=%d", kinds[k], off, sizes[si]);
					bad += compare(c, p, 4, what, &unsupp);
					total++;
				}
			}
		}
		/* reads and writes through the context's socket pointer, after a null check */
		int sk_off = sk_field(c->type);
		for (int si = 0; sk_off >= 0 && si < 4; si++) {
			for (int off = -sizes[si]; off < (int)sizeof(struct bpf_sock) + 8; off += sizes[si]) {
				for (int k = 0; k < 2; k++) {
					struct bpf_insn p[7] = {
						MOV_K(2, 1),
						LDX(BPF_DW, 6, 1, sk_off),
						I(BPF_JMP | BPF_JEQ | BPF_K, 6, 0, 1, 0),
						k ? STX(sz_code[si], 6, 2, off) : LDX(sz_code[si], 3, 6, off),
						MOV_K(0, 1),
						EXIT(),
					};
					char what[64];
					snprintf(what, sizeof(what), "sk %s off=%d size=%d", kinds[k], off, sizes[si]);
					bad += compare(c, p, 6, what, &unsupp);
					total++;
				}
			}
		}
		/* helper availability: a call with no arguments set up */
		for (int h = 1; h < 212; h++) {
			struct bpf_insn p[3] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, h), MOV_K(0, 1), EXIT()};
			struct rb_result res, kr;
			engine(c->type, c->attach, p, 3, &res);
			assert_true(kernel(c->type, c->attach, p, 3, &kr));
			bool ku = kr.verdict == RB_REJECT && strstr(kr.msg, "cannot use helper");
			bool eu = res.verdict == RB_REJECT && strstr(res.msg, "cannot use helper");
			total++;
			if (res.verdict == RB_UNSUPPORTED || (ku == eu && (!eu || !strcmp(res.msg, kr.msg))))
				continue;
			print_error("type %u attach %u helper %d: engine %s '%s', kernel %s '%s'\n", c->type, c->attach,
				    h, rb_verdict_name(res.verdict), res.msg, rb_verdict_name(kr.verdict), kr.msg);
			bad++;
		}
		/* exit codes */
		for (int r = -1; r <= 4; r++) {
			struct bpf_insn p[2] = {MOV_K(0, r), EXIT()};
			char what[32];
			snprintf(what, sizeof(what), "return %d", r);
			bad += compare(c, p, 2, what, &unsupp);
			total++;
		}
	}
	fx_prog_flags = 0;
	fx_helpers = NULL;
	print_message("%d programs, %d disagreements, %d socket pointer loads unsupported\n", total, bad, unsupp);
	assert_int_equal(bad, 0);
}

/* Helper calls refused before the arguments are looked at (6.18
 * check_helper_call): an id out of range, a helper the program type may not
 * call, a GPL-only helper from a non-GPL program. For the program types
 * whose helper sets were measured (engine/prog_types.c), every helper id
 * and a GPL and a non-GPL licence: where the kernel refuses that way the
 * engine refuses with the same message, and where it does not, neither
 * does the engine. */
static bool refused_early(const struct rb_result *r)
{
	return r->verdict == RB_REJECT &&
	       (strstr(r->msg, "cannot use helper") || strstr(r->msg, "GPL-restricted") || strstr(r->msg, "invalid func"));
}

/* a helper source (engine.h) standing for a kernel with the seg6 BPF
 * helpers (the compiled-in lwt_seg6local set, measured without them, plus
 * the three); it records what it was asked */
static uint32_t asked_type, asked_attach;
static const uint64_t *with_seg6(void *ctx, uint32_t type, uint32_t attach)
{
	static uint64_t set[4];
	(void)ctx;
	asked_type = type;
	asked_attach = attach;
	if (type != BPF_PROG_TYPE_LWT_SEG6LOCAL)
		return NULL;
	memcpy(set, rb_prog_helper_set(rb_prog_type(type), attach), sizeof(set));
	set[1] |= (1ull << (74 - 64)) | (1ull << (75 - 64)) | (1ull << (76 - 64));
	return set;
}

/* a source answering per helper id (has()): has_answer, recording the id */
static int has_answer, asked_id;
static int seg6_has(void *ctx, uint32_t type, uint32_t attach, int32_t id)
{
	(void)ctx;
	(void)type;
	(void)attach;
	asked_id = id;
	return has_answer;
}

/* The helper sets follow the source the engine is given (the running
 * kernel's, measured by oracle/helper_probe.c); without one, or where it
 * has no set, the compiled-in 6.18 set. */
static void test_helper_source(void **state)
{
	(void)state;
	struct bpf_insn p[3] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_lwt_seg6_adjust_srh), MOV_K(0, 1), EXIT()};
	struct rb_result res;
	/* compiled-in: refused before the arguments, as 6.18 words it */
	engine(BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, p, 3, &res);
	assert_int_equal(res.verdict, RB_REJECT);
	assert_string_equal(res.msg, "program of this type cannot use helper bpf_lwt_seg6_adjust_srh#75");
	/* the source's set: available (the call fails on its arguments) */
	const struct rb_helper_source src = {NULL, with_seg6, NULL};
	fx_helpers = &src;
	engine(BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, p, 3, &res);
	assert_int_equal(res.verdict, RB_REJECT);
	assert_null(strstr(res.msg, "cannot use helper"));
	assert_int_equal(asked_type, BPF_PROG_TYPE_LWT_SEG6LOCAL);
	assert_int_equal(asked_attach, 0);
	/* a type the source has no set for: the compiled-in one (xdp may call
	 * bpf_xdp_adjust_head; its arguments are refused, not the helper) */
	struct bpf_insn q[3] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_xdp_adjust_head), MOV_K(0, 1), EXIT()};
	engine(BPF_PROG_TYPE_XDP, 0, q, 3, &res);
	assert_int_equal(asked_type, BPF_PROG_TYPE_XDP);
	assert_null(strstr(res.msg, "cannot use helper"));
	/* a source answering per id (has(), used instead of set()): its
	 * answer for the id called; -1 (unmeasured): the compiled-in set */
	const struct rb_helper_source per_id = {NULL, with_seg6, seg6_has};
	fx_helpers = &per_id;
	for (int answer = 1; answer >= -1; answer--) {
		has_answer = answer;
		asked_id = 0;
		engine(BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, p, 3, &res);
		assert_int_equal(asked_id, BPF_FUNC_lwt_seg6_adjust_srh);
		assert_int_equal(res.verdict, RB_REJECT);
		if (answer == 1)
			assert_null(strstr(res.msg, "cannot use helper"));
		else
			assert_string_equal(res.msg, "program of this type cannot use helper bpf_lwt_seg6_adjust_srh#75");
	}
	fx_helpers = NULL;
}

static void test_helper_access_vs_kernel(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why)) {
		print_message("bpf() not permitted (%s): skipped\n", why);
		skip();
	}
	static const struct {
		uint32_t type, attach;
	} types[] = {
		{BPF_PROG_TYPE_SOCKET_FILTER, 0},    {BPF_PROG_TYPE_SCHED_CLS, 0},        {BPF_PROG_TYPE_SCHED_ACT, 0},
		{BPF_PROG_TYPE_XDP, 0},              {BPF_PROG_TYPE_KPROBE, 0},           {BPF_PROG_TYPE_KPROBE, 42 /* kprobe_multi */},
		{BPF_PROG_TYPE_TRACEPOINT, 0},       {BPF_PROG_TYPE_RAW_TRACEPOINT, 0},   {BPF_PROG_TYPE_PERF_EVENT, 0},
		{BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS}, {BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS},
		{BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE}, {BPF_PROG_TYPE_SK_SKB, 0},
		{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT}, {BPF_PROG_TYPE_SK_LOOKUP, BPF_SK_LOOKUP},
	};
	static const char *const licences[] = {"GPL", "Dual MIT/GPL", "MIT", ""};
	int total = 0, bad = 0, refused = 0, gpl = 0;
	fx_helpers = kernel_helpers();
	for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
		for (size_t l = 0; l < ARRAY_SIZE(licences); l++) {
			fx_license = licences[l];
			for (int h = 0; h <= 213; h++) {
				struct bpf_insn p[3] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, h), MOV_K(0, 1), EXIT()};
				struct rb_result res, kr;
				engine(types[t].type, types[t].attach, p, 3, &res);
				assert_true(kernel(types[t].type, types[t].attach, p, 3, &kr));
				total++;
				bool ke = refused_early(&kr), ee = refused_early(&res);
				refused += ke;
				gpl += ke && strstr(kr.msg, "GPL-restricted") != NULL;
				if (ke == ee && (!ke || (!strcmp(res.msg, kr.msg) && res.err_insn == kr.err_insn)))
					continue;
				print_error("type %u attach %u licence '%s' helper %d: engine %s '%s', kernel %s '%s'\n",
					    types[t].type, types[t].attach, licences[l], h, rb_verdict_name(res.verdict),
					    res.msg, rb_verdict_name(kr.verdict), kr.msg);
				bad++;
			}
		}
	}
	fx_license = "GPL";
	fx_helpers = NULL;
	print_message("%d helper calls, %d refused by the kernel before the arguments (%d as GPL-only), %d "
		      "disagreements\n",
		      total, refused, gpl, bad);
	assert_true(gpl > 0);
	assert_int_equal(bad, 0);
}

/* ---- struct_ops (engine/struct_ops.c) against the kernel ---- */

/* the engine's and the kernel's verdicts (and rejection messages) on one
 * struct_ops program; false when they differ (printed). The kernel's
 * result in *kout if not NULL (one load per program). */
static bool st_same(uint32_t member, const struct bpf_insn *p, size_t n, const char *what, struct rb_result *kout)
{
	struct rb_result res, kr;
	engine(BPF_PROG_TYPE_STRUCT_OPS, member, p, n, &res);
	assert_true(kernel(BPF_PROG_TYPE_STRUCT_OPS, member, p, n, &kr));
	if (kout)
		*kout = kr;
	bool same = res.verdict == kr.verdict &&
		    (res.verdict != RB_REJECT || (res.err_insn == kr.err_insn && !strcmp(res.msg, kr.msg))) &&
		    (res.verdict != RB_ACCEPT || res.insns_processed == kr.insns_processed);
	if (!same)
		print_error("struct_ops %u member %u %s: engine %s at %d '%s', kernel %s at %d '%s'\n",
			    fx_attach_btf_id, member, what, rb_verdict_name(res.verdict), res.err_insn, res.msg,
			    rb_verdict_name(kr.verdict), kr.err_insn, kr.msg);
	return same;
}

/* (in the BTF the engine is given: one parse per process) */
static uint32_t struct_id(const char *name)
{
	const struct btf *b = rb_vmlinux_get(shared_vmlinux());
	int id = b ? btf__find_by_name_kind(b, name, BTF_KIND_STRUCT) : -1;
	return id > 0 ? (uint32_t)id : 0;
}

/* Every member index of tcp_congestion_ops and bpf_dummy_ops (and one past
 * the end), GPL and not, sleepable and not, "r0 = 0; exit" and a bare
 * "exit" (void members read no R0); the licence, member and return checks
 * of check_struct_ops_btf_id and check_return_code. Then every helper id
 * for three members (measured sets, release without bpf_setsockopt). */
static void test_struct_ops_members_vs_kernel(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why))
		skip();
	static const char *const structs[] = {"tcp_congestion_ops", "bpf_dummy_ops"};
	int bad = 0, total = 0, accepted = 0;
	for (size_t si = 0; si < 2; si++) {
		fx_attach_btf_id = struct_id(structs[si]);
		assert_true(fx_attach_btf_id > 0);
		for (uint32_t m = 0; m < 20; m++) {
			for (int variant = 0; variant < 4; variant++) {
				fx_license = variant == 1 ? "MIT" : "GPL";
				fx_prog_flags = variant == 2 ? BPF_F_SLEEPABLE : 0;
				struct bpf_insn p[2] = {MOV_K(0, 0), EXIT()};
				bool bare = variant == 3;
				struct rb_result kr;
				bad += !st_same(m, bare ? p + 1 : p, bare ? 1 : 2, "member", &kr);
				accepted += kr.verdict == RB_ACCEPT;
				total++;
			}
		}
		fx_license = "GPL";
		fx_prog_flags = 0;
		/* helpers: tcp's ssthresh (0) and release (17), dummy's test_1 (0) */
		for (uint32_t m = 0; m < 18; m += si ? 18 : 17) {
			for (int h = 1; h < 212; h++) {
				struct bpf_insn p[3] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, h), MOV_K(0, 0), EXIT()};
				struct rb_result res, kr;
				engine(BPF_PROG_TYPE_STRUCT_OPS, m, p, 3, &res);
				assert_true(kernel(BPF_PROG_TYPE_STRUCT_OPS, m, p, 3, &kr));
				total++;
				bool ku = kr.verdict == RB_REJECT && strstr(kr.msg, "cannot use helper");
				bool eu = res.verdict == RB_REJECT && strstr(res.msg, "cannot use helper");
				if (ku == eu && (!eu || !strcmp(res.msg, kr.msg)))
					continue;
				print_error("%s member %u helper %d: engine %s '%s', kernel %s '%s'\n", structs[si], m, h,
					    rb_verdict_name(res.verdict), res.msg, rb_verdict_name(kr.verdict), kr.msg);
				bad++;
			}
		}
	}
	fx_attach_btf_id = 0;
	print_message("%d struct_ops programs (%d accepted by the kernel), %d disagreements\n", total, accepted, bad);
	assert_true(accepted > 10);
	assert_int_equal(bad, 0);
}

/* The context and stores through its pointers: tcp_congestion_ops.ssthresh
 * (struct sock *, promoted to tcp_sock: bpf_tcp_ca_btf_struct_access lets
 * a few fields be written) and bpf_dummy_ops.test_1 (a NULL-able
 * bpf_dummy_ops_state *, writable): a load and a store of each size at
 * every offset of the pointee and past it, and context reads. */
static void test_struct_ops_access_vs_kernel(void **state)
{
	(void)state;
	const char *why;
	if (!rb_bpf_available(&why))
		skip();
	static const struct {
		const char *st, *pointee;
	} cases[] = {{"tcp_congestion_ops", "tcp_sock"}, {"bpf_dummy_ops", "bpf_dummy_ops_state"}};
	static const int sizes[] = {1, 2, 4, 8};
	static const int sz_code[] = {BPF_B, BPF_H, BPF_W, BPF_DW};
	int bad = 0, total = 0, writes_ok = 0;
	for (size_t ci = 0; ci < 2; ci++) {
		fx_attach_btf_id = struct_id(cases[ci].st);
		const struct btf *b = rb_vmlinux_get(shared_vmlinux());
		assert_non_null(b);
		int pid = btf__find_by_name_kind(b, cases[ci].pointee, BTF_KIND_STRUCT);
		assert_true(pid > 0);
		int psize = (int)btf__type_by_id(b, (uint32_t)pid)->size;
		for (int si = 0; si < 4; si++) {
			for (int off = -sizes[si]; off < psize + 8; off += sizes[si]) {
				/* loads of 8 bytes; stores of every size, 1 and 2 at a
				 * quarter of the offsets (the time of make test) */
				if (sizes[si] < 4 && (off & 31) >= 8)
					continue;
				for (int k = sizes[si] == 8 ? 0 : 1; k < 2; k++) {
					struct bpf_insn p[6] = {
						LDX(BPF_DW, 2, 1, 0),
						JMP_K(BPF_JEQ, 2, 0, 2),
						k ? ST(sz_code[si], 2, off, 0) : LDX(sz_code[si], 3, 2, off),
						MOV_K(0, 0),
						MOV_K(0, 0),
						EXIT(),
					};
					char what[64];
					snprintf(what, sizeof(what), "%s off=%d size=%d", k ? "st" : "ldx", off, sizes[si]);
					struct rb_result kr;
					bad += !st_same(0, p, 6, what, &kr);
					writes_ok += k && kr.verdict == RB_ACCEPT;
					total++;
				}
			}
		}
		/* the context itself: arguments, past them, writes, no NULL check */
		for (int off = -8; off < 64; off += 4) {
			struct bpf_insn p[3] = {LDX(off % 8 ? BPF_W : BPF_DW, 2, 1, off), MOV_K(0, 0), EXIT()};
			struct bpf_insn w[3] = {ST(BPF_DW, 1, off, 0), MOV_K(0, 0), EXIT()};
			struct bpf_insn d[4] = {LDX(BPF_DW, 2, 1, off), LDX(BPF_W, 3, 2, 0), MOV_K(0, 0), EXIT()};
			bad += !st_same(0, p, 3, "ctx ldx", NULL) + !st_same(0, w, 3, "ctx st", NULL) +
			       !st_same(0, d, 4, "ctx deref", NULL);
			total += 3;
		}
	}
	fx_attach_btf_id = 0;
	print_message("%d struct_ops accesses (%d stores the kernel accepts), %d disagreements\n", total, writes_ok,
		      bad);
	assert_true(writes_ok > 5);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sock_addr), cmocka_unit_test(test_sk_lookup),
		cmocka_unit_test(test_sockopt),   cmocka_unit_test(test_sock_ops),
		cmocka_unit_test(test_raw_tp_writable), cmocka_unit_test(test_lsm),
		cmocka_unit_test(test_helper_source),
		cmocka_unit_test(test_sweep_vs_kernel), cmocka_unit_test(test_helper_access_vs_kernel),
		cmocka_unit_test(test_struct_ops_members_vs_kernel), cmocka_unit_test(test_struct_ops_access_vs_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
