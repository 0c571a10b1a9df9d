// SPDX-License-Identifier: GPL-2.0
/* obj_drop_nmi.bpf.c — bpf_obj_drop in programs that may run in NMI
 * context (7.2.13 check_kfunc_call: kprobe, tracepoint, perf_event,
 * raw_tracepoint and non-sleepable, non-iterator tracing programs; of
 * these only tracepoint, perf_event and tracing ones may call
 * bpf_obj_new here) of an
 * object whose struct has a field not safe there (a referenced or per-CPU
 * kptr, a list or rbtree head or node; a lock, a refcount, an untrusted
 * kptr are safe): 7.2.13 refuses it ("bpf_obj_drop cannot be used in
 * tracing programs on types with NMI unsafe fields"), 6.18.44 accepts it
 * (the engine's profile switch obj_drop_nmi_fields; alloc_lock.c). Each
 * program must give what the running kernel (Linux 6.18.44) and 7.2.13
 * give (tests/cli/obj_drop_nmi.sh). clang 19: the type tags. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __kptr __attribute__((btf_type_tag("kptr")))
#define __kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))

char _license[] SEC("license") = "GPL";

/* the kernel's struct, by name */
struct cpumask {
	unsigned long bits[1];
};
struct bpf_cpumask {
	struct cpumask cpumask;
	int usage;
};

struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
#define obj_new(type) ((type *)bpf_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))
#define obj_drop(p) bpf_obj_drop_impl(p, NULL)
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

struct bpf_cpumask types_mask;

/* a referenced kptr: NMI unsafe */
struct with_kptr {
	struct bpf_cpumask __kptr *mask;
	long x;
};

/* an untrusted kptr and a refcount: NMI safe */
struct with_safe {
	struct bpf_cpumask __kptr_untrusted *mask;
	struct bpf_refcount rc;
	long x;
};

/* a list node: NMI unsafe */
struct item {
	long key;
	struct bpf_list_node ln;
};

/* a lock and a list head: the head is NMI unsafe */
struct with_list {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(item, ln);
};

/* nothing special: no struct meta */
struct plain {
	long a, b;
};

#define DROP(sec, name, type)          \
	SEC(sec)                       \
	int name(void *ctx)            \
	{                              \
		type *p = obj_new(type); \
		if (p)                 \
			obj_drop(p);   \
		return 0;              \
	}

DROP("tracepoint/syscalls/sys_enter_nanosleep", tp_kptr, struct with_kptr)
DROP("tracepoint/syscalls/sys_enter_nanosleep", tp_safe, struct with_safe)
DROP("tracepoint/syscalls/sys_enter_nanosleep", tp_node, struct item)
DROP("tracepoint/syscalls/sys_enter_nanosleep", tp_list, struct with_list)
DROP("tracepoint/syscalls/sys_enter_nanosleep", tp_plain, struct plain)
DROP("perf_event", perf_kptr, struct with_kptr)
DROP("tp_btf/sys_enter", tp_btf_list, struct with_list)
DROP("fentry/do_nanosleep", fentry_kptr, struct with_kptr)
DROP("fentry.s/__x64_sys_getpgid", fentry_sleepable_kptr, struct with_kptr)
DROP("tc", tc_kptr, struct with_kptr)
