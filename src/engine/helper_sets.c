/* helper_sets.c — the helper sets measured on the running Linux 6.18.44
 * kernel (helper_set_lists.h: the lists by name, and how they were
 * measured), as the bitmaps the engine tests; and the set of a tracing
 * program by attach type and iterator target:
 * - iterators (BPF_TRACE_ITER): every iterator target that loads without
 *   a map (task, task_file, task_vma, bpf_map, bpf_prog, bpf_link, cgroup,
 *   ipv6_route, kmem_cache, ksym, netlink, udp, dmabuf) has the same set;
 *   tcp and unix add bpf_setsockopt and bpf_getsockopt (their targets'
 *   get_func_proto, 6.18 bpf_iter_get_func_proto). Sleepable iterators
 *   (BPF_F_SLEEPABLE) have the same set: bpf_copy_from_user is refused to
 *   non-sleepable ones later, as .might_sleep (helpers.c).
 * - tp_btf (BPF_TRACE_RAW_TP): sched_switch and inet_sock_set_state give
 *   the same set.
 * Programs whose iterator target needs a map (bpf_map_elem,
 * bpf_sk_storage_map, sockmap) could not be probed without one; they are
 * given the common iterator set. */
#include "engine/helper_sets.h"

#include <string.h>

#include "engine/helper_set_lists.h"

const uint64_t rb_hs618_netfilter[4] = RB_HELPER_BITS(RB_HS618_NETFILTER);
const uint64_t rb_hs618_socket_filter[4] = RB_HELPER_BITS(RB_HS618_SOCKET_FILTER);
const uint64_t rb_hs618_tc[4] = RB_HELPER_BITS(RB_HS618_TC);
const uint64_t rb_hs618_xdp[4] = RB_HELPER_BITS(RB_HS618_XDP);
const uint64_t rb_hs618_trace[4] = RB_HELPER_BITS(RB_HS618_TRACE);
const uint64_t rb_hs618_perf_event[4] = RB_HELPER_BITS(RB_HS618_PERF_EVENT);
const uint64_t rb_hs618_cgroup_skb[4] = RB_HELPER_BITS(RB_HS618_CGROUP_SKB);
const uint64_t rb_hs618_sock_addr_bind_sendmsg[4] = RB_HELPER_BITS(RB_HS618_SOCK_ADDR_BIND_SENDMSG);
const uint64_t rb_hs618_sock_addr_connect[4] = RB_HELPER_BITS(RB_HS618_SOCK_ADDR_CONNECT);
const uint64_t rb_hs618_sock_addr_recv_names[4] = RB_HELPER_BITS(RB_HS618_SOCK_ADDR_RECV_NAMES);
const uint64_t rb_hs618_cgroup_sock[4] = RB_HELPER_BITS(RB_HS618_CGROUP_SOCK);
const uint64_t rb_hs618_sock_ops[4] = RB_HELPER_BITS(RB_HS618_SOCK_OPS);
const uint64_t rb_hs618_sk_lookup[4] = RB_HELPER_BITS(RB_HS618_SK_LOOKUP);
const uint64_t rb_hs618_sk_reuseport[4] = RB_HELPER_BITS(RB_HS618_SK_REUSEPORT);
const uint64_t rb_hs618_sk_msg[4] = RB_HELPER_BITS(RB_HS618_SK_MSG);
const uint64_t rb_hs618_sk_skb[4] = RB_HELPER_BITS(RB_HS618_SK_SKB);
const uint64_t rb_hs618_getsockopt[4] = RB_HELPER_BITS(RB_HS618_GETSOCKOPT);
const uint64_t rb_hs618_setsockopt[4] = RB_HELPER_BITS(RB_HS618_SETSOCKOPT);
const uint64_t rb_hs618_cgroup_sysctl[4] = RB_HELPER_BITS(RB_HS618_CGROUP_SYSCTL);
const uint64_t rb_hs618_cgroup_device[4] = RB_HELPER_BITS(RB_HS618_CGROUP_DEVICE);
const uint64_t rb_hs618_flow_dissector[4] = RB_HELPER_BITS(RB_HS618_FLOW_DISSECTOR);
const uint64_t rb_hs618_lwt_in[4] = RB_HELPER_BITS(RB_HS618_LWT_IN);
const uint64_t rb_hs618_lwt_out[4] = RB_HELPER_BITS(RB_HS618_LWT_OUT);
const uint64_t rb_hs618_lwt_xmit[4] = RB_HELPER_BITS(RB_HS618_LWT_XMIT);
const uint64_t rb_hs618_lwt_seg6local[4] = RB_HELPER_BITS(RB_HS618_LWT_SEG6LOCAL);
const uint64_t rb_hs618_syscall[4] = RB_HELPER_BITS(RB_HS618_SYSCALL);
const uint64_t rb_hs618_iter[4] = RB_HELPER_BITS(RB_HS618_ITER);
const uint64_t rb_hs618_iter_sockopt[4] = RB_HELPER_BITS(RB_HS618_ITER_SOCKOPT);
const uint64_t rb_hs618_tp_btf[4] = RB_HELPER_BITS(RB_HS618_TP_BTF);
const uint64_t rb_hs618_tcp_ca[4] = RB_HELPER_BITS(RB_HS618_TCP_CA);
const uint64_t rb_hs618_tcp_ca_release[4] = RB_HELPER_BITS(RB_HS618_TCP_CA_RELEASE);

const uint64_t *rb_tracing_helper_set(uint32_t attach_type, const char *target)
{
	switch (attach_type) {
	case BPF_TRACE_ITER:
		if (target && (!strcmp(target, "bpf_iter_tcp") || !strcmp(target, "bpf_iter_unix")))
			return rb_hs618_iter_sockopt;
		return rb_hs618_iter;
	case BPF_TRACE_RAW_TP:
		return rb_hs618_tp_btf;
	default:
		return NULL;
	}
}
