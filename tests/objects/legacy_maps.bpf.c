/* legacy_maps.bpf.c — old-style map definitions (struct bpf_map_def in
 * SEC("maps"), 20 bytes here) that libbpf 1.x refuses, plus a .text
 * sub-program reached through a call relocation and .rodata data. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def_legacy {
	unsigned int type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def_legacy SEC("maps") legacy_hash = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8, .max_entries = 64,
};
struct bpf_map_def_legacy SEC("maps") legacy_array = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 0,
};

static const char tag[8] = "legacy!";

__attribute__((noinline)) int bump(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&legacy_hash, &k);
	if (v)
		return (int)(*v += 1);
	return tag[k & 7];
}

SEC("socket")
int legacy_prog(struct __sk_buff *skb)
{
	__u32 k = skb->len & 3;
	__u32 *a = bpf_map_lookup_elem(&legacy_array, &k);
	if (a)
		*a += 1;
	return bump(k);
}

SEC("classifier")
int legacy_cls(struct __sk_buff *skb)
{
	return bump(skb->mark);
}

char LICENSE[] SEC("license") = "GPL";
