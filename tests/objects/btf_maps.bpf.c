/* btf_maps.bpf.c — BTF-defined maps of several kinds, including sizes that
 * real tools leave to user space (max_entries 0, stack trace map without
 * key/value size, ring buffer without size), a pinned map, a map-in-map,
 * a program marked not-to-autoload and one in an unknown section. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 0); /* set by user space in real tools */
	__type(key, __u32);
	__type(value, __u32);
} unsized SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pinned SEC(".maps");

struct inner_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner_map);
} outer SEC(".maps");

SEC("xdp")
int use_maps(struct xdp_md *ctx)
{
	__u32 k = 1;
	__u64 one = 1, *v = bpf_map_lookup_elem(&counts, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &k, &one, BPF_ANY);
	__u32 *u = bpf_map_lookup_elem(&unsized, &k);
	if (u)
		*u += 1;
	void *in = bpf_map_lookup_elem(&outer, &k);
	if (in) {
		__u64 *x = bpf_map_lookup_elem(in, &k);
		if (x)
			*x += 1;
	}
	bpf_map_lookup_elem(&pinned, &k);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &k, sizeof(k));
	bpf_ringbuf_output(&rb, &k, sizeof(k), 0);
	return XDP_PASS;
}

SEC("?xdp")
int not_autoloaded(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("weird_section_name")
int unknown_type(void *ctx)
{
	return 0;
}

SEC("kprobe/do_nanosleep")
int stack_user(void *ctx)
{
	return bpf_get_stackid(ctx, &stacks, 0) < 0;
}

char LICENSE[] SEC("license") = "GPL";
