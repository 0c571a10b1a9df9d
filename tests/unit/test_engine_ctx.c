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

#include "engine/engine.h"
#include "oracle/bpf_sys.h"
#include "oracle/kload.h"

#include "insn_macros.h"

struct fixture {
	struct rb_object obj;
	struct rb_prog prog;
};

static const char *fx_license = "GPL"; /* the licence mkobj() and kernel() give a program */

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
	f->obj.progs = &f->prog;
	f->obj.prog_cnt = 1;
}

static void engine(uint32_t type, uint32_t attach, const struct bpf_insn *p, size_t n, struct rb_result *res)
{
	struct fixture f;
	mkobj(&f, type, attach, p, n);
	const struct rb_tracker *t = rb_tracker_get("old", 64);
	assert_non_null(t);
	struct rb_engine_opts o = {0};
	struct rb_err err = {{0}};
	assert_int_equal(rb_engine_verify(&f.obj, 0, t, &o, res, &err), 0);
}

/* false where bpf() is not permitted */
static bool kernel(uint32_t type, uint32_t attach, const struct bpf_insn *p, size_t n, struct rb_result *kr)
{
	const char *why;
	if (!rb_bpf_available(&why))
		return false;
	struct rb_kload_args a = {.prog_type = type, .expected_attach_type = attach, .insns = p, .insn_cnt = n,
				  .prog_btf_fd = -1, .log_level = 1, .license = fx_license};
	struct rb_klog log = {0};
	int e = 0;
	int fd = rb_kload_raw(&a, &log, &e);
	rb_kload_classify(fd, e, log.buf, type, attach, kr);
	if (fd >= 0)
		close(fd);
	rb_klog_free(&log);
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
		expect(type, attach, _p, sizeof(_p) / sizeof(_p[0]), v, at, msg);                                 \
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
	int bad = 0, total = 0, unsupp = 0;
	static const int sizes[] = {1, 2, 4, 8};
	static const int sz_code[] = {BPF_B, BPF_H, BPF_W, BPF_DW};
	for (size_t ci = 0; ci < sizeof(cfgs) / sizeof(cfgs[0]); ci++) {
		const struct cfg *c = &cfgs[ci];
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
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		for (size_t l = 0; l < sizeof(licences) / sizeof(licences[0]); l++) {
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
	print_message("%d helper calls, %d refused by the kernel before the arguments (%d as GPL-only), %d "
		      "disagreements\n",
		      total, refused, gpl, bad);
	assert_true(gpl > 0);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sock_addr), cmocka_unit_test(test_sk_lookup),
		cmocka_unit_test(test_sockopt),   cmocka_unit_test(test_sock_ops),
		cmocka_unit_test(test_sweep_vs_kernel), cmocka_unit_test(test_helper_access_vs_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
