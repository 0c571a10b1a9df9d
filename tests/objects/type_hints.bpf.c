/* type_hints.bpf.c — sections that name no program type, or the wrong one
 * (issue 25 item 6), and no license section. tests/cli/type_hints.sh puts
 * it in a directory with a rangebench.types file:
 *   - "from-netdev": iproute2 style, typed sched_cls by Cilium's
 *     convention, but this is XDP code (`ip link ... xdp obj O sec
 *     from-netdev`): as sched_cls it reads packet pointers from __sk_buff
 *     fields that are scalars there and fails;
 *   - "test": no loader types it (load_error without a rule);
 *   - "filter": calls a GPL-only helper, which the kernel refuses to a
 *     program loaded as libbpf loads an object without a license section
 *     (an empty license), and accepts with --license GPL. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("from-netdev")
int xdp_entry(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	if (data + 14 > end)
		return XDP_DROP;
	return ((unsigned char *)data)[12] == 0x08 ? XDP_PASS : XDP_DROP;
}

SEC("test")
int test_entry(struct __sk_buff *skb)
{
	return skb->len > 64;
}

SEC("filter")
int gpl_entry(struct __sk_buff *skb)
{
	__u32 v = 0;
	bpf_probe_read_kernel(&v, sizeof(v), (void *)(long)skb->len);
	return v;
}
