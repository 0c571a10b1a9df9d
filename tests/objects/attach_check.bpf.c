// SPDX-License-Identifier: GPL-2.0
/* attach_check.bpf.c — one program in a section no loader types, returning 1
 * (a valid return for sk_lookup, netfilter, cgroup_sock_addr and
 * cgroup_sockopt alike), for tests/cli/attach_check.sh: typed on the
 * command line without an attach type, Linux 6.18's BPF_PROG_LOAD
 * (bpf_prog_load_check_attach) refuses the types that need one with
 * EINVAL before the verifier runs. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("untyped")
int ret_one(void *ctx)
{
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
