/* struct_ops_orphan.bpf.c — a struct_ops program no .struct_ops map names
 * (issue 25 item 4): libbpf gives it no attach_btf_id and Linux 6.18
 * refuses it before verifying (check_struct_ops_btf_id: -ENOTSUPP, 524,
 * nothing logged). The engine stores it `refused` like the kernel; before,
 * it was a verifier failure ("struct_ops program without attach_btf_id"). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("struct_ops/orphan_init")
int orphan_init(unsigned long long *ctx)
{
	(void)ctx;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
