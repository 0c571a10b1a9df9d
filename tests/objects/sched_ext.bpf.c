/* sched_ext.bpf.c — a minimal sched_ext scheduler (struct sched_ext_ops,
 * Linux 7.2.13 kernel/sched/ext/ext.c), for the 7.2 profile's sched_ext
 * switch (tests/cli/sched_ext.sh): the member's prototype as the context
 * (trusted task_struct arguments), KF_IMPLICIT_ARGS kfuncs whose full
 * prototype is "<name>_impl", KF_RCU and KF_SLEEPABLE kfuncs, the per-op
 * kfunc filter (scx_kfunc_context_filter), writes to p->scx.slice
 * (bpf_scx_btf_struct_access) and sleepable members (bpf_scx_check_member).
 * Loaded against 7.2.13's BTF (--btf), which resolves the kfuncs, the
 * struct_ops type and the CO-RE offsets. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct sched_ext_entity {
	__u64 slice;
	__u32 weight;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	struct sched_ext_entity scx;
} __attribute__((preserve_access_index));

struct sched_ext_ops {
	__s32 (*select_cpu)(struct task_struct *p, __s32 prev_cpu, __u64 wake_flags);
	void (*enqueue)(struct task_struct *p, __u64 enq_flags);
	void (*dispatch)(__s32 cpu, struct task_struct *prev);
	void (*tick)(struct task_struct *p);
	void (*running)(struct task_struct *p);
	void (*enable)(struct task_struct *p);
	__s32 (*init)(void);
	char name[128];
};

extern __s32 scx_bpf_select_cpu_dfl(struct task_struct *p, __s32 prev_cpu, __u64 wake_flags, _Bool *is_idle) __ksym;
extern void scx_bpf_dsq_insert(struct task_struct *p, __u64 dsq_id, __u64 slice, __u64 enq_flags) __ksym;
extern _Bool scx_bpf_dsq_move_to_local(__u64 dsq_id) __ksym;
extern __s32 scx_bpf_create_dsq(__u64 dsq_id, __s32 node) __ksym;

#define SHARED_DSQ 0
#define SCX_DSQ_LOCAL (1ull << 63 | 2)

/* select_cpu: an implicit-argument KF_RCU kfunc on the trusted argument,
 * then an insert (the enqueue group is allowed in select_cpu) */
SEC("struct_ops/t_select_cpu")
__s32 t_select_cpu(__u64 *ctx)
{
	struct task_struct *p = (void *)ctx[0];
	_Bool idle = 0;
	__s32 cpu = scx_bpf_select_cpu_dfl(p, (__s32)ctx[1], ctx[2], &idle);
	if (idle)
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, 5000000, 0);
	return cpu;
}

/* enqueue: p->scx.slice may be written (deprecated in 7.2, still allowed) */
SEC("struct_ops/t_enqueue")
void t_enqueue(__u64 *ctx)
{
	struct task_struct *p = (void *)ctx[0];
	p->scx.slice = 1000;
	scx_bpf_dsq_insert(p, SHARED_DSQ, 1000, ctx[1]);
}

/* dispatch: the dispatch group */
SEC("struct_ops/t_dispatch")
void t_dispatch(__u64 *ctx)
{
	(void)ctx;
	scx_bpf_dsq_move_to_local(SHARED_DSQ);
}

/* tick: p->scx.weight is not writable ("cannot write into ptr_task_struct") */
SEC("struct_ops/t_tick")
void t_tick(__u64 *ctx)
{
	struct task_struct *p = (void *)ctx[0];
	p->scx.weight = 1;
}

/* running: the dispatch group is not allowed here */
SEC("struct_ops/t_running")
void t_running(__u64 *ctx)
{
	(void)ctx;
	scx_bpf_dsq_move_to_local(SHARED_DSQ);
}

/* enable may not be sleepable (bpf_scx_check_member) */
SEC("struct_ops.s/t_enable")
void t_enable(__u64 *ctx)
{
	(void)ctx;
}

/* init is sleepable: a KF_SLEEPABLE kfunc of the unlocked group */
SEC("struct_ops.s/t_init")
__s32 t_init(__u64 *ctx)
{
	(void)ctx;
	return scx_bpf_create_dsq(SHARED_DSQ, -1);
}

SEC(".struct_ops.link")
struct sched_ext_ops t_ops = {
	.select_cpu = (void *)t_select_cpu,
	.enqueue = (void *)t_enqueue,
	.dispatch = (void *)t_dispatch,
	.tick = (void *)t_tick,
	.running = (void *)t_running,
	.enable = (void *)t_enable,
	.init = (void *)t_init,
	.name = "rb_t",
};
