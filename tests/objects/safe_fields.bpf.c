/* safe_fields.bpf.c — fields of kernel structs that stay trusted (or RCU)
 * when walked from a trusted pointer, each maybe NULL or not (the
 * BTF_TYPE_SAFE_* lists; src/engine/btf.c safe_field): tp_btf programs
 * reading vm_area_struct's vm_mm and vm_file (untrusted in 6.18.44,
 * trusted or NULL in 7.2.13: profile.h safe_fields_72), mm_struct's
 * exe_file and sk_buff's sk (RCU or NULL), dentry's d_inode (trusted or
 * NULL), cgroup's kn (RCU). tests/cli/safe_fields.sh: kdiff against the
 * running kernel, and the types and counts Linux 7.2.13 gives. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct inode { unsigned long i_ino; } __attribute__((preserve_access_index));
struct file { struct inode *f_inode; } __attribute__((preserve_access_index));
struct mm_struct { struct file *exe_file; unsigned long task_size; } __attribute__((preserve_access_index));
struct vm_area_struct { struct mm_struct *vm_mm; struct file *vm_file; } __attribute__((preserve_access_index));
struct sock { int sk_rcvbuf; } __attribute__((preserve_access_index));
struct sk_buff { struct sock *sk; } __attribute__((preserve_access_index));
struct dentry { struct inode *d_inode; } __attribute__((preserve_access_index));
struct kernfs_node { unsigned short flags; } __attribute__((preserve_access_index));
struct cgroup { struct kernfs_node *kn; } __attribute__((preserve_access_index));
SEC("tp_btf/sched_skip_vma_numa")
int vma_fields(__u64 *ctx)
{
	struct vm_area_struct *vma = (struct vm_area_struct *)ctx[1];
	struct mm_struct *mm = vma->vm_mm;
	struct file *f = vma->vm_file;
	return (mm != 0) + (f != 0);
}
SEC("tp_btf/sched_skip_vma_numa")
int mm_exe(__u64 *ctx)
{
	struct mm_struct *mm = (struct mm_struct *)ctx[0];
	struct file *f = mm->exe_file;
	return f != 0;
}
SEC("tp_btf/net_dev_queue")
int skb_sk(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	struct sock *sk = skb->sk;
	return sk != 0;
}
SEC("tp_btf/ext4_unlink_exit")
int dentry_inode(__u64 *ctx)
{
	struct dentry *d = (struct dentry *)ctx[0];
	struct inode *i = d->d_inode;
	return i != 0;
}
SEC("tp_btf/cgroup_mkdir")
int cgroup_kn(__u64 *ctx)
{
	struct cgroup *c = (struct cgroup *)ctx[0];
	struct kernfs_node *kn = c->kn;
	return kn != 0;
}
char _license[] SEC("license") = "GPL";
