/* profile72_subprogs.bpf.c — subprogram calls that Linux 7.2 judges
 * otherwise than 6.18, pinning the 7.2 profile's subprog_stack_args and
 * global_void_return (src/engine/profile.h). tests/cli/profile72_subprogs.sh
 * holds both kernels' counts. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* six parameters in BTF, five in registers: the compiler drops the unused
 * sixth from the static function's calls, not from its prototype. 7.2
 * wants it as a stack argument the caller never wrote and refuses the
 * call; 6.18 found the prototype unreliable and went on. */
static __attribute__((noinline)) int six_args(int a, int b, int c, int d, int e, int unused)
{
	return a + b + c + d + e;
}

SEC("socket")
int call_six_args(struct __sk_buff *skb)
{
	return six_args(skb->len, skb->protocol, skb->mark, skb->priority, skb->ifindex, skb->hash);
}

/* a global function returning void: 7.2 accepts it (R0 stays
 * uninitialised after the call), 6.18 refuses the call */
__attribute__((noinline)) void set_mark(struct __sk_buff *skb)
{
	skb->tc_index = 0;
}

SEC("tc")
int call_global_void(struct __sk_buff *skb)
{
	set_mark(skb);
	return 0;
}
