/* ima_hash.bpf.c — bpf_ima_file_hash from LSM programs (issue 25 item 3),
 * as Linux 6.18 judges it: only sleepable programs (.might_sleep) on
 * sleepable hooks (.allowed), and a sleepable program only on those hooks
 * (bpf_check_attach_target). The running kernel refuses LSM programs
 * (lockdown), so the engine's verdicts are checked alone. Before, every
 * program here ended `unsupported` (the helper was not modelled) and the
 * sleepable one on a non-sleepable hook was accepted. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* accepted: sleepable, on a sleepable hook */
SEC("lsm.s/file_open")
int ima_sleepable(unsigned long long *ctx)
{
	char digest[32];
	return bpf_ima_file_hash((struct file *)ctx[0], digest, sizeof(digest)) < 0 ? 0 : 0;
}

/* rejected: the hook may sleep but the program does not */
SEC("lsm/file_open")
int ima_not_sleepable(unsigned long long *ctx)
{
	char digest[32];
	bpf_ima_file_hash((struct file *)ctx[0], digest, sizeof(digest));
	return 0;
}

/* rejected: a hook that may not sleep */
SEC("lsm/file_permission")
int ima_atomic_hook(unsigned long long *ctx)
{
	char digest[32];
	bpf_ima_file_hash((struct file *)ctx[0], digest, sizeof(digest));
	return 0;
}

/* rejected at attach: a sleepable program on that hook */
SEC("lsm.s/file_permission")
int sleepable_atomic_hook(unsigned long long *ctx)
{
	(void)ctx;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
