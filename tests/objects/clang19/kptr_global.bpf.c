// SPDX-License-Identifier: GPL-2.0
/* kptr_global.bpf.c — a referenced kptr in a global variable (issue 25,
 * item 2): `.data.MASK` holds a `struct bpf_cpumask __kptr *`, as sched_ext
 * schedulers keep their cpumasks. Linux 6.18 finds the kptr field in the
 * section's variables (btf_parse_fields -> btf_find_datasec_var) and
 * accepts bpf_kptr_xchg on it; the engine looked only into structs and
 * arrays, so it rejected it ("R1 has no valid kptr"). clang-19: clang 14
 * drops the type tag that makes the field a kptr. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __kptr __attribute__((btf_type_tag("kptr")))
#define __ksym __attribute__((section(".ksyms")))

/* the kernel's struct, by name (its members do not matter to the field) */
struct bpf_cpumask {
	unsigned long bits[1];
	int usage;
};

extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;

__attribute__((section(".data.MASK"))) struct bpf_cpumask __kptr *global_mask;

SEC("syscall")
int kptr_global_swap(void *ctx)
{
	struct bpf_cpumask *mask = bpf_cpumask_create(), *old;

	if (!mask)
		return 0;
	old = bpf_kptr_xchg(&global_mask, mask);
	if (old)
		bpf_cpumask_release(old);
	return 0;
}

/* not the kptr's offset: rejected by both (off=8 doesn't point to kptr) */
__attribute__((section(".data.MASK"))) long not_a_kptr;

SEC("syscall")
int kptr_global_wrong_field(void *ctx)
{
	struct bpf_cpumask *mask = bpf_cpumask_create(), *old;

	if (!mask)
		return 0;
	old = bpf_kptr_xchg((void *)&not_a_kptr, mask);
	if (old)
		bpf_cpumask_release(old);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
