/* ctx.c — context access rules per program type, following Linux 6.18's
 * *_is_valid_access callbacks: __sk_buff (socket filter, tc, cgroup skb),
 * xdp_md, pt_regs (kprobe), perf_event data, tracepoint and raw
 * tracepoint arguments. Offsets are those of the UAPI structures. The
 * socket-level types are in ctx_sock.c, the cgroup ones in ctx_cgroup.c. */
#include <stddef.h>
#include <string.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/ctx.h"
#include "engine/prog_types.h"

#define SKB(f) offsetof(struct __sk_buff, f)
#define SKB_END(f) (offsetof(struct __sk_buff, f) + sizeof(((struct __sk_buff *)0)->f))

static int reject(struct rb_env *env, int off, int size)
{
	return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
}

/* bpf_skb_is_valid_access plus the per-type rules */
int rb_ctx_skb(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
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
		/* cg_skb_is_valid_access: mark, priority, and tstamp for CAP_SYS_ADMIN */
		if (pt == BPF_PROG_TYPE_CGROUP_SKB &&
		    (off == (int)SKB(mark) || off == (int)SKB(priority) || off == (int)SKB(tstamp)))
			ok = true;
		if (!ok)
			return reject(env, off, size);
	} else {
		/* 6.18 sk_filter_is_valid_access: no socket fields, timestamps or
		 * wire_len for socket filters; tc_cls_act_is_valid_access: no
		 * socket fields; cg_skb_is_valid_access: no wire_len */
		bool sock_fields = off >= (int)SKB(family) && off < (int)SKB_END(local_port);
		bool wire_len = off >= (int)SKB(wire_len) && off < (int)SKB_END(wire_len);
		bool stamps = (off >= (int)SKB(tstamp) && off < (int)SKB_END(tstamp)) ||
			      (off >= (int)SKB(hwtstamp) && off < (int)SKB_END(hwtstamp));
		if (pt == BPF_PROG_TYPE_SOCKET_FILTER && (sock_fields || wire_len || stamps))
			return reject(env, off, size);
		if (tc && sock_fields)
			return reject(env, off, size);
		if (pt == BPF_PROG_TYPE_CGROUP_SKB && wire_len)
			return reject(env, off, size);
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
	/* 6.18 bpf_skb_is_valid_access: cb[] any aligned size inside cb[];
	 * the IPv4/IPv6 addresses u32 only; flow_keys never; tstamp, hwtstamp
	 * (read-only) and sk (read-only, its own offset) 8 bytes;
	 * tstamp_type only where the program type allowed it above (tc), the
	 * padding after it never; every other field a u32 written whole and
	 * read whole or narrow (bpf_ctx_narrow_access_ok: 1, 2 or 4 bytes) */
#define IN(f) (off >= (int)SKB(f) && off < (int)SKB_END(f))
	if (off >= (int)SKB(cb[0]) && off < (int)SKB_END(cb[4]))
		return off + size <= (int)SKB_END(cb[4]) ? 0 : reject(env, off, size);
	if (off >= (int)SKB(remote_ip4) && off < (int)SKB_END(local_ip6[3]))
		return size == 4 ? 0 : reject(env, off, size);
	if (IN(data) || IN(data_meta) || IN(data_end))
		return size == 4 ? 0 : reject(env, off, size);
	if (IN(flow_keys))
		return reject(env, off, size);
	if (IN(hwtstamp))
		return !write && size == 8 ? 0 : reject(env, off, size);
	if (IN(tstamp))
		return size == 8 ? 0 : reject(env, off, size);
	if (off == (int)SKB(sk))
		return !write && size == 8 ? 0 : reject(env, off, size);
	if (off == (int)SKB(tstamp_type))
		return tc && !write && size == 1 ? 0 : reject(env, off, size);
	if (off > (int)SKB(tstamp_type) && off < (int)SKB(hwtstamp))
		return reject(env, off, size);
	if (write)
		return size == 4 ? 0 : reject(env, off, size);
	return size <= 4 ? 0 : reject(env, off, size);
#undef IN
}

/* lwt_is_valid_access (6.18, net/core/filter.c; lwt_in, lwt_out, lwt_xmit,
 * lwt_seg6local): no tc_classid, socket fields, data_meta, timestamps,
 * wire_len or tstamp_type; writes to mark, priority and cb[] only; the rest
 * as bpf_skb_is_valid_access (cb[] any size, data and data_end u32 packet
 * pointers, sk an 8-byte socket pointer, no flow_keys, any other u32 field
 * with narrow loads) */
int rb_ctx_lwt(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
#define IN(f) (off >= (int)SKB(f) && off < (int)SKB_END(f))
	out->reg_type = RT_SCALAR;
	out->flags = 0;
	if (off < 0 || (size_t)off >= sizeof(struct __sk_buff) || off % size)
		return reject(env, off, size);
	if (IN(tc_classid) || (off >= (int)SKB(family) && off < (int)SKB_END(local_port)) || IN(data_meta) ||
	    IN(tstamp) || IN(wire_len) || (off >= (int)SKB(tstamp_type) && off < (int)SKB(hwtstamp)) || IN(hwtstamp) ||
	    IN(flow_keys))
		return reject(env, off, size);
	if (off >= (int)SKB(cb[0]) && off < (int)SKB_END(cb[4]))
		return off + size <= (int)SKB_END(cb[4]) ? 0 : reject(env, off, size);
	if (write)
		return (IN(mark) || IN(priority)) && size == 4 ? 0 : reject(env, off, size);
	if (IN(data) || IN(data_end)) {
		if (size != 4)
			return reject(env, off, size);
		out->reg_type = IN(data) ? RT_PKT : RT_PKT_END;
		return 0;
	}
	if (IN(sk)) {
		if (off != (int)SKB(sk) || size != 8)
			return reject(env, off, size);
		out->reg_type = RT_SOCK_COMMON; /* PTR_TO_SOCK_COMMON_OR_NULL */
		out->flags = RF_MAYBE_NULL;
		return 0;
	}
	return size <= 4 ? 0 : reject(env, off, size);
#undef IN
}

/* flow_dissector_is_valid_access: read-only; data, data_end and the
 * flow_keys pointer only */
int rb_ctx_flow_dissector(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
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

int rb_ctx_xdp(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
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

/* struct pt_regs on x86-64: 21 u64 */
int rb_ctx_kprobe(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	if (off < 0 || off + size > 168 || off % size || write)
		return reject(env, off, size);
	return 0;
}

/* struct bpf_perf_event_data: pt_regs (u64 loads only), then u64
 * sample_period and addr, which allow narrow loads (6.18
 * pe_prog_is_valid_access) */
int rb_ctx_perf_event(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	if (off < 0 || off + size > 184 || off % size || write)
		return reject(env, off, size);
	if (off < 168 && size != 8)
		return reject(env, off, size);
	return 0;
}

/* PERF_MAX_TRACE_SIZE */
int rb_ctx_tracepoint(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	if (off < 0 || off >= 8192 || off % size || write)
		return reject(env, off, size);
	return 0;
}

/* up to 12 u64 arguments, read at any aligned size (6.18
 * bpf_tracing_ctx_access) */
int rb_ctx_raw_tracepoint(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	if (off < 0 || off >= 8 * 12 || off % size || write)
		return reject(env, off, size);
	return 0;
}

/* raw_tp_writable_prog_is_valid_access: argument 0 is the tracepoint's
 * buffer (PTR_TO_TP_BUFFER), read as 8 bytes */
int rb_ctx_raw_tp_writable(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (off == 0) {
		if (size != 8 || write)
			return reject(env, off, size);
		out->reg_type = RT_TP_BUFFER;
		return 0;
	}
	return rb_ctx_raw_tracepoint(env, off, size, write, out);
}

/* syscall_prog_is_valid_access (6.18): the context is user memory of any size */
int rb_ctx_syscall(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)write;
	(void)out;
	if (off < 0 || off >= 0xffff || off % size)
		return reject(env, off, size);
	return 0;
}

int rb_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	out->reg_type = RT_SCALAR;
	out->flags = 0;
	if (!env->ptype->ctx_access)
		return rb_unsupported(env, "ctx access for program type %u", env->prog->prog_type);
	return env->ptype->ctx_access(env, off, size, write, out);
}

/* 6.18 nf_is_valid_access (net/netfilter/nf_bpf_link.c): struct bpf_nf_ctx
 * { const struct nf_hook_state *state; struct sk_buff *skb; }, read only,
 * whole pointers, each trusted and typed by vmlinux BTF */
int rb_ctx_netfilter(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	out->reg_type = RT_SCALAR;
	out->flags = 0;
	out->btf_id = 0;
	if (off < 0 || off >= 16 || write || size != 8 || off % 8)
		return reject(env, off, size);
	const char *name = off == 0 ? "nf_hook_state" : "sk_buff";
	int32_t id = rb_btf_struct_id(env, name);
	if (id <= 0)
		return rb_unsupported(env, "vmlinux BTF has no struct %s", name);
	out->reg_type = RT_BTF_ID;
	out->flags = RF_TRUSTED;
	out->btf_id = id;
	return 0;
}
