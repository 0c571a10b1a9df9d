/* helper_sets.c — the helper set of a tracing program by attach type and
 * iterator target, measured on the running Linux 6.18.44 kernel
 * (helper_set_lists.h: the lists by name, and how they were measured):
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

static const uint64_t hs_iter[4] = RB_HELPER_BITS(RB_HS618_ITER);
static const uint64_t hs_iter_sockopt[4] = RB_HELPER_BITS(RB_HS618_ITER_SOCKOPT);
static const uint64_t hs_tp_btf[4] = RB_HELPER_BITS(RB_HS618_TP_BTF);

const uint64_t *rb_tracing_helper_set(uint32_t attach_type, const char *target)
{
	switch (attach_type) {
	case BPF_TRACE_ITER:
		if (target && (!strcmp(target, "bpf_iter_tcp") || !strcmp(target, "bpf_iter_unix")))
			return hs_iter_sockopt;
		return hs_iter;
	case BPF_TRACE_RAW_TP:
		return hs_tp_btf;
	default:
		return NULL;
	}
}
