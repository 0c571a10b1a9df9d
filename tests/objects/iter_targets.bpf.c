/* iter_targets.bpf.c — iterator programs (SEC("iter/...")) whose context
 * argument is trusted for some targets and not for others (Linux 6.18
 * bpf_iter_reg.ctx_arg_info: task, bpf_map, cgroup, kmem_cache, tcp, udp
 * trusted; ipv6_route, task_file, netlink, ... not), and a read through a
 * flexible array at the end of a kernel struct (btf_struct_walk walks its
 * element). Each must give the running kernel's level-2 log line for line,
 * its verdict and counts (tests/cli/iterators.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct seq_file;
struct net_device;

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

struct fib_nh_common {
	struct net_device *nhc_dev;
} __attribute__((preserve_access_index));

struct fib6_nh {
	struct fib_nh_common nh_common;
} __attribute__((preserve_access_index));

struct fib6_info {
	__u32 fib6_metric;
	struct fib6_nh fib6_nh[];
} __attribute__((preserve_access_index));

struct bpf_iter__ipv6_route {
	struct bpf_iter_meta *meta;
	struct fib6_info *rt;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct file {
	unsigned int f_flags;
} __attribute__((preserve_access_index));

struct bpf_iter__task_file {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
	__u32 fd;
	struct file *file;
} __attribute__((preserve_access_index));

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

/* rt is ptr_or_null (untrusted by ctx_arg_info); its first nexthop lives
 * in the flexible array fib6_nh[], whose device pointer is an untrusted
 * pointer (the engine used to read a scalar there: 256 insns against the
 * kernel's 254 on the selftests' dump_ipv6_route) */
SEC("iter/ipv6_route")
int route_dev(struct bpf_iter__ipv6_route *ctx)
{
	struct fib6_info *rt = ctx->rt;
	struct net_device *dev;

	if (!rt)
		return 0;
	dev = rt->fib6_nh[0].nh_common.nhc_dev;
	if (!dev)
		return 1;
	return rt->fib6_metric & 1;
}

/* task_file: neither the task nor the file is trusted */
SEC("iter/task_file")
int file_flags(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;

	if (!task || !file)
		return 0;
	return (file->f_flags + task->pid) & 1;
}

/* task: the task is trusted (PTR_TRUSTED in ctx_arg_info) */
SEC("iter/task")
int task_pid(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;

	if (!task)
		return 0;
	return task->pid & 1;
}

char _license[] SEC("license") = "GPL";
