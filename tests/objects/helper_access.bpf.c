/* helper_access.bpf.c — helper calls the kernel refuses before looking at
 * their arguments (Linux 6.18 check_helper_call), in an object whose
 * licence is not GPL-compatible (tests/cli/helper_access.sh):
 *   gpl_only_printk  socket filter calling bpf_trace_printk, a GPL-only
 *                    helper: "cannot call GPL-restricted function from
 *                    non-GPL compatible program"
 *   xdp_skb_helper   xdp calling bpf_skb_load_bytes: "program of this type
 *                    cannot use helper bpf_skb_load_bytes#26"
 *   kprobe_xfrm      kprobe calling bpf_skb_get_xfrm_state, which the
 *                    engine has no prototype for: the same rejection
 *   cgrp_storage     socket filter calling bpf_cgrp_storage_get (#210,
 *                    newer than Debian 12's uapi header) with no map:
 *                    available, its first argument refused
 *   ok_nongpl        socket filter calling a helper that is not GPL-only:
 *                    accepted
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

SEC("socket")
int gpl_only_printk(struct __sk_buff *skb)
{
	char fmt[] = "len %d";
	bpf_trace_printk(fmt, sizeof(fmt), skb->len);
	return 0;
}

SEC("xdp")
int xdp_skb_helper(struct xdp_md *ctx)
{
	__u32 v = 0;
	bpf_skb_load_bytes(ctx, 0, &v, sizeof(v));
	return v ? XDP_PASS : XDP_DROP;
}

SEC("kprobe/do_nanosleep")
int kprobe_xfrm(void *ctx)
{
	struct bpf_xfrm_state x;
	return bpf_skb_get_xfrm_state(ctx, 0, &x, sizeof(x), 0) ? 1 : 0;
}

/* bpf_cgrp_storage_get(map, cgroup, value, flags), called by number */
static void *(*const cgrp_storage_get)(void *map, void *cgrp, void *value, __u64 flags) = (void *)210;

SEC("socket")
int cgrp_storage(struct __sk_buff *skb)
{
	return cgrp_storage_get(0, 0, 0, skb->len) ? 1 : 0;
}

SEC("socket")
int ok_nongpl(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &k);
	return v ? (int)*v + skb->len : 0;
}

char LICENSE[] SEC("license") = "MIT";
