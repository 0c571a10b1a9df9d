/* core.bpf.c — CO-RE: the offset of task_struct.pid is relocated against
 * the vmlinux BTF the loader is given; a tp_btf program gets its attach
 * BTF id from vmlinux. The local type only names the fields we read. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

SEC("kprobe/do_nanosleep")
int read_pid(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	return BPF_CORE_READ(t, pid);
}

SEC("tp_btf/sched_switch")
int on_switch(unsigned long long *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
