/* kptrs.bpf.c — the destination of bpf_kptr_xchg (the engine's kptrs.c):
 * each program gives it something 6.18 refuses (a variable offset, a map
 * without kptrs, what the source declares as an untrusted kptr and an
 * offset that is not a kptr's). Each must be rejected as the running kernel
 * (Linux 6.18.44) rejects it, with the same level-2 log line for line
 * (tests/cli/kptrs.sh runs `rangebench kdiff` on every program here).
 * Debian 12's clang 14 emits no BTF type tag for __attribute__((btf_type_tag))
 * in this position (nor for the 6.1 selftests' __kptr), so `kptrs` has no kptr
 * field in its BTF: the last two are refused as "R1 has no valid kptr" too. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct task_struct;

struct val {
	__u64 n;
	struct task_struct __attribute__((btf_type_tag("kptr"))) *ref;
	struct task_struct __attribute__((btf_type_tag("kptr_untrusted"))) *unref;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct val);
} kptrs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[3]);
} plain SEC(".maps");

/* the kptr at a variable offset */
SEC("tc")
int xchg_var_off(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct val *v = bpf_map_lookup_elem(&kptrs, &key);

	if (!v)
		return 0;
	bpf_kptr_xchg((void *)v + (skb->len & 8), NULL);
	return 0;
}

/* a map value without kptr fields */
SEC("tc")
int xchg_no_kptr(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&plain, &key);

	if (!v)
		return 0;
	bpf_kptr_xchg(v + 1, NULL);
	return 0;
}

/* an untrusted (unreferenced) kptr */
SEC("tc")
int xchg_unref(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct val *v = bpf_map_lookup_elem(&kptrs, &key);

	if (!v)
		return 0;
	bpf_kptr_xchg(&v->unref, NULL);
	return 0;
}

/* an offset that is not a kptr's */
SEC("tc")
int xchg_not_kptr(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct val *v = bpf_map_lookup_elem(&kptrs, &key);

	if (!v)
		return 0;
	bpf_kptr_xchg(&v->n, NULL);
	return 0;
}
