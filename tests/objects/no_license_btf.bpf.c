/* no_license_btf.bpf.c — an object without a license section (libbpf loads
 * it with an empty, non-GPL licence): reading a kernel struct through a
 * BTF pointer is refused ("Cannot access kernel 'struct task_struct' from
 * non-GPL compatible program", 6.18 and 7.2.13 check_ptr_to_btf_access;
 * src/engine/btf.c rb_btf_load). tests/cli/no_license_btf.sh: kdiff against
 * the running kernel, 7.2.13's counts pinned. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct mm_struct { unsigned long task_size; } __attribute__((preserve_access_index));
struct task_struct { struct mm_struct *mm; int pid; } __attribute__((preserve_access_index));
SEC("tp_btf/sched_switch")
int read_pid(__u64 *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	return prev->pid & 1;
}
SEC("iter/task")
int iter_pid(struct { void *meta; struct task_struct *task; } *ctx)
{
	struct task_struct *t = ctx->task;
	return t ? t->pid & 1 : 0;
}
