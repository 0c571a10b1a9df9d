/* scx_iter.bpf.c — sched_ext's open-coded DSQ iterator (bpf_iter_scx_dsq_
 * new/next/destroy, Linux 7.2.13 kernel/sched/ext/ext.c) in the 7.2
 * profile (src/engine/iter.c): new() is KF_RCU_PROTECTED, so in a
 * non-sleepable program its next() gives MEM_RCU task pointers, and an
 * "__iter" argument of another kfunc (scx_bpf_dsq_move) takes the
 * iterator being walked. Loaded against 7.2.13's BTF (--btf); checked by
 * tests/cli/sched_ext.sh against the rows 7.2.13 gave. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct sched_ext_ops {
	void (*enqueue)(struct task_struct *p, __u64 enq_flags);
	void (*dispatch)(__s32 cpu, struct task_struct *prev);
	void (*tick)(struct task_struct *p);
	void (*running)(struct task_struct *p);
	char name[128];
};

struct bpf_iter_scx_dsq {
	__u64 __opaque[6];
} __attribute__((aligned(8)));

extern int bpf_iter_scx_dsq_new(struct bpf_iter_scx_dsq *it, __u64 dsq_id, __u64 flags) __ksym;
extern struct task_struct *bpf_iter_scx_dsq_next(struct bpf_iter_scx_dsq *it) __ksym;
extern void bpf_iter_scx_dsq_destroy(struct bpf_iter_scx_dsq *it) __ksym;
extern _Bool scx_bpf_dsq_move(struct bpf_iter_scx_dsq *it__iter, struct task_struct *p, __u64 dsq_id,
			      __u64 enq_flags) __ksym;
extern void scx_bpf_dsq_insert(struct task_struct *p, __u64 dsq_id, __u64 slice, __u64 enq_flags) __ksym;

#define SHARED_DSQ 0
#define SCX_DSQ_LOCAL (1ull << 63 | 2)

/* dispatch: move the first task of the shared DSQ that moves: accepted */
SEC("struct_ops/i_dispatch")
void i_dispatch(__u64 *ctx)
{
	struct bpf_iter_scx_dsq it;
	struct task_struct *p;
	(void)ctx;
	bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0);
	while ((p = bpf_iter_scx_dsq_next(&it))) {
		if (scx_bpf_dsq_move(&it, p, SCX_DSQ_LOCAL, 0))
			break;
	}
	bpf_iter_scx_dsq_destroy(&it);
}

/* enqueue: the walked tasks are RCU pointers, read and passed to a KF_RCU
 * kfunc: accepted */
SEC("struct_ops/i_enqueue")
void i_enqueue(__u64 *ctx)
{
	struct bpf_iter_scx_dsq it;
	struct task_struct *p, *last = 0;
	int n = 0;
	bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0);
	while ((p = bpf_iter_scx_dsq_next(&it))) {
		if (p->pid > 1) {
			n++;
			last = p;
		}
	}
	if (last && n < 4)
		scx_bpf_dsq_insert(last, SHARED_DSQ, 1000, ctx[1]);
	bpf_iter_scx_dsq_destroy(&it);
}

/* tick: the iterator is never destroyed: a reference leak */
SEC("struct_ops/i_tick")
void i_tick(__u64 *ctx)
{
	struct bpf_iter_scx_dsq it;
	(void)ctx;
	bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0);
	bpf_iter_scx_dsq_next(&it);
}

/* running: next() on an iterator never made: refused */
SEC("struct_ops/i_running")
void i_running(__u64 *ctx)
{
	struct bpf_iter_scx_dsq it;
	(void)ctx;
	__builtin_memset(&it, 0, sizeof(it));
	bpf_iter_scx_dsq_next(&it);
}

SEC(".struct_ops.link")
struct sched_ext_ops i_ops = {
	.enqueue = (void *)i_enqueue,
	.dispatch = (void *)i_dispatch,
	.tick = (void *)i_tick,
	.running = (void *)i_running,
	.name = "rb_i",
};
