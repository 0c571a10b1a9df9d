/* explore_time.bpf.c — a program whose exploration is long enough to be
 * sampled (tests/cli/explore_time.sh): a loop of 3,000 rounds the
 * verifier walks one by one (the counter, compared with the bound, makes
 * each state new), some 20,000 instructions, a few milliseconds in the
 * kernel. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int explore_loop(struct __sk_buff *skb)
{
	__u64 s = skb->len;
#pragma clang loop unroll(disable)
	for (__u64 i = 0; i < 3000; i++) {
		asm volatile("%0 ^= %1" : "+r"(s) : "r"(i));
		asm volatile("%0 *= 3" : "+r"(s));
	}
	return s & 1;
}

char LICENSE[] SEC("license") = "GPL";
