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
#include "util/array_size.h"

#include <linux/bpf.h>
#include <string.h>

/* bit i: helper i is GPL-only (4 probe_read, 6 trace_printk, 35
 * get_current_task, 113 probe_read_kernel, ...) */
static const uint64_t gpl_only[4] = {0x018020080a400050ull, 0xc28fc01000000028ull, 0x8003be2840400000ull,
				     0x000000000000f000ull};

/* kprobe attach types whose bpf_get_func_ip is not GPL-only (kprobe_multi
 * 42, uprobe_multi 48, kprobe_session 56, uprobe_session 57 in 6.18's
 * enum bpf_attach_type; numbers, as Debian 12's header lacks the newer ones) */
static bool kprobe_multi_like(uint32_t at) { return at == 42 || at == 48 || at == 56 || at == 57; }

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
