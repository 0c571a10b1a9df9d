/* uapi_names.h — program and attach types of the mainline UAPI
 * (include/uapi/linux/bpf.h) that the 6.1 headers and libbpf 1.1 this
 * project builds with do not name, and names for every type.
 *
 * The values are the kernel's ABI (enum bpf_attach_type and enum
 * bpf_prog_type are append-only); 6.18 knows all of them up to
 * RB_BPF_TRACE_UPROBE_SESSION; the FSESSION and *_MULTI tracing attach
 * types are newer than 6.18 (the running kernel refuses them). RB_
 * prefixed so that a newer <linux/bpf.h> defining the same enumerators
 * does not clash. */
#ifndef RB_LOADER_UAPI_NAMES_H
#define RB_LOADER_UAPI_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#define RB_BPF_PROG_TYPE_NETFILTER 32u

#define RB_BPF_LSM_CGROUP 43u
#define RB_BPF_STRUCT_OPS 44u
#define RB_BPF_NETFILTER 45u
#define RB_BPF_TCX_INGRESS 46u
#define RB_BPF_TCX_EGRESS 47u
#define RB_BPF_TRACE_UPROBE_MULTI 48u
#define RB_BPF_CGROUP_UNIX_CONNECT 49u
#define RB_BPF_CGROUP_UNIX_SENDMSG 50u
#define RB_BPF_CGROUP_UNIX_RECVMSG 51u
#define RB_BPF_CGROUP_UNIX_GETPEERNAME 52u
#define RB_BPF_CGROUP_UNIX_GETSOCKNAME 53u
#define RB_BPF_NETKIT_PRIMARY 54u
#define RB_BPF_NETKIT_PEER 55u
#define RB_BPF_TRACE_KPROBE_SESSION 56u
#define RB_BPF_TRACE_UPROBE_SESSION 57u
#define RB_BPF_TRACE_FSESSION 58u
#define RB_BPF_TRACE_FENTRY_MULTI 59u
#define RB_BPF_TRACE_FEXIT_MULTI 60u
#define RB_BPF_TRACE_FSESSION_MULTI 61u

/* libbpf's name of a program type ("kprobe", "netfilter"), NULL if none */
const char *rb_prog_type_str(uint32_t type);
/* libbpf's name of an attach type ("trace_uprobe_multi"), NULL if none */
const char *rb_attach_type_str(uint32_t at);
/* the type or attach type with that name; false if none */
bool rb_prog_type_by_str(const char *name, uint32_t *type);
bool rb_attach_type_by_str(const char *name, uint32_t *at);

#endif
