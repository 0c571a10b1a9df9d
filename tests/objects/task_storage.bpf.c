/* task_storage.bpf.c — bpf_task_storage_get / bpf_task_storage_delete
 * (src/engine/helper_table.c, helper_args.c) from a tp_btf program: each
 * program must give the running kernel's (Linux 6.18.44) log, verdict and
 * counts (tests/cli/kfuncs.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} starts SEC(".maps");

/* the current task's storage, created on demand: accepted */
SEC("tp_btf/sched_switch")
int get_create(__u64 *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 *v = bpf_task_storage_get(&starts, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (v)
		*v += 1;
	return 0;
}

/* the storage pointer may be NULL: rejected without the check */
SEC("tp_btf/sched_switch")
int get_unchecked(__u64 *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 *v = bpf_task_storage_get(&starts, t, 0, 0);
	asm volatile("" : "+r"(v));
	return *(volatile __u64 *)v != 0;
}

/* delete takes a task, never NULL: accepted */
SEC("tp_btf/sched_switch")
int del(__u64 *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	return bpf_task_storage_delete(&starts, t) != 0;
}

char LICENSE[] SEC("license") = "GPL";
