/* ctx_sock.c — context access rules of the socket-level program types,
 * following Linux 6.18's is_valid_access callbacks in net/core/filter.c:
 * cgroup_sock_addr (struct bpf_sock_addr), cgroup_sock (struct bpf_sock),
 * sock_ops (struct bpf_sock_ops), sk_lookup (struct bpf_sk_lookup),
 * sk_reuseport (struct sk_reuseport_md), sk_msg (struct sk_msg_md) and
 * sk_skb (struct __sk_buff). Offsets are those of the UAPI structures;
 * every rule was checked against the running 6.18 kernel field by field
 * (tests/unit/test_engine_ctx.c sweeps every offset, size and access kind).
 *
 * Socket pointers read from the context (->sk, ->migrating_sk) become
 * sock / sock_common pointers (maybe NULL where the kernel says so) whose
 * fields are read under rb_sock_field_access (struct bpf_sock). */
#include <stddef.h>

#include "engine/ctx.h"

#define OFF(s, f) ((int)offsetof(struct s, f))
#define END(s, f) ((int)(offsetof(struct s, f) + sizeof(((struct s *)0)->f)))
/* [lo, hi): the bytes of fields lo..hi */
#define IN(off, s, lo, hi) ((off) >= OFF(s, lo) && (off) < END(s, hi))

static int bad(struct rb_env *env, int off, int size)
{
	return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
}

/* bpf_ctx_narrow_access_ok: a power-of-two size no wider than the field */
static bool narrow_ok(int size, int field_size)
{
	return size <= field_size && (size & (size - 1)) == 0;
}

/* bpf_ctx_wide_access_ok: an aligned 8-byte access inside an array field */
static bool wide_ok(int off, int size, int lo, int hi)
{
	return size == 8 && off >= lo && off + 8 <= hi && off % 8 == 0;
}

static int sock_ptr(struct rb_ctx_access *out, enum rb_rtype type, bool maybe_null)
{
	out->reg_type = type;
	out->flags = maybe_null ? RF_MAYBE_NULL : 0;
	return 0;
}

/* ---- cgroup_sock_addr ---- */

static bool is_v4(uint32_t at)
{
	return at == BPF_CGROUP_INET4_BIND || at == BPF_CGROUP_INET4_CONNECT || at == BPF_CGROUP_INET4_GETPEERNAME ||
	       at == BPF_CGROUP_INET4_GETSOCKNAME || at == BPF_CGROUP_UDP4_SENDMSG || at == BPF_CGROUP_UDP4_RECVMSG;
}

static bool is_v6(uint32_t at)
{
	return at == BPF_CGROUP_INET6_BIND || at == BPF_CGROUP_INET6_CONNECT || at == BPF_CGROUP_INET6_GETPEERNAME ||
	       at == BPF_CGROUP_INET6_GETSOCKNAME || at == BPF_CGROUP_UDP6_SENDMSG || at == BPF_CGROUP_UDP6_RECVMSG;
}

int rb_ctx_sock_addr(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	uint32_t at = env->prog->expected_attach_type;
	if (off < 0 || off >= (int)sizeof(struct bpf_sock_addr) || off % size)
		return bad(env, off, size);
	/* address fields of the other family (and the sendmsg-only source address) */
	if ((IN(off, bpf_sock_addr, user_ip4, user_ip4) && !is_v4(at)) ||
	    (IN(off, bpf_sock_addr, user_ip6, user_ip6) && !is_v6(at)) ||
	    (IN(off, bpf_sock_addr, msg_src_ip4, msg_src_ip4) && at != BPF_CGROUP_UDP4_SENDMSG) ||
	    (IN(off, bpf_sock_addr, msg_src_ip6, msg_src_ip6) && at != BPF_CGROUP_UDP6_SENDMSG))
		return bad(env, off, size);
	if (IN(off, bpf_sock_addr, user_ip4, user_ip6) || IN(off, bpf_sock_addr, user_port, user_port) ||
	    IN(off, bpf_sock_addr, msg_src_ip4, msg_src_ip6)) {
		if (wide_ok(off, size, OFF(bpf_sock_addr, user_ip6), END(bpf_sock_addr, user_ip6)) ||
		    wide_ok(off, size, OFF(bpf_sock_addr, msg_src_ip6), END(bpf_sock_addr, msg_src_ip6)))
			return 0;
		if (write ? size != 4 : !narrow_ok(size, 4))
			return bad(env, off, size);
		return 0;
	}
	if (IN(off, bpf_sock_addr, sk, sk)) {
		if (write || size != 8)
			return bad(env, off, size);
		return sock_ptr(out, RT_SOCKET, false);
	}
	if (IN(off, bpf_sock_addr, user_family, user_family) || IN(off, bpf_sock_addr, family, protocol)) {
		if (write || size != 4)
			return bad(env, off, size);
		return 0;
	}
	return bad(env, off, size);
}

/* ---- cgroup_sock (struct bpf_sock) ---- */

/* bpf_sock_is_valid_access: the generic struct bpf_sock rules */
static bool bpf_sock_ok(int off, int size)
{
	if (off < 0 || off >= (int)sizeof(struct bpf_sock) || off % size)
		return false;
	if (off == OFF(bpf_sock, state) || off == OFF(bpf_sock, family) || off == OFF(bpf_sock, type) ||
	    off == OFF(bpf_sock, protocol) || off == OFF(bpf_sock, src_port) || off == OFF(bpf_sock, rx_queue_mapping) ||
	    IN(off, bpf_sock, src_ip4, src_ip6) || IN(off, bpf_sock, dst_ip4, dst_ip6))
		return narrow_ok(size, 4);
	if (IN(off, bpf_sock, dst_port, dst_port))
		return narrow_ok(size, size == 4 ? 4 : 2);
	if (off >= END(bpf_sock, dst_port) && off < OFF(bpf_sock, dst_ip4))
		return false;
	return size == 4;
}

/* reads through a sock or sock_common pointer (check_sock_access):
 * struct bpf_sock, read-only; sock_common lacks type..priority */
int rb_sock_field_access(struct rb_env *env, int regno, const char *tname, bool common, int off, int size,
			 bool write)
{
	if (write)
		return rb_reject(env, "R%d cannot write into %s", regno, tname);
	if (bpf_sock_ok(off, size) && !(common && off >= OFF(bpf_sock, type) && off < END(bpf_sock, priority)))
		return 0;
	return rb_reject(env, "R%d invalid %s access off=%d size=%d", regno, tname, off, size);
}

/* 6.18 bpf_tcp_sock_is_valid_access: inside struct bpf_tcp_sock (up to
 * icsk_retransmits), aligned, u64 for bytes_received and bytes_acked, u32
 * elsewhere; reads only */
int rb_tcp_sock_field_access(struct rb_env *env, int regno, const char *tname, int off, int size, bool write)
{
	if (write)
		return rb_reject(env, "R%d cannot write into %s", regno, tname);
	bool u64f = off == (int)offsetof(struct bpf_tcp_sock, bytes_received) ||
		    off == (int)offsetof(struct bpf_tcp_sock, bytes_acked);
	if (off < 0 || off >= (int)sizeof(struct bpf_tcp_sock) || off % size || size != (u64f ? 8 : 4))
		return rb_reject(env, "R%d invalid %s access off=%d size=%d", regno, tname, off, size);
	return 0;
}

int rb_ctx_sock(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	uint32_t at = env->prog->expected_attach_type;
	if (!bpf_sock_ok(off, size))
		return bad(env, off, size);
	bool ok = !write;
	if (off == OFF(bpf_sock, bound_dev_if) || off == OFF(bpf_sock, mark) || off == OFF(bpf_sock, priority))
		ok = at == BPF_CGROUP_INET_SOCK_CREATE || at == BPF_CGROUP_INET_SOCK_RELEASE;
	else if (IN(off, bpf_sock, src_ip4, src_ip4))
		ok = !write && at == BPF_CGROUP_INET4_POST_BIND;
	else if (IN(off, bpf_sock, src_ip6, src_ip6))
		ok = !write && at == BPF_CGROUP_INET6_POST_BIND;
	else if (IN(off, bpf_sock, src_port, src_port))
		ok = !write && (at == BPF_CGROUP_INET4_POST_BIND || at == BPF_CGROUP_INET6_POST_BIND);
	return ok ? 0 : bad(env, off, size);
}

/* ---- sock_ops ---- */

/* 6.2+ appended a u64 skb_hwtstamp after skb_tcp_flags (newer than the
 * UAPI header this builds against) */
#define SOCK_OPS_HWTSTAMP (((END(bpf_sock_ops, skb_tcp_flags)) + 7) & ~7)
#define SOCK_OPS_SIZE (SOCK_OPS_HWTSTAMP + 8)

int rb_ctx_sock_ops(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (off < 0 || off >= SOCK_OPS_SIZE || off % size)
		return bad(env, off, size);
	if (write) {
		if ((off != OFF(bpf_sock_ops, reply) && off != OFF(bpf_sock_ops, sk_txhash)) || size != 4)
			return bad(env, off, size);
		return 0;
	}
	if (IN(off, bpf_sock_ops, bytes_received, bytes_acked) || off >= SOCK_OPS_HWTSTAMP)
		return size == 8 ? 0 : bad(env, off, size);
	if (IN(off, bpf_sock_ops, sk, sk)) {
		if (size != 8)
			return bad(env, off, size);
		return sock_ptr(out, RT_SOCKET, true);
	}
	if (IN(off, bpf_sock_ops, skb_data, skb_data_end)) {
		if (size != 8)
			return bad(env, off, size);
		out->reg_type = off < OFF(bpf_sock_ops, skb_data_end) ? RT_PKT : RT_PKT_END;
		return 0;
	}
	if (off == OFF(bpf_sock_ops, skb_tcp_flags))
		return narrow_ok(size, 4) ? 0 : bad(env, off, size);
	return size == 4 ? 0 : bad(env, off, size);
}

/* ---- sk_lookup ---- */

int rb_ctx_sk_lookup(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (off < 0 || off >= (int)sizeof(struct bpf_sk_lookup) || off % size || write)
		return bad(env, off, size);
	if (off < 8) { /* sk (a union with the u64 cookie) */
		if (size != 8)
			return bad(env, off, size);
		return sock_ptr(out, RT_SOCKET, true);
	}
	if (IN(off, bpf_sk_lookup, family, remote_ip6) || IN(off, bpf_sk_lookup, local_ip4, ingress_ifindex))
		return narrow_ok(size, 4) ? 0 : bad(env, off, size);
	if (IN(off, bpf_sk_lookup, remote_port, remote_port))
		return size == 4 || narrow_ok(size, 2) ? 0 : bad(env, off, size);
	if (off >= END(bpf_sk_lookup, remote_port) && off < OFF(bpf_sk_lookup, local_ip4))
		return narrow_ok(size, 2) ? 0 : bad(env, off, size); /* the zero padding after remote_port */
	return bad(env, off, size);
}

/* ---- sk_reuseport ---- */

int rb_ctx_sk_reuseport(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (off < 0 || off >= (int)sizeof(struct sk_reuseport_md) || off % size || write)
		return bad(env, off, size);
	switch (off) {
	case OFF(sk_reuseport_md, data):
	case OFF(sk_reuseport_md, data_end):
		if (size != 8)
			return bad(env, off, size);
		out->reg_type = off == OFF(sk_reuseport_md, data) ? RT_PKT : RT_PKT_END;
		return 0;
	case OFF(sk_reuseport_md, hash):
		return size == 4 ? 0 : bad(env, off, size);
	case OFF(sk_reuseport_md, sk):
		return size == 8 ? sock_ptr(out, RT_SOCKET, false) : bad(env, off, size);
	case OFF(sk_reuseport_md, migrating_sk):
		return size == 8 ? sock_ptr(out, RT_SOCK_COMMON, true) : bad(env, off, size);
	}
	if (IN(off, sk_reuseport_md, eth_protocol, eth_protocol) && size < 2)
		return bad(env, off, size);
	if (IN(off, sk_reuseport_md, len, bind_inany))
		return narrow_ok(size, 4) ? 0 : bad(env, off, size);
	return bad(env, off, size);
}

/* ---- sk_msg ---- */

int rb_ctx_sk_msg(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (write || off < 0 || off % size)
		return bad(env, off, size);
	if (IN(off, sk_msg_md, data, data) || IN(off, sk_msg_md, data_end, data_end)) {
		if (size != 8)
			return bad(env, off, size);
		out->reg_type = off < OFF(sk_msg_md, data_end) ? RT_PKT : RT_PKT_END;
		return 0;
	}
	if (IN(off, sk_msg_md, sk, sk))
		return size == 8 ? sock_ptr(out, RT_SOCKET, false) : bad(env, off, size);
	if (IN(off, sk_msg_md, family, size))
		return size == 4 ? 0 : bad(env, off, size);
	return bad(env, off, size);
}

/* ---- sk_skb (struct __sk_buff, sk_skb_is_valid_access over the generic
 * bpf_skb_is_valid_access) ---- */

#define SKB(f) OFF(__sk_buff, f)

int rb_ctx_sk_skb(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	if (IN(off, __sk_buff, tc_classid, tc_classid) || IN(off, __sk_buff, data_meta, data_meta) ||
	    IN(off, __sk_buff, tstamp, tstamp) || IN(off, __sk_buff, wire_len, wire_len) ||
	    IN(off, __sk_buff, hwtstamp, hwtstamp) || IN(off, __sk_buff, mark, mark))
		return bad(env, off, size);
	if (write && !IN(off, __sk_buff, tc_index, tc_index) && !IN(off, __sk_buff, priority, priority))
		return bad(env, off, size);
	if (off < 0 || off >= (int)sizeof(struct __sk_buff) || off % size)
		return bad(env, off, size);
	if (IN(off, __sk_buff, cb, cb))
		return off + size <= END(__sk_buff, cb) ? 0 : bad(env, off, size);
	if (IN(off, __sk_buff, remote_ip6, local_ip6) || IN(off, __sk_buff, remote_ip4, remote_ip4) ||
	    IN(off, __sk_buff, local_ip4, local_ip4) || IN(off, __sk_buff, data, data) ||
	    IN(off, __sk_buff, data_end, data_end)) {
		if (size != 4)
			return bad(env, off, size);
		if (off == SKB(data))
			out->reg_type = RT_PKT;
		else if (off == SKB(data_end))
			out->reg_type = RT_PKT_END;
		return 0;
	}
	if (IN(off, __sk_buff, flow_keys, flow_keys))
		return bad(env, off, size);
	if (IN(off, __sk_buff, sk, sk))
		return size == 8 ? sock_ptr(out, RT_SOCK_COMMON, true) : bad(env, off, size);
	if (off == SKB(tstamp_type) || (off >= END(__sk_buff, tstamp_type) && off < SKB(hwtstamp)))
		return bad(env, off, size);
	if (write ? size != 4 : !narrow_ok(size, 4))
		return bad(env, off, size);
	return 0;
}
