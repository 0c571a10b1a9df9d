/* helper_gpl.c — licences and GPL-only helpers (Linux 6.18).
 *
 * The GPL-only helpers were measured on the running 6.18.44 kernel: for
 * every program type with a measured helper set (prog_types.c), tp_btf and
 * iterator programs, and every helper the type may call, a call-only
 * program loaded with the licence "Proprietary": "cannot call
 * GPL-restricted function from non-GPL compatible program" means GPL-only.
 * A helper is GPL-only wherever it is callable, except for two prototype
 * variants listed below. */
#include "engine/helper_gpl.h"

#include <string.h>

#include "engine/helper_set_lists.h"
#include "loader/uapi_names.h"
#include "util/array_size.h"

/* bit i: helper i is GPL-only (the list by name in helper_set_lists.h) */
static const uint64_t gpl_only[4] = RB_HELPER_BITS(RB_HS618_GPL_ONLY);

/* kprobe attach types whose bpf_get_func_ip is not GPL-only (6.18's
 * kprobe_multi, uprobe_multi, kprobe_session, uprobe_session) */
static bool kprobe_multi_like(uint32_t at)
{
	return at == BPF_TRACE_KPROBE_MULTI || at == RB_BPF_TRACE_UPROBE_MULTI || at == RB_BPF_TRACE_KPROBE_SESSION ||
	       at == RB_BPF_TRACE_UPROBE_SESSION;
}

bool rb_license_gpl_compatible(const char *license)
{
	static const char *const ok[] = {"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL", "Dual MIT/GPL",
					 "Dual MPL/GPL"};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!strcmp(license, ok[i]))
			return true;
	return false;
}

bool rb_helper_gpl_only(int32_t id, uint32_t prog_type, uint32_t attach_type)
{
	/* bpf_probe_write_user_proto is gpl_only (6.18 and 7.2.13
	 * bpf_trace.c); lockdown kept it out of the measurement */
	if (id == BPF_FUNC_probe_write_user)
		return true;
	if (id <= 0 || id >= 256 || !((gpl_only[id / 64] >> (id % 64)) & 1))
		return false;
	/* bpf_get_stackid_proto_pe */
	if (id == BPF_FUNC_get_stackid && prog_type == BPF_PROG_TYPE_PERF_EVENT)
		return false;
	/* bpf_get_func_ip_proto_kprobe_multi / _uprobe_multi */
	if (id == BPF_FUNC_get_func_ip && prog_type == BPF_PROG_TYPE_KPROBE && kprobe_multi_like(attach_type))
		return false;
	return true;
}
