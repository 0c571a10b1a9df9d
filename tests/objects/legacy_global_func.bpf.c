/* legacy_global_func.bpf.c — legacy SEC("maps") definitions (so the
 * loader's own path opens it, libbpf 1.x refuses them) together with BTF
 * and .BTF.ext: func_info marks pick() global, so 6.18 verifies it on its
 * own and its caller sees an unknown return value. With the func_info
 * passed on (as libbpf < 1.0 and the kernel's samples passed it), both the
 * kernel and the engine reject global_ret (the index may be anything);
 * without it pick() is a static function returning [0, 3] and the program
 * is accepted. static_ret calls a static function and is accepted either
 * way. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def SEC("maps") counts = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8, .max_entries = 4,
};

__attribute__((noinline)) int pick(int x)
{
	return x & 3;
}

static __attribute__((noinline)) int pick_static(int x)
{
	return x & 3;
}

SEC("classifier")
int global_ret(struct __sk_buff *skb)
{
	__u32 k = pick(skb->len);
	unsigned char buf[4] = {1, 2, 3, 4};
	return buf[k];
}

SEC("classifier")
int static_ret(struct __sk_buff *skb)
{
	__u32 k = pick_static(skb->len);
	unsigned char buf[4] = {1, 2, 3, 4};
	__u32 key = 0;
	int r = buf[k];
	__u64 *v = bpf_map_lookup_elem(&counts, &key);
	return r + (v ? *v : 0);
}

char __license[] SEC("license") = "GPL";
