/* legacy_sleepable.bpf.c — a map with a pinning value libbpf refuses
 * (100: "invalid pinning value", libbpf 1.1 and 1.7 alike), so the
 * loader's own path opens the object, and a program of a section libbpf
 * makes sleepable (SEC_SLEEPABLE: "syscall"). The loader's path gives it
 * the flag libbpf would: before, the program was loaded without it and
 * failed ("Syscall programs can only be sleepable"). Linux 6.18.44: success. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
	__uint(pinning, 100);
} pinned_counter SEC(".maps");

SEC("syscall")
int legacy_syscall(void *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&pinned_counter, &k);
	if (v)
		*v += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
