/* mixed_maps.bpf.c — legacy SEC("maps") definitions next to BTF-defined
 * maps in ".maps" (cilium/ebpf's test objects are like that): libbpf 1.x
 * refuses the object, the loader's own path reads both, with the inner
 * map of a BTF map-in-map from its "values" definition. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def {
	__u32 type, key_size, value_size, max_entries, map_flags;
};
struct bpf_map_def SEC("maps") legacy_hash = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8, .max_entries = 16,
};

struct inner_t {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(key_size, 4);
	__uint(max_entries, 1);
	__array(values, struct inner_t);
} btf_outer SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
	__uint(pinning, 1);
} btf_hash SEC(".maps");

SEC("xdp")
int use_both(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *a = bpf_map_lookup_elem(&legacy_hash, &k);
	__u32 *b = bpf_map_lookup_elem(&btf_hash, &k);
	void *in = bpf_map_lookup_elem(&btf_outer, &k);
	__u64 *c = in ? bpf_map_lookup_elem(in, &k) : 0;
	return (a ? 1 : 0) + (b ? 1 : 0) + (c ? (int)(*c & 1) : 0);
}

char __license[] SEC("license") = "GPL";
