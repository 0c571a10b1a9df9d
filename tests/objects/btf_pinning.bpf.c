/* btf_pinning.bpf.c — BTF-defined maps with pinning values tc's loaders
 * use and libbpf 1.1 refuses ("invalid pinning value"): PIN_GLOBAL_NS = 2
 * and a custom 16. Pinning is the loading program's business: the
 * loader's own path opens the object and ignores it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
	__uint(pinning, 2);
} global_ns SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 4);
	__uint(pinning, 16);
} custom_pin SEC(".maps");

SEC("tc")
int pinned_maps(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *a = bpf_map_lookup_elem(&global_ns, &k);
	__u32 *b = bpf_map_lookup_elem(&custom_pin, &k);
	return (a ? 1 : 0) + (b ? (int)(*b & 1) : 0);
}

char __license[] SEC("license") = "GPL";
