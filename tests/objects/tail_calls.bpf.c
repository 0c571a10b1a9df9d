/* tail_calls.bpf.c — iproute2 "N/M" tail-call sections and the kernel's
 * checks around bpf_tail_call (tests/cli/tail_calls.sh):
 *   - jmp_tc (bpf_elf_map id 7) gets slot 0 from section "7/0" and slot 1
 *     from "7/1", as tc fills it; "7/9" is past its end (tc's load would
 *     fail with E2BIG) and "8/0" names no map: neither fills anything;
 *   - xdp_entry is an XDP program that tail-calls through jmp_tc, which
 *     the tc programs own: 6.18 verifies it, then refuses the load
 *     (bpf_check_tail_call, EINVAL) once the array holds them;
 *   - through_hash passes a hash map to bpf_tail_call: 6.18's
 *     record_func_key refuses it ("expected prog array map for tail
 *     call", printed without a newline).
 * The tail-call sections get the object's type: its typed programs
 * disagree (classifier and xdp), so SCHED_CLS (prog_type.c). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_elf_map {
	__u32 type, size_key, size_value, max_elem, flags, id, pinning, inner_id, inner_idx;
};

struct bpf_elf_map SEC("maps") jmp_tc = {
	.type = BPF_MAP_TYPE_PROG_ARRAY, .size_key = 4, .size_value = 4, .max_elem = 2, .id = 7,
};
struct bpf_elf_map SEC("maps") jmp_hash = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 4, .max_elem = 4, .id = 9,
};

SEC("classifier")
int tc_entry(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jmp_tc, skb->mark & 1);
	return 0;
}

SEC("7/0")
int slot0(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jmp_tc, 1);
	return skb->len > 100 ? 2 : 0;
}

SEC("7/1")
int slot1(struct __sk_buff *skb)
{
	return 1;
}

SEC("7/9")
int past_end(struct __sk_buff *skb)
{
	return 0;
}

SEC("8/0")
int no_map(struct __sk_buff *skb)
{
	return 0;
}

SEC("xdp")
int xdp_entry(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jmp_tc, 0);
	return XDP_PASS;
}

SEC("classifier")
int through_hash(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jmp_hash, 0);
	return 0;
}

char __license[] SEC("license") = "GPL";
