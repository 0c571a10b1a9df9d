/* d_path_allow.bpf.c — where bpf_d_path may be called (bpf_d_path_allowed,
 * src/engine/helpers.c check_allowed): trampolines on the functions of
 * btf_allowlist_d_path, LSM programs on a sleepable hook, iterators; any
 * other attach point is refused before the arguments ("helper call is not
 * allowed in probe"). tests/cli/percpu_ksyms.sh pins each program to Linux
 * 7.2.13's verdict and counts (6.18.44 here refuses trampoline programs). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct path {
	void *mnt;
	void *dentry;
} __attribute__((preserve_access_index));

struct file {
	struct path f_path;
} __attribute__((preserve_access_index));

char buf[64];

/* filp_close(struct file *, fl_owner_t): on the allowlist */
SEC("fentry/filp_close")
int allowed_fentry(__u64 *ctx)
{
	struct file *f = (struct file *)ctx[0];

	bpf_d_path(&f->f_path, buf, sizeof(buf));
	return 0;
}

/* vfs_read is not on the allowlist */
SEC("fentry/vfs_read")
int not_allowed_fentry(__u64 *ctx)
{
	struct file *f = (struct file *)ctx[0];

	bpf_d_path(&f->f_path, buf, sizeof(buf));
	return 0;
}

/* file_open is a sleepable LSM hook; the program need not sleep */
SEC("lsm/file_open")
int allowed_lsm(__u64 *ctx)
{
	struct file *f = (struct file *)ctx[0];

	bpf_d_path(&f->f_path, buf, sizeof(buf));
	return 0;
}

/* file_permission is not a sleepable hook */
SEC("lsm/file_permission")
int not_allowed_lsm(__u64 *ctx)
{
	struct file *f = (struct file *)ctx[0];

	bpf_d_path(&f->f_path, buf, sizeof(buf));
	return 0;
}

char _license[] SEC("license") = "GPL";
