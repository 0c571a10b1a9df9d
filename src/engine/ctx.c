/* ctx.c — context access rules per program type, following Linux 6.18's
 * *_is_valid_access callbacks: __sk_buff (socket filter, tc, cgroup skb),
 * xdp_md, pt_regs (kprobe), perf_event data, tracepoint and raw
 * tracepoint arguments. Offsets are those of the UAPI structures. The
 * socket-level types are in ctx_sock.c, the cgroup ones in ctx_cgroup.c. */
#include <stddef.h>
#include <string.h>

#include "engine/ctx.h"

bool rb_prog_type_supported(uint32_t pt)
{
	switch (pt) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_TRACING: /* tp_btf, fentry, fexit, fmod_ret (btf.c) */
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_SOCK_OPS:
	case BPF_PROG_TYPE_SK_LOOKUP:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return true;
	default:
		return false;
	}
}

/* the attach types whose rules are modelled, for the types that have them */
bool rb_attach_type_supported(uint32_t pt, uint32_t at)
{
	switch (pt) {
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		return rb_sock_addr_attach_known(at);
	case BPF_PROG_TYPE_CGROUP_SOCK:
		return at == BPF_CGROUP_INET_SOCK_CREATE || at == BPF_CGROUP_INET_SOCK_RELEASE ||
		       at == BPF_CGROUP_INET4_POST_BIND || at == BPF_CGROUP_INET6_POST_BIND;
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return at == BPF_CGROUP_GETSOCKOPT || at == BPF_CGROUP_SETSOCKOPT;
	default:
		return true;
	}
}

/* may_access_direct_pkt_data: may the program write into its packet
 * (directly, or as a helper's output buffer)? */
bool rb_pkt_write_ok(uint32_t pt)
{
	switch (pt) {
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return true;
	default:
		return false;
	}
}

/* may_access_direct_pkt_data for a helper's memory argument: packet
 * pointers go only to helpers declared pkt_access (cgroup_sockopt: any) */
bool rb_pkt_helper_ok(uint32_t pt, bool helper_pkt_access)
{
	switch (pt) {
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return true;
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_SK_MSG:
		return helper_pkt_access;
	default:
		return false;
	}
}

bool rb_prog_type_has_pkt(uint32_t pt)
{
	return pt == BPF_PROG_TYPE_SCHED_CLS || pt == BPF_PROG_TYPE_SCHED_ACT || pt == BPF_PROG_TYPE_XDP ||
	       pt == BPF_PROG_TYPE_CGROUP_SKB;
}

#define SKB(f) offsetof(struct __sk_buff, f)
#define SKB_END(f) (offsetof(struct __sk_buff, f) + sizeof(((struct __sk_buff *)0)->f))

static int reject(struct rb_env *env, int off, int size)
{
	return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
}

/* bpf_skb_is_valid_access plus the per-type rules */
static int skb_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	uint32_t pt = env->prog->prog_type;
	bool tc = pt == BPF_PROG_TYPE_SCHED_CLS || pt == BPF_PROG_TYPE_SCHED_ACT;
	out->reg_type = RT_SCALAR;
	out->flags = 0;
	if (off < 0 || (size_t)off >= sizeof(struct __sk_buff) || off % size)
		return reject(env, off, size);
	/* per program type */
	if (write) {
		bool ok = false;
		if (off >= (int)SKB(cb[0]) && off + size <= (int)SKB_END(cb[4]))
			ok = true;
		if (tc && (off == (int)SKB(mark) || off == (int)SKB(tc_index) || off == (int)SKB(priority) ||
			   off == (int)SKB(tc_classid) || off == (int)SKB(queue_mapping) || off == (int)SKB(tstamp)))
			ok = true;
		if (pt == BPF_PROG_TYPE_CGROUP_SKB && (off == (int)SKB(mark) || off == (int)SKB(priority)))
			ok = true;
		if (!ok)
			return reject(env, off, size);
	} else {
		switch (off) {
		case SKB(tc_classid):
			if (!tc)
				return reject(env, off, size);
			break;
		case SKB(data):
		case SKB(data_end):
		case SKB(data_meta):
			if (pt == BPF_PROG_TYPE_SOCKET_FILTER || (pt == BPF_PROG_TYPE_CGROUP_SKB && off == (int)SKB(data_meta)))
				return reject(env, off, size);
			if (size != 4)
				return reject(env, off, size);
			out->reg_type = off == (int)SKB(data) ? RT_PKT : off == (int)SKB(data_end) ? RT_PKT_END : RT_PKT_META;
			return 0;
		case SKB(flow_keys):
			return reject(env, off, size);
		case SKB(sk):
			if (size != 8)
				return reject(env, off, size);
			if (pt == BPF_PROG_TYPE_SOCKET_FILTER)
				return reject(env, off, size);
			out->reg_type = RT_SOCK_COMMON; /* PTR_TO_SOCK_COMMON_OR_NULL */
			out->flags = RF_MAYBE_NULL;
			return 0;
		case SKB(tstamp):
		case SKB(hwtstamp):
			if (size != 8)
				return reject(env, off, size);
			return 0;
		default:
			break;
		}
	}
	/* the generic layout rules: 8-byte fields, u32 fields with narrow loads */
	if (off == (int)SKB(tstamp) || off == (int)SKB(hwtstamp) || off == (int)SKB(sk) || off == (int)SKB(flow_keys)) {
		if (size != 8)
			return reject(env, off, size);
		return 0;
	}
	if (off >= (int)SKB(cb[0]) && off + size <= (int)SKB_END(cb[4]))
		return 0; /* cb[] allows any aligned size */
	if (off >= (int)SKB(remote_ip6[0]) && off + size <= (int)SKB_END(local_ip6[3]) && size == 4)
		return 0;
	if (off == (int)SKB(tstamp_type)) {
		if (size != 1)
			return reject(env, off, size);
		return 0;
	}
	if (size == 4)
		return 0;
	/* narrow loads of u32 fields (bpf_ctx_narrow_access_ok) for the fields that allow them */
	if (!write && (size == 1 || size == 2)) {
		int base = off & ~3;
		if (base == (int)SKB(len) || base == (int)SKB(pkt_type) || base == (int)SKB(mark) ||
		    base == (int)SKB(queue_mapping) || base == (int)SKB(protocol) || base == (int)SKB(vlan_present) ||
		    base == (int)SKB(vlan_tci) || base == (int)SKB(vlan_proto) || base == (int)SKB(priority) ||
		    base == (int)SKB(ingress_ifindex) || base == (int)SKB(ifindex) || base == (int)SKB(tc_index) ||
		    base == (int)SKB(hash) || base == (int)SKB(tc_classid) || base == (int)SKB(napi_id))
			return 0;
	}
	return reject(env, off, size);
}

/* flow_dissector_is_valid_access: read-only; data, data_end and the
 * flow_keys pointer only */
static int flow_dissector_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (off < 0 || (size_t)off >= sizeof(struct __sk_buff) || write)
		return reject(env, off, size);
	if (off >= (int)SKB(data) && off < (int)SKB_END(data) && size == 4) {
		out->reg_type = RT_PKT;
		return 0;
	}
	if (off >= (int)SKB(data_end) && off < (int)SKB_END(data_end) && size == 4) {
		out->reg_type = RT_PKT_END;
		return 0;
	}
	if (off >= (int)SKB(flow_keys) && off < (int)SKB_END(flow_keys) && size == 8) {
		out->reg_type = RT_FLOW_KEYS;
		return 0;
	}
	return reject(env, off, size);
}

static int xdp_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	out->reg_type = RT_SCALAR;
	out->flags = 0;
	if (off < 0 || (size_t)off >= sizeof(struct xdp_md) || off % size || size != 4)
		return reject(env, off, size);
	if (write)
		return reject(env, off, size);
	/* egress_ifindex exists only for programs run from a devmap */
	if (off == offsetof(struct xdp_md, egress_ifindex) && env->prog->expected_attach_type != BPF_XDP_DEVMAP)
		return reject(env, off, size);
	switch (off) {
	case offsetof(struct xdp_md, data):
		out->reg_type = RT_PKT;
		break;
	case offsetof(struct xdp_md, data_meta):
		out->reg_type = RT_PKT_META;
		break;
	case offsetof(struct xdp_md, data_end):
		out->reg_type = RT_PKT_END;
		break;
	}
	return 0;
}

int rb_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	out->reg_type = RT_SCALAR;
	out->flags = 0;
	switch (env->prog->prog_type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB:
		return skb_access(env, off, size, write, out);
	case BPF_PROG_TYPE_XDP:
		return xdp_access(env, off, size, write, out);
	case BPF_PROG_TYPE_KPROBE:
		/* struct pt_regs on x86-64: 21 u64 */
		if (off < 0 || off + size > 168 || off % size || write)
			return reject(env, off, size);
		return 0;
	case BPF_PROG_TYPE_PERF_EVENT:
		/* struct bpf_perf_event_data: pt_regs, u64 sample_period, u64 addr */
		if (off < 0 || off + size > 184 || off % size || write)
			return reject(env, off, size);
		if (off >= 168 && size != 8)
			return reject(env, off, size);
		return 0;
	case BPF_PROG_TYPE_TRACEPOINT:
		/* PERF_MAX_TRACE_SIZE */
		if (off < 0 || off >= 8192 || off % size || write)
			return reject(env, off, size);
		return 0;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		/* up to 12 u64 arguments */
		if (off < 0 || off >= 8 * 12 || off % size || write || size != 8)
			return reject(env, off, size);
		return 0;
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		return rb_ctx_sock_addr(env, off, size, write, out);
	case BPF_PROG_TYPE_CGROUP_SOCK:
		return rb_ctx_sock(env, off, size, write, out);
	case BPF_PROG_TYPE_SOCK_OPS:
		return rb_ctx_sock_ops(env, off, size, write, out);
	case BPF_PROG_TYPE_SK_LOOKUP:
		return rb_ctx_sk_lookup(env, off, size, write, out);
	case BPF_PROG_TYPE_SK_REUSEPORT:
		return rb_ctx_sk_reuseport(env, off, size, write, out);
	case BPF_PROG_TYPE_SK_MSG:
		return rb_ctx_sk_msg(env, off, size, write, out);
	case BPF_PROG_TYPE_SK_SKB:
		return rb_ctx_sk_skb(env, off, size, write, out);
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return rb_ctx_sockopt(env, off, size, write, out);
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
		return rb_ctx_sysctl(env, off, size, write, out);
	case BPF_PROG_TYPE_CGROUP_DEVICE:
		return rb_ctx_cgroup_dev(env, off, size, write, out);
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return flow_dissector_access(env, off, size, write, out);
	default:
		return rb_unsupported(env, "ctx access for program type %u", env->prog->prog_type);
	}
}
