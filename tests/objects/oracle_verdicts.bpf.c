/* oracle_verdicts.bpf.c — programs with known kernel verdicts for the
 * kernel oracle's tests (tests/unit/test_oracle.c):
 *   ok_bounded    accepted: map value read with a bounds-checked index
 *   bad_oob       rejected: the index is not checked (map value out of bounds)
 *   ok_rodata     accepted only when .rodata is filled and frozen: the
 *                 NULL dereference sits behind `if (cfg_bad)` with cfg_bad = 0
 *   ok_data       accepted: reads and writes .data / .bss
 *   refused_fentry  a trampoline program: refused with EPERM under lockdown
 *                 (or accepted where trampolines are allowed)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64[4]);
} vals SEC(".maps");

const volatile int cfg_bad = 0;
__u64 counter = 7;
__u64 zeroed;

SEC("socket")
int ok_bounded(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &k);
	__u32 i = skb->len;
	if (!v)
		return 0;
	if (i >= 4)
		return 0;
	return (int)v[i];
}

SEC("socket")
int bad_oob(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &k);
	__u32 i = skb->len;
	if (!v)
		return 0;
	return (int)v[i & 0xff];
}

SEC("socket")
int ok_rodata(struct __sk_buff *skb)
{
	__u32 k = 1;
	if (cfg_bad) {
		__u64 *v = bpf_map_lookup_elem(&vals, &k);
		return (int)*v; /* no NULL check: rejected if this is reachable */
	}
	return skb->len;
}

SEC("socket")
int ok_data(struct __sk_buff *skb)
{
	counter += skb->len;
	zeroed = counter;
	return 0;
}

SEC("fentry/do_unlinkat")
int refused_fentry(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
