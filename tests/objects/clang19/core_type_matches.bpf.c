/* core_type_matches.bpf.c — a CO-RE relocation of kind BPF_CORE_TYPE_MATCHES
 * (12; clang >= 15 emits it for bpf_core_type_matches, Inspektor Gadget's
 * biolatency has one): the loader's .BTF.ext check took kinds up to 11
 * only and refused the object ("core_relo: bad record"); libbpf resolves
 * it against vmlinux BTF (tests/cli/issue25_objects.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char _license[] SEC("license") = "GPL";

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct rb_no_such_struct {
	int nothing_here;
} __attribute__((preserve_access_index));

SEC("tc")
int type_matches(struct __sk_buff *skb)
{
	int r = 0;
	if (bpf_core_type_matches(struct task_struct))
		r |= 1;
	if (bpf_core_type_matches(struct rb_no_such_struct))
		r |= 2;
	return r + skb->len;
}
