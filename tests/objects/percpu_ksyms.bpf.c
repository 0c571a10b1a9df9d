/* percpu_ksyms.bpf.c — typed ksyms of per-CPU kernel variables (a
 * variable of vmlinux's .data..percpu: PTR_TO_BTF_ID | MEM_PERCPU, ksym.c)
 * and what bpf_this_cpu_ptr / bpf_per_cpu_ptr give for them (helpers.c
 * set_percpu_return): a BTF pointer for a struct, read-only memory of the
 * type's size otherwise, maybe NULL from bpf_per_cpu_ptr.
 * tests/cli/percpu_ksyms.sh pins each program to Linux 7.2.13's verdict
 * and counts (6.18.44 here hides kernel symbol addresses, so libbpf cannot
 * load these). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct rq {
	int cpu;
} __attribute__((preserve_access_index));

extern const struct rq runqueues __ksym;
extern const int bpf_prog_active __ksym;

__u64 out;

/* this CPU's struct: a BTF pointer, never NULL */
SEC("raw_tp/sys_enter")
int this_cpu_struct(void *ctx)
{
	struct rq *rq = (struct rq *)bpf_this_cpu_ptr(&runqueues);

	out = rq->cpu;
	return 0;
}

/* another CPU's int: read-only memory of 4 bytes, maybe NULL */
SEC("raw_tp/sys_enter")
int per_cpu_int(void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();
	int *active = (int *)bpf_per_cpu_ptr(&bpf_prog_active, cpu);

	if (active)
		out = *active;
	return 0;
}

/* bpf_per_cpu_ptr may return NULL: refused */
SEC("raw_tp/sys_enter")
int per_cpu_no_null_check(void *ctx)
{
	struct rq *rq = (struct rq *)bpf_per_cpu_ptr(&runqueues, 1);

	out = rq->cpu;
	return 0;
}

/* the memory is read-only: refused */
SEC("raw_tp/sys_enter")
int this_cpu_write(void *ctx)
{
	int *active = (int *)bpf_this_cpu_ptr(&bpf_prog_active);

	*(volatile int *)active = 1;
	return 0;
}

/* the per-CPU pointer itself cannot be dereferenced: refused */
SEC("raw_tp/sys_enter")
int percpu_direct(void *ctx)
{
	out = runqueues.cpu;
	return 0;
}

/* only a per-CPU pointer may be given: refused */
SEC("raw_tp/sys_enter")
int not_percpu(void *ctx)
{
	int x = 0;

	out = (__u64)bpf_this_cpu_ptr(&x);
	return 0;
}

char _license[] SEC("license") = "GPL";
