/* kernel_inputs.h — what libbpf reads from the kernel it loads on, taken
 * from a directory instead of the running kernel, so that an object is
 * prepared as libbpf prepares it on that kernel (the kernel an engine
 * profile follows, or a user's own build).
 *
 * The directory is the layout the guest copies out of a kernel image
 * (src/guest/, `make kernels`: <kernel cache>/<package>/inputs/):
 *   btf     its /sys/kernel/btf/vmlinux (required): CO-RE, attach targets,
 *           kfunc and typed-ksym ids, struct_ops types (libbpf's
 *           btf__load_vmlinux_btf, wrapped in bpf_standin.c)
 *   config  its kernel configuration (plain or gzip): CONFIG_* externs
 *           (libbpf 1.7 bpf_object__read_kconfig_file opens
 *           /boot/config-$(uname -r), else /proc/config.gz)
 *   uname   its `uname -a`: LINUX_KERNEL_VERSION (libbpf get_kernel_version:
 *           a Debian kernel's version from utsname.version "Debian X.Y.Z",
 *           else the release)
 * and LINUX_HAS_SYSCALL_WRAPPER, which libbpf probes by opening a kprobe
 * perf event on __<arch>_sys_bpf (features.c probe_kern_syscall_wrapper):
 * taken as set when the configuration has CONFIG_ARCH_HAS_SYSCALL_WRAPPER
 * (the kernel names its syscalls __x64_sys_*) and CONFIG_KPROBE_EVENTS (the
 * kprobe PMU the probe opens, with sysfs mounted as the guest mounts it).
 * libbpf caches that probe's answer for the whole process, so the value is
 * written into the object's .kconfig data after the load instead
 * (rb_kinputs_patch_kconfig).
 *
 * Not followed: /proc/kallsyms (addresses of untyped __ksym externs, plain
 * constants to the verifier) and the feature probes answered through bpf()
 * (the stand-in answers them as 6.18 does; 7.2.13 answers the same). */
#ifndef RB_LOADER_KERNEL_INPUTS_H
#define RB_LOADER_KERNEL_INPUTS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/utsname.h>

#include "util/err.h"

struct bpf_object;
struct rb_standin;

struct rb_kinputs {
	char dir[PATH_MAX];
	char btf[PATH_MAX];    /* dir/btf */
	char config[PATH_MAX]; /* dir/config, "" when absent */
	struct utsname uts;    /* from dir/uname */
	bool have_uts;
	bool syscall_wrapper;  /* LINUX_HAS_SYSCALL_WRAPPER as libbpf would find it there */
};

/* Read the inputs in dir: 0, or -1 with err naming the directory and what
 * is missing or malformed (a btf file is required; config and uname are
 * used when present). */
int rb_kinputs_read(const char *dir, struct rb_kinputs *ki, struct rb_err *err);

/* Parse a `uname -a` line ("SYSNAME NODE RELEASE VERSION... MACHINE
 * [GNU/Linux]") into u: true when it has at least five words. */
bool rb_kinputs_parse_uname(const char *line, struct utsname *u);

/* After libbpf loaded `bo` against st: set the virtual externs libbpf
 * probed on the running kernel (LINUX_HAS_SYSCALL_WRAPPER) to ki's value
 * in the recorded .kconfig data. Returns how many externs were set. */
int rb_kinputs_patch_kconfig(const struct rb_kinputs *ki, struct bpf_object *bo, struct rb_standin *st);

#endif
