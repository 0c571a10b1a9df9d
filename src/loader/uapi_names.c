/* uapi_names.c — names of program and attach types (see uapi_names.h):
 * libbpf 1.1's own names, then mainline libbpf's (attach_type_name[] and
 * prog_type_name[] of tools/lib/bpf/libbpf.c) for the values 1.1 lacks. */
#include "loader/uapi_names.h"
#include "util/array_size.h"

#include <bpf/libbpf.h>
#include <string.h>

static const char *const newer_attach[] = {
	[RB_BPF_LSM_CGROUP] = "lsm_cgroup",
	[RB_BPF_STRUCT_OPS] = "struct_ops",
	[RB_BPF_NETFILTER] = "netfilter",
	[RB_BPF_TCX_INGRESS] = "tcx_ingress",
	[RB_BPF_TCX_EGRESS] = "tcx_egress",
	[RB_BPF_TRACE_UPROBE_MULTI] = "trace_uprobe_multi",
	[RB_BPF_CGROUP_UNIX_CONNECT] = "cgroup_unix_connect",
	[RB_BPF_CGROUP_UNIX_SENDMSG] = "cgroup_unix_sendmsg",
	[RB_BPF_CGROUP_UNIX_RECVMSG] = "cgroup_unix_recvmsg",
	[RB_BPF_CGROUP_UNIX_GETPEERNAME] = "cgroup_unix_getpeername",
	[RB_BPF_CGROUP_UNIX_GETSOCKNAME] = "cgroup_unix_getsockname",
	[RB_BPF_NETKIT_PRIMARY] = "netkit_primary",
	[RB_BPF_NETKIT_PEER] = "netkit_peer",
	[RB_BPF_TRACE_KPROBE_SESSION] = "trace_kprobe_session",
	[RB_BPF_TRACE_UPROBE_SESSION] = "trace_uprobe_session",
	[RB_BPF_TRACE_FSESSION] = "trace_fsession",
	[RB_BPF_TRACE_FENTRY_MULTI] = "trace_fentry_multi",
	[RB_BPF_TRACE_FEXIT_MULTI] = "trace_fexit_multi",
	[RB_BPF_TRACE_FSESSION_MULTI] = "trace_fsession_multi",
};

#define NATTACH (ARRAY_SIZE(newer_attach))

const char *rb_prog_type_str(uint32_t type)
{
	if (type == RB_BPF_PROG_TYPE_NETFILTER)
		return "netfilter";
	return libbpf_bpf_prog_type_str((enum bpf_prog_type)type);
}

const char *rb_attach_type_str(uint32_t at)
{
	const char *s = libbpf_bpf_attach_type_str((enum bpf_attach_type)at);
	if (s)
		return s;
	return at < NATTACH ? newer_attach[at] : NULL;
}

bool rb_prog_type_by_str(const char *name, uint32_t *type)
{
	for (uint32_t t = 1; t <= RB_BPF_PROG_TYPE_NETFILTER; t++) {
		const char *n = rb_prog_type_str(t);
		if (n && !strcmp(n, name)) {
			*type = t;
			return true;
		}
	}
	return false;
}

bool rb_attach_type_by_str(const char *name, uint32_t *at)
{
	for (uint32_t t = 0; t < NATTACH; t++) {
		const char *n = rb_attach_type_str(t);
		if (n && !strcmp(n, name)) {
			*at = t;
			return true;
		}
	}
	return false;
}
