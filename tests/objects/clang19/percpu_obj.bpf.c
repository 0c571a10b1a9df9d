/* percpu_obj.bpf.c — per-CPU allocated objects (the engine's alloc_obj.c
 * and kptrs.c): bpf_percpu_obj_new_impl / bpf_percpu_obj_drop_impl and a
 * __percpu_kptr field of an array map value exchanged with bpf_kptr_xchg.
 * Each program must give what the running kernel (Linux 6.18.44) and
 * 7.2.13 give (tests/cli/percpu_obj.sh). clang 19: the percpu_kptr type
 * tag. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

extern void *bpf_percpu_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_percpu_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;

#define __percpu_kptr __attribute__((btf_type_tag("percpu_kptr")))
#define percpu_new(type) ((type __percpu_kptr *)bpf_percpu_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))
#define percpu_drop(p) bpf_percpu_obj_drop_impl(p, NULL)
#define obj_new(type) ((type *)bpf_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))

struct val_t {
	long b, c, d;
};

/* a pointer member: not a struct of scalars */
struct val_ptr {
	long b;
	long *p;
};

struct elem {
	long sum;
	struct val_t __percpu_kptr *pc;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} array SEC(".maps");

/* a new per-CPU object into the map, the old one dropped: accepted */
SEC("tc")
int new_xchg_drop(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p;
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&array, &key);
	if (!e)
		return 0;
	p = percpu_new(struct val_t);
	if (!p)
		return 0;
	p = bpf_kptr_xchg(&e->pc, p);
	if (p)
		percpu_drop(p);
	return skb->len;
}

/* take it out again and drop it: accepted */
SEC("tc")
int take_drop(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p;
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&array, &key);
	if (!e)
		return 0;
	p = bpf_kptr_xchg(&e->pc, NULL);
	if (p)
		percpu_drop(p);
	return 0;
}

/* a per-CPU object given to bpf_obj_drop: refused */
SEC("tc")
int drop_plain(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p = percpu_new(struct val_t);
	if (p)
		bpf_obj_drop_impl(p, NULL);
	return 0;
}

/* a per-CPU object dereferenced: refused */
SEC("tc")
int deref(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p = percpu_new(struct val_t);
	if (!p)
		return 0;
	p->b = skb->len;
	percpu_drop(p);
	return 0;
}

/* a struct with a pointer: refused */
SEC("tc")
int not_scalar(struct __sk_buff *skb)
{
	struct val_ptr __percpu_kptr *p = percpu_new(struct val_ptr);
	if (p)
		percpu_drop(p);
	return 0;
}

/* an ordinary allocated object into the percpu kptr: refused */
SEC("tc")
int plain_into_percpu(struct __sk_buff *skb)
{
	struct val_t *p;
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&array, &key);
	if (!e)
		return 0;
	p = obj_new(struct val_t);
	if (!p)
		return 0;
	p = bpf_kptr_xchg(&e->pc, p);
	if (p)
		bpf_obj_drop_impl(p, NULL);
	return 0;
}

/* the object leaked: refused */
SEC("tc")
int leak(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p = percpu_new(struct val_t);
	return p ? 1 : 0;
}

/* the object kept after the exchange stored it: an RCU per-CPU pointer,
 * no longer referenced, still usable in this (non-sleepable) program:
 * accepted */
SEC("tc")
int keep_after_xchg(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p, *old;
	struct val_t *v;
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&array, &key);
	if (!e)
		return 0;
	p = percpu_new(struct val_t);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(&e->pc, p);
	if (old)
		percpu_drop(old);
	v = bpf_this_cpu_ptr(p);
	v->c = skb->len;
	return 0;
}

/* ... but no longer dropped by the program: refused */
SEC("tc")
int drop_after_xchg(struct __sk_buff *skb)
{
	struct val_t __percpu_kptr *p, *old;
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&array, &key);
	if (!e)
		return 0;
	p = percpu_new(struct val_t);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(&e->pc, p);
	if (old)
		percpu_drop(old);
	percpu_drop(p);
	return 0;
}
