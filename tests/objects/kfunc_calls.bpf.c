/* kfunc_calls.bpf.c — kfunc calls the engine checks from vmlinux BTF
 * prototypes and the kfunc table (src/engine/kfuncs.c, kfunc_table.c):
 * each program must give the running kernel's (Linux 6.18.44) log,
 * verdict and counts (tests/cli/kfuncs.sh runs `rangebench kdiff` on
 * every program here). Prototypes are declared with the kernel's argument
 * types so that libbpf accepts them against vmlinux BTF. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* libbpf compares kinds, not layouts: a struct with any body will do */
struct nf_conn {
	int unused;
};
struct nf_conn___init {
	int unused;
};
struct task_struct {
	int pid;
};
struct bpf_cpumask {
	int unused;
};

struct bpf_ct_opts {
	__s32 netns_id;
	__s32 error;
	__u8 l4proto;
	__u8 dir;
	__u16 ct_zone_id;
	__u8 ct_zone_dir;
	__u8 reserved[3];
};

extern struct nf_conn *bpf_skb_ct_lookup(struct __sk_buff *skb, struct bpf_sock_tuple *tuple, __u32 tuple__sz,
					 struct bpf_ct_opts *opts, __u32 opts__sz) __ksym;
extern struct nf_conn___init *bpf_skb_ct_alloc(struct __sk_buff *skb, struct bpf_sock_tuple *tuple,
					       __u32 tuple__sz, struct bpf_ct_opts *opts, __u32 opts__sz) __ksym;
extern struct nf_conn *bpf_ct_insert_entry(struct nf_conn___init *nfct) __ksym;
extern void bpf_ct_release(struct nf_conn *nfct) __ksym;
extern int bpf_ct_change_timeout(struct nf_conn *nfct, __u32 timeout) __ksym;
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;
extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
extern void bpf_cpumask_set_cpu(__u32 cpu, struct bpf_cpumask *cpumask) __ksym;
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz, const void *unsafe_ptr__ign, __u64 flags) __ksym;

/* lookup, use, release: accepted */
SEC("tc")
int ct_lookup_release(struct __sk_buff *skb)
{
	struct bpf_ct_opts opts = {.netns_id = -1, .l4proto = 6};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct = bpf_skb_ct_lookup(skb, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return 0;
	bpf_ct_change_timeout(ct, 1000);
	bpf_ct_release(ct);
	return 1;
}

/* the acquired reference is not released: rejected at exit */
SEC("tc")
int ct_leak(struct __sk_buff *skb)
{
	struct bpf_ct_opts opts = {.netns_id = -1, .l4proto = 6};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct = bpf_skb_ct_lookup(skb, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	return ct != 0;
}

/* alloc, insert (releases the allocation, acquires the entry), release: accepted */
SEC("tc")
int ct_alloc_insert(struct __sk_buff *skb)
{
	struct bpf_ct_opts opts = {.netns_id = -1, .l4proto = 17};
	struct bpf_sock_tuple tup = {};
	struct nf_conn___init *nct = bpf_skb_ct_alloc(skb, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!nct)
		return 0;
	struct nf_conn *ct = bpf_ct_insert_entry(nct);
	if (ct)
		bpf_ct_release(ct);
	return 1;
}

/* opts: 4 initialised stack bytes and 8 more that a privileged program
 * may pass uninitialised (6.18 allow_uninit_stack): accepted */
SEC("tc")
int ct_opts_uninit_stack(struct __sk_buff *skb)
{
	struct bpf_sock_tuple tup = {};
	__u32 small = 0;
	struct nf_conn *ct = bpf_skb_ct_lookup(skb, &tup, sizeof(tup.ipv4), (struct bpf_ct_opts *)&small, 12);
	if (ct)
		bpf_ct_release(ct);
	return 0;
}

/* conntrack kfuncs are not in socket filters' kfunc sets: rejected */
SEC("socket")
int ct_not_allowed(struct __sk_buff *skb)
{
	struct bpf_ct_opts opts = {.netns_id = -1, .l4proto = 6};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct = bpf_skb_ct_lookup(skb, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (ct)
		bpf_ct_release(ct);
	return 0;
}

/* a trusted task, acquired and released: accepted */
SEC("tp_btf/sched_switch")
int task_acquire_release(__u64 *ctx)
{
	struct task_struct *t = bpf_task_from_pid(1);
	if (!t)
		return 0;
	struct task_struct *u = bpf_task_acquire(t);
	bpf_task_release(t);
	if (u)
		bpf_task_release(u);
	return 0;
}

/* a task released twice: rejected */
SEC("tp_btf/sched_switch")
int task_double_release(__u64 *ctx)
{
	struct task_struct *t = bpf_task_from_pid(1);
	if (!t)
		return 0;
	bpf_task_release(t);
	bpf_task_release(t);
	return 0;
}

/* RCU kfunc on an acquired cpumask: accepted */
SEC("tp_btf/sched_switch")
int cpumask_create_set(__u64 *ctx)
{
	struct bpf_cpumask *m = bpf_cpumask_create();
	if (!m)
		return 0;
	bpf_cpumask_set_cpu(0, m);
	bpf_cpumask_release(m);
	return 0;
}

/* a sleepable kfunc (KF_SLEEPABLE) with a memory, size pair: a user
 * string into a stack buffer, then the buffer read at the returned length;
 * accepted where the length is bounded */
SEC("uprobe.s")
int copy_user_str(struct pt_regs *ctx)
{
	char buf[32];
	const void *src = (const void *)bpf_get_current_task();
	long n = bpf_copy_from_user_str(buf, sizeof(buf), src, 0);
	if (n <= 0 || n > (long)sizeof(buf))
		return 0;
	return buf[n - 1];
}

/* the same call with a size larger than the buffer: rejected */
SEC("uprobe.s")
int copy_user_str_overrun(struct pt_regs *ctx)
{
	char buf[16];
	const void *src = (const void *)bpf_get_current_task();
	return bpf_copy_from_user_str(buf, 24, src, 0);
}

/* a sleepable kfunc in a program that is not sleepable: rejected */
SEC("uprobe")
int copy_user_str_not_sleepable(struct pt_regs *ctx)
{
	char buf[16];
	return bpf_copy_from_user_str(buf, sizeof(buf), (const void *)0, 0);
}

char LICENSE[] SEC("license") = "GPL";
