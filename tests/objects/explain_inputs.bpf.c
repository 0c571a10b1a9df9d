/* explain_inputs.bpf.c — programs whose verification changes with the
 * kernel inputs libbpf prepares them with (src/loader/kernel_inputs.h),
 * one input each: tests/cli/explain_inputs.sh explains the change between
 * the running kernel's inputs and a made-up directory whose BTF is this
 * object's own (it has struct rb_xi_probe; no kernel has) and whose
 * configuration sets CONFIG_RB_XI_TEST (no kernel's does). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <stdbool.h>

extern bool CONFIG_RB_XI_TEST __kconfig __weak;

__u64 out;

struct rb_xi_probe {
	int x;
};

/* CO-RE: the branch is kept only where the kernel's BTF has the type */
SEC("kprobe/do_nanosleep")
int btf_type(void *ctx)
{
	if (bpf_core_type_exists(struct rb_xi_probe))
		out = bpf_get_prandom_u32();
	return 0;
}

/* a .kconfig extern: 0 unless the kernel's configuration sets it */
SEC("kprobe/do_nanosleep")
int config_opt(void *ctx)
{
	if (CONFIG_RB_XI_TEST)
		out = bpf_get_prandom_u32();
	return 0;
}
char _license[] SEC("license") = "GPL";
