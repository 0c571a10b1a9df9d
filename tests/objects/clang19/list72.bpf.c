/* list72.bpf.c — Linux 7.2.13's implicit-argument allocation and graph
 * kfuncs (profile.h graph_kfuncs_72: bpf_obj_new, bpf_obj_drop,
 * bpf_list_push_front/back, bpf_rbtree_add, bpf_refcount_acquire without
 * the meta and off arguments the verifier supplies) and the list kfuncs
 * 6.18.44 lacks (bpf_list_add, bpf_list_del, bpf_list_is_first,
 * bpf_list_empty); and a non-NULL acquired reference whose id decides a
 * prune (profile.h acquire_sets_id). Only 7.2.13's BTF has these kfuncs:
 * tests/cli/list.sh verifies it with the kernel cache's kernel-7.2 BTF and
 * pins 7.2.13's counts. clang 19: the "contains" declaration tag. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_rb_node {
	__u64 __opaque[4];
} __attribute__((aligned(8)));

struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

/* 7.2.13's visible prototypes (vmlinux BTF) */
extern void *bpf_obj_new(__u64 local_type_id__k) __ksym;
extern void bpf_obj_drop(void *p__alloc) __ksym;
extern void *bpf_refcount_acquire(void *p__refcounted_kptr) __ksym;
extern int bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node) __ksym;
extern int bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node) __ksym;
extern int bpf_list_add(struct bpf_list_head *head, struct bpf_list_node *new,
			struct bpf_list_node *prev__nonown_allowed) __ksym;
extern struct bpf_list_node *bpf_list_del(struct bpf_list_head *head, struct bpf_list_node *node__nonown_allowed) __ksym;
extern _Bool bpf_list_is_first(struct bpf_list_head *head, struct bpf_list_node *node__nonown_allowed) __ksym;
extern _Bool bpf_list_empty(struct bpf_list_head *head) __ksym;
extern int bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
			  _Bool (*less)(struct bpf_rb_node *a, const struct bpf_rb_node *b)) __ksym;

#define new(type) ((type *)bpf_obj_new(__builtin_btf_type_id(*(type *)0, 0)))
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))
#define private(name) SEC(".data." #name) __attribute__((visibility("hidden"), aligned(8)))
#define node_of(p, type, m) ((type *)((void *)(p) - __builtin_offsetof(type, m)))

struct rnode {
	__u64 key;
	struct bpf_list_node ln;
	struct bpf_rb_node rb;
	struct bpf_refcount rc;
};

private(L) struct bpf_spin_lock lock;
private(L) struct bpf_list_head head __contains(rnode, ln);
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root root __contains(rnode, rb);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, __u64);
} vals SEC(".maps");

static _Bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return node_of(a, struct rnode, rb)->key < node_of(b, struct rnode, rb)->key;
}

/* push at the front, add a second node after it (prev non-owning), ask
 * whether it is first, delete it again: accepted */
SEC("tc")
int add_del(struct __sk_buff *skb)
{
	struct rnode *a = new(struct rnode), *b;
	struct bpf_list_node *l;
	int k = 0;
	if (!a)
		return 0;
	b = new(struct rnode);
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	b->key = skb->len;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &a->ln);
	bpf_list_add(&head, &b->ln, &a->ln);
	if (bpf_list_is_first(&head, &a->ln))
		k = 1;
	l = bpf_list_del(&head, &b->ln);
	bpf_spin_unlock(&lock);
	if (l)
		bpf_obj_drop(node_of(l, struct rnode, ln));
	return k;
}

/* the same node in the list and in the tree through a second reference
 * (bpf_refcount_acquire of an owning node: not NULL): accepted */
SEC("tc")
int list_and_tree(struct __sk_buff *skb)
{
	struct rnode *n = new(struct rnode), *m;
	if (!n)
		return 0;
	n->key = skb->len;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&lock);
	bpf_list_push_back(&head, &n->ln);
	bpf_spin_unlock(&lock);
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&root, &m->rb, less);
	bpf_spin_unlock(&tlock);
	return 0;
}

/* bpf_list_empty outside the lock: refused */
SEC("tc")
int empty_unlocked(struct __sk_buff *skb)
{
	return bpf_list_empty(&head) ? 0 : skb->len;
}

/* a second owning reference that cannot be NULL on one path
 * (bpf_refcount_acquire of an owning node), a checked new object on the
 * other, used at one join: 7.2.13 gives the first the reference's id
 * (acquire_sets_id), so the second path is pruned at the join; 6.18.44
 * gave it none, and an id never matches none */
SEC("tc")
int acquire_join(struct __sk_buff *skb)
{
	struct rnode *n = new(struct rnode), *m;
	int key = 0;
	__u64 *v;
	if (!n)
		return 0;
	if (skb->len > 100) {
		m = bpf_refcount_acquire(n);
	} else {
		m = new(struct rnode);
		if (!m) {
			bpf_obj_drop(n);
			return 0;
		}
	}
	bpf_obj_drop(n);
	v = bpf_map_lookup_elem(&vals, &key);
	if (v)
		*v = m->key;
	bpf_obj_drop(m);
	return 0;
}
