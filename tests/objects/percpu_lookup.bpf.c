/* percpu_lookup.bpf.c — bpf_map_lookup_percpu_elem (issue 25 item 3), as
 * Linux 6.18 judges it: per-CPU maps only, a NULL-able map value always
 * (even for a constant key of an array). Before the helper was modelled
 * every program here ended `unsupported`. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} plain_counts SEC(".maps");

/* accepted: the value is checked before use */
SEC("socket")
int percpu_checked(struct __sk_buff *skb)
{
	__u32 k = 1;
	__u64 *v = bpf_map_lookup_percpu_elem(&pcpu_counts, &k, skb->len & 7);
	return v ? (int)*v : 0;
}

/* rejected: a constant key in range still leaves the value NULL-able */
SEC("socket")
int percpu_unchecked(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_percpu_elem(&pcpu_counts, &k, skb->len & 7);
	return (int)*v;
}

/* rejected: an array that is not per-CPU */
SEC("socket")
int percpu_plain_map(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_percpu_elem(&plain_counts, &k, skb->len & 7);
	return v ? (int)*v : 0;
}

char LICENSE[] SEC("license") = "GPL";
