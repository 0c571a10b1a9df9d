/* helper_set_lists.h — the measured helper sets by name: which helpers a
 * program of each type (and attach type) may call, as lists of
 * BPF_FUNC_* names (the kernel's own names, <linux/bpf.h>), so that a
 * change of a set is a named helper in a diff. The files that use a set
 * (prog_types.c, struct_ops.c, helper_sets.c, helper_gpl.c: Linux
 * 6.18.44; helper_sets72.c: Linux 7.2.13) turn it into the bitmap the
 * engine tests (a bit per helper id) with RB_HELPER_BITS.
 *
 * Measured on the running 6.18.44 kernel, and in 7.2.13 in a QEMU guest:
 * one call-only probe program (`call id; r0 = 0; exit`) per helper id,
 * program type and attach type (with an attach target of the kernel's
 * vmlinux BTF for tracing, LSM and struct_ops); "cannot use helper" or
 * "unknown func" in the log means unavailable (`rangebench helpers`).
 *
 * Each list is RB_HS_BASE, or another list, plus the helpers it adds.
 * RB_HS_BASE is the set every measured type has: 6.18's
 * bpf_base_func_proto for a loader with every capability (netfilter's
 * whole set). */
#ifndef RB_ENGINE_HELPER_SET_LISTS_H
#define RB_ENGINE_HELPER_SET_LISTS_H

#include <linux/bpf.h> /* first: the two ids below come after its enum */
#include <stdint.h>

/* 6.2's cgroup storage helpers, newer than Debian 12's header (Linux 6.1,
 * ids to 209). Defined after <linux/bpf.h> (whose include guard keeps a
 * later include from seeing them), so a newer header's enumerators of the
 * same name and value are only shadowed. */
#define BPF_FUNC_cgrp_storage_get 210
#define BPF_FUNC_cgrp_storage_delete 211

/* a list's bitmap, uint64_t[4]: bit id % 64 of word id / 64 for every
 * helper id in it (a constant expression) */
#define RB_HS_BIT(f, w) ((BPF_FUNC_##f) / 64 == (w) ? 1ull << ((BPF_FUNC_##f) % 64) : 0ull)
#define RB_HS_W0(f) | RB_HS_BIT(f, 0)
#define RB_HS_W1(f) | RB_HS_BIT(f, 1)
#define RB_HS_W2(f) | RB_HS_BIT(f, 2)
#define RB_HS_W3(f) | RB_HS_BIT(f, 3)
#define RB_HELPER_BITS(list) {0 list(RB_HS_W0), 0 list(RB_HS_W1), 0 list(RB_HS_W2), 0 list(RB_HS_W3)}

/* the base set (see above) */
#define RB_HS_BASE(X) \
	X(map_lookup_elem) X(map_update_elem) X(map_delete_elem) X(ktime_get_ns) X(trace_printk) \
	X(get_prandom_u32) X(get_smp_processor_id) X(tail_call) X(get_current_pid_tgid) X(get_current_uid_gid) \
	X(get_current_comm) X(get_cgroup_classid) X(perf_event_read) X(get_current_task) \
	X(current_task_under_cgroup) X(get_numa_node_id) X(perf_event_read_value) X(get_current_cgroup_id) \
	X(map_push_elem) X(map_pop_elem) X(map_peek_elem) X(spin_lock) X(spin_unlock) X(strtol) X(strtoul) \
	X(send_signal) X(probe_read_user) X(probe_read_kernel) X(probe_read_user_str) X(probe_read_kernel_str) \
	X(send_signal_thread) X(jiffies64) X(get_ns_current_pid_tgid) X(get_current_ancestor_cgroup_id) \
	X(ktime_get_boot_ns) X(ringbuf_output) X(ringbuf_reserve) X(ringbuf_submit) X(ringbuf_discard) \
	X(ringbuf_query) X(get_task_stack) X(copy_from_user) X(snprintf_btf) X(per_cpu_ptr) X(this_cpu_ptr) \
	X(task_storage_get) X(task_storage_delete) X(get_current_task_btf) X(for_each_map_elem) X(snprintf) \
	X(timer_init) X(timer_set_callback) X(timer_start) X(timer_cancel) X(task_pt_regs) \
	X(get_branch_snapshot) X(trace_vprintk) X(find_vma) X(loop) X(strncmp) X(copy_from_user_task) \
	X(kptr_xchg) X(map_lookup_percpu_elem) X(dynptr_from_mem) X(ringbuf_reserve_dynptr) \
	X(ringbuf_submit_dynptr) X(ringbuf_discard_dynptr) X(dynptr_read) X(dynptr_write) X(dynptr_data) \
	X(ktime_get_tai_ns) X(user_ringbuf_drain) X(cgrp_storage_get) X(cgrp_storage_delete)

/* Linux 6.18.44 */

/* netfilter (bpf_nf_func_proto: bpf_base_func_proto): the base set */
#define RB_HS618_NETFILTER(X) \
	RB_HS_BASE(X)

/* socket_filter */
#define RB_HS618_SOCKET_FILTER(X) \
	RB_HS_BASE(X) X(perf_event_output) X(skb_load_bytes) X(get_socket_cookie) X(get_socket_uid) \
	X(skb_load_bytes_relative) X(get_netns_cookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* sched_cls and sched_act (equal) */
#define RB_HS618_TC(X) \
	RB_HS_BASE(X) X(skb_store_bytes) X(l3_csum_replace) X(l4_csum_replace) X(clone_redirect) \
	X(skb_vlan_push) X(skb_vlan_pop) X(skb_get_tunnel_key) X(skb_set_tunnel_key) X(redirect) \
	X(get_route_realm) X(perf_event_output) X(skb_load_bytes) X(csum_diff) X(skb_get_tunnel_opt) \
	X(skb_set_tunnel_opt) X(skb_change_proto) X(skb_change_type) X(skb_under_cgroup) X(get_hash_recalc) \
	X(skb_change_tail) X(skb_pull_data) X(csum_update) X(set_hash_invalid) X(skb_change_head) \
	X(get_socket_cookie) X(get_socket_uid) X(set_hash) X(skb_adjust_room) X(skb_get_xfrm_state) \
	X(skb_load_bytes_relative) X(fib_lookup) X(skb_cgroup_id) X(skb_ancestor_cgroup_id) X(sk_lookup_tcp) \
	X(sk_lookup_udp) X(sk_release) X(sk_fullsock) X(tcp_sock) X(skb_ecn_set_ce) X(get_listener_sock) \
	X(skc_lookup_tcp) X(tcp_check_syncookie) X(sk_storage_get) X(sk_storage_delete) X(tcp_gen_syncookie) \
	X(get_netns_cookie) X(sk_assign) X(csum_level) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(skb_cgroup_classid) \
	X(redirect_neigh) X(redirect_peer) X(ktime_get_coarse_ns) X(check_mtu) X(skc_to_unix_sock) \
	X(skb_set_tstamp) X(skc_to_mptcp_sock) X(tcp_raw_gen_syncookie_ipv4) X(tcp_raw_gen_syncookie_ipv6) \
	X(tcp_raw_check_syncookie_ipv4) X(tcp_raw_check_syncookie_ipv6)

/* xdp */
#define RB_HS618_XDP(X) \
	RB_HS_BASE(X) X(redirect) X(perf_event_output) X(csum_diff) X(xdp_adjust_head) X(redirect_map) \
	X(xdp_adjust_meta) X(xdp_adjust_tail) X(fib_lookup) X(sk_lookup_tcp) X(sk_lookup_udp) X(sk_release) \
	X(skc_lookup_tcp) X(tcp_check_syncookie) X(tcp_gen_syncookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(check_mtu) X(skc_to_unix_sock) X(xdp_get_buff_len) X(xdp_load_bytes) X(xdp_store_bytes) \
	X(skc_to_mptcp_sock) X(tcp_raw_gen_syncookie_ipv4) X(tcp_raw_gen_syncookie_ipv6) \
	X(tcp_raw_check_syncookie_ipv4) X(tcp_raw_check_syncookie_ipv6)

/* kprobe, tracepoint, raw_tracepoint (equal); bpf_probe_write_user and
 * bpf_override_return missing: this kernel runs with lockdown=integrity */
#define RB_HS618_TRACE(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_read_str) X(get_stack) \
	X(get_func_ip) X(get_attach_cookie)

/* perf_event */
#define RB_HS618_PERF_EVENT(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_read_str) \
	X(perf_prog_read_value) X(get_stack) X(read_branch_records) X(get_func_ip) X(get_attach_cookie)

/* cgroup_skb, ingress and egress (equal) */
#define RB_HS618_CGROUP_SKB(X) \
	RB_HS_BASE(X) X(perf_event_output) X(skb_load_bytes) X(get_socket_cookie) X(get_socket_uid) \
	X(skb_load_bytes_relative) X(skb_cgroup_id) X(get_local_storage) X(skb_ancestor_cgroup_id) \
	X(sk_lookup_tcp) X(sk_lookup_udp) X(sk_release) X(sk_fullsock) X(tcp_sock) X(skb_ecn_set_ce) \
	X(get_listener_sock) X(skc_lookup_tcp) X(sk_storage_get) X(sk_storage_delete) X(get_netns_cookie) \
	X(sk_cgroup_id) X(sk_ancestor_cgroup_id) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* cgroup_sock_addr: bind, sendmsg (inet, udp, unix) and unix connect
 * (no bpf_bind, measured) */
#define RB_HS618_SOCK_ADDR_BIND_SENDMSG(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_socket_cookie) X(setsockopt) X(getsockopt) \
	X(get_local_storage) X(sk_lookup_tcp) X(sk_lookup_udp) X(sk_release) X(skc_lookup_tcp) \
	X(sk_storage_get) X(sk_storage_delete) X(get_netns_cookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(get_retval) X(set_retval) X(skc_to_mptcp_sock)

/* cgroup_sock_addr: inet connect */
#define RB_HS618_SOCK_ADDR_CONNECT(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_socket_cookie) X(setsockopt) X(getsockopt) X(bind) \
	X(get_local_storage) X(sk_lookup_tcp) X(sk_lookup_udp) X(sk_release) X(skc_lookup_tcp) \
	X(sk_storage_get) X(sk_storage_delete) X(get_netns_cookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(get_retval) X(set_retval) X(skc_to_mptcp_sock)

/* cgroup_sock_addr: recvmsg, getpeername, getsockname */
#define RB_HS618_SOCK_ADDR_RECV_NAMES(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_socket_cookie) X(setsockopt) X(getsockopt) \
	X(get_local_storage) X(sk_lookup_tcp) X(sk_lookup_udp) X(sk_release) X(skc_lookup_tcp) \
	X(sk_storage_get) X(sk_storage_delete) X(get_netns_cookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* cgroup_sock (every attach type listed in prog_types.c) */
#define RB_HS618_CGROUP_SOCK(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_socket_cookie) X(get_local_storage) X(sk_storage_get) \
	X(get_netns_cookie) X(ktime_get_coarse_ns) X(get_retval) X(set_retval)

/* sock_ops */
#define RB_HS618_SOCK_OPS(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_socket_cookie) X(setsockopt) X(sock_map_update) X(getsockopt) \
	X(sock_ops_cb_flags_set) X(sock_hash_update) X(get_local_storage) X(tcp_sock) X(sk_storage_get) \
	X(sk_storage_delete) X(get_netns_cookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(load_hdr_opt) \
	X(store_hdr_opt) X(reserve_hdr_opt) X(ktime_get_coarse_ns) X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* sk_lookup */
#define RB_HS618_SK_LOOKUP(X) \
	RB_HS_BASE(X) X(perf_event_output) X(sk_release) X(sk_assign) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* sk_reuseport */
#define RB_HS618_SK_REUSEPORT(X) \
	RB_HS_BASE(X) X(skb_load_bytes) X(get_socket_cookie) X(skb_load_bytes_relative) X(sk_select_reuseport) \
	X(ktime_get_coarse_ns)

/* sk_msg */
#define RB_HS618_SK_MSG(X) \
	RB_HS_BASE(X) X(perf_event_output) X(msg_redirect_map) X(msg_apply_bytes) X(msg_cork_bytes) \
	X(msg_pull_data) X(msg_redirect_hash) X(msg_push_data) X(msg_pop_data) X(sk_storage_get) \
	X(sk_storage_delete) X(get_netns_cookie) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* sk_skb */
#define RB_HS618_SK_SKB(X) \
	RB_HS_BASE(X) X(skb_store_bytes) X(perf_event_output) X(skb_load_bytes) X(skb_change_tail) \
	X(skb_pull_data) X(skb_change_head) X(get_socket_cookie) X(get_socket_uid) X(skb_adjust_room) \
	X(sk_redirect_map) X(sk_redirect_hash) X(sk_lookup_tcp) X(sk_lookup_udp) X(sk_release) \
	X(skc_lookup_tcp) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) \
	X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) X(skc_to_unix_sock) \
	X(skc_to_mptcp_sock)

/* cgroup_sockopt, getsockopt */
#define RB_HS618_GETSOCKOPT(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_local_storage) X(tcp_sock) X(sk_storage_get) \
	X(sk_storage_delete) X(get_netns_cookie) X(get_retval) X(set_retval)

/* cgroup_sockopt, setsockopt */
#define RB_HS618_SETSOCKOPT(X) \
	RB_HS_BASE(X) X(perf_event_output) X(setsockopt) X(getsockopt) X(get_local_storage) X(tcp_sock) \
	X(sk_storage_get) X(sk_storage_delete) X(get_netns_cookie) X(get_retval) X(set_retval)

/* cgroup_sysctl */
#define RB_HS618_CGROUP_SYSCTL(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_local_storage) X(sysctl_get_name) X(sysctl_get_current_value) \
	X(sysctl_get_new_value) X(sysctl_set_new_value) X(ktime_get_coarse_ns) X(get_retval) X(set_retval)

/* cgroup_device */
#define RB_HS618_CGROUP_DEVICE(X) \
	RB_HS_BASE(X) X(perf_event_output) X(get_local_storage) X(get_retval) X(set_retval)

/* flow_dissector */
#define RB_HS618_FLOW_DISSECTOR(X) \
	RB_HS_BASE(X) X(skb_load_bytes) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) \
	X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) X(skc_to_unix_sock) \
	X(skc_to_mptcp_sock)

/* lwt_in */
#define RB_HS618_LWT_IN(X) \
	RB_HS_BASE(X) X(get_route_realm) X(perf_event_output) X(skb_load_bytes) X(csum_diff) \
	X(skb_under_cgroup) X(get_hash_recalc) X(skb_pull_data) X(lwt_push_encap) X(skc_to_tcp6_sock) \
	X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) \
	X(ktime_get_coarse_ns) X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* lwt_out */
#define RB_HS618_LWT_OUT(X) \
	RB_HS_BASE(X) X(get_route_realm) X(perf_event_output) X(skb_load_bytes) X(csum_diff) \
	X(skb_under_cgroup) X(get_hash_recalc) X(skb_pull_data) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* lwt_xmit */
#define RB_HS618_LWT_XMIT(X) \
	RB_HS_BASE(X) X(skb_store_bytes) X(l3_csum_replace) X(l4_csum_replace) X(clone_redirect) \
	X(skb_get_tunnel_key) X(skb_set_tunnel_key) X(redirect) X(get_route_realm) X(perf_event_output) \
	X(skb_load_bytes) X(csum_diff) X(skb_get_tunnel_opt) X(skb_set_tunnel_opt) X(skb_under_cgroup) \
	X(get_hash_recalc) X(skb_change_tail) X(skb_pull_data) X(csum_update) X(set_hash_invalid) \
	X(skb_change_head) X(lwt_push_encap) X(csum_level) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* lwt_seg6local: without the seg6 helpers (#74-#76), which exist only with
 * CONFIG_IPV6_SEG6_BPF, which 6.18.44 here lacks (measured: "program of
 * this type cannot use helper bpf_lwt_seg6_store_bytes#74", also #75, #76) */
#define RB_HS618_LWT_SEG6LOCAL(X) \
	RB_HS_BASE(X) X(get_route_realm) X(perf_event_output) X(skb_load_bytes) X(csum_diff) \
	X(skb_under_cgroup) X(get_hash_recalc) X(skb_pull_data) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(ktime_get_coarse_ns) \
	X(skc_to_unix_sock) X(skc_to_mptcp_sock)

/* syscall programs (sleepable: the kernel loads no other) */
#define RB_HS618_SYSCALL(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_read_str) X(get_socket_cookie) \
	X(get_stack) X(sk_storage_get) X(sk_storage_delete) X(skb_output) X(xdp_output) X(skc_to_tcp6_sock) \
	X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) \
	X(d_path) X(sock_from_file) X(sys_bpf) X(btf_find_by_name_kind) X(sys_close) X(get_func_ip) \
	X(skc_to_unix_sock) X(kallsyms_lookup_name) X(xdp_get_buff_len) X(skc_to_mptcp_sock)

/* tracing, iterators (BPF_TRACE_ITER): every target that loads without a map */
#define RB_HS618_ITER(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_read_str) X(get_socket_cookie) \
	X(get_stack) X(sk_storage_get) X(sk_storage_delete) X(skb_output) X(xdp_output) X(seq_printf) \
	X(seq_write) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) \
	X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(d_path) X(seq_printf_btf) X(sock_from_file) \
	X(get_func_ip) X(skc_to_unix_sock) X(xdp_get_buff_len) X(skc_to_mptcp_sock)

/* tracing, the tcp and unix iterators (their get_func_proto adds the
 * sockopt helpers) */
#define RB_HS618_ITER_SOCKOPT(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_read_str) X(get_socket_cookie) \
	X(setsockopt) X(getsockopt) X(get_stack) X(sk_storage_get) X(sk_storage_delete) X(skb_output) \
	X(xdp_output) X(seq_printf) X(seq_write) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) \
	X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(d_path) X(seq_printf_btf) \
	X(sock_from_file) X(get_func_ip) X(skc_to_unix_sock) X(xdp_get_buff_len) X(skc_to_mptcp_sock)

/* tracing, tp_btf (BPF_TRACE_RAW_TP) */
#define RB_HS618_TP_BTF(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_read_str) X(get_socket_cookie) \
	X(get_stack) X(sk_storage_get) X(sk_storage_delete) X(skb_output) X(xdp_output) X(skc_to_tcp6_sock) \
	X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) \
	X(d_path) X(sock_from_file) X(get_func_ip) X(get_attach_cookie) X(skc_to_unix_sock) \
	X(xdp_get_buff_len) X(skc_to_mptcp_sock)

/* struct_ops tcp_congestion_ops: every member but release */
#define RB_HS618_TCP_CA(X) \
	RB_HS_BASE(X) X(setsockopt) X(getsockopt) X(sk_storage_get) X(sk_storage_delete) X(tcp_send_ack) \
	X(ktime_get_coarse_ns)

/* struct_ops tcp_congestion_ops: release (no bpf_setsockopt) */
#define RB_HS618_TCP_CA_RELEASE(X) \
	RB_HS_BASE(X) X(sk_storage_get) X(sk_storage_delete) X(tcp_send_ack) X(ktime_get_coarse_ns)

/* the GPL-only helpers (helper_gpl.c: measured on 6.18.44 with the
 * licence "Proprietary", wherever each is callable) */
#define RB_HS618_GPL_ONLY(X) \
	X(probe_read) X(trace_printk) X(perf_event_read) X(perf_event_output) X(get_stackid) \
	X(get_current_task) X(probe_read_str) X(perf_event_read_value) X(perf_prog_read_value) X(get_stack) \
	X(fib_lookup) X(tcp_check_syncookie) X(tcp_gen_syncookie) X(skb_output) X(probe_read_user) \
	X(probe_read_kernel) X(probe_read_user_str) X(probe_read_kernel_str) X(read_branch_records) \
	X(xdp_output) X(seq_printf) X(seq_write) X(seq_printf_btf) X(get_current_task_btf) X(check_mtu) \
	X(snprintf) X(timer_init) X(timer_set_callback) X(timer_start) X(timer_cancel) X(get_func_ip) \
	X(task_pt_regs) X(get_branch_snapshot) X(trace_vprintk) X(copy_from_user_task) \
	X(tcp_raw_gen_syncookie_ipv4) X(tcp_raw_gen_syncookie_ipv6) X(tcp_raw_check_syncookie_ipv4) \
	X(tcp_raw_check_syncookie_ipv6)

/* Linux 7.2.13 (helper_sets72.c: the types whose set differs from
 * 6.18 by more than a few helpers) */

/* 7.2.13 tp_btf: adds bpf_get_func_arg, bpf_get_func_arg_cnt (7.2
 * tracing_prog_func_proto gives them to raw tracepoints) and
 * bpf_probe_write_user (the guest runs without lockdown) */
#define RB_HS72_TP_BTF(X) \
	RB_HS618_TP_BTF(X) X(probe_write_user) X(get_func_arg) X(get_func_arg_cnt)

/* 7.2.13 tracing: fentry, fexit, fmod_ret */
#define RB_HS72_TRAMPOLINE(X) \
	RB_HS618_TP_BTF(X) X(probe_write_user) X(get_func_arg) X(get_func_ret) X(get_func_arg_cnt)

/* 7.2.13 lsm (sleepable or not) */
#define RB_HS72_LSM(X) \
	RB_HS618_TP_BTF(X) X(probe_write_user) X(inode_storage_get) X(inode_storage_delete) X(bprm_opts_set) \
	X(ima_inode_hash) X(get_func_arg) X(get_func_ret) X(get_func_arg_cnt) X(ima_file_hash)

/* 7.2.13 lsm_cgroup (measured on socket_bind) */
#define RB_HS72_LSM_CGROUP(X) \
	RB_HS_BASE(X) X(probe_read) X(perf_event_output) X(get_stackid) X(probe_write_user) X(probe_read_str) \
	X(get_socket_cookie) X(get_stack) X(get_local_storage) X(sk_storage_get) X(sk_storage_delete) \
	X(skb_output) X(xdp_output) X(skc_to_tcp6_sock) X(skc_to_tcp_sock) X(skc_to_tcp_timewait_sock) \
	X(skc_to_tcp_request_sock) X(skc_to_udp6_sock) X(inode_storage_get) X(inode_storage_delete) X(d_path) \
	X(bprm_opts_set) X(ima_inode_hash) X(sock_from_file) X(get_func_ip) X(skc_to_unix_sock) X(get_retval) \
	X(set_retval) X(xdp_get_buff_len) X(ima_file_hash) X(skc_to_mptcp_sock)

#endif
