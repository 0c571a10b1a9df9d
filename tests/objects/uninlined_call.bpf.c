/* uninlined_call.bpf.c — one program calls memcmp with a length clang
 * cannot inline, so the object has a call to an undefined function with no
 * BTF for it (as ebpf_exporter's unix-accept-latency, Inspektor Gadget's
 * trace_tcp, Tetragon's objects waiting for their CEL expressions). libbpf
 * 1.1 refuses such an object at open; the loader opens it, leaving out that
 * program with its reason, and the other program is intact. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char buf[64];

SEC("socket")
int calls_memcmp(struct __sk_buff *skb)
{
	char a[32] = {};
	unsigned int n = skb->len & 31;

	return __builtin_memcmp(a, buf, n);
}

SEC("socket")
int fine(struct __sk_buff *skb)
{
	return skb->len > 100;
}

char LICENSE[] SEC("license") = "GPL";
