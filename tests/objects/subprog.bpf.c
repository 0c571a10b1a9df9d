/* subprog.bpf.c — BPF-to-BPF calls: a static and a global function in .text
 * shared by two programs, and a static function called from both. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int twice(int x)
{
	return x * 2 + 1;
}

__attribute__((noinline)) int add_one(int x)
{
	return twice(x) + 1;
}

SEC("socket")
int first(struct __sk_buff *skb)
{
	return add_one(skb->len);
}

SEC("socket")
int second(struct __sk_buff *skb)
{
	return twice(skb->protocol);
}

char LICENSE[] SEC("license") = "GPL";
