/* explain_two.bpf.c — a change with two causes (tests/cli/explain.sh): x
 * and y each in [0, 8] are moved by -4 + 2^63, which cnum follows and old
 * loses (wrap across 2^63); each then decides a branch for cnum that old
 * explores both ways. Giving cnum old's value of one of them leaves the
 * other's difference: only both counterfactuals together make the change
 * (old 41 insns, cnum 28) vanish. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int two_causes(struct __sk_buff *skb)
{
	__u64 x = bpf_get_prandom_u32(), y = bpf_get_prandom_u32(), k = 1ULL << 63;
	int r = 0;
	if (x > 8 || y > 8)
		return 0;
	asm volatile("%[x] -= 4\n\t%[x] += %[k]" : [x] "+r"(x) : [k] "r"(k));
	asm volatile("%[y] -= 4\n\t%[y] += %[k]" : [y] "+r"(y) : [k] "r"(k));
	if (x < 100)
		r += bpf_get_prandom_u32() & 1;
	if (y < 100)
		r += bpf_get_prandom_u32() & 2;
	return r;
}

char LICENSE[] SEC("license") = "GPL";
