/* prog_types.c — the program type table (Linux 6.18 bpf_types.h and each
 * type's bpf_verifier_ops / get_func_proto / check_return_code rules).
 * Types missing from it end verification as "unsupported". */
#include <linux/bpf.h>
#include <stddef.h>

#include "engine/helper_set_lists.h"
#include "engine/helper_table.h"
#include "engine/prog_types.h"
#include "loader/uapi_names.h"
#include "util/array_size.h"

/* the helper sets measured on 6.18.44, by name in helper_set_lists.h */
static const uint64_t hs_netfilter[4] = RB_HELPER_BITS(RB_HS618_NETFILTER);
static const uint64_t hs_socket_filter[4] = RB_HELPER_BITS(RB_HS618_SOCKET_FILTER);
static const uint64_t hs_tc[4] = RB_HELPER_BITS(RB_HS618_TC);
static const uint64_t hs_xdp[4] = RB_HELPER_BITS(RB_HS618_XDP);
static const uint64_t hs_trace[4] = RB_HELPER_BITS(RB_HS618_TRACE);
static const uint64_t hs_perf_event[4] = RB_HELPER_BITS(RB_HS618_PERF_EVENT);
static const uint64_t hs_cgroup_skb[4] = RB_HELPER_BITS(RB_HS618_CGROUP_SKB);
static const uint64_t hs_sock_addr_bind_sendmsg[4] = RB_HELPER_BITS(RB_HS618_SOCK_ADDR_BIND_SENDMSG);
static const uint64_t hs_sock_addr_connect[4] = RB_HELPER_BITS(RB_HS618_SOCK_ADDR_CONNECT);
static const uint64_t hs_sock_addr_recv_names[4] = RB_HELPER_BITS(RB_HS618_SOCK_ADDR_RECV_NAMES);
static const uint64_t hs_cgroup_sock[4] = RB_HELPER_BITS(RB_HS618_CGROUP_SOCK);
static const uint64_t hs_sock_ops[4] = RB_HELPER_BITS(RB_HS618_SOCK_OPS);
static const uint64_t hs_sk_lookup[4] = RB_HELPER_BITS(RB_HS618_SK_LOOKUP);
static const uint64_t hs_sk_reuseport[4] = RB_HELPER_BITS(RB_HS618_SK_REUSEPORT);
static const uint64_t hs_sk_msg[4] = RB_HELPER_BITS(RB_HS618_SK_MSG);
static const uint64_t hs_sk_skb[4] = RB_HELPER_BITS(RB_HS618_SK_SKB);
static const uint64_t hs_getsockopt[4] = RB_HELPER_BITS(RB_HS618_GETSOCKOPT);
static const uint64_t hs_setsockopt[4] = RB_HELPER_BITS(RB_HS618_SETSOCKOPT);
static const uint64_t hs_cgroup_sysctl[4] = RB_HELPER_BITS(RB_HS618_CGROUP_SYSCTL);
static const uint64_t hs_cgroup_device[4] = RB_HELPER_BITS(RB_HS618_CGROUP_DEVICE);
static const uint64_t hs_flow_dissector[4] = RB_HELPER_BITS(RB_HS618_FLOW_DISSECTOR);
static const uint64_t hs_lwt_in[4] = RB_HELPER_BITS(RB_HS618_LWT_IN);
static const uint64_t hs_lwt_out[4] = RB_HELPER_BITS(RB_HS618_LWT_OUT);
static const uint64_t hs_lwt_xmit[4] = RB_HELPER_BITS(RB_HS618_LWT_XMIT);
static const uint64_t hs_lwt_seg6local[4] = RB_HELPER_BITS(RB_HS618_LWT_SEG6LOCAL);
static const uint64_t hs_syscall[4] = RB_HELPER_BITS(RB_HS618_SYSCALL);

#define UNCHECKED {false, 0, 0}
#define RANGE(lo, hi) {true, lo, hi}
#define RULES(a) .attach = a, .nattach = (int)(ARRAY_SIZE(a))

static const struct rb_attach_rule cgroup_skb_attach[] = {
	{BPF_CGROUP_INET_EGRESS, RANGE(0, 3), NULL}, /* bit 1: congestion notification */
};

/* the AF_UNIX hooks (6.7+; newer than the headers this builds with, named
 * by loader/uapi_names.h): the same return rules as their inet
 * counterparts (6.18 check_return_code: recvmsg, getpeername and
 * getsockname return 1) */
static const struct rb_attach_rule sock_addr_attach[] = {
	{RB_BPF_CGROUP_UNIX_CONNECT, UNCHECKED, hs_sock_addr_bind_sendmsg}, /* no bpf_bind (measured) */
	{RB_BPF_CGROUP_UNIX_SENDMSG, UNCHECKED, hs_sock_addr_bind_sendmsg},
	{RB_BPF_CGROUP_UNIX_RECVMSG, RANGE(1, 1), hs_sock_addr_recv_names},
	{RB_BPF_CGROUP_UNIX_GETPEERNAME, RANGE(1, 1), hs_sock_addr_recv_names},
	{RB_BPF_CGROUP_UNIX_GETSOCKNAME, RANGE(1, 1), hs_sock_addr_recv_names},
	{BPF_CGROUP_INET4_BIND, RANGE(0, 3), hs_sock_addr_bind_sendmsg},
	{BPF_CGROUP_INET6_BIND, RANGE(0, 3), hs_sock_addr_bind_sendmsg},
	{BPF_CGROUP_INET4_CONNECT, UNCHECKED, hs_sock_addr_connect},
	{BPF_CGROUP_INET6_CONNECT, UNCHECKED, hs_sock_addr_connect},
	{BPF_CGROUP_UDP4_SENDMSG, UNCHECKED, hs_sock_addr_bind_sendmsg},
	{BPF_CGROUP_UDP6_SENDMSG, UNCHECKED, hs_sock_addr_bind_sendmsg},
	{BPF_CGROUP_UDP4_RECVMSG, RANGE(1, 1), hs_sock_addr_recv_names},
	{BPF_CGROUP_UDP6_RECVMSG, RANGE(1, 1), hs_sock_addr_recv_names},
	{BPF_CGROUP_INET4_GETPEERNAME, RANGE(1, 1), hs_sock_addr_recv_names},
	{BPF_CGROUP_INET6_GETPEERNAME, RANGE(1, 1), hs_sock_addr_recv_names},
	{BPF_CGROUP_INET4_GETSOCKNAME, RANGE(1, 1), hs_sock_addr_recv_names},
	{BPF_CGROUP_INET6_GETSOCKNAME, RANGE(1, 1), hs_sock_addr_recv_names},
};

static const struct rb_attach_rule cgroup_sock_attach[] = {
	{BPF_CGROUP_INET_SOCK_CREATE, UNCHECKED, NULL},
	{BPF_CGROUP_INET_SOCK_RELEASE, UNCHECKED, NULL},
	{BPF_CGROUP_INET4_POST_BIND, UNCHECKED, NULL},
	{BPF_CGROUP_INET6_POST_BIND, UNCHECKED, NULL},
};

static const struct rb_attach_rule sockopt_attach[] = {
	{BPF_CGROUP_GETSOCKOPT, UNCHECKED, hs_getsockopt},
	{BPF_CGROUP_SETSOCKOPT, UNCHECKED, hs_setsockopt},
};

/* kprobe and uprobe session programs return 0 or 1 (6.18
 * check_return_code) */
static const struct rb_attach_rule kprobe_attach[] = {
	{RB_BPF_TRACE_KPROBE_SESSION, RANGE(0, 1), NULL},
	{RB_BPF_TRACE_UPROBE_SESSION, RANGE(0, 1), NULL},
};

/* fentry/fexit return 0; iterators 0 or 1; fmod_ret, tp_btf and the rest anything */
static const struct rb_attach_rule tracing_attach[] = {
	{BPF_TRACE_ITER, RANGE(0, 1), NULL},
	{BPF_TRACE_FENTRY, RANGE(0, 0), NULL},
	{BPF_TRACE_FEXIT, RANGE(0, 0), NULL},
};

#define SKB_PKT (PT_LD_ABS | PT_PKT_WRITE | PT_PKT_HELPER)

static const struct rb_prog_type types[] = {
	{.type = BPF_PROG_TYPE_SOCKET_FILTER, .name = "socket_filter", .ctx_struct = "__sk_buff",
	 .ctx_access = rb_ctx_skb, .flags = PT_LD_ABS, .helper_classes = HC_SOCKET_FILTER, .ret = UNCHECKED,
	 .helpers = hs_socket_filter},
	{.type = BPF_PROG_TYPE_SCHED_CLS, .name = "sched_cls", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_skb,
	 .flags = SKB_PKT, .helper_classes = HC_TC, .ret = UNCHECKED, .helpers = hs_tc},
	{.type = BPF_PROG_TYPE_SCHED_ACT, .name = "sched_act", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_skb,
	 .flags = SKB_PKT, .helper_classes = HC_TC, .ret = UNCHECKED, .helpers = hs_tc},
	{.type = BPF_PROG_TYPE_XDP, .name = "xdp", .ctx_struct = "xdp_md", .ctx_access = rb_ctx_xdp,
	 .flags = PT_PKT_WRITE | PT_PKT_HELPER, .helper_classes = HC_XDP, .ret = UNCHECKED, .helpers = hs_xdp},
	{.type = BPF_PROG_TYPE_KPROBE, .name = "kprobe", .ctx_struct = "pt_regs", .ctx_access = rb_ctx_kprobe,
	 .flags = PT_NO_CONVERT, .helper_classes = HC_TRACE, .ret = UNCHECKED,
	 .helpers = hs_trace, RULES(kprobe_attach)},
	{.type = BPF_PROG_TYPE_TRACEPOINT, .name = "tracepoint", .ctx_access = rb_ctx_tracepoint,
	 .flags = PT_NO_CONVERT, .helper_classes = HC_TRACE, .ret = UNCHECKED, .helpers = hs_trace},
	{.type = BPF_PROG_TYPE_RAW_TRACEPOINT, .name = "raw_tracepoint", .ctx_struct = "bpf_raw_tracepoint_args",
	 .ctx_access = rb_ctx_raw_tracepoint, .flags = PT_NO_CONVERT, .helper_classes = HC_TRACE, .ret = UNCHECKED,
	 .helpers = hs_trace},
	/* raw_tp_writable_prog_is_valid_access: the first argument is the
	 * tracepoint's writable buffer (measured: the tracing helper set) */
	{.type = BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, .name = "raw_tracepoint_writable",
	 .ctx_struct = "bpf_raw_tracepoint_args", .ctx_access = rb_ctx_raw_tp_writable, .flags = PT_NO_CONVERT,
	 .helper_classes = HC_TRACE, .ret = UNCHECKED, .helpers = hs_trace},
	{.type = BPF_PROG_TYPE_PERF_EVENT, .name = "perf_event", .ctx_struct = "bpf_perf_event_data",
	 .ctx_access = rb_ctx_perf_event, .helper_classes = HC_TRACE, .ret = UNCHECKED, .helpers = hs_perf_event},
	{.type = BPF_PROG_TYPE_CGROUP_SKB, .name = "cgroup_skb", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_skb,
	 .flags = PT_LD_ABS | PT_PKT_HELPER, .helper_classes = HC_CGROUP_SKB, .ret = RANGE(0, 1),
	 .helpers = hs_cgroup_skb, RULES(cgroup_skb_attach)},
	/* tp_btf, fentry, fexit, fmod_ret, iter: the context through vmlinux BTF (btf.c) */
	{.type = BPF_PROG_TYPE_TRACING, .name = "tracing", .flags = PT_BTF_CTX | PT_NO_CONVERT,
	 .helper_classes = HC_TRACE, .ret = UNCHECKED, RULES(tracing_attach)},
	/* struct_ops: the context, helpers and writes of the struct's own
	 * verifier ops (struct_ops.c); any return value of a non-void member */
	{.type = BPF_PROG_TYPE_STRUCT_OPS, .name = "struct_ops", .flags = PT_BTF_CTX | PT_NO_CONVERT, .ret = UNCHECKED},
	/* lsm: the hook's arguments through BTF (btf.c, lsm.c); helpers as tracing */
	{.type = BPF_PROG_TYPE_LSM, .name = "lsm", .flags = PT_BTF_CTX | PT_NO_CONVERT,
	 .helper_classes = HC_TRACE | HC_LSM, .ret = UNCHECKED},
	/* syscall (6.18 bpf_syscall_verifier_ops): any aligned offset below
	 * U16_MAX, read or written; loaded sleepable only (measured set) */
	{.type = BPF_PROG_TYPE_SYSCALL, .name = "syscall", .ctx_access = rb_ctx_syscall, .flags = PT_NO_CONVERT,
	 .ret = UNCHECKED, .helpers = hs_syscall},
	{.type = BPF_PROG_TYPE_CGROUP_SOCK_ADDR, .name = "cgroup_sock_addr", .ctx_struct = "bpf_sock_addr",
	 .ctx_access = rb_ctx_sock_addr, .flags = PT_ATTACH_LISTED, .ret = RANGE(0, 1), RULES(sock_addr_attach)},
	{.type = BPF_PROG_TYPE_CGROUP_SOCK, .name = "cgroup_sock", .ctx_struct = "bpf_sock", .ctx_access = rb_ctx_sock,
	 .flags = PT_ATTACH_LISTED, .ret = RANGE(0, 1), .helpers = hs_cgroup_sock, RULES(cgroup_sock_attach)},
	{.type = BPF_PROG_TYPE_SOCK_OPS, .name = "sock_ops", .ctx_struct = "bpf_sock_ops",
	 .ctx_access = rb_ctx_sock_ops, .ret = RANGE(0, 1), .helpers = hs_sock_ops},
	{.type = BPF_PROG_TYPE_SK_LOOKUP, .name = "sk_lookup", .ctx_struct = "bpf_sk_lookup",
	 .ctx_access = rb_ctx_sk_lookup, .ret = RANGE(0, 1), .helpers = hs_sk_lookup},
	{.type = BPF_PROG_TYPE_SK_REUSEPORT, .name = "sk_reuseport", .ctx_struct = "sk_reuseport_md",
	 .ctx_access = rb_ctx_sk_reuseport, .flags = PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_sk_reuseport},
	{.type = BPF_PROG_TYPE_SK_MSG, .name = "sk_msg", .ctx_struct = "sk_msg_md", .ctx_access = rb_ctx_sk_msg,
	 .flags = PT_PKT_WRITE | PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_sk_msg},
	{.type = BPF_PROG_TYPE_SK_SKB, .name = "sk_skb", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_sk_skb,
	 .flags = PT_PKT_WRITE | PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_sk_skb},
	{.type = BPF_PROG_TYPE_CGROUP_SOCKOPT, .name = "cgroup_sockopt", .ctx_struct = "bpf_sockopt",
	 .ctx_access = rb_ctx_sockopt, .flags = PT_ATTACH_LISTED | PT_PKT_WRITE | PT_PKT_HELPER_ANY,
	 .ret = RANGE(0, 1), RULES(sockopt_attach)},
	{.type = BPF_PROG_TYPE_CGROUP_SYSCTL, .name = "cgroup_sysctl", .ctx_struct = "bpf_sysctl",
	 .ctx_access = rb_ctx_sysctl, .ret = RANGE(0, 1), .helpers = hs_cgroup_sysctl},
	{.type = BPF_PROG_TYPE_CGROUP_DEVICE, .name = "cgroup_device", .ctx_struct = "bpf_cgroup_dev_ctx",
	 .ctx_access = rb_ctx_cgroup_dev, .ret = RANGE(0, 1), .helpers = hs_cgroup_device},
	/* lwt_*_verifier_ops: direct packet writes for lwt_xmit only
	 * (may_access_direct_pkt_data), no return-code check */
	{.type = BPF_PROG_TYPE_LWT_IN, .name = "lwt_in", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_lwt,
	 .flags = PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_lwt_in},
	{.type = BPF_PROG_TYPE_LWT_OUT, .name = "lwt_out", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_lwt,
	 .flags = PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_lwt_out},
	{.type = BPF_PROG_TYPE_LWT_XMIT, .name = "lwt_xmit", .ctx_struct = "__sk_buff", .ctx_access = rb_ctx_lwt,
	 .flags = PT_PKT_WRITE | PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_lwt_xmit},
	{.type = BPF_PROG_TYPE_LWT_SEG6LOCAL, .name = "lwt_seg6local", .ctx_struct = "__sk_buff",
	 .ctx_access = rb_ctx_lwt, .flags = PT_PKT_HELPER, .ret = UNCHECKED, .helpers = hs_lwt_seg6local},
	/* netfilter (6.4+): struct bpf_nf_ctx, the base
	 * helpers (measured set), NF_DROP or NF_ACCEPT returned */
	{.type = RB_BPF_PROG_TYPE_NETFILTER, .name = "netfilter", .ctx_struct = "bpf_nf_ctx",
	 .ctx_access = rb_ctx_netfilter, .flags = PT_NO_CONVERT, .ret = RANGE(0, 1), .helpers = hs_netfilter},
	{.type = BPF_PROG_TYPE_FLOW_DISSECTOR, .name = "flow_dissector", .ctx_struct = "__sk_buff",
	 .ctx_access = rb_ctx_flow_dissector, .flags = PT_PKT_HELPER, .ret = UNCHECKED,
	 .helpers = hs_flow_dissector},
};

const struct rb_prog_type *rb_prog_type(uint32_t type)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (types[i].type == type)
			return &types[i];
	return NULL;
}

static const struct rb_attach_rule *attach_rule(const struct rb_prog_type *pt, uint32_t at)
{
	for (int i = 0; i < pt->nattach; i++)
		if (pt->attach[i].attach == at)
			return &pt->attach[i];
	return NULL;
}

bool rb_attach_type_supported(const struct rb_prog_type *pt, uint32_t at)
{
	return !(pt->flags & PT_ATTACH_LISTED) || attach_rule(pt, at);
}

struct rb_ret_range rb_prog_ret_range(const struct rb_prog_type *pt, uint32_t at)
{
	const struct rb_attach_rule *r = attach_rule(pt, at);
	return r && r->ret.checked ? r->ret : pt->ret;
}

const uint64_t *rb_prog_helper_set(const struct rb_prog_type *pt, uint32_t at)
{
	const struct rb_attach_rule *r = attach_rule(pt, at);
	return r && r->helpers ? r->helpers : pt->helpers;
}

/* the attach type programs of a type usually carry (libbpf's section
 * definitions), for the types whose helpers depend on it */
static uint32_t usual_attach(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_CGROUP_SYSCTL: return BPF_CGROUP_SYSCTL;
	case BPF_PROG_TYPE_CGROUP_DEVICE: return BPF_CGROUP_DEVICE;
	case BPF_PROG_TYPE_SK_LOOKUP: return BPF_SK_LOOKUP;
	case BPF_PROG_TYPE_SOCK_OPS: return BPF_CGROUP_SOCK_OPS;
	case RB_BPF_PROG_TYPE_NETFILTER: return RB_BPF_NETFILTER; /* which it must carry */
	default: return 0;
	}
}

size_t rb_prog_helper_set_keys(uint32_t (*keys)[2], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		const struct rb_prog_type *pt = &types[i];
		if (pt->helpers) {
			if (n < max)
				keys[n][0] = pt->type, keys[n][1] = usual_attach(pt->type);
			n++;
		}
		for (int j = 0; j < pt->nattach; j++) {
			if (!pt->attach[j].helpers)
				continue;
			if (n < max)
				keys[n][0] = pt->type, keys[n][1] = pt->attach[j].attach;
			n++;
		}
	}
	return n;
}

bool rb_prog_has_helper_sets(const struct rb_prog_type *pt)
{
	if (pt->helpers)
		return true;
	for (int i = 0; i < pt->nattach; i++)
		if (pt->attach[i].helpers)
			return true;
	return false;
}

/* bpf_prog_load_fixup_attach_type (6.18 kernel/bpf/syscall.c): the
 * attach type the kernel verifies a program with when it was given 0 */
uint32_t rb_prog_fixup_attach_type(uint32_t type, uint32_t attach_type)
{
	if (attach_type)
		return attach_type;
	if (type == BPF_PROG_TYPE_CGROUP_SOCK)
		return BPF_CGROUP_INET_SOCK_CREATE;
	if (type == BPF_PROG_TYPE_SK_REUSEPORT)
		return BPF_SK_REUSEPORT_SELECT;
	return attach_type;
}

bool rb_prog_attach_type_valid(uint32_t type, uint32_t at)
{
	switch (type) {
	case BPF_PROG_TYPE_CGROUP_SOCK:
		return at == BPF_CGROUP_INET_SOCK_CREATE || at == BPF_CGROUP_INET_SOCK_RELEASE ||
		       at == BPF_CGROUP_INET4_POST_BIND || at == BPF_CGROUP_INET6_POST_BIND;
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		switch (at) {
		case BPF_CGROUP_INET4_BIND: case BPF_CGROUP_INET6_BIND:
		case BPF_CGROUP_INET4_CONNECT: case BPF_CGROUP_INET6_CONNECT:
		case RB_BPF_CGROUP_UNIX_CONNECT:
		case BPF_CGROUP_INET4_GETPEERNAME: case BPF_CGROUP_INET6_GETPEERNAME:
		case RB_BPF_CGROUP_UNIX_GETPEERNAME:
		case BPF_CGROUP_INET4_GETSOCKNAME: case BPF_CGROUP_INET6_GETSOCKNAME:
		case RB_BPF_CGROUP_UNIX_GETSOCKNAME:
		case BPF_CGROUP_UDP4_SENDMSG: case BPF_CGROUP_UDP6_SENDMSG: case RB_BPF_CGROUP_UNIX_SENDMSG:
		case BPF_CGROUP_UDP4_RECVMSG: case BPF_CGROUP_UDP6_RECVMSG: case RB_BPF_CGROUP_UNIX_RECVMSG:
			return true;
		default:
			return false;
		}
	case BPF_PROG_TYPE_CGROUP_SKB:
		return at == BPF_CGROUP_INET_INGRESS || at == BPF_CGROUP_INET_EGRESS;
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return at == BPF_CGROUP_SETSOCKOPT || at == BPF_CGROUP_GETSOCKOPT;
	case BPF_PROG_TYPE_SK_LOOKUP:
		return at == BPF_SK_LOOKUP;
	case BPF_PROG_TYPE_SK_REUSEPORT:
		return at == BPF_SK_REUSEPORT_SELECT || at == BPF_SK_REUSEPORT_SELECT_OR_MIGRATE;
	case RB_BPF_PROG_TYPE_NETFILTER:
		return at == RB_BPF_NETFILTER;
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_EXT:
		return at == 0;
	default:
		return true;
	}
}

/* 6.18 check_attach_btf_id, its first checks: syscall programs only
 * sleepable, and can_be_sleepable() */
const char *rb_prog_sleepable_error(uint32_t type, uint32_t attach_type, bool sleepable)
{
	if (type == BPF_PROG_TYPE_SYSCALL)
		return sleepable ? NULL : "Syscall programs can only be sleepable";
	if (!sleepable)
		return NULL;
	bool can = type == BPF_PROG_TYPE_LSM || type == BPF_PROG_TYPE_KPROBE /* only for uprobes */ ||
		   type == BPF_PROG_TYPE_STRUCT_OPS;
	if (type == BPF_PROG_TYPE_TRACING)
		can = attach_type == BPF_TRACE_FENTRY || attach_type == BPF_TRACE_FEXIT ||
		      attach_type == BPF_MODIFY_RETURN || attach_type == BPF_TRACE_ITER;
	return can ? NULL : "Only fentry/fexit/fmod_ret, lsm, iter, uprobe, and struct_ops programs can be sleepable";
}
