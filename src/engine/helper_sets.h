/* helper_sets.h — the helper sets measured on Linux 6.18.44 (a bit per
 * helper id; the lists by name in helper_set_lists.h), and the set of a
 * tracing program that the running kernel loads (iterators and tp_btf),
 * by attach type and iterator target. */
#ifndef RB_ENGINE_HELPER_SETS_H
#define RB_ENGINE_HELPER_SETS_H

#include <stdint.h>

/* per program type (prog_types.c, struct_ops.c), as helper_set_lists.h
 * names them */
extern const uint64_t rb_hs618_netfilter[4];
extern const uint64_t rb_hs618_socket_filter[4];
extern const uint64_t rb_hs618_tc[4];
extern const uint64_t rb_hs618_xdp[4];
extern const uint64_t rb_hs618_trace[4];
extern const uint64_t rb_hs618_perf_event[4];
extern const uint64_t rb_hs618_cgroup_skb[4];
extern const uint64_t rb_hs618_sock_addr_bind_sendmsg[4];
extern const uint64_t rb_hs618_sock_addr_connect[4];
extern const uint64_t rb_hs618_sock_addr_recv_names[4];
extern const uint64_t rb_hs618_cgroup_sock[4];
extern const uint64_t rb_hs618_sock_ops[4];
extern const uint64_t rb_hs618_sk_lookup[4];
extern const uint64_t rb_hs618_sk_reuseport[4];
extern const uint64_t rb_hs618_sk_msg[4];
extern const uint64_t rb_hs618_sk_skb[4];
extern const uint64_t rb_hs618_getsockopt[4];
extern const uint64_t rb_hs618_setsockopt[4];
extern const uint64_t rb_hs618_cgroup_sysctl[4];
extern const uint64_t rb_hs618_cgroup_device[4];
extern const uint64_t rb_hs618_flow_dissector[4];
extern const uint64_t rb_hs618_lwt_in[4];
extern const uint64_t rb_hs618_lwt_out[4];
extern const uint64_t rb_hs618_lwt_xmit[4];
extern const uint64_t rb_hs618_lwt_seg6local[4];
extern const uint64_t rb_hs618_syscall[4];
extern const uint64_t rb_hs618_iter[4];
extern const uint64_t rb_hs618_iter_sockopt[4];
extern const uint64_t rb_hs618_tp_btf[4];
extern const uint64_t rb_hs618_tcp_ca[4];
extern const uint64_t rb_hs618_tcp_ca_release[4];

/* the helper set (a bit per helper id) of a BPF_PROG_TYPE_TRACING program
 * with this attach type; target is the BTF name of its attach target
 * ("bpf_iter_tcp", ...) or NULL. NULL when none was measured (fentry,
 * fexit, fmod_ret: the kernel here refuses to load them). */
const uint64_t *rb_tracing_helper_set(uint32_t attach_type, const char *target);

#endif
