/* insn_limit.bpf.c — a loop whose counter makes every state new, so the
 * verifier runs into the 1,000,000-instruction limit (6.18 do_check: the
 * instruction is counted, then E2BIG before it is printed). The error names
 * the instruction the log shows last, as the kernel's log does
 * (tests/cli/insn_limit.sh; kdiff-equal to the running kernel, measured). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int limit_loop(struct __sk_buff *skb)
{
	__u64 i = 0;
	(void)skb;
	for (;;) {
		asm volatile("%0 += 1" : "+r"(i));
		if (i == 0)
			break;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
