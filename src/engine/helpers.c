/* helpers.c — helper prototypes (argument and return types, which program
 * types may call them) and the helper call check, following Linux 6.18's
 * bpf_func_proto tables and check_helper_call for a privileged loader.
 * Helpers missing from the table end verification as "unsupported". */
#include <stdlib.h>
#include <string.h>

#include "engine/backtrack.h"
#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/call.h"
#include "engine/ctx.h"
#include "engine/helpers.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/refs.h"


enum arg {
	A_NONE = 0,
	A_ANY,
	A_CTX,
	A_MAP,
	A_KEY,
	A_VALUE,
	A_MEM_RO,         /* ARG_PTR_TO_MEM | MEM_RDONLY: read [p, p+size) */
	A_MEM_RO_OR_NULL, /* the same, or NULL with size 0 */
	A_MEM_UNINIT,     /* ARG_PTR_TO_UNINIT_MEM: the helper writes [p, p+size) */
	A_SIZE,           /* ARG_CONST_SIZE */
	A_SIZE_OR_ZERO,   /* ARG_CONST_SIZE_OR_ZERO */
	A_ALLOC_SIZE,     /* ARG_CONST_ALLOC_SIZE_OR_ZERO */
	A_RINGBUF_REL,    /* ARG_PTR_TO_RINGBUF_MEM | OBJ_RELEASE */
	A_BTF,            /* ARG_PTR_TO_BTF_ID (any BTF pointer accepted: the id is not checked) */
	A_U32_OUT,        /* ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_ALIGNED, 4 bytes written */
	A_CTX_OR_NULL,    /* ARG_PTR_TO_CTX_OR_NULL */
	A_SOCK_COMMON,    /* ARG_PTR_TO_BTF_ID_SOCK_COMMON (sock, sock_common, tcp_sock; BTF pointers: unsupported) */
	A_VALUE_OR_NULL,  /* ARG_PTR_TO_MAP_VALUE_OR_NULL */
	A_SOCKET_OR_NULL, /* ARG_PTR_TO_SOCKET_OR_NULL */
	A_SOCK_RELEASE,   /* ARG_PTR_TO_BTF_ID_SOCK_COMMON | OBJ_RELEASE */
	A_LONG_OUT,       /* ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_WRITE | MEM_ALIGNED, 8 bytes written */
	A_MEM_WRITE,      /* ARG_PTR_TO_MEM | MEM_WRITE: clobbered in place (no byte-wise writes, nothing scratched) */
};

enum ret {
	R_INT,
	R_VOID,
	R_MAP_VALUE_OR_NULL,
	R_RINGBUF_OR_NULL,
	R_BTF_TASK,
	R_MAP_VALUE,
	R_SOCKET_OR_NULL, /* RET_PTR_TO_SOCKET_OR_NULL from an acquiring lookup */
};

/* who may call: base helpers for every type, tracing, networking */
#define AV_ALL 0x7
#define AV_TRACE 0x1
#define AV_NET 0x2
#define AV_XDP 0x4
#define AV_SKB 0x8

struct proto {
	int id;
	const char *name;
	uint8_t ret;
	uint8_t args[5];
	uint8_t avail;
	bool pkt_changes;
	uint8_t map_type_need; /* the map argument must be of this type (0: any data map) */
};

/* Linux 6.18 prototypes of the helpers real programs use most */
static const struct proto protos[] = {
	{BPF_FUNC_map_lookup_elem, "map_lookup_elem", R_MAP_VALUE_OR_NULL, {A_MAP, A_KEY}, 0xf, false, 0},
	{BPF_FUNC_map_update_elem, "map_update_elem", R_INT, {A_MAP, A_KEY, A_VALUE, A_ANY}, 0xf, false, 0},
	{BPF_FUNC_map_delete_elem, "map_delete_elem", R_INT, {A_MAP, A_KEY}, 0xf, false, 0},
	{BPF_FUNC_probe_read, "probe_read", R_INT, {A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_ktime_get_ns, "ktime_get_ns", R_INT, {0}, 0xf, false, 0},
	/* only the format and its size are declared: r3-r5 are not checked */
	{BPF_FUNC_trace_printk, "trace_printk", R_INT, {A_MEM_RO, A_SIZE}, 0xf, false, 0},
	{BPF_FUNC_get_prandom_u32, "get_prandom_u32", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_get_smp_processor_id, "get_smp_processor_id", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_skb_store_bytes, "skb_store_bytes", R_INT, {A_CTX, A_ANY, A_MEM_RO, A_SIZE, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_l3_csum_replace, "l3_csum_replace", R_INT, {A_CTX, A_ANY, A_ANY, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_l4_csum_replace, "l4_csum_replace", R_INT, {A_CTX, A_ANY, A_ANY, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_tail_call, "tail_call", R_VOID, {A_CTX, A_MAP, A_ANY}, 0xf, false, BPF_MAP_TYPE_PROG_ARRAY},
	{BPF_FUNC_clone_redirect, "clone_redirect", R_INT, {A_CTX, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_get_current_pid_tgid, "get_current_pid_tgid", R_INT, {0}, AV_TRACE, false, 0},
	{BPF_FUNC_get_current_uid_gid, "get_current_uid_gid", R_INT, {0}, AV_TRACE, false, 0},
	{BPF_FUNC_get_current_comm, "get_current_comm", R_INT, {A_MEM_UNINIT, A_SIZE}, AV_TRACE, false, 0},
	{BPF_FUNC_get_cgroup_classid, "get_cgroup_classid", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_skb_vlan_push, "skb_vlan_push", R_INT, {A_CTX, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_skb_vlan_pop, "skb_vlan_pop", R_INT, {A_CTX}, AV_SKB, true, 0},
	{BPF_FUNC_redirect, "redirect", R_INT, {A_ANY, A_ANY}, AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_get_route_realm, "get_route_realm", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_perf_event_output, "perf_event_output", R_INT, {A_CTX, A_MAP, A_ANY, A_MEM_RO, A_SIZE_OR_ZERO}, 0xf, false,
	 BPF_MAP_TYPE_PERF_EVENT_ARRAY},
	{BPF_FUNC_skb_load_bytes, "skb_load_bytes", R_INT, {A_CTX, A_ANY, A_MEM_UNINIT, A_SIZE}, AV_SKB, false, 0},
	{BPF_FUNC_get_stackid, "get_stackid", R_INT, {A_CTX, A_MAP, A_ANY}, AV_TRACE, false, BPF_MAP_TYPE_STACK_TRACE},
	{BPF_FUNC_csum_diff, "csum_diff", R_INT, {A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO, A_ANY},
	 AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_skb_change_proto, "skb_change_proto", R_INT, {A_CTX, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_skb_change_type, "skb_change_type", R_INT, {A_CTX, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_get_hash_recalc, "get_hash_recalc", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_get_current_task, "get_current_task", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_skb_change_tail, "skb_change_tail", R_INT, {A_CTX, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_skb_pull_data, "skb_pull_data", R_INT, {A_CTX, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_csum_update, "csum_update", R_INT, {A_CTX, A_ANY}, AV_SKB, false, 0},
	{BPF_FUNC_set_hash_invalid, "set_hash_invalid", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_get_numa_node_id, "get_numa_node_id", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_skb_change_head, "skb_change_head", R_INT, {A_CTX, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_xdp_adjust_head, "xdp_adjust_head", R_INT, {A_CTX, A_ANY}, AV_XDP, true, 0},
	{BPF_FUNC_probe_read_str, "probe_read_str", R_INT, {A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_get_socket_cookie, "get_socket_cookie", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_get_socket_uid, "get_socket_uid", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_set_hash, "set_hash", R_INT, {A_CTX, A_ANY}, AV_SKB, false, 0},
	{BPF_FUNC_skb_adjust_room, "skb_adjust_room", R_INT, {A_CTX, A_ANY, A_ANY, A_ANY}, AV_SKB, true, 0},
	{BPF_FUNC_redirect_map, "redirect_map", R_INT, {A_MAP, A_ANY, A_ANY}, AV_XDP, false, 0xff},
	{BPF_FUNC_xdp_adjust_meta, "xdp_adjust_meta", R_INT, {A_CTX, A_ANY}, AV_XDP, true, 0},
	{BPF_FUNC_perf_event_read_value, "perf_event_read_value", R_INT, {A_MAP, A_ANY, A_MEM_UNINIT, A_SIZE}, AV_TRACE,
	 false, BPF_MAP_TYPE_PERF_EVENT_ARRAY},
	{BPF_FUNC_perf_event_read, "perf_event_read", R_INT, {A_MAP, A_ANY}, AV_TRACE, false, BPF_MAP_TYPE_PERF_EVENT_ARRAY},
	{BPF_FUNC_xdp_adjust_tail, "xdp_adjust_tail", R_INT, {A_CTX, A_ANY}, AV_XDP, true, 0},
	{BPF_FUNC_get_stack, "get_stack", R_INT, {A_CTX, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_skb_load_bytes_relative, "skb_load_bytes_relative", R_INT, {A_CTX, A_ANY, A_MEM_UNINIT, A_SIZE, A_ANY},
	 AV_SKB, false, 0},
	/* 6.18: ARG_PTR_TO_MEM | MEM_WRITE (read, then clobbered in place) */
	{BPF_FUNC_fib_lookup, "fib_lookup", R_INT, {A_CTX, A_MEM_WRITE, A_SIZE, A_ANY}, AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_get_current_cgroup_id, "get_current_cgroup_id", R_INT, {0}, AV_TRACE, false, 0},
	{BPF_FUNC_skb_cgroup_id, "skb_cgroup_id", R_INT, {A_CTX}, AV_SKB, false, 0},
	{BPF_FUNC_ktime_get_boot_ns, "ktime_get_boot_ns", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_send_signal, "send_signal", R_INT, {A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_probe_read_user, "probe_read_user", R_INT, {A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_probe_read_kernel, "probe_read_kernel", R_INT, {A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, 0xf, false, 0},
	{BPF_FUNC_probe_read_user_str, "probe_read_user_str", R_INT, {A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, AV_TRACE, false,
	 0},
	{BPF_FUNC_probe_read_kernel_str, "probe_read_kernel_str", R_INT, {A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY}, 0xf, false,
	 0},
	{BPF_FUNC_send_signal_thread, "send_signal_thread", R_INT, {A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_jiffies64, "jiffies64", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_get_ns_current_pid_tgid, "get_ns_current_pid_tgid", R_INT, {A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE}, AV_TRACE,
	 false, 0},
	{BPF_FUNC_ringbuf_output, "ringbuf_output", R_INT, {A_MAP, A_MEM_RO, A_SIZE_OR_ZERO, A_ANY}, 0xf, false,
	 BPF_MAP_TYPE_RINGBUF},
	{BPF_FUNC_ringbuf_reserve, "ringbuf_reserve", R_RINGBUF_OR_NULL, {A_MAP, A_ALLOC_SIZE, A_ANY}, 0xf, false,
	 BPF_MAP_TYPE_RINGBUF},
	{BPF_FUNC_ringbuf_submit, "ringbuf_submit", R_VOID, {A_RINGBUF_REL, A_ANY}, 0xf, false, 0},
	{BPF_FUNC_ringbuf_discard, "ringbuf_discard", R_VOID, {A_RINGBUF_REL, A_ANY}, 0xf, false, 0},
	{BPF_FUNC_ringbuf_query, "ringbuf_query", R_INT, {A_MAP, A_ANY}, 0xf, false, BPF_MAP_TYPE_RINGBUF},
	{BPF_FUNC_ktime_get_coarse_ns, "ktime_get_coarse_ns", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_get_func_ip, "get_func_ip", R_INT, {A_CTX}, AV_TRACE, false, 0},
	{BPF_FUNC_get_attach_cookie, "get_attach_cookie", R_INT, {A_CTX}, AV_TRACE, false, 0},
	{BPF_FUNC_ktime_get_tai_ns, "ktime_get_tai_ns", R_INT, {0}, 0xf, false, 0},
	{BPF_FUNC_current_task_under_cgroup, "current_task_under_cgroup", R_INT, {A_MAP, A_ANY}, AV_TRACE, false,
	 BPF_MAP_TYPE_CGROUP_ARRAY},
	{BPF_FUNC_skb_get_tunnel_key, "skb_get_tunnel_key", R_INT, {A_CTX, A_MEM_UNINIT, A_SIZE, A_ANY}, AV_SKB, false, 0},
	{BPF_FUNC_skb_set_tunnel_key, "skb_set_tunnel_key", R_INT, {A_CTX, A_MEM_RO, A_SIZE, A_ANY}, AV_SKB, false, 0},
	{BPF_FUNC_skb_get_tunnel_opt, "skb_get_tunnel_opt", R_INT, {A_CTX, A_MEM_UNINIT, A_SIZE}, AV_SKB, false, 0},
	{BPF_FUNC_skb_set_tunnel_opt, "skb_set_tunnel_opt", R_INT, {A_CTX, A_MEM_RO, A_SIZE}, AV_SKB, false, 0},
	{BPF_FUNC_redirect_neigh, "redirect_neigh", R_INT, {A_ANY, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO, A_ANY}, AV_SKB, false,
	 0},
	{BPF_FUNC_trace_vprintk, "trace_vprintk", R_INT, {A_MEM_RO, A_SIZE, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO}, 0xf,
	 false, 0},
	{BPF_FUNC_get_local_storage, "get_local_storage", R_MAP_VALUE, {A_MAP, A_ANY}, 0xf, false, 0xfe},
	{BPF_FUNC_check_mtu, "check_mtu", R_INT, {A_CTX, A_ANY, A_U32_OUT, A_ANY, A_ANY}, AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_seq_printf, "seq_printf", R_INT, {A_BTF, A_MEM_RO, A_SIZE, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO}, AV_TRACE,
	 false, 0},
	{BPF_FUNC_seq_write, "seq_write", R_INT, {A_BTF, A_MEM_RO, A_SIZE}, AV_TRACE, false, 0},
	{BPF_FUNC_get_current_task_btf, "get_current_task_btf", R_BTF_TASK, {0}, AV_TRACE, false, 0},
	/* socket and cgroup program types (availability: sock_avail below) */
	{BPF_FUNC_get_retval, "get_retval", R_INT, {0}, 0, false, 0},
	{BPF_FUNC_set_retval, "set_retval", R_INT, {A_ANY}, 0, false, 0},
	/* the ctx variants of sock_addr and sock_ops (cgroup_sockopt's take a socket: unsupported) */
	{BPF_FUNC_getsockopt, "getsockopt", R_INT, {A_CTX, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE}, 0, false, 0},
	{BPF_FUNC_setsockopt, "setsockopt", R_INT, {A_CTX, A_ANY, A_ANY, A_MEM_RO, A_SIZE}, 0, false, 0},
	{BPF_FUNC_bind, "bind", R_INT, {A_CTX, A_MEM_RO, A_SIZE}, 0, false, 0},
	{BPF_FUNC_sock_ops_cb_flags_set, "sock_ops_cb_flags_set", R_INT, {A_CTX, A_ANY}, 0, false, 0},
	{BPF_FUNC_get_current_ancestor_cgroup_id, "get_current_ancestor_cgroup_id", R_INT, {A_ANY}, AV_TRACE, false, 0},
	{BPF_FUNC_get_netns_cookie, "get_netns_cookie", R_INT, {A_CTX_OR_NULL}, 0, false, 0},
	/* cgroup_sock's sk_storage_get takes the ctx as its socket (see sock_arg_is_ctx) */
	{BPF_FUNC_sk_storage_get, "sk_storage_get", R_MAP_VALUE_OR_NULL, {A_MAP, A_SOCK_COMMON, A_VALUE_OR_NULL, A_ANY}, 0,
	 false, BPF_MAP_TYPE_SK_STORAGE},
	{BPF_FUNC_sk_storage_delete, "sk_storage_delete", R_INT, {A_MAP, A_SOCK_COMMON}, 0, false,
	 BPF_MAP_TYPE_SK_STORAGE},
	/* socket references: lookups acquire, sk_release releases (sk_assign: sk_lookup's variant) */
	{BPF_FUNC_sk_lookup_tcp, "sk_lookup_tcp", R_SOCKET_OR_NULL, {A_CTX, A_MEM_RO, A_SIZE, A_ANY, A_ANY},
	 AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_sk_lookup_udp, "sk_lookup_udp", R_SOCKET_OR_NULL, {A_CTX, A_MEM_RO, A_SIZE, A_ANY, A_ANY},
	 AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_sk_release, "sk_release", R_INT, {A_SOCK_RELEASE}, AV_SKB | AV_XDP, false, 0},
	{BPF_FUNC_sk_assign, "sk_assign", R_INT, {A_CTX, A_SOCKET_OR_NULL, A_ANY}, 0, false, 0},
	/* sockmap and reuseport helpers (which map types: sock_map_helper) */
	{BPF_FUNC_sock_map_update, "sock_map_update", R_INT, {A_CTX, A_MAP, A_KEY, A_ANY}, 0, false, 0},
	{BPF_FUNC_sock_hash_update, "sock_hash_update", R_INT, {A_CTX, A_MAP, A_KEY, A_ANY}, 0, false, 0},
	{BPF_FUNC_sk_redirect_map, "sk_redirect_map", R_INT, {A_CTX, A_MAP, A_ANY, A_ANY}, 0, false, 0},
	{BPF_FUNC_sk_redirect_hash, "sk_redirect_hash", R_INT, {A_CTX, A_MAP, A_KEY, A_ANY}, 0, false, 0},
	{BPF_FUNC_msg_redirect_map, "msg_redirect_map", R_INT, {A_CTX, A_MAP, A_ANY, A_ANY}, 0, false, 0},
	{BPF_FUNC_msg_redirect_hash, "msg_redirect_hash", R_INT, {A_CTX, A_MAP, A_KEY, A_ANY}, 0, false, 0},
	{BPF_FUNC_sk_select_reuseport, "sk_select_reuseport", R_INT, {A_CTX, A_MAP, A_KEY, A_ANY}, 0, false, 0},
	/* cgroup_sysctl (6.18: the name/value buffers are written) */
	{BPF_FUNC_sysctl_get_name, "sysctl_get_name", R_INT, {A_CTX, A_MEM_WRITE, A_SIZE, A_ANY}, 0, false, 0},
	{BPF_FUNC_sysctl_get_current_value, "sysctl_get_current_value", R_INT, {A_CTX, A_MEM_UNINIT, A_SIZE}, 0, false,
	 0},
	{BPF_FUNC_sysctl_get_new_value, "sysctl_get_new_value", R_INT, {A_CTX, A_MEM_UNINIT, A_SIZE}, 0, false, 0},
	{BPF_FUNC_sysctl_set_new_value, "sysctl_set_new_value", R_INT, {A_CTX, A_MEM_RO, A_SIZE}, 0, false, 0},
	{BPF_FUNC_strtol, "strtol", R_INT, {A_MEM_RO, A_SIZE, A_ANY, A_LONG_OUT}, 0, false, 0},
	{BPF_FUNC_strtoul, "strtoul", R_INT, {A_MEM_RO, A_SIZE, A_ANY, A_LONG_OUT}, 0, false, 0},
};

/* the map types the sockmap helpers take (check_map_func_compatibility) */
static bool sock_map_helper(int32_t id, uint32_t map_type)
{
	switch (id) {
	case BPF_FUNC_sock_map_update:
	case BPF_FUNC_sk_redirect_map:
	case BPF_FUNC_msg_redirect_map:
		return map_type == BPF_MAP_TYPE_SOCKMAP;
	case BPF_FUNC_sock_hash_update:
	case BPF_FUNC_sk_redirect_hash:
	case BPF_FUNC_msg_redirect_hash:
		return map_type == BPF_MAP_TYPE_SOCKHASH;
	case BPF_FUNC_sk_select_reuseport:
		return map_type == BPF_MAP_TYPE_SOCKMAP || map_type == BPF_MAP_TYPE_SOCKHASH ||
		       map_type == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY;
	default:
		return false;
	}
}

static bool is_sock_map_helper(int32_t id)
{
	return sock_map_helper(id, BPF_MAP_TYPE_SOCKMAP) || sock_map_helper(id, BPF_MAP_TYPE_SOCKHASH);
}

/* Helper availability of the socket, cgroup and flow dissector program types: bit i set
 * when helper i may be called, measured on the running 6.18.44 kernel
 * (a call-only probe program per program and attach type; "cannot use
 * helper" or "unknown func" means unavailable). ANY: every attach type. */
#define ANY_ATTACH 0xffffffffu
static const struct sock_avail {
	uint32_t type, attach;
	uint64_t bits[4];
} sock_avail[] = {
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x8c779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_BIND, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x8c779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT, {0x028244280243d1eeull, 0x2d6f3e0863f30001ull, 0x8c779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_CONNECT, {0x028244280243d1eeull, 0x2d6f3e0863f30001ull, 0x8c779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_SENDMSG, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x8c779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_SENDMSG, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x8c779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_RECVMSG, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_RECVMSG, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETPEERNAME, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETPEERNAME, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETSOCKNAME, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETSOCKNAME, {0x028244280243d1eeull, 0x2d6f3e0863f30000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCK, ANY_ATTACH, {0x008044280243d1eeull, 0x2d6f2e0063830000ull, 0x8c739e317630207cull, 0x00000000000f0fecull}},
	{BPF_PROG_TYPE_SOCK_OPS, ANY_ATTACH, {0x0aa244280243d1eeull, 0x2d6f3e0163830040ull, 0x80779e317631ff7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_SK_LOOKUP, ANY_ATTACH, {0x008004280243d1eeull, 0x396f260063c10000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_SK_REUSEPORT, ANY_ATTACH, {0x008044280443d1eeull, 0x296f260063850010ull, 0x80739e317630207cull, 0x00000000000f0fecull}},
	{BPF_PROG_TYPE_SK_MSG, ANY_ATTACH, {0xf08004280243d1eeull, 0x2d6f3e006f810080ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_SK_SKB, ANY_ATTACH, {0x0094cce80643d3eeull, 0x296f260863f10100ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_GETSOCKOPT, {0x008004280243d1eeull, 0x2d6f3e0163830000ull, 0x8c739e307630207cull, 0x00000000000f0fecull}},
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_SETSOCKOPT, {0x028204280243d1eeull, 0x2d6f3e0163830000ull, 0x8c739e307630207cull, 0x00000000000f0fecull}},
	{BPF_PROG_TYPE_CGROUP_SYSCTL, ANY_ATTACH, {0x008004280243d1eeull, 0x296f27e063830000ull, 0x8c739e317630207cull, 0x00000000000f0fecull}},
	{BPF_PROG_TYPE_CGROUP_DEVICE, ANY_ATTACH, {0x008004280243d1eeull, 0x296f260063830000ull, 0x8c739e307630207cull, 0x00000000000f0fecull}},
	{BPF_PROG_TYPE_FLOW_DISSECTOR, ANY_ATTACH, {0x008004280443d1eeull, 0x296f260063810000ull, 0x80779e3176303f7cull, 0x00000000000f0ffcull}},
};

/* 1: available, 0: not, -1: not one of these program types */
static int sock_type_avail(uint32_t pt, uint32_t at, int32_t id)
{
	/* cgroup_common_func_proto: no retval access from these attach types
	 * (sysctl and device rows were measured with their own attach types) */
	if ((id == BPF_FUNC_get_retval || id == BPF_FUNC_set_retval) && pt == BPF_PROG_TYPE_CGROUP_SKB)
		return at == BPF_CGROUP_INET_INGRESS || at == BPF_CGROUP_INET_EGRESS ? 0 : -1;
	if (id == BPF_FUNC_get_retval || id == BPF_FUNC_set_retval) {
		switch (at) {
		case BPF_CGROUP_INET_INGRESS:
		case BPF_CGROUP_INET_EGRESS:
		case BPF_CGROUP_SOCK_OPS:
		case BPF_CGROUP_UDP4_RECVMSG:
		case BPF_CGROUP_UDP6_RECVMSG:
		case BPF_CGROUP_INET4_GETPEERNAME:
		case BPF_CGROUP_INET6_GETPEERNAME:
		case BPF_CGROUP_INET4_GETSOCKNAME:
		case BPF_CGROUP_INET6_GETSOCKNAME:
			at = BPF_CGROUP_INET_INGRESS;
			break;
		default:
			break;
		}
		if (at == BPF_CGROUP_INET_INGRESS) {
			for (size_t i = 0; i < sizeof(sock_avail) / sizeof(sock_avail[0]); i++)
				if (sock_avail[i].type == pt)
					return 0;
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof(sock_avail) / sizeof(sock_avail[0]); i++) {
		const struct sock_avail *r = &sock_avail[i];
		if (r->type != pt || (r->attach != ANY_ATTACH && r->attach != at))
			continue;
		if (id <= 0 || id >= 256)
			return 0;
		return (r->bits[id / 64] >> (id % 64)) & 1;
	}
	return -1;
}

/* helpers whose prototype for these program types differs from the table
 * (a socket argument, no ctx argument): not modelled */
static bool sock_proto_differs(uint32_t pt, int32_t id)
{
	switch (id) {
	case BPF_FUNC_get_cgroup_classid: /* the cgroup types' variant takes no argument */
		return pt != BPF_PROG_TYPE_SK_SKB;
	case BPF_FUNC_getsockopt:
	case BPF_FUNC_setsockopt:
		return pt == BPF_PROG_TYPE_CGROUP_SOCKOPT; /* bpf_sk_{get,set}sockopt: a socket */
	case BPF_FUNC_get_socket_cookie:
		return pt == BPF_PROG_TYPE_SK_REUSEPORT; /* a socket pointer */
	case BPF_FUNC_sk_assign:
		return pt != BPF_PROG_TYPE_SK_LOOKUP; /* tc's takes a sock_common */
	case BPF_FUNC_skb_load_bytes:
	case BPF_FUNC_skb_load_bytes_relative:
		return false;
	default:
		return false;
	}
}

/* the prototypes declared pkt_access (6.18): they may take packet pointers */
static bool helper_pkt_access(int32_t id)
{
	return id == BPF_FUNC_map_lookup_elem || id == BPF_FUNC_map_update_elem || id == BPF_FUNC_map_delete_elem ||
	       id == BPF_FUNC_csum_diff || id == BPF_FUNC_sk_lookup_tcp || id == BPF_FUNC_sk_lookup_udp;
}

static const struct proto *find_proto(int32_t id)
{
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].id == id)
			return &protos[i];
	return NULL;
}

const char *rb_helper_proto_name(int32_t func_id)
{
	const struct proto *p = find_proto(func_id);
	return p ? p->name : NULL;
}

int rb_helper_changes_pkt(int32_t func_id)
{
	const struct proto *p = find_proto(func_id);
	return p && p->pkt_changes;
}


int rb_helper_nargs(int32_t func_id)
{
	const struct proto *p = find_proto(func_id);
	if (!p)
		return -1;
	int n = 0;
	while (n < 5 && p->args[n] != A_NONE)
		n++;
	return n;
}

static bool available(const struct proto *p, uint32_t pt)
{
	if (p->avail == 0xf)
		return true;
	if (p->avail == 0)
		return false; /* only for the types of sock_avail */
	switch (pt) {
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
		return p->avail & AV_TRACE;
	case BPF_PROG_TYPE_XDP:
		return p->avail & AV_XDP;
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
		return p->avail & AV_SKB;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
		if (pt == BPF_PROG_TYPE_SOCKET_FILTER && (p->id == BPF_FUNC_sk_lookup_tcp ||
							   p->id == BPF_FUNC_sk_lookup_udp || p->id == BPF_FUNC_sk_release))
			return false;
		/* only the socket-related subset of the skb helpers */
		return (p->avail & AV_SKB) && !p->pkt_changes && p->id != BPF_FUNC_redirect &&
		       p->id != BPF_FUNC_get_route_realm && p->id != BPF_FUNC_get_cgroup_classid &&
		       p->id != BPF_FUNC_csum_update && p->id != BPF_FUNC_set_hash_invalid && p->id != BPF_FUNC_set_hash &&
		       p->id != BPF_FUNC_fib_lookup && p->id != BPF_FUNC_csum_diff && p->id != BPF_FUNC_get_hash_recalc;
	default:
		return false;
	}
}

/* maps that only their special helpers may take */
static bool map_compatible(const struct rb_map *m, const struct proto *p)
{
	switch (m->type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		return p->id == BPF_FUNC_tail_call;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		return p->id == BPF_FUNC_perf_event_output || p->id == BPF_FUNC_perf_event_read ||
		       p->id == BPF_FUNC_perf_event_read_value;
	case BPF_MAP_TYPE_RINGBUF:
		return p->id == BPF_FUNC_ringbuf_output || p->id == BPF_FUNC_ringbuf_reserve ||
		       p->id == BPF_FUNC_ringbuf_query;
	case BPF_MAP_TYPE_STACK_TRACE:
		return p->id == BPF_FUNC_get_stackid;
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return p->id == BPF_FUNC_get_local_storage;
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return (p->id == BPF_FUNC_map_lookup_elem && m->type != BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) ||
		       sock_map_helper(p->id, m->type);
	case BPF_MAP_TYPE_SK_STORAGE:
		return p->id == BPF_FUNC_sk_storage_get || p->id == BPF_FUNC_sk_storage_delete;
	case BPF_MAP_TYPE_CGROUP_ARRAY:
		return p->id == BPF_FUNC_current_task_under_cgroup || p->id == BPF_FUNC_skb_under_cgroup;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
		return p->id == BPF_FUNC_redirect_map || p->id == BPF_FUNC_map_lookup_elem ||
		       (m->type == BPF_MAP_TYPE_DEVMAP || m->type == BPF_MAP_TYPE_DEVMAP_HASH ||
			m->type == BPF_MAP_TYPE_CPUMAP
			    ? (p->id == BPF_FUNC_map_update_elem || p->id == BPF_FUNC_map_delete_elem)
			    : false);
	default:
		if (is_sock_map_helper(p->id))
			return false;
		if (p->map_type_need && p->map_type_need != 0xff)
			return m->type == p->map_type_need;
		if (p->map_type_need == 0xff || p->map_type_need == 0xfe)
			return false;
		return true;
	}
}

static bool arg_nullable(int kind)
{
	return kind == A_MEM_RO_OR_NULL || kind == A_CTX_OR_NULL || kind == A_VALUE_OR_NULL ||
	       kind == A_SOCKET_OR_NULL;
}

static int check_size_arg(struct rb_env *env, int regno, bool zero_ok, int mem_regno, bool write,
			  uint64_t *umax_out, bool *is_const)
{
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	if (reg->type != RT_SCALAR)
		return rb_reject(env, "R%d type=%s expected=scalar", regno, rb_rtype_name(reg, tn, sizeof(tn)));
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	*umax_out = b.umax;
	*is_const = env->t->is_const(&reg->val);
	if (b.smin < 0)
		return rb_reject(env, "R%d min value is negative, either use unsigned or 'var &= const'", regno);
	if (b.umin == 0 && !zero_ok)
		return rb_reject(env, "R%d invalid zero-sized read: u64=[%llu,%llu]", regno,
				 (unsigned long long)b.umin, (unsigned long long)b.umax);
	if (b.umax >= (1u << 29))
		return rb_reject(env, "R%d unbounded memory access, use 'var &= const' or 'if (var < const)'", regno);
	int err = rb_check_mem_range(env, mem_regno, regno, b.umax, zero_ok, write);
	if (!err)
		err = rb_mark_chain_precision(env, regno);
	return err;
}


/* get_constant_map_key (6.13+): the key is a constant on the stack */
static int const_map_key(struct rb_env *env, const struct rb_reg *key, uint32_t key_size, int64_t *value)
{
	*value = -1;
	if (key->type != RT_STACK || !env->t->is_const(&key->val))
		return 0;
	struct rb_func *f = env->cur->frame[key->frameno];
	int stack_off = key->off + (int)rb_reg_const_val(env, key);
	int slot = -stack_off - 1, spi = slot / 8, off = slot % 8;
	if (spi < 0 || spi >= f->nslots)
		return 0;
	const uint8_t *stype = f->stack[spi].type;
	uint32_t zero_size = 0, spill_size = 0;
	for (int i = off; i >= 0 && stype[i] == SLOT_ZERO; i--)
		zero_size++;
	if (zero_size >= key_size) {
		*value = 0;
		return 0;
	}
	if (stype[7] != SLOT_SPILL || f->stack[spi].spilled.type != RT_SCALAR)
		return 0;
	for (int i = off; i >= 0 && stype[i] == SLOT_SPILL; i--)
		spill_size++;
	if (spill_size != key_size)
		return 0;
	const struct rb_reg *r = &f->stack[spi].spilled;
	if (!env->t->is_const(&r->val))
		return 0;
	int err = rb_mark_stack_precision(env, key->frameno, spi);
	if (err)
		return err;
	*value = (int64_t)rb_reg_const_val(env, r);
	return 0;
}

int rb_check_helper_call(struct rb_env *env, const struct bpf_insn *insn, int insn_idx)
{
	(void)insn_idx;
	const struct proto *p = find_proto(insn->imm);
	int err;
	if (!p) {
		if (insn->imm <= 0 || insn->imm >= __BPF_FUNC_MAX_ID)
			return rb_reject(env, "invalid func unknown#%d", insn->imm);
		return rb_unsupported(env, "helper #%d", insn->imm);
	}
	/* The per-type availability table is an approximation of the kernel's
	 * get_func_proto callbacks: a helper it does not list for this type is
	 * reported unsupported rather than risking a false rejection. */
	int sa = sock_type_avail(env->prog->prog_type, env->prog->expected_attach_type, insn->imm);
	if (sa == 0)
		return rb_reject(env, "program of this type cannot use helper bpf_%s#%d", p->name, p->id);
	if (sa == 1 && sock_proto_differs(env->prog->prog_type, p->id))
		return rb_unsupported(env, "helper bpf_%s#%d prototype for program type %u", p->name, p->id,
				      env->prog->prog_type);
	if (sa < 0 && !available(p, env->prog->prog_type))
		return rb_unsupported(env, "helper bpf_%s#%d for program type %u", p->name, p->id, env->prog->prog_type);
	struct rb_reg *regs = rb_cur_regs(env);
	int map_idx = -1;
	int64_t const_key = -1;
	uint64_t msize_max = 0, alloc_size = 0;
	uint32_t release_id = 0;
	for (int a = 0; a < 5 && p->args[a] != A_NONE; a++) {
		int regno = a + 1;
		if ((err = rb_check_reg_read(env, regno)))
			return err;
		struct rb_reg *reg = &regs[regno];
		char tn[48];
		rb_rtype_name(reg, tn, sizeof(tn));
		if ((reg->type == RT_PKT || reg->type == RT_PKT_META) && p->args[a] != A_ANY &&
		    !rb_pkt_helper_ok(env->prog->prog_type, helper_pkt_access(p->id)))
			return rb_reject(env, "helper access to the packet is not allowed");
		/* a NULL (constant 0) for a nullable argument is accepted, and
		 * 6.18 marks it precise */
		if (arg_nullable(p->args[a]) && reg->type == RT_SCALAR && rb_reg_is_const(env, reg) &&
		    rb_reg_const_val(env, reg) == 0) {
			if ((err = rb_mark_chain_precision(env, regno)))
				return err;
			continue;
		}
		switch (p->args[a]) {
		case A_ANY:
			break;
		case A_CTX:
		case A_CTX_OR_NULL:
			if (reg->type != RT_CTX)
				return rb_reject(env, "R%d type=%s expected=ctx", regno, tn);
			if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
				return rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno,
						 reg->off);
			break;
		case A_MAP:
			if (reg->type != RT_MAP_PTR)
				return rb_reject(env, "R%d type=%s expected=map_ptr", regno, tn);
			map_idx = reg->map_idx;
			if ((env->obj->maps[map_idx].type == BPF_MAP_TYPE_SOCKMAP ||
			     env->obj->maps[map_idx].type == BPF_MAP_TYPE_SOCKHASH ||
			     env->obj->maps[map_idx].type == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) &&
			    p->id != BPF_FUNC_map_lookup_elem && !is_sock_map_helper(p->id))
				return rb_unsupported(env, "sockmap/sockhash with bpf_%s", p->name);
			if (!map_compatible(&env->obj->maps[map_idx], p))
				return rb_reject(env, "cannot pass map_type %u into func bpf_%s#%d",
						 env->obj->maps[map_idx].type, p->name, p->id);
			break;
		case A_SOCK_COMMON:
			if (env->prog->prog_type == BPF_PROG_TYPE_CGROUP_SOCK) {
				/* bpf_sk_storage_get_cg_sock_proto: the ctx is the socket */
				if (reg->type != RT_CTX)
					return rb_reject(env, "R%d type=%s expected=ctx", regno, tn);
			} else if (reg->type == RT_BTF_ID) {
				return rb_unsupported(env, "BTF socket pointer passed to a helper");
			} else if ((reg->type != RT_SOCKET && reg->type != RT_SOCK_COMMON && reg->type != RT_TCP_SOCK &&
				    reg->type != RT_XDP_SOCK) ||
				   (reg->flags & RF_MAYBE_NULL)) {
				return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
						 regno, tn);
			}
			if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
				return rb_unsupported(env, "socket pointer with an offset passed to a helper");
			break;
		case A_SOCKET_OR_NULL:
			if (reg->type != RT_SOCKET)
				return rb_reject(env, "R%d type=%s expected=sock", regno, tn);
			if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
				return rb_unsupported(env, "socket pointer with an offset passed to a helper");
			break;
		case A_SOCK_RELEASE:
			if (reg->type == RT_BTF_ID)
				return rb_unsupported(env, "BTF socket pointer passed to a helper");
			if ((reg->type != RT_SOCKET && reg->type != RT_SOCK_COMMON && reg->type != RT_TCP_SOCK &&
			     reg->type != RT_XDP_SOCK) ||
			    (reg->flags & RF_MAYBE_NULL))
				return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
						 regno, tn);
			if (!reg->ref_obj_id)
				return rb_reject(env, "R%d must be referenced when passed to release function", regno);
			if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
				return rb_unsupported(env, "socket pointer with an offset passed to a helper");
			release_id = reg->ref_obj_id;
			break;
		case A_VALUE_OR_NULL:
		case A_KEY:
		case A_VALUE: {
			if (map_idx < 0)
				return rb_reject(env, "invalid map_ptr to access map->%s", p->args[a] == A_KEY ? "key" : "value");
			const struct rb_map *m = &env->obj->maps[map_idx];
			if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
			    reg->type != RT_MAP_VALUE && reg->type != RT_MEM)
				return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value", regno,
						 tn);
			if ((reg->flags & RF_MAYBE_NULL))
				return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value", regno,
						 tn);
			err = rb_check_mem_range(env, regno, -1, p->args[a] == A_KEY ? m->key_size : m->value_size,
						 false, false);
			if (err)
				return err;
			if (p->args[a] == A_KEY && (m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY)) {
				err = const_map_key(env, reg, m->key_size, &const_key);
				if (err < 0)
					return err;
			}
			break;
		}
		case A_MEM_RO:
		case A_MEM_RO_OR_NULL:
		case A_MEM_UNINIT:
		case A_MEM_WRITE:
			if (reg->type == RT_BTF_ID)
				return rb_unsupported(env, "BTF pointer passed as helper memory");
			if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
			    reg->type != RT_MAP_VALUE && reg->type != RT_MEM)
				return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
						 regno, tn);
			if (reg->flags & RF_MAYBE_NULL)
				return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
						 regno, tn);
			/* the access is checked with the size argument */
			break;
		case A_SIZE:
		case A_SIZE_OR_ZERO: {
			bool c;
			bool write = p->args[a - 1] == A_MEM_UNINIT || p->args[a - 1] == A_MEM_WRITE;
			uint64_t scratched = env->scratched_stack;
			err = check_size_arg(env, regno, p->args[a] == A_SIZE_OR_ZERO, regno - 1, write, &msize_max, &c);
			if (p->args[a - 1] == A_MEM_WRITE)
				env->scratched_stack = scratched;
			if (err)
				return err;
			break;
		}
		case A_ALLOC_SIZE:
			if (!rb_reg_is_const(env, reg))
				return rb_reject(env, "R%d is not a known constant'", regno);
			alloc_size = rb_reg_const_val(env, reg);
			if ((err = rb_mark_chain_precision(env, regno)))
				return err;
			break;
		case A_U32_OUT:
		case A_LONG_OUT: {
			if (reg->type != RT_STACK && reg->type != RT_MAP_VALUE && reg->type != RT_MEM &&
			    reg->type != RT_PKT && reg->type != RT_PKT_META)
				return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
						 regno, tn);
			int osz = p->args[a] == A_LONG_OUT ? 8 : 4;
			/* MEM_ALIGNED: only a constant, aligned stack offset is modelled */
			if (p->args[a] == A_LONG_OUT &&
			    (reg->type != RT_STACK || !env->t->is_const(&reg->val) ||
			     (reg->off + (int64_t)rb_reg_const_val(env, reg)) % osz))
				return rb_unsupported(env, "aligned output argument of bpf_%s", p->name);
			if ((err = rb_check_mem_range(env, regno, -1, (uint64_t)osz, false, true)))
				return err;
			break;
		}
		case A_BTF:
			if (reg->type != RT_BTF_ID || (reg->flags & RF_MAYBE_NULL))
				return rb_reject(env, "R%d type=%s expected=ptr_", regno, tn);
			if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
				return rb_reject(env, "R%d must have zero offset when passed to a helper", regno);
			break;
		case A_RINGBUF_REL:
			if (reg->type != RT_MEM || !(reg->flags & RF_RINGBUF) || (reg->flags & RF_MAYBE_NULL))
				return rb_reject(env, "R%d type=%s expected=ringbuf_mem", regno, tn);
			if (!reg->ref_obj_id)
				return rb_reject(env, "R%d must be referenced when passed to release function", regno);
			if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
				return rb_reject(env, "R%d must have zero offset when passed to release func", regno);
			release_id = reg->ref_obj_id;
			break;
		}
	}
	/* record_func_key: a constant in-range tail-call index is precise */
	if (p->id == BPF_FUNC_tail_call && rb_reg_is_const(env, &regs[3]) &&
	    rb_reg_const_val(env, &regs[3]) < env->obj->maps[map_idx].max_entries &&
	    (err = rb_mark_chain_precision(env, 3)))
		return err;
	if (release_id)
		rb_release_ref(env, release_id);
	if (p->id == BPF_FUNC_tail_call && env->cur->nrefs)
		return rb_reject(env, "tail_call would lead to reference leak");

	regs = rb_cur_regs(env);
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
	switch (p->ret) {
	case R_INT:
		rb_reg_unknown(env, &regs[0]);
		if (p->id == BPF_FUNC_get_stack || p->id == BPF_FUNC_probe_read_str ||
		    p->id == BPF_FUNC_probe_read_kernel_str || p->id == BPF_FUNC_probe_read_user_str) {
			struct rb_bounds b;
			env->t->bounds(&regs[0].val, &b);
			b.smax = (int64_t)msize_max;
			b.s32_max = (int64_t)msize_max;
			b.smin = -4095;
			b.s32_min = -4095;
			env->t->from_bounds(&regs[0].val, &b);
		} else if (p->id == BPF_FUNC_get_smp_processor_id) {
			/* nr_cpu_ids - 1 on this machine's kernel */
			long ncpu = 2;
			struct rb_bounds b;
			env->t->bounds(&regs[0].val, &b);
			b.umin = 0;
			b.umax = (uint64_t)(ncpu - 1);
			b.smin = 0;
			b.smax = ncpu - 1;
			b.u32_min = 0;
			b.u32_max = (uint64_t)(ncpu - 1);
			b.s32_min = 0;
			b.s32_max = ncpu - 1;
			env->t->from_bounds(&regs[0].val, &b);
		}
		break;
	case R_VOID:
		rb_reg_not_init(env, &regs[0]);
		break;
	case R_MAP_VALUE:
		rb_reg_ptr(env, &regs[0], RT_MAP_VALUE);
		regs[0].map_idx = map_idx;
		break;
	case R_BTF_TASK: {
		int32_t id = rb_btf_struct_id(env, "task_struct");
		if (id <= 0)
			return rb_unsupported(env, "get_current_task_btf without vmlinux BTF");
		rb_reg_ptr(env, &regs[0], RT_BTF_ID);
		regs[0].map_idx = id;
		regs[0].flags = RF_TRUSTED;
		break;
	}
	case R_MAP_VALUE_OR_NULL:
		if (env->obj->maps[map_idx].type == BPF_MAP_TYPE_SOCKMAP ||
		    env->obj->maps[map_idx].type == BPF_MAP_TYPE_SOCKHASH) {
			/* an acquiring lookup: a map value or NULL that the null check
			 * turns into a socket (mark_ptr_not_null_reg) */
			rb_reg_ptr(env, &regs[0], RT_MAP_VALUE);
			regs[0].map_idx = map_idx;
			regs[0].flags = RF_MAYBE_NULL;
			++env->id_gen;
			uint32_t id = rb_acquire_ref(env);
			if (!id)
				return RB_E_NOMEM;
			regs[0].id = id;
			regs[0].ref_obj_id = id;
			break;
		}
		if ((env->obj->maps[map_idx].type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		     env->obj->maps[map_idx].type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
		    env->obj->maps[map_idx].inner_map_idx < 0)
			return rb_unsupported(env, "map-in-map lookup without an inner map template");
		rb_reg_ptr(env, &regs[0], RT_MAP_VALUE);
		regs[0].map_idx = map_idx;
		/* 6.13+: an array lookup with a constant in-range key cannot fail */
		if (p->id == BPF_FUNC_map_lookup_elem && const_key >= 0 &&
		    (uint64_t)const_key < env->obj->maps[map_idx].max_entries)
			break;
		regs[0].flags = RF_MAYBE_NULL;
		regs[0].id = ++env->id_gen;
		break;
	case R_SOCKET_OR_NULL: {
		rb_reg_ptr(env, &regs[0], RT_SOCKET);
		regs[0].flags = RF_MAYBE_NULL;
		++env->id_gen;
		uint32_t id = rb_acquire_ref(env);
		if (!id)
			return RB_E_NOMEM;
		regs[0].id = id;
		regs[0].ref_obj_id = id;
		break;
	}
	case R_RINGBUF_OR_NULL: {
		rb_reg_ptr(env, &regs[0], RT_MEM);
		regs[0].flags = RF_MAYBE_NULL | RF_RINGBUF;
		regs[0].range = (int32_t)alloc_size;
		++env->id_gen; /* 6.18 gives maybe-null results an id, then replaces it with the reference id */
		uint32_t id = rb_acquire_ref(env);
		if (!id)
			return RB_E_NOMEM;
		regs[0].id = id;
		regs[0].ref_obj_id = id;
		break;
	}
	}
	if (p->pkt_changes)
		rb_clear_pkt_pointers(env);
	if (p->id == BPF_FUNC_tail_call && env->cur->curframe > 0) {
		/* 6.18: a successful tail call leaves the subprogram at once with
		 * the tail-called program's result; the failed call falls through */
		if (!rb_push_branch(env, insn_idx + 1, insn_idx))
			return env->done ? RB_E_REJECT : RB_E_NOMEM;
		rb_reg_unknown(env, &rb_cur_regs(env)[0]);
		int next = insn_idx;
		int rc = rb_subprog_return(env, &next);
		if (rc < 0)
			return rc;
		env->insn_idx = next - 1; /* the caller of this function adds one */
		return 0; /* (no "from" line: 6.18 prints none here) */
	}
	return 0;
}
