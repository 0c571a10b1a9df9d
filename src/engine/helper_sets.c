/* helper_sets.c — the helper sets of tracing programs, measured on the
 * running 6.18.44 kernel the way prog_types.c's sets were: one call-only
 * probe program per helper id 1..211, loaded as BPF_PROG_TYPE_TRACING with
 * the attach type and an attach target (vmlinux BTF id); "program of this
 * type cannot use helper" or "unknown func" means unavailable.
 *
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

#include <linux/bpf.h>
#include <string.h>

static const uint64_t hs_iter[4] = {0x008064280a43d1feull, 0xeb6fbe0063810008ull, 0x9077be3476783f7cull,
				    0x00000000000f0ffcull};
static const uint64_t hs_iter_sockopt[4] = {0x028264280a43d1feull, 0xeb6fbe0063810008ull, 0x9077be3476783f7cull,
					    0x00000000000f0ffcull};
static const uint64_t hs_tp_btf[4] = {0x008064280a43d1feull, 0x2b6fbe0063810008ull, 0x9077fe3476383f7cull,
				      0x00000000000f0ffcull};

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
