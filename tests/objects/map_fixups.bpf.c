/* map_fixups.bpf.c — legacy map definitions whose sizes the kernel would
 * refuse as written, which loaders fix up: a ring buffer with a key and a
 * value and a size that is not a power-of-two number of pages, a perf
 * event array with 8-byte keys and values and no size, and a map-in-map
 * with no inner map (its user space would hand one over). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def {
	__u32 type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def SEC("maps") events = {
	.type = BPF_MAP_TYPE_RINGBUF, .key_size = 4, .value_size = 4, .max_entries = 5000,
};
struct bpf_map_def SEC("maps") perf_out = {
	.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY, .key_size = 8, .value_size = 8,
};
struct bpf_map_def SEC("maps") outer = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS, .key_size = 4, .value_size = 4, .max_entries = 4,
};

SEC("socket")
int use_fixed_maps(struct __sk_buff *skb)
{
	__u32 v = skb->len, k = 0;
	bpf_ringbuf_output(&events, &v, sizeof(v), 0);
	bpf_perf_event_output(skb, &perf_out, BPF_F_CURRENT_CPU, &v, sizeof(v));
	void *in = bpf_map_lookup_elem(&outer, &k);
	if (!in)
		return 0;
	__u32 *x = bpf_map_lookup_elem(in, &k);
	return x ? (int)*x : 1;
}

char __license[] SEC("license") = "GPL";
