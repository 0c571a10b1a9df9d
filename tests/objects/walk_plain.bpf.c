/* walk_plain.bpf.c — a pointer field the kernel does not list, walked
 * from a trusted pointer in a non-sleepable program: 7.2.13 makes it a
 * plain PTR_TO_BTF_ID (check_ptr_to_btf_access: "walking unknown pointers
 * yields old deprecated PTR_TO_BTF_ID"), which bpf_task_storage_get
 * accepts; 6.18.44 makes it untrusted and rejects the call (profile.h
 * walk_plain_ptr). And a global bpf_spin_lock in a .data.NAME section is
 * that map's lock in both kernels (btf_find_datasec_var); the engine found
 * none ("has no valid bpf_spin_lock"). Checked by tests/cli/sched_ext.sh
 * (the running kernel live, 7.2.13 as measured). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct task_struct {
	struct task_struct *last_wakee;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, long);
} wakee_store SEC(".maps");

/* tp_btf arguments are trusted; last_wakee is not listed: plain */
SEC("tp_btf/sched_switch")
int walk_plain(unsigned long long *ctx)
{
	struct task_struct *next = (void *)ctx[2];
	long *v = bpf_task_storage_get(&wakee_store, next->last_wakee, 0, 0);
	return v ? 1 : 0;
}

struct bpf_spin_lock glock __attribute__((section(".data.glock")));
long gcount __attribute__((section(".data.glock")));

SEC("tc")
int global_lock(struct __sk_buff *skb)
{
	(void)skb;
	bpf_spin_lock(&glock);
	gcount++;
	bpf_spin_unlock(&glock);
	return 0;
}
