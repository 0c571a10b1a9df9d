/* btf_walk72.bpf.c — the trust of a pointer loaded through a BTF pointer
 * (src/engine/btf.c; profile.h btf_walk_plain): 6.18.44 makes a pointer
 * walked from a plain or a trusted parent's ordinary field untrusted,
 * 7.2.13 a plain PTR_TO_BTF_ID (inside an RCU critical section), which
 * helpers taking ptr_ accept, but an untrusted one through a union of
 * more than one member. tests/cli/btf_walk72.sh checks the engine
 * against the running kernel (kdiff, 6.18 profile) and pins 7.2.13's
 * counts for the 7.2 profile. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct seq_file;
struct path {
	void *mnt;
} __attribute__((preserve_access_index));
struct file {
	struct path f_path;
} __attribute__((preserve_access_index));
struct sock;
struct socket {
	struct sock *sk;
} __attribute__((preserve_access_index));
struct mm_struct {
	unsigned long task_size;
} __attribute__((preserve_access_index));
struct task_struct {
	struct mm_struct *mm;
} __attribute__((preserve_access_index));
struct vm_area_struct {
	struct file *vm_file;
} __attribute__((preserve_access_index));
struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));
struct bpf_iter__task_vma {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
	struct vm_area_struct *vma;
} __attribute__((preserve_access_index));
struct bpf_iter__task_file {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
	__u32 fd;
	struct file *file;
} __attribute__((preserve_access_index));

struct nh_info {
	__u8 family;
} __attribute__((preserve_access_index));
struct nh_group;
struct nexthop {
	union {
		struct nh_info *nh_info;
		struct nh_group *nh_grp;
	};
} __attribute__((preserve_access_index));
struct fib6_info {
	struct nexthop *nh;
} __attribute__((preserve_access_index));
struct bpf_iter__ipv6_route {
	struct bpf_iter_meta *meta;
	struct fib6_info *rt;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} sk_stg SEC(".maps");

char buf[64];

/* a trusted task's mm: untrusted (6.18), plain (7.2) */
SEC("tp_btf/sched_switch")
int trusted_field(__u64 *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct mm_struct *mm = prev->mm;

	if (!mm)
		return 0;
	return mm->task_size & 1;
}

/* the vma (plain) -> vm_file, given to bpf_d_path: refused by 6.18 */
SEC("iter/task_vma")
int vma_file_path(struct bpf_iter__task_vma *ctx)
{
	struct vm_area_struct *vma = ctx->vma;
	struct file *f;

	if (!vma)
		return 0;
	f = vma->vm_file;
	if (!f)
		return 0;
	bpf_d_path(&f->f_path, buf, sizeof(buf));
	return 0;
}

/* a socket's sk (plain) given to bpf_sk_storage_get: refused by 6.18 */
SEC("iter/task_file")
int file_sock_storage(struct bpf_iter__task_file *ctx)
{
	struct file *file = ctx->file;
	struct socket *sock;
	int *v;

	if (!file)
		return 0;
	sock = bpf_sock_from_file(file);
	if (!sock)
		return 0;
	v = bpf_sk_storage_get(&sk_stg, sock->sk, 0, 0);
	if (v)
		*v += 1;
	return 0;
}

/* a route's nexthop (plain in 7.2) -> nh_info, a member of a union of two:
 * untrusted in both kernels (7.2.13 btf_struct_walk's PTR_UNTRUSTED is
 * kept by clear_trusted_flags) */
SEC("iter/ipv6_route")
int union_member(struct bpf_iter__ipv6_route *ctx)
{
	struct fib6_info *rt = ctx->rt;
	struct nexthop *nh;
	struct nh_info *ni;

	if (!rt)
		return 0;
	nh = rt->nh;
	if (!nh)
		return 0;
	ni = nh->nh_info;
	if (!ni)
		return 0;
	return ni->family & 1;
}

char _license[] SEC("license") = "GPL";
