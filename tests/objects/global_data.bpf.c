/* global_data.bpf.c — .rodata (frozen, constant to the verifier), .data
 * and .bss, with known initial contents the tests check. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 limit = 0x11223344;
const volatile __u64 mask = 0xff00ff00ff00ff00ull;
__u32 hits = 7;
__u64 scratch[4];

SEC("socket")
int read_globals(struct __sk_buff *skb)
{
	__u32 len = skb->len;
	if (len > limit)
		return 0;
	hits++;
	scratch[len & 3] = len & mask;
	return 1;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
