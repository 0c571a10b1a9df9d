/* legacy_rela.bpf.c — the source of build/test/objects/legacy_rela.bpf.o
 * (issue 25 item 7): a legacy virtual-switch object of old LLVM keeps its
 * map references in SHT_RELA sections (".rela<section>") whose entries
 * have type 0 (R_BPF_NONE) against the map symbols. Today's clang writes
 * SHT_REL with R_BPF_64_64; rel_to_rela.py rewrites its relocation
 * sections into the old form after compiling. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def_legacy {
	unsigned int type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def_legacy SEC("maps") flow_table = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8, .max_entries = 64,
};
struct bpf_map_def_legacy SEC("maps") port_stats = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8, .max_entries = 16,
};

SEC("classifier")
int tail_32(struct __sk_buff *skb)
{
	__u32 k = skb->mark;
	__u64 *f = bpf_map_lookup_elem(&flow_table, &k);
	if (f)
		*f += 1;
	k = skb->ifindex & 15;
	__u64 *s = bpf_map_lookup_elem(&port_stats, &k);
	if (!s)
		return 0;
	return (int)*s;
}

char LICENSE[] SEC("license") = "GPL";
