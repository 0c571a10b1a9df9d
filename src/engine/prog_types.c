/* prog_types.c — the program type table (Linux 6.18 bpf_types.h and each
 * type's bpf_verifier_ops / get_func_proto / check_return_code rules).
 * Types missing from it end verification as "unsupported". */
#include <linux/bpf.h>
#include <stddef.h>

#include "engine/helper_table.h"
#include "engine/prog_types.h"
#include "util/array_size.h"

/* Measured helper sets of the socket, cgroup and flow dissector program
 * types: bit i set when helper i may be called, measured on the running
 * 6.18.44 kernel (a call-only probe program per program and attach type;
 * "cannot use helper" or "unknown func" means unavailable; docs/kernel-facts.md). */
static const uint64_t hs_sock_addr_bind_sendmsg[4] = {0x028244280243d1eeull, 0x2d6f3e0863f30000ull,
						      0x8c779e3176303f7cull, 0x00000000000f0ffcull};
static const uint64_t hs_sock_addr_connect[4] = {0x028244280243d1eeull, 0x2d6f3e0863f30001ull, 0x8c779e3176303f7cull,
						 0x00000000000f0ffcull};
/* recvmsg, getpeername, getsockname */
static const uint64_t hs_sock_addr_recv_names[4] = {0x028244280243d1eeull, 0x2d6f3e0863f30000ull,
						    0x80779e3176303f7cull, 0x00000000000f0ffcull};
static const uint64_t hs_cgroup_sock[4] = {0x008044280243d1eeull, 0x2d6f2e0063830000ull, 0x8c739e317630207cull,
					   0x00000000000f0fecull};
static const uint64_t hs_sock_ops[4] = {0x0aa244280243d1eeull, 0x2d6f3e0163830040ull, 0x80779e317631ff7cull,
					0x00000000000f0ffcull};
static const uint64_t hs_sk_lookup[4] = {0x008004280243d1eeull, 0x396f260063c10000ull, 0x80779e3176303f7cull,
					 0x00000000000f0ffcull};
static const uint64_t hs_sk_reuseport[4] = {0x008044280443d1eeull, 0x296f260063850010ull, 0x80739e317630207cull,
					    0x00000000000f0fecull};
static const uint64_t hs_sk_msg[4] = {0xf08004280243d1eeull, 0x2d6f3e006f810080ull, 0x80779e3176303f7cull,
				      0x00000000000f0ffcull};
static const uint64_t hs_sk_skb[4] = {0x0094cce80643d3eeull, 0x296f260863f10100ull, 0x80779e3176303f7cull,
				      0x00000000000f0ffcull};
static const uint64_t hs_getsockopt[4] = {0x008004280243d1eeull, 0x2d6f3e0163830000ull, 0x8c739e307630207cull,
					  0x00000000000f0fecull};
static const uint64_t hs_setsockopt[4] = {0x028204280243d1eeull, 0x2d6f3e0163830000ull, 0x8c739e307630207cull,
					  0x00000000000f0fecull};
static const uint64_t hs_cgroup_sysctl[4] = {0x008004280243d1eeull, 0x296f27e063830000ull, 0x8c739e317630207cull,
					     0x00000000000f0fecull};
static const uint64_t hs_cgroup_device[4] = {0x008004280243d1eeull, 0x296f260063830000ull, 0x8c739e307630207cull,
					     0x00000000000f0fecull};
static const uint64_t hs_flow_dissector[4] = {0x008004280443d1eeull, 0x296f260063810000ull, 0x80779e3176303f7cull,
					      0x00000000000f0ffcull};

/* The same measurement for the types whose helpers were approximated by
 * classes before (6.18.44, expected attach type 0; the sets of kprobe,
 * tracepoint and raw_tracepoint are equal, as are sched_cls and sched_act,
 * and cgroup_skb ingress and egress). bpf_probe_write_user and
 * bpf_override_return are missing from the tracing sets: this kernel runs
 * with lockdown=integrity. A helper of these sets whose class (helper_table.c)
 * does not name the type has no prototype modelled for it: unsupported. */
static const uint64_t hs_socket_filter[4] = {0x0080c4280643d1eeull, 0x2d6f260063810010ull, 0x80779e3176303f7cull,
					     0x00000000000f0ffcull};
static const uint64_t hs_tc[4] = {0x0085cfeff7ffffeeull, 0x3d6f7e1fe3f98034ull, 0x80779e397fb03ffcull,
				  0x00000000000ffffdull};
static const uint64_t hs_xdp[4] = {0x00c8142812c3d1eeull, 0x296f661863f10022ull, 0xf0779e3976303f7cull,
				   0x00000000000ffffcull};
static const uint64_t hs_trace[4] = {0x008024280a43d1feull, 0x296f260063810008ull, 0x8073fe307630207cull,
				     0x00000000000f0fecull};
static const uint64_t hs_perf_event[4] = {0x018024280a43d1feull, 0x29ef260063810008ull, 0x8073fe307630207cull,
					  0x00000000000f0fecull};
static const uint64_t hs_cgroup_skb[4] = {0x0080c4280643d1eeull, 0x2d6f3e0fe3fb8010ull, 0x80779e3176303f7full,
					  0x00000000000f0ffcull};

/* The same measurement for the lightweight-tunnel types (6.18.44) */
static const uint64_t hs_lwt_in[4] = {0x008004ae1743d1eeull, 0x296f260063810200ull, 0x80779e3176303f7cull,
				      0x00000000000f0ffcull};
static const uint64_t hs_lwt_out[4] = {0x008004ae1743d1eeull, 0x296f260063810000ull, 0x80779e3176303f7cull,
				       0x00000000000f0ffcull};
static const uint64_t hs_lwt_xmit[4] = {0x00800fee77f3ffeeull, 0x296f260063810200ull, 0x80779e3176303ffcull,
					0x00000000000f0ffcull};
/* lwt_seg6local: the seg6 helpers (#74-#76) exist only with
 * CONFIG_IPV6_SEG6_BPF, which 6.18.44 here lacks (measured: "program of
 * this type cannot use helper bpf_lwt_seg6_store_bytes#74", also #75, #76;
 * the set first measured had them) */
static const uint64_t hs_lwt_seg6local[4] = {0x008004ae1743d1eeull, 0x296f260063810000ull, 0x80779e3176303f7cull,
					     0x00000000000f0ffcull};

/* syscall programs (sleepable: the kernel loads no other) */
static const uint64_t hs_syscall[4] = {0x008064280a43d1feull, 0x2b6fbe0063810008ull, 0x907fbff476383f7cull,
				       0x00000000000f0ffcull};

/* netfilter programs (bpf_nf_func_proto: bpf_base_func_proto), measured
 * on 6.18.44 like the sets above */
static const uint64_t hs_netfilter[4] = {0x008004280043d1eeull, 0x296f260063810000ull, 0x80739e307630207cull,
					 0x00000000000f0fecull};

#define UNCHECKED {false, 0, 0}
#define RANGE(lo, hi) {true, lo, hi}
#define RULES(a) a, (int)(ARRAY_SIZE(a))

static const struct rb_attach_rule cgroup_skb_attach[] = {
	{BPF_CGROUP_INET_EGRESS, RANGE(0, 3), NULL}, /* bit 1: congestion notification */
};

/* the AF_UNIX hooks (6.7+; attach types 49-53 of 6.18's UAPI, newer than
 * the headers this builds with): the same return rules as their inet
 * counterparts (6.18 check_return_code: recvmsg, getpeername and
 * getsockname return 1) */
static const struct rb_attach_rule sock_addr_attach[] = {
	{49 /* BPF_CGROUP_UNIX_CONNECT */, UNCHECKED, hs_sock_addr_bind_sendmsg}, /* no bpf_bind (measured) */
	{50 /* BPF_CGROUP_UNIX_SENDMSG */, UNCHECKED, hs_sock_addr_bind_sendmsg},
	{51 /* BPF_CGROUP_UNIX_RECVMSG */, RANGE(1, 1), hs_sock_addr_recv_names},
	{52 /* BPF_CGROUP_UNIX_GETPEERNAME */, RANGE(1, 1), hs_sock_addr_recv_names},
	{53 /* BPF_CGROUP_UNIX_GETSOCKNAME */, RANGE(1, 1), hs_sock_addr_recv_names},
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
 * check_return_code); the attach type values are 6.18's UAPI
 * (BPF_TRACE_KPROBE_SESSION 56, BPF_TRACE_UPROBE_SESSION 57), newer than
 * the headers this builds with */
static const struct rb_attach_rule kprobe_attach[] = {
	{56, RANGE(0, 1), NULL},
	{57, RANGE(0, 1), NULL},
};

/* fentry/fexit return 0; iterators 0 or 1; fmod_ret, tp_btf and the rest anything */
static const struct rb_attach_rule tracing_attach[] = {
	{BPF_TRACE_ITER, RANGE(0, 1), NULL},
	{BPF_TRACE_FENTRY, RANGE(0, 0), NULL},
	{BPF_TRACE_FEXIT, RANGE(0, 0), NULL},
};

#define SKB_PKT (PT_LD_ABS | PT_PKT_WRITE | PT_PKT_HELPER)

static const struct rb_prog_type types[] = {
	{BPF_PROG_TYPE_SOCKET_FILTER, "socket_filter", "__sk_buff", rb_ctx_skb, PT_LD_ABS, HC_SOCKET_FILTER,
	 UNCHECKED, hs_socket_filter, NULL, 0},
	{BPF_PROG_TYPE_SCHED_CLS, "sched_cls", "__sk_buff", rb_ctx_skb, SKB_PKT, HC_TC, UNCHECKED, hs_tc, NULL, 0},
	{BPF_PROG_TYPE_SCHED_ACT, "sched_act", "__sk_buff", rb_ctx_skb, SKB_PKT, HC_TC, UNCHECKED, hs_tc, NULL, 0},
	{BPF_PROG_TYPE_XDP, "xdp", "xdp_md", rb_ctx_xdp, PT_PKT_WRITE | PT_PKT_HELPER, HC_XDP, UNCHECKED, hs_xdp,
	 NULL, 0},
	{BPF_PROG_TYPE_KPROBE, "kprobe", "pt_regs", rb_ctx_kprobe, PT_NO_CONVERT, HC_TRACE, UNCHECKED, hs_trace,
	 RULES(kprobe_attach)},
	{BPF_PROG_TYPE_TRACEPOINT, "tracepoint", NULL, rb_ctx_tracepoint, PT_NO_CONVERT, HC_TRACE, UNCHECKED, hs_trace,
	 NULL, 0},
	{BPF_PROG_TYPE_RAW_TRACEPOINT, "raw_tracepoint", "bpf_raw_tracepoint_args", rb_ctx_raw_tracepoint,
	 PT_NO_CONVERT, HC_TRACE, UNCHECKED, hs_trace, NULL, 0},
	/* raw_tp_writable_prog_is_valid_access: the first argument is the
	 * tracepoint's writable buffer (measured: the tracing helper set) */
	{BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, "raw_tracepoint_writable", "bpf_raw_tracepoint_args",
	 rb_ctx_raw_tp_writable, PT_NO_CONVERT, HC_TRACE, UNCHECKED, hs_trace, NULL, 0},
	{BPF_PROG_TYPE_PERF_EVENT, "perf_event", "bpf_perf_event_data", rb_ctx_perf_event, 0, HC_TRACE, UNCHECKED,
	 hs_perf_event, NULL, 0},
	{BPF_PROG_TYPE_CGROUP_SKB, "cgroup_skb", "__sk_buff", rb_ctx_skb, PT_LD_ABS | PT_PKT_HELPER, HC_CGROUP_SKB,
	 RANGE(0, 1), hs_cgroup_skb, RULES(cgroup_skb_attach)},
	/* tp_btf, fentry, fexit, fmod_ret, iter: the context through vmlinux BTF (btf.c) */
	{BPF_PROG_TYPE_TRACING, "tracing", NULL, NULL, PT_BTF_CTX | PT_NO_CONVERT, HC_TRACE, UNCHECKED, NULL,
	 RULES(tracing_attach)},
	/* struct_ops: the context, helpers and writes of the struct's own
	 * verifier ops (struct_ops.c); any return value of a non-void member */
	{BPF_PROG_TYPE_STRUCT_OPS, "struct_ops", NULL, NULL, PT_BTF_CTX | PT_NO_CONVERT, 0, UNCHECKED, NULL, NULL, 0},
	/* lsm: the hook's arguments through BTF (btf.c, lsm.c); helpers as tracing */
	{BPF_PROG_TYPE_LSM, "lsm", NULL, NULL, PT_BTF_CTX | PT_NO_CONVERT, HC_TRACE | HC_LSM, UNCHECKED, NULL, NULL, 0},
	/* syscall (6.18 bpf_syscall_verifier_ops): any aligned offset below
	 * U16_MAX, read or written; loaded sleepable only (measured set) */
	{BPF_PROG_TYPE_SYSCALL, "syscall", NULL, rb_ctx_syscall, PT_NO_CONVERT, 0, UNCHECKED, hs_syscall, NULL, 0},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, "cgroup_sock_addr", "bpf_sock_addr", rb_ctx_sock_addr, PT_ATTACH_LISTED, 0, RANGE(0, 1),
	 NULL, RULES(sock_addr_attach)},
	{BPF_PROG_TYPE_CGROUP_SOCK, "cgroup_sock", "bpf_sock", rb_ctx_sock, PT_ATTACH_LISTED, 0, RANGE(0, 1), hs_cgroup_sock,
	 RULES(cgroup_sock_attach)},
	{BPF_PROG_TYPE_SOCK_OPS, "sock_ops", "bpf_sock_ops", rb_ctx_sock_ops, 0, 0, RANGE(0, 1), hs_sock_ops, NULL, 0},
	{BPF_PROG_TYPE_SK_LOOKUP, "sk_lookup", "bpf_sk_lookup", rb_ctx_sk_lookup, 0, 0, RANGE(0, 1), hs_sk_lookup, NULL, 0},
	{BPF_PROG_TYPE_SK_REUSEPORT, "sk_reuseport", "sk_reuseport_md", rb_ctx_sk_reuseport, PT_PKT_HELPER, 0, UNCHECKED,
	 hs_sk_reuseport, NULL, 0},
	{BPF_PROG_TYPE_SK_MSG, "sk_msg", "sk_msg_md", rb_ctx_sk_msg, PT_PKT_WRITE | PT_PKT_HELPER, 0, UNCHECKED, hs_sk_msg,
	 NULL, 0},
	{BPF_PROG_TYPE_SK_SKB, "sk_skb", "__sk_buff", rb_ctx_sk_skb, PT_PKT_WRITE | PT_PKT_HELPER, 0, UNCHECKED, hs_sk_skb,
	 NULL, 0},
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, "cgroup_sockopt", "bpf_sockopt", rb_ctx_sockopt,
	 PT_ATTACH_LISTED | PT_PKT_WRITE | PT_PKT_HELPER_ANY, 0, RANGE(0, 1), NULL, RULES(sockopt_attach)},
	{BPF_PROG_TYPE_CGROUP_SYSCTL, "cgroup_sysctl", "bpf_sysctl", rb_ctx_sysctl, 0, 0, RANGE(0, 1), hs_cgroup_sysctl, NULL,
	 0},
	{BPF_PROG_TYPE_CGROUP_DEVICE, "cgroup_device", "bpf_cgroup_dev_ctx", rb_ctx_cgroup_dev, 0, 0, RANGE(0, 1), hs_cgroup_device,
	 NULL, 0},
	/* lwt_*_verifier_ops: direct packet writes for lwt_xmit only
	 * (may_access_direct_pkt_data), no return-code check */
	{BPF_PROG_TYPE_LWT_IN, "lwt_in", "__sk_buff", rb_ctx_lwt, PT_PKT_HELPER, 0, UNCHECKED, hs_lwt_in, NULL, 0},
	{BPF_PROG_TYPE_LWT_OUT, "lwt_out", "__sk_buff", rb_ctx_lwt, PT_PKT_HELPER, 0, UNCHECKED, hs_lwt_out, NULL, 0},
	{BPF_PROG_TYPE_LWT_XMIT, "lwt_xmit", "__sk_buff", rb_ctx_lwt, PT_PKT_WRITE | PT_PKT_HELPER, 0, UNCHECKED,
	 hs_lwt_xmit, NULL, 0},
	{BPF_PROG_TYPE_LWT_SEG6LOCAL, "lwt_seg6local", "__sk_buff", rb_ctx_lwt, PT_PKT_HELPER, 0, UNCHECKED,
	 hs_lwt_seg6local, NULL, 0},
	/* netfilter (6.4+, type 32 of 6.18's UAPI): struct bpf_nf_ctx, the base
	 * helpers (measured set), NF_DROP or NF_ACCEPT returned */
	{32, "netfilter", "bpf_nf_ctx", rb_ctx_netfilter, PT_NO_CONVERT, 0, RANGE(0, 1), hs_netfilter, NULL, 0},
	{BPF_PROG_TYPE_FLOW_DISSECTOR, "flow_dissector", "__sk_buff", rb_ctx_flow_dissector, PT_PKT_HELPER, 0, UNCHECKED,
	 hs_flow_dissector, NULL, 0},
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
	case 32 /* netfilter */: return 45; /* BPF_NETFILTER, which it must carry */
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
