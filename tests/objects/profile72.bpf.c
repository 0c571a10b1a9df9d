/* profile72.bpf.c — programs whose verification differs between Linux
 * 6.18.44 and 7.2.13, one behaviour each, pinning the engine's kernel
 * profiles (src/engine/profile.h): the bare engine must give the running
 * 6.18 kernel's counts, the engine @7.2 the counts measured on the real
 * 7.2.13 kernel (tests/cli/profile72.sh holds them, with the command that
 * measured them). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

/* null_check_keeps_id: two map values meet at a join, once as two copies
 * of one pointer (one id), once from two lookups (two ids). 6.18 drops a
 * map value's id at its null check, so the second arrival is pruned; 7.2
 * keeps the ids, which then differ between the states, and explores the
 * join again. */
SEC("xdp")
int null_id_join(struct xdp_md *ctx)
{
	__u32 k = 0, k1 = 1;
	__u64 *a, *b;

	a = bpf_map_lookup_elem(&vals, &k);
	if (!a)
		return XDP_PASS;
	if (ctx->data_end - ctx->data > 64) {
		b = a;
	} else {
		b = bpf_map_lookup_elem(&vals, &k1);
		if (!b)
			return XDP_PASS;
		/* jumps enough for a checkpoint at the join (6.18 and 7.2
		 * is_state_visited: 2 jumps and 8 insns since the last one) */
		if (ctx->ingress_ifindex == 3)
			*b += 3;
		if (ctx->rx_queue_index == 4)
			*b += 4;
	}
	asm volatile("" : "+r"(a), "+r"(b));
	*a += 1;
	*b += 2;
	*a += *b;
	return XDP_PASS;
}

/* stack_live_half_slots: a four-byte key spilled on one path only; at the
 * join the key's half slot is written again before it is read, so 7.2
 * (liveness per half slot) finds it dead and prunes the second arrival,
 * while 6.18 (whole slots, killed by 8-byte writes only) keeps the slot
 * live and explores the join again. */
SEC("xdp")
int half_slot_join(struct xdp_md *ctx)
{
	__u32 key __attribute__((aligned(8)));
	__u64 *v;

	if (ctx->rx_queue_index == 7) {
		key = bpf_get_smp_processor_id();
		v = bpf_map_lookup_elem(&vals, &key);
		if (!v)
			return XDP_PASS;
		if (ctx->ingress_ifindex == 9)
			*v += 1;
	}
	key = (__u32)bpf_get_prandom_u32();
	v = bpf_map_lookup_elem(&vals, &key);
	if (v)
		*v += 2;
	return XDP_PASS;
}
