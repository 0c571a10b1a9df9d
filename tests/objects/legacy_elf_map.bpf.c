/* legacy_elf_map.bpf.c — iproute2-style 36-byte struct bpf_elf_map
 * definitions in SEC("maps"), with a map-in-map whose inner map is named
 * by id / inner_id, as tc's loader does. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_elf_map {
	__u32 type, size_key, size_value, max_elem, flags, id, pinning, inner_id, inner_idx;
};

struct bpf_elf_map SEC("maps") inner_tpl = {
	.type = BPF_MAP_TYPE_ARRAY, .size_key = 4, .size_value = 4, .max_elem = 1, .id = 42,
};
struct bpf_elf_map SEC("maps") outer_map = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS, .size_key = 4, .size_value = 4, .max_elem = 8,
	.inner_id = 42,
};

SEC("classifier")
int tc_ingress(struct __sk_buff *skb)
{
	__u32 k = 0;
	void *in = bpf_map_lookup_elem(&outer_map, &k);
	if (!in)
		return 0;
	__u32 *v = bpf_map_lookup_elem(in, &k);
	return v ? (int)*v : 1;
}

char __license[] SEC("license") = "GPL";
