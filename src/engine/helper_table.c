/* helper_table.c — the helper table (Linux 6.18 bpf_func_proto of the
 * helpers real programs use most, for a privileged loader). Helpers missing
 * from it end verification as "unsupported". */
#include <linux/bpf.h>
#include <stddef.h>

#include "engine/helper_table.h"
#include "util/array_size.h"

/* H(name, return type, classes, flags, argument types...); which maps the
 * map argument may be: map_compat.c */
#define H(name, ret, classes, flags, ...) {BPF_FUNC_##name, #name, ret, {__VA_ARGS__}, classes, flags}
#define HN(id, name, ret, classes, flags, ...) {id, #name, ret, {__VA_ARGS__}, classes, flags}
/* only the name, for the log */
#define N(name) {BPF_FUNC_##name, #name, R_INT, {A_NONE}, 0, HF_NAME_ONLY}

static const struct rb_helper helpers[] = {
	H(map_lookup_elem, R_MAP_VALUE_OR_NULL, HC_ALL, HF_PKT_ACCESS, A_MAP, A_KEY),
	H(map_update_elem, R_INT, HC_ALL, HF_PKT_ACCESS, A_MAP, A_KEY, A_VALUE, A_ANY),
	H(map_delete_elem, R_INT, HC_ALL, HF_PKT_ACCESS, A_MAP, A_KEY),
	H(probe_read, R_INT, HC_TRACE, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(ktime_get_ns, R_INT, HC_ALL, 0, A_NONE),
	/* only the format and its size are declared: r3-r5 are not checked */
	H(trace_printk, R_INT, HC_ALL, 0, A_MEM_RO, A_SIZE),
	H(get_prandom_u32, R_INT, HC_ALL, 0, A_NONE),
	H(get_smp_processor_id, R_CPU_ID, HC_ALL, 0, A_NONE),
	H(skb_store_bytes, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_MEM_RO, A_SIZE, A_ANY),
	H(l3_csum_replace, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY, A_ANY, A_ANY),
	H(l4_csum_replace, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY, A_ANY, A_ANY),
	H(tail_call, R_VOID, HC_ALL, 0, A_CTX, A_MAP, A_ANY),
	H(clone_redirect, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY),
	H(get_current_pid_tgid, R_INT, HC_TRACE, 0, A_NONE),
	H(get_current_uid_gid, R_INT, HC_TRACE, 0, A_NONE),
	H(get_current_comm, R_INT, HC_TRACE, 0, A_MEM_UNINIT, A_SIZE),
	H(get_cgroup_classid, R_INT, HC_TC, 0, A_CTX),
	H(skb_vlan_push, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY),
	H(skb_vlan_pop, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX),
	H(redirect, R_INT, HC_TC | HC_XDP, 0, A_ANY, A_ANY),
	H(get_route_realm, R_INT, HC_TC, 0, A_CTX),
	H(perf_event_output, R_INT, HC_ALL, 0, A_CTX, A_MAP, A_ANY, A_MEM_RO, A_SIZE_OR_ZERO),
	H(skb_load_bytes, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX, A_ANY, A_MEM_UNINIT, A_SIZE),
	H(get_stackid, R_INT, HC_TRACE, 0, A_CTX, A_MAP, A_ANY),
	H(csum_diff, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO, A_ANY),
	H(skb_change_proto, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY),
	H(skb_change_type, R_INT, HC_TC, 0, A_CTX, A_ANY),
	H(get_hash_recalc, R_INT, HC_TC, 0, A_CTX),
	H(get_current_task, R_INT, HC_ALL, 0, A_NONE),
	H(skb_change_tail, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY),
	H(skb_pull_data, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY),
	H(csum_update, R_INT, HC_TC, 0, A_CTX, A_ANY),
	H(set_hash_invalid, R_INT, HC_TC, 0, A_CTX),
	H(get_numa_node_id, R_INT, HC_ALL, 0, A_NONE),
	H(skb_change_head, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY),
	H(xdp_adjust_head, R_INT, HC_XDP, HF_PKT_CHANGES, A_CTX, A_ANY),
	H(probe_read_str, R_SIZE_OR_ERR, HC_TRACE, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(get_socket_cookie, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX),
	H(get_socket_uid, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX),
	H(set_hash, R_INT, HC_TC, 0, A_CTX, A_ANY),
	H(skb_adjust_room, R_INT, HC_TC, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY, A_ANY),
	H(redirect_map, R_INT, HC_XDP, 0, A_MAP, A_ANY, A_ANY),
	H(xdp_adjust_meta, R_INT, HC_XDP, HF_PKT_CHANGES, A_CTX, A_ANY),
	H(perf_event_read_value, R_INT, HC_TRACE, 0, A_MAP, A_ANY, A_MEM_UNINIT, A_SIZE),
	H(perf_event_read, R_INT, HC_TRACE, 0, A_MAP, A_ANY),
	H(xdp_adjust_tail, R_INT, HC_XDP, HF_PKT_CHANGES, A_CTX, A_ANY),
	H(get_stack, R_SIZE_OR_ERR, HC_TRACE, 0, A_CTX, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(skb_load_bytes_relative, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX, A_ANY, A_MEM_UNINIT, A_SIZE, A_ANY),
	/* 6.18: ARG_PTR_TO_MEM | MEM_WRITE (read, then clobbered in place) */
	H(fib_lookup, R_INT, HC_TC | HC_XDP, 0, A_CTX, A_MEM_WRITE, A_SIZE, A_ANY),
	H(get_current_cgroup_id, R_INT, HC_TRACE, 0, A_NONE),
	H(skb_cgroup_id, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX),
	H(ktime_get_boot_ns, R_INT, HC_ALL, 0, A_NONE),
	H(send_signal, R_INT, HC_TRACE, 0, A_ANY),
	H(probe_read_user, R_INT, HC_TRACE, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(probe_read_kernel, R_INT, HC_ALL, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(probe_read_user_str, R_SIZE_OR_ERR, HC_TRACE, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(probe_read_kernel_str, R_SIZE_OR_ERR, HC_ALL, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(send_signal_thread, R_INT, HC_TRACE, 0, A_ANY),
	H(jiffies64, R_INT, HC_ALL, 0, A_NONE),
	H(get_ns_current_pid_tgid, R_INT, HC_TRACE, 0, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE),
	H(ringbuf_output, R_INT, HC_ALL, 0, A_MAP, A_MEM_RO, A_SIZE_OR_ZERO, A_ANY),
	H(ringbuf_reserve, R_RINGBUF_OR_NULL, HC_ALL, 0, A_MAP, A_ALLOC_SIZE, A_ANY),
	H(ringbuf_submit, R_VOID, HC_ALL, 0, A_RINGBUF_REL, A_ANY),
	H(ringbuf_discard, R_VOID, HC_ALL, 0, A_RINGBUF_REL, A_ANY),
	H(ringbuf_query, R_INT, HC_ALL, 0, A_MAP, A_ANY),
	H(ktime_get_coarse_ns, R_INT, HC_ALL, 0, A_NONE),
	H(get_func_ip, R_INT, HC_TRACE, 0, A_CTX),
	H(get_attach_cookie, R_INT, HC_TRACE, 0, A_CTX),
	H(ktime_get_tai_ns, R_INT, HC_ALL, 0, A_NONE),
	H(current_task_under_cgroup, R_INT, HC_TRACE, 0, A_MAP, A_ANY),
	H(skb_get_tunnel_key, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX, A_MEM_UNINIT, A_SIZE, A_ANY),
	H(skb_set_tunnel_key, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX, A_MEM_RO, A_SIZE, A_ANY),
	H(skb_get_tunnel_opt, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX, A_MEM_UNINIT, A_SIZE),
	H(skb_set_tunnel_opt, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_CTX, A_MEM_RO, A_SIZE),
	H(redirect_neigh, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER, 0, A_ANY, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO, A_ANY),
	H(trace_vprintk, R_INT, HC_ALL, 0, A_MEM_RO, A_SIZE, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO),
	/* cgroup types only (6.18 cgroup_common_func_proto): tc's kernel refuses it */
	H(get_local_storage, R_MAP_VALUE, HC_CGROUP_SKB, 0, A_MAP, A_ANY),
	H(check_mtu, R_INT, HC_TC | HC_CGROUP_SKB | HC_SOCKET_FILTER | HC_XDP, 0, A_CTX, A_ANY, A_U32_OUT, A_ANY, A_ANY),
	H(seq_printf, R_INT, HC_TRACE, 0, A_BTF, A_MEM_RO, A_SIZE, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO),
	H(seq_write, R_INT, HC_TRACE, 0, A_BTF, A_MEM_RO, A_SIZE_OR_ZERO),
	H(get_current_task_btf, R_BTF_TASK, HC_TRACE, 0, A_NONE),
	/* socket and cgroup program types (availability: their measured sets in prog_types.c) */
	H(get_retval, R_INT, 0, 0, A_NONE),
	H(set_retval, R_INT, 0, 0, A_ANY),
	/* the ctx variants of sock_addr and sock_ops (cgroup_sockopt's take a socket: unsupported) */
	H(getsockopt, R_INT, 0, 0, A_CTX, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE),
	H(setsockopt, R_INT, 0, 0, A_CTX, A_ANY, A_ANY, A_MEM_RO, A_SIZE),
	H(bind, R_INT, 0, 0, A_CTX, A_MEM_RO, A_SIZE),
	H(sock_ops_cb_flags_set, R_INT, 0, 0, A_CTX, A_ANY),
	H(get_current_ancestor_cgroup_id, R_INT, HC_TRACE, 0, A_ANY),
	H(get_netns_cookie, R_INT, 0, 0, A_CTX_OR_NULL),
	/* cgroup_sock's sk_storage_get takes the ctx as its socket (helpers.c) */
	H(sk_storage_get, R_MAP_VALUE_OR_NULL, HC_TC | HC_CGROUP_SKB, 0, A_MAP, A_SOCK_COMMON, A_VALUE_OR_NULL, A_ANY),
	H(sk_storage_delete, R_INT, HC_TC | HC_CGROUP_SKB, 0, A_MAP, A_SOCK_COMMON),
	/* socket references: lookups acquire, sk_release releases (sk_assign: sk_lookup's variant) */
	H(sk_lookup_tcp, R_SOCKET_OR_NULL, HC_TC | HC_CGROUP_SKB | HC_XDP, HF_PKT_ACCESS, A_CTX, A_MEM_RO, A_SIZE, A_ANY, A_ANY),
	H(sk_lookup_udp, R_SOCKET_OR_NULL, HC_TC | HC_CGROUP_SKB | HC_XDP, HF_PKT_ACCESS, A_CTX, A_MEM_RO, A_SIZE, A_ANY, A_ANY),
	H(sk_release, R_INT, HC_TC | HC_CGROUP_SKB | HC_XDP, 0, A_SOCK_RELEASE),
	H(skc_lookup_tcp, R_SOCK_COMMON_OR_NULL, HC_TC | HC_CGROUP_SKB | HC_XDP, HF_PKT_ACCESS, A_CTX, A_MEM_RO, A_SIZE, A_ANY, A_ANY),
	/* socket casts (6.18 is_ptr_cast_function: R0 carries the argument's reference) */
	H(sk_fullsock, R_SOCK_OR_NULL, HC_TC | HC_CGROUP_SKB, HF_PTR_CAST, A_SOCK_PTR),
	H(tcp_sock, R_TCP_SOCK_OR_NULL, HC_TC | HC_CGROUP_SKB, HF_PTR_CAST, A_SOCK_PTR),
	H(get_listener_sock, R_SOCK_OR_NULL, HC_TC | HC_CGROUP_SKB, 0, A_SOCK_PTR),
	H(skc_to_tcp6_sock, R_BTF_SOCK_OR_NULL, HC_ALL, HF_PTR_CAST, A_SOCK_COMMON),
	H(skc_to_tcp_sock, R_BTF_SOCK_OR_NULL, HC_ALL, HF_PTR_CAST, A_SOCK_COMMON),
	H(skc_to_tcp_timewait_sock, R_BTF_SOCK_OR_NULL, HC_ALL, HF_PTR_CAST, A_SOCK_COMMON),
	H(skc_to_tcp_request_sock, R_BTF_SOCK_OR_NULL, HC_ALL, HF_PTR_CAST, A_SOCK_COMMON),
	H(skc_to_udp6_sock, R_BTF_SOCK_OR_NULL, HC_ALL, HF_PTR_CAST, A_SOCK_COMMON),
	H(skc_to_mptcp_sock, R_BTF_SOCK_OR_NULL, HC_ALL, HF_PTR_CAST, A_SOCK_COMMON),
	/* not a cast of is_ptr_cast_function's (6.18, 7.2.13): no reference carried */
	H(skc_to_unix_sock, R_BTF_SOCK_OR_NULL, HC_ALL, 0, A_SOCK_COMMON),
	/* task local storage (6.18 bpf_tracing_func_proto) */
	H(task_storage_get, R_MAP_VALUE_OR_NULL, HC_TRACE, 0, A_MAP, A_BTF_TASK_OR_NULL, A_VALUE_OR_NULL, A_ANY),
	H(task_storage_delete, R_INT, HC_TRACE, 0, A_MAP, A_BTF_TASK),
	/* cgroup local storage (6.18 bpf_base_func_proto; ids of Linux 6.2, which
	 * the build host's uapi header may lack) */
	HN(210, cgrp_storage_get, R_MAP_VALUE_OR_NULL, HC_ALL, 0, A_MAP, A_BTF_STRUCT_OR_NULL, A_VALUE_OR_NULL, A_ANY),
	HN(211, cgrp_storage_delete, R_INT, HC_ALL, 0, A_MAP, A_BTF_STRUCT),
	/* bpf_spin_lock-ed regions (locks.c) */
	H(spin_lock, R_VOID, HC_ALL, 0, A_SPIN_LOCK),
	H(spin_unlock, R_VOID, HC_ALL, 0, A_SPIN_LOCK),
	H(sk_assign, R_INT, 0, 0, A_CTX, A_SOCKET_OR_NULL, A_ANY),
	/* sockmap and reuseport helpers (which map types: map_compat.c) */
	H(sock_map_update, R_INT, 0, 0, A_CTX, A_MAP, A_KEY, A_ANY),
	H(sock_hash_update, R_INT, 0, 0, A_CTX, A_MAP, A_KEY, A_ANY),
	H(sk_redirect_map, R_INT, 0, 0, A_CTX, A_MAP, A_ANY, A_ANY),
	H(sk_redirect_hash, R_INT, 0, 0, A_CTX, A_MAP, A_KEY, A_ANY),
	H(msg_redirect_map, R_INT, 0, 0, A_CTX, A_MAP, A_ANY, A_ANY),
	H(msg_redirect_hash, R_INT, 0, 0, A_CTX, A_MAP, A_KEY, A_ANY),
	H(sk_select_reuseport, R_INT, 0, 0, A_CTX, A_MAP, A_KEY, A_ANY),
	/* cgroup_sysctl (6.18: the name/value buffers are written) */
	H(sysctl_get_name, R_INT, 0, 0, A_CTX, A_MEM_WRITE, A_SIZE, A_ANY),
	H(sysctl_get_current_value, R_INT, 0, 0, A_CTX, A_MEM_UNINIT, A_SIZE),
	H(sysctl_get_new_value, R_INT, 0, 0, A_CTX, A_MEM_UNINIT, A_SIZE),
	H(sysctl_set_new_value, R_INT, 0, 0, A_CTX, A_MEM_RO, A_SIZE),
	/* bpf_base_func_proto: every type */
	H(strtol, R_INT, HC_ALL, 0, A_MEM_RO, A_SIZE, A_ANY, A_LONG_OUT),
	H(strtoul, R_INT, HC_ALL, 0, A_MEM_RO, A_SIZE, A_ANY, A_LONG_OUT),
	/* lightweight tunnels (6.18 net/core/filter.c lwt_*_func_proto) */
	H(lwt_push_encap, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_MEM_RO, A_SIZE),
	H(lwt_seg6_store_bytes, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_MEM_RO, A_SIZE),
	H(lwt_seg6_adjust_srh, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY),
	H(lwt_seg6_action, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_MEM_RO, A_SIZE),
	/* tcp_congestion_ops (6.18 net/ipv4/bpf_tcp_ca.c): a tcp_sock BTF pointer */
	H(tcp_send_ack, R_INT, 0, 0, A_BTF_STRUCT, A_ANY),
	/* named in the log only */
	/* callbacks (callbacks.c) */
	/* syscall programs only (6.18 syscall_prog_func_proto; the measured
	 * helper set decides availability) */
	H(sys_bpf, R_INT, 0, 0, A_ANY, A_MEM_RO, A_SIZE),
	H(btf_find_by_name_kind, R_INT, 0, 0, A_MEM_RO, A_SIZE, A_ANY, A_ANY),
	H(sys_close, R_INT, 0, 0, A_ANY),
	H(loop, R_INT, HC_ALL, 0, A_ANY, A_FUNC, A_STACK_OR_NULL, A_ANY),
	H(for_each_map_elem, R_INT, HC_ALL, 0, A_MAP, A_FUNC, A_STACK_OR_NULL, A_ANY),
	H(find_vma, R_INT, HC_TRACE, 0, A_BTF, A_ANY, A_FUNC, A_STACK_OR_NULL, A_ANY),
	/* dynptrs (Linux 6.18 kernel/bpf/helpers.c, ringbuf.c; dynptr.c) */
	H(dynptr_from_mem, R_INT, HC_ALL, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY, A_DYNPTR_LOCAL_UNINIT),
	H(ringbuf_reserve_dynptr, R_INT, HC_ALL, 0, A_MAP, A_ANY, A_ANY, A_DYNPTR_RINGBUF_UNINIT),
	H(ringbuf_submit_dynptr, R_VOID, HC_ALL, 0, A_DYNPTR_RINGBUF_RELEASE, A_ANY),
	H(ringbuf_discard_dynptr, R_VOID, HC_ALL, 0, A_DYNPTR_RINGBUF_RELEASE, A_ANY),
	H(dynptr_read, R_INT, HC_ALL, 0, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_DYNPTR_RDONLY, A_ANY, A_ANY),
	H(dynptr_write, R_INT, HC_ALL, 0, A_DYNPTR_RDONLY, A_ANY, A_MEM_RO, A_SIZE_OR_ZERO, A_ANY),
	H(dynptr_data, R_DYNPTR_MEM_OR_NULL, HC_ALL, 0, A_DYNPTR_RDONLY, A_ANY, A_ALLOC_SIZE),
	/* callback_fn(const struct bpf_dynptr *dynptr, void *ctx) (callbacks.c) */
	H(user_ringbuf_drain, R_INT, HC_ALL, 0, A_MAP, A_FUNC, A_STACK_OR_NULL, A_ANY),
	/* const strings (const_str.c) */
	H(strncmp, R_INT, HC_ALL, 0, A_MEM_RO, A_SIZE, A_CONST_STR),
	/* 6.18.44: the output buffer is MEM_WRITE (the stable backport of
	 * "bpf: Fix memory access flags in helper prototypes") */
	H(snprintf, R_INT, HC_ALL, 0, A_MEM_WRITE_OR_NULL, A_SIZE_OR_ZERO, A_CONST_STR, A_MEM_RO_OR_NULL, A_SIZE_OR_ZERO),
	/* sk_msg (6.18 sk_msg_func_proto) */
	H(msg_apply_bytes, R_INT, 0, 0, A_CTX, A_ANY),
	H(msg_cork_bytes, R_INT, 0, 0, A_CTX, A_ANY),
	H(msg_pull_data, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY, A_ANY),
	H(msg_push_data, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY, A_ANY),
	H(msg_pop_data, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_ANY, A_ANY, A_ANY),
	/* sock_ops TCP header options (store_hdr_opt changes the packet) */
	H(load_hdr_opt, R_INT, 0, 0, A_CTX, A_MEM_WRITE, A_SIZE, A_ANY),
	H(store_hdr_opt, R_INT, 0, HF_PKT_CHANGES, A_CTX, A_MEM_RO, A_SIZE, A_ANY),
	H(reserve_hdr_opt, R_INT, 0, 0, A_CTX, A_ANY, A_ANY),
	/* tc and xdp (net/core/filter.c, 6.18) */
	H(redirect_peer, R_INT, HC_TC, 0, A_ANY, A_ANY),
	H(csum_level, R_INT, HC_TC, 0, A_CTX, A_ANY),
	H(skb_set_tstamp, R_INT, HC_TC, 0, A_CTX, A_ANY, A_ANY),
	H(skb_get_xfrm_state, R_INT, HC_TC, 0, A_CTX, A_ANY, A_MEM_UNINIT, A_SIZE, A_ANY),
	H(skb_ecn_set_ce, R_INT, HC_TC | HC_CGROUP_SKB, 0, A_CTX),
	H(skb_ancestor_cgroup_id, R_INT, HC_TC | HC_CGROUP_SKB, 0, A_CTX, A_ANY),
	H(sk_cgroup_id, R_INT, HC_TC | HC_CGROUP_SKB, 0, A_SOCK_COMMON),
	H(sk_ancestor_cgroup_id, R_INT, HC_TC | HC_CGROUP_SKB, 0, A_SOCK_COMMON, A_ANY),
	H(xdp_get_buff_len, R_INT, HC_XDP, 0, A_CTX),
	H(xdp_load_bytes, R_INT, HC_XDP, 0, A_CTX, A_ANY, A_MEM_UNINIT, A_SIZE),
	H(xdp_store_bytes, R_INT, HC_XDP, 0, A_CTX, A_ANY, A_MEM_RO, A_SIZE),
	H(tcp_check_syncookie, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_SOCK_COMMON, A_MEM_RO, A_SIZE, A_MEM_RO, A_SIZE),
	H(tcp_gen_syncookie, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_SOCK_COMMON, A_MEM_RO, A_SIZE, A_MEM_RO, A_SIZE),
	/* 6.18.44: read-only arguments, a size that may be zero (the same backport) */
	H(tcp_raw_gen_syncookie_ipv4, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_FIXED_RO, A_MEM_RO, A_SIZE_OR_ZERO),
	H(tcp_raw_gen_syncookie_ipv6, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_FIXED_RO, A_MEM_RO, A_SIZE_OR_ZERO),
	H(tcp_raw_check_syncookie_ipv4, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_FIXED_RO, A_FIXED_RO),
	H(tcp_raw_check_syncookie_ipv6, R_INT, HC_TC | HC_XDP, HF_PKT_ACCESS, A_FIXED_RO, A_FIXED_RO),
	/* queue and stack maps (map_compat.c) */
	H(map_push_elem, R_INT, HC_ALL, HF_PKT_ACCESS, A_MAP, A_VALUE, A_ANY),
	H(map_pop_elem, R_INT, HC_ALL, 0, A_MAP, A_VALUE_UNINIT),
	H(map_peek_elem, R_INT, HC_ALL, 0, A_MAP, A_VALUE_UNINIT),
	/* tracing (6.18 bpf_tracing_func_proto, tracing_prog_func_proto) */
	H(get_task_stack, R_SIZE_OR_ERR, HC_TRACE, 0, A_BTF_TASK, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(task_pt_regs, R_BTF_PTR, HC_TRACE, 0, A_BTF_TASK),
	H(copy_from_user, R_INT, HC_TRACE, HF_MIGHT_SLEEP, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY),
	H(copy_from_user_task, R_INT, HC_TRACE, HF_MIGHT_SLEEP, A_MEM_UNINIT, A_SIZE_OR_ZERO, A_ANY, A_BTF_TASK, A_ANY),
	H(read_branch_records, R_INT, HC_TRACE, 0, A_CTX, A_MEM_WRITE_OR_NULL, A_SIZE_OR_ZERO, A_ANY),
	H(snprintf_btf, R_INT, HC_TRACE, 0, A_MEM_WRITE, A_SIZE, A_MEM_RO, A_SIZE, A_ANY),
	H(seq_printf_btf, R_INT, HC_TRACE, 0, A_BTF, A_MEM_RO, A_SIZE_OR_ZERO, A_ANY),
	/* .allowed: bpf_d_path_allowed (helpers.c) */
	H(d_path, R_INT, HC_TRACE, 0, A_BTF_STRUCT, A_MEM_WRITE, A_SIZE_OR_ZERO),
	H(sock_from_file, R_BTF_SOCK_OR_NULL, HC_TRACE, 0, A_BTF_STRUCT),
	/* RET_PTR_TO_BTF_ID_OR_NULL, arg2 ARG_PTR_TO_BTF_ID_OR_NULL | OBJ_RELEASE: never
	 * reached, a valid destination ends as unsupported (kptrs.c) */
	H(kptr_xchg, R_KPTR, HC_ALL, 0, A_KPTR_XCHG_DEST, A_KPTR_XCHG_SRC),
	H(per_cpu_ptr, R_PERCPU_MEM_OR_NULL, HC_ALL, 0, A_PERCPU_BTF, A_ANY),
	H(this_cpu_ptr, R_PERCPU_MEM, HC_ALL, 0, A_PERCPU_BTF),
	/* trampoline and LSM programs (7.2.13 bpf_trace.c, bpf_lsm.c,
	 * bpf_inode_storage.c; the same prototypes as 6.18's, whose kernel here
	 * refuses these programs): reachable only through the 7.2 profile's
	 * measured sets (helper_sets72.c), so the 6.18 profile is unchanged */
	H(get_func_arg, R_INT, HC_TRACE, HF_SET_ONLY, A_CTX, A_ANY, A_LONG_OUT),
	H(get_func_ret, R_INT, HC_TRACE, HF_SET_ONLY, A_CTX, A_LONG_OUT),
	H(get_func_arg_cnt, R_INT, HC_TRACE, HF_SET_ONLY, A_CTX),
	/* bpf_trace.c bpf_probe_write_user_proto: 6.18.44 here runs with
	 * lockdown and has it in no set; 7.2.13's measured sets do */
	H(probe_write_user, R_INT, HC_TRACE, HF_SET_ONLY, A_ANY, A_MEM_RO, A_SIZE),
	H(inode_storage_get, R_MAP_VALUE_OR_NULL, HC_TRACE, HF_SET_ONLY, A_MAP, A_BTF_STRUCT_OR_NULL, A_VALUE_OR_NULL, A_ANY),
	H(inode_storage_delete, R_INT, HC_TRACE, HF_SET_ONLY, A_MAP, A_BTF_STRUCT_OR_NULL),
	H(bprm_opts_set, R_INT, HC_TRACE, HF_SET_ONLY, A_BTF_STRUCT, A_ANY),
	/* bpf_ima_inode_hash/bpf_ima_file_hash: the LSM rows below (6.18's
	 * prototypes, the same in 7.2.13) */
	/* bpf_timer in map values (timers.c; the callback: callbacks.c) */
	H(timer_init, R_INT, HC_ALL, 0, A_TIMER, A_MAP, A_ANY),
	H(timer_set_callback, R_INT, HC_ALL, 0, A_TIMER, A_FUNC),
	H(timer_start, R_INT, HC_ALL, 0, A_TIMER, A_ANY, A_ANY),
	H(timer_cancel, R_INT, HC_ALL, 0, A_TIMER),
	/* 6.18 bpf_base_func_proto, every type: bpf_map_lookup_percpu_elem_proto
	 * (kernel/bpf/helpers.c) is map_lookup_elem's with the CPU as a third,
	 * unchecked argument; per-CPU maps only (map_compat.c); its result is
	 * always NULL-able (only map_lookup_elem elides the NULL of a constant
	 * key, helpers.c) */
	H(map_lookup_percpu_elem, R_MAP_VALUE_OR_NULL, HC_ALL, HF_PKT_ACCESS, A_MAP, A_KEY, A_ANY),
	/* 6.18 bpf_lsm_func_proto (kernel/bpf/bpf_lsm.c), LSM programs only
	 * (helpers.c): a struct file / struct inode BTF pointer, a buffer the
	 * helper writes (ARG_PTR_TO_UNINIT_MEM) and its constant size;
	 * .might_sleep, and .allowed only on sleepable hooks (lsm.c) */
	H(ima_file_hash, R_INT, HC_LSM, HF_MIGHT_SLEEP, A_BTF_STRUCT, A_MEM_UNINIT, A_SIZE),
	H(ima_inode_hash, R_INT, HC_LSM, HF_MIGHT_SLEEP, A_BTF_STRUCT, A_MEM_UNINIT, A_SIZE),
};

/* prototypes 6.18 gives only some program types in place of the row above
 * (type, attach type or RB_ANY_ATTACH_TYPE, row) */
#define RB_ANY_ATTACH_TYPE 0xffffffffu
static const struct {
	uint32_t type, attach;
	struct rb_helper h;
} type_rows[] = {
	/* bpf_sk_assign_proto: any sock_common (sk_lookup's takes a socket or NULL) */
	{BPF_PROG_TYPE_SCHED_CLS, RB_ANY_ATTACH_TYPE, H(sk_assign, R_INT, HC_TC, 0, A_CTX, A_SOCK_COMMON, A_ANY)},
	{BPF_PROG_TYPE_SCHED_ACT, RB_ANY_ATTACH_TYPE, H(sk_assign, R_INT, HC_TC, 0, A_CTX, A_SOCK_COMMON, A_ANY)},
	/* bpf_get_socket_ptr_cookie_proto */
	{BPF_PROG_TYPE_SK_REUSEPORT, RB_ANY_ATTACH_TYPE, H(get_socket_cookie, R_INT, 0, 0, A_SOCK_COMMON)},
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE, H(get_socket_cookie, R_INT, 0, 0, A_SOCK_COMMON)},
	/* bpf_sk_getsockopt_proto / bpf_sk_setsockopt_proto (cgroup_sockopt; tcp and unix iterators) */
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, RB_ANY_ATTACH_TYPE,
	 H(getsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE)},
	{BPF_PROG_TYPE_CGROUP_SOCKOPT, RB_ANY_ATTACH_TYPE,
	 H(setsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_RO, A_SIZE)},
	{BPF_PROG_TYPE_STRUCT_OPS, RB_ANY_ATTACH_TYPE, /* tcp_congestion_ops (bpf_tcp_ca.c) */
	 H(getsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE)},
	{BPF_PROG_TYPE_STRUCT_OPS, RB_ANY_ATTACH_TYPE,
	 H(setsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_RO, A_SIZE)},
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE,
	 H(getsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE)},
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE,
	 H(setsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_RO, A_SIZE)},
	/* bpf_sk_storage_{get,delete}_tracing_proto (.allowed: helpers.c) */
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE,
	 H(sk_storage_get, R_MAP_VALUE_OR_NULL, 0, 0, A_MAP, A_BTF_STRUCT, A_VALUE_OR_NULL, A_ANY)},
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE, H(sk_storage_delete, R_INT, 0, 0, A_MAP, A_BTF_STRUCT)},
	/* lsm_cgroup on the sockopt hooks: bpf_{sk,unlocked_sk}_{g,s}etsockopt_proto
	 * (bpf_lsm_func_proto; the 7.2 helper sets give them, helper_sets72.c) */
	{BPF_PROG_TYPE_LSM, BPF_LSM_CGROUP, H(getsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_UNINIT, A_SIZE)},
	{BPF_PROG_TYPE_LSM, BPF_LSM_CGROUP, H(setsockopt, R_INT, 0, 0, A_SOCK_COMMON, A_ANY, A_ANY, A_MEM_RO, A_SIZE)},
	/* LSM programs: bpf_sk_storage_{get,delete}_proto (bpf_lsm_func_proto) */
	{BPF_PROG_TYPE_LSM, RB_ANY_ATTACH_TYPE,
	 H(sk_storage_get, R_MAP_VALUE_OR_NULL, 0, 0, A_MAP, A_SOCK_COMMON, A_VALUE_OR_NULL, A_ANY)},
	{BPF_PROG_TYPE_LSM, RB_ANY_ATTACH_TYPE, H(sk_storage_delete, R_INT, 0, 0, A_MAP, A_SOCK_COMMON)},
	/* bpf_skb_output_proto, bpf_xdp_get_buff_len_trace_proto */
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE,
	 H(skb_output, R_INT, 0, 0, A_BTF_STRUCT, A_MAP, A_ANY, A_MEM_RO, A_SIZE_OR_ZERO)},
	{BPF_PROG_TYPE_TRACING, RB_ANY_ATTACH_TYPE, H(xdp_get_buff_len, R_INT, 0, 0, A_BTF_STRUCT)},
};

static const struct rb_helper *find(int32_t id)
{
	for (size_t i = 0; i < ARRAY_SIZE(helpers); i++)
		if (helpers[i].id == id)
			return &helpers[i];
	return NULL;
}

const struct rb_helper *rb_helper_proto(int32_t id)
{
	const struct rb_helper *h = find(id);
	return h && !(h->flags & HF_NAME_ONLY) ? h : NULL;
}

int rb_helper_nargs(int32_t id)
{
	const struct rb_helper *h = rb_helper_proto(id);
	if (!h)
		return -1;
	int n = 0;
	while (n < 5 && h->args[n] != A_NONE)
		n++;
	return n;
}

const struct rb_helper *rb_helper_proto_for(int32_t id, uint32_t prog_type, uint32_t attach_type, bool *variant)
{
	for (size_t i = 0; i < ARRAY_SIZE(type_rows); i++)
		if (type_rows[i].h.id == id && type_rows[i].type == prog_type &&
		    (type_rows[i].attach == RB_ANY_ATTACH_TYPE || type_rows[i].attach == attach_type)) {
			*variant = true;
			return &type_rows[i].h;
		}
	*variant = false;
	return rb_helper_proto(id);
}

/* the arg_btf_id of A_BTF_STRUCT arguments (6.18) */
const char *rb_helper_arg_struct(int32_t id, int a)
{
	(void)a;
	switch (id) {
	case BPF_FUNC_d_path: return "path";
	case BPF_FUNC_inode_storage_get:
	case BPF_FUNC_inode_storage_delete:
	case BPF_FUNC_ima_inode_hash: return "inode";
	case BPF_FUNC_ima_file_hash: return "file";
	case BPF_FUNC_bprm_opts_set: return "linux_binprm";
	case BPF_FUNC_sock_from_file: return "file";
	case BPF_FUNC_sk_storage_get:
	case BPF_FUNC_sk_storage_delete: return "sock_common";
	case BPF_FUNC_skb_output: return "sk_buff";
	case BPF_FUNC_xdp_get_buff_len: return "xdp_buff";
	case BPF_FUNC_tcp_send_ack: return "tcp_sock";
	case 210: /* cgrp_storage_get */
	case 211: return "cgroup"; /* cgrp_storage_delete */
	default: return NULL;
	}
}

/* ARG_PTR_TO_FIXED_SIZE_MEM sizes: struct iphdr 20, ipv6hdr 40, tcphdr 20 */
uint32_t rb_helper_arg_size(int32_t id, int a)
{
	switch (id) {
	case BPF_FUNC_tcp_raw_gen_syncookie_ipv6:
	case BPF_FUNC_tcp_raw_check_syncookie_ipv6:
		return a == 0 ? 40 : 20;
	default:
		return 20;
	}
}

const char *rb_helper_ret_struct(int32_t id)
{
	switch (id) {
	case BPF_FUNC_task_pt_regs: return "pt_regs";
	case BPF_FUNC_sock_from_file: return "socket";
	case BPF_FUNC_skc_to_tcp6_sock: return "tcp6_sock";
	case BPF_FUNC_skc_to_tcp_sock: return "tcp_sock";
	case BPF_FUNC_skc_to_tcp_timewait_sock: return "tcp_timewait_sock";
	case BPF_FUNC_skc_to_tcp_request_sock: return "tcp_request_sock";
	case BPF_FUNC_skc_to_udp6_sock: return "udp6_sock";
	case BPF_FUNC_skc_to_mptcp_sock: return "mptcp_sock";
	case BPF_FUNC_skc_to_unix_sock: return "unix_sock";
	default: return NULL;
	}
}

bool rb_helper_changes_pkt(int32_t id)
{
	const struct rb_helper *h = rb_helper_proto(id);
	return h && (h->flags & HF_PKT_CHANGES);
}

/* prototypes that differ by program type among the types with a measured
 * helper set: the row holds for `type` only (only) or for all but `type` */
static const struct {
	int32_t id;
	uint32_t type;
	bool only;
} variants[] = {
	{BPF_FUNC_get_cgroup_classid, BPF_PROG_TYPE_SK_SKB, true}, /* the cgroup types' variant takes no argument */
	{BPF_FUNC_sk_assign, BPF_PROG_TYPE_SK_LOOKUP, true}, /* tc's takes a sock_common */
};

bool rb_helper_proto_differs(int32_t id, uint32_t prog_type)
{
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++)
		if (variants[i].id == id)
			return variants[i].only ? prog_type != variants[i].type : prog_type == variants[i].type;
	return false;
}
