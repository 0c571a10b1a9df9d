// SPDX-License-Identifier: GPL-2.0
/* kptr_field.bpf.c — plain loads and stores of the kptr fields of a map
 * value (issue 25, class 2; the engine's kptr_access.c): a referenced
 * kernel kptr, an untrusted one, a kptr of the program's own type and a
 * per-CPU one (6.18 and 7.2.13 check_map_access / check_map_kptr_access /
 * btf_ld_kptr_type). Each program must give what the running kernel (Linux
 * 6.18.44) and 7.2.13 give (tests/cli/kptr_field.sh). Before, the engine
 * read every kptr field as a number. clang 19: the type tags. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))
#define __percpu_kptr __attribute__((btf_type_tag("percpu_kptr")))

char _license[] SEC("license") = "GPL";

/* the kernel's structs, by name (their members do not matter to the fields) */
struct cpumask {
	unsigned long bits[1];
};
struct bpf_cpumask {
	struct cpumask cpumask;
	int usage;
};

extern unsigned int bpf_cpumask_first(const struct cpumask *cpumask) __ksym;
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
#define obj_new(type) ((type *)bpf_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))
#define obj_drop(p) bpf_obj_drop_impl(p, NULL)
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

struct val_t {
	long b, c, d;
};

struct kf_node {
	long key;
	long data;
};

struct elem {
	struct bpf_cpumask __kptr *ref;
	struct bpf_cpumask __kptr_untrusted *unref;
	struct val_t __percpu_kptr *pc;
	struct kf_node __kptr *local;
	long x;
};

/* the pointees' definitions in the object's BTF (clang emits a forward
 * declaration for a struct only pointed to, and a kptr to one is no kptr) */
/* an allocated object holding a kptr of the program's type */
struct holder {
	long x;
	struct kf_node __kptr *inner;
};

struct bpf_cpumask types_mask;
struct holder types_holder;
struct val_t types_val;
struct kf_node types_kf_node;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} array SEC(".maps");

static __always_inline struct elem *elem(void)
{
	int key = 0;
	return bpf_map_lookup_elem(&array, &key);
}

/* a referenced kernel kptr of an RCU-protected type, loaded in a
 * non-sleepable program: rcu_ptr_or_null_bpf_cpumask; checked, a KF_RCU
 * kfunc takes it: accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_ref(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *p;

	if (!e)
		return 0;
	p = e->ref;
	if (!p)
		return 0;
	return bpf_cpumask_first(&p->cpumask);
}

/* ... not checked for NULL: rejected */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_ref_unchecked(void *ctx)
{
	struct elem *e = elem();

	if (!e)
		return 0;
	return bpf_cpumask_first(&e->ref->cpumask);
}

/* an untrusted kptr: untrusted_ptr_or_null_bpf_cpumask, read after the
 * check: accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_unref(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *p;

	if (!e)
		return 0;
	p = e->unref;
	if (!p)
		return 0;
	return p->usage;
}

/* ... which no KF_RCU kfunc takes: rejected */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_unref_kfunc(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *p;

	if (!e)
		return 0;
	p = e->unref;
	if (!p)
		return 0;
	return bpf_cpumask_first(&p->cpumask);
}

/* a kptr of the program's own type: an RCU-protected allocated object,
 * read: accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_local(void *ctx)
{
	struct elem *e = elem();
	struct kf_node *n;

	if (!e)
		return 0;
	n = e->local;
	if (!n)
		return 0;
	return n->key + n->data;
}

/* ... written through: accepted (an RCU allocated object is writable) */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_local_write(void *ctx)
{
	struct elem *e = elem();
	struct kf_node *n;

	if (!e)
		return 0;
	n = e->local;
	if (!n)
		return 0;
	n->key = 7;
	return 0;
}

/* a per-CPU kptr: percpu_rcu_ptr_or_null_val_t, bpf_per_cpu_ptr of it an
 * RCU allocated object (7.2.13's selftest test_array_map_2): accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_percpu(void *ctx)
{
	struct elem *e = elem();
	struct val_t __percpu_kptr *p;
	struct val_t *v;

	if (!e)
		return 0;
	p = e->pc;
	if (!p)
		return 0;
	v = bpf_per_cpu_ptr(p, 0);
	if (!v)
		return 0;
	v->c = 1;
	v->d = 2;
	return 0;
}

/* a store into a referenced kptr, even of NULL: rejected */
SEC("tracepoint/syscalls/sys_enter_getpid")
int st_ref(void *ctx)
{
	struct elem *e = elem();

	if (!e)
		return 0;
	e->ref = 0;
	return 0;
}

/* NULL (an immediate and a register) into an untrusted kptr: accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int st_unref_null(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *volatile z = 0;

	if (!e)
		return 0;
	e->unref = 0;
	e->unref = z;
	return 0;
}

/* an untrusted kptr stored back (maybe NULL, untrusted: both allowed): accepted */
SEC("tracepoint/syscalls/sys_enter_getpid")
int st_unref_copy(void *ctx)
{
	struct elem *e = elem();

	if (!e)
		return 0;
	e->unref = e->unref;
	return 0;
}

/* an object of another type into it: rejected */
SEC("tracepoint/syscalls/sys_enter_getpid")
int st_unref_wrong(void *ctx)
{
	struct elem *e = elem();

	if (!e)
		return 0;
	e->unref = (struct bpf_cpumask *)e->local;
	return 0;
}

/* a 4-byte read of a kptr: rejected */
SEC("tracepoint/syscalls/sys_enter_getpid")
int ld_size4(void *ctx)
{
	struct elem *e = elem();

	if (!e)
		return 0;
	return *(volatile int *)&e->unref;
}

/* a helper writing over a kptr: rejected */
SEC("tracepoint/syscalls/sys_enter_getpid")
int helper_over(void *ctx)
{
	struct elem *e = elem();

	if (!e)
		return 0;
	bpf_probe_read_kernel(&e->unref, 16, ctx);
	return 0;
}

/* a sleepable program outside an RCU read section: the referenced kptr
 * loads untrusted, which the KF_RCU kfunc refuses: rejected */
SEC("syscall")
int ld_ref_sleepable(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *p;

	if (!e)
		return 0;
	p = e->ref;
	if (!p)
		return 0;
	return bpf_cpumask_first(&p->cpumask);
}

/* ... inside bpf_rcu_read_lock / unlock: accepted */
SEC("syscall")
int ld_ref_rcu(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *p;
	int r = 0;

	if (!e)
		return 0;
	bpf_rcu_read_lock();
	p = e->ref;
	if (p)
		r = bpf_cpumask_first(&p->cpumask);
	bpf_rcu_read_unlock();
	return r;
}

/* ... used after the unlock (it became untrusted): rejected */
SEC("syscall")
int ld_ref_rcu_after(void *ctx)
{
	struct elem *e = elem();
	struct bpf_cpumask *p;

	if (!e)
		return 0;
	bpf_rcu_read_lock();
	p = e->ref;
	bpf_rcu_read_unlock();
	if (!p)
		return 0;
	return bpf_cpumask_first(&p->cpumask);
}

/* a local kptr inside an allocated object, exchanged (kptrs.c: the
 * object's struct record): accepted */
SEC("tc")
int xchg_in_obj(struct __sk_buff *skb)
{
	struct holder *h = obj_new(struct holder);
	struct kf_node *n;

	if (!h)
		return 0;
	n = obj_new(struct kf_node);
	if (!n) {
		obj_drop(h);
		return 0;
	}
	n = bpf_kptr_xchg(&h->inner, n);
	if (n)
		obj_drop(n);
	obj_drop(h);
	return 0;
}

/* ... at an offset that is no kptr: rejected */
SEC("tc")
int xchg_in_obj_off(struct __sk_buff *skb)
{
	struct holder *h = obj_new(struct holder);
	struct kf_node *n;

	if (!h)
		return 0;
	n = obj_new(struct kf_node);
	if (!n) {
		obj_drop(h);
		return 0;
	}
	n = bpf_kptr_xchg((void *)&h->x, n);
	if (n)
		obj_drop(n);
	obj_drop(h);
	return 0;
}
