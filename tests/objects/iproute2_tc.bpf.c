/* iproute2_tc.bpf.c — a tc object as iproute2 (tc ... bpf obj) loads it:
 * struct bpf_elf_map maps with pinning values libbpf refuses (tc's
 * PIN_GLOBAL_NS = 2 and a custom 16), a prog array with id 1 whose slot 0
 * is filled from section "1/0", Cilium-style section names tc loads as
 * SCHED_CLS, and no BTF (built with -g0 by its make rule, as older tc
 * objects were). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_elf_map {
	__u32 type, size_key, size_value, max_elem, flags, id, pinning, inner_id, inner_idx;
};

struct bpf_elf_map SEC("maps") jmp_map = {
	.type = BPF_MAP_TYPE_PROG_ARRAY, .size_key = 4, .size_value = 4, .max_elem = 4, .id = 1,
	.pinning = 2,
};
struct bpf_elf_map SEC("maps") counters = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 8, .max_elem = 64, .pinning = 16,
};

SEC("from-container")
int from_container(struct __sk_buff *skb)
{
	__u32 k = skb->mark & 63;
	__u64 *v = bpf_map_lookup_elem(&counters, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	bpf_tail_call(skb, &jmp_map, 0);
	return 0;
}

SEC("1/0")
int tail_slot0(struct __sk_buff *skb)
{
	return skb->len > 100 ? 2 : 0;
}

char __license[] SEC("license") = "GPL";
