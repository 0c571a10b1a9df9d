/* kernel_inputs.bpf.c — programs whose verification depends on the kernel
 * libbpf prepares them for (src/loader/kernel_inputs.h): the .kconfig
 * externs libbpf fills from that kernel (frozen read-only data, so the
 * verifier walks one side of each test only) and an fentry target that
 * Linux 7.2.13's BTF has and 6.18.44's does not. tests/cli/kernel_inputs.sh
 * opens it with made-up kernel inputs (--kernel-inputs DIR) and with the
 * kernel cache's 7.2.13 inputs. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <stdbool.h>

extern bool LINUX_HAS_SYSCALL_WRAPPER __kconfig;
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_HZ __kconfig __weak;

__u64 out;

/* 5 more instructions where the kernel has syscall wrappers (BPF_KSYSCALL
 * then reads the arguments from the inner pt_regs) */
SEC("kprobe/do_nanosleep")
int wrapper(void *ctx)
{
	if (LINUX_HAS_SYSCALL_WRAPPER)
		out = bpf_get_prandom_u32();
	return 0;
}

/* the kernel's version: libbpf's get_kernel_version (a Debian kernel's
 * from "Debian X.Y.Z" in uname -v) */
SEC("kprobe/do_nanosleep")
int version(void *ctx)
{
	if (LINUX_KERNEL_VERSION >= (7u << 16))
		out = bpf_get_prandom_u32();
	return 0;
}

/* a CONFIG_ value from the kernel's configuration (0 when it has none) */
SEC("kprobe/do_nanosleep")
int config_hz(void *ctx)
{
	if (CONFIG_HZ == 300)
		out = bpf_get_prandom_u32();
	return 0;
}

/* do_page_cache_ra is in 7.2.13's BTF, not in 6.18.44's (inlined there):
 * libbpf finds the attach target only in 7.2's */
SEC("fentry/do_page_cache_ra")
int ra_entry(__u64 *ctx)
{
	out = ctx[0];
	return 0;
}
char _license[] SEC("license") = "GPL";
