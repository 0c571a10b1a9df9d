/* alloc_lock.bpf.c — a bpf_spin_lock and a list or rbtree root inside an
 * object the program allocated (bpf_obj_new'd; the engine's
 * alloc_lock.c, graph.c, locks.c): the object's own lock protects its own
 * list (rbtree) and no other; a lock is keyed by the object's id, so the
 * null check keeps the id of an object whose struct has a lock (6.18
 * reg_may_point_to_spin_lock), and so does bpf_refcount_acquire's owning
 * R0; only an owning object takes the lock; no kfunc other than the graph
 * ones is called under a lock. Each program must give what the running
 * kernel (Linux 6.18.44) and 7.2.13 give (tests/cli/alloc_lock.sh).
 * clang 19: the "contains" declaration tag. Debian 12's UAPI headers
 * predate the graph types: they are declared here as the kernel's UAPI
 * has them. */
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

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_refcount_acquire_impl(void *p__refcounted_kptr, void *meta__ign) __ksym;
extern int bpf_list_push_front_impl(struct bpf_list_head *head, struct bpf_list_node *node, void *meta__ign,
				    __u64 off) __ksym;
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern int bpf_rbtree_add_impl(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       _Bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b), void *meta__ign,
			       __u64 off) __ksym;
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root, struct bpf_rb_node *node) __ksym;

#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))
#define bpf_obj_drop(p) bpf_obj_drop_impl(p, NULL)
#define bpf_refcount_acquire(p) ((typeof(p))bpf_refcount_acquire_impl(p, NULL))
#define bpf_list_push_front(head, node) bpf_list_push_front_impl(head, node, NULL, 0)
#define bpf_rbtree_add(root, node, less) bpf_rbtree_add_impl(root, node, less, NULL, 0)
#define __kptr __attribute__((btf_type_tag("kptr")))
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))
#define private(name) SEC(".data." #name) __attribute__((visibility("hidden"), aligned(8)))

struct item {
	__u64 key;
	struct bpf_list_node ln;
};

struct tnode {
	struct bpf_rb_node rb;
	__u64 key;
};

/* an object with its own lock, list and rbtree; itself a node of the
 * global list */
struct box {
	struct bpf_spin_lock lock;
	__u64 key;
	struct bpf_list_head items __contains(item, ln);
	struct bpf_rb_root tree __contains(tnode, rb);
	struct bpf_list_node ln;
};

/* a refcounted object with its own lock and list */
struct rcbox {
	struct bpf_spin_lock lock;
	struct bpf_refcount rc;
	struct bpf_list_head items __contains(item, ln);
};

struct plain {
	__u64 a;
	__u64 b;
};

private(BOXES) struct bpf_spin_lock boxes_lock;
private(BOXES) struct bpf_list_head boxes __contains(box, ln);
private(STASH) struct bpf_spin_lock stash_lock;
private(STASH) struct item __kptr *stash;

static _Bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return ((struct tnode *)a)->key < ((struct tnode *)b)->key;
}

/* push an item on the box's own list under the box's lock, pop it: accepted */
SEC("tc")
int box_list(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	struct item *it;
	struct bpf_list_node *l;
	if (!b)
		return 0;
	it = bpf_obj_new(struct item);
	if (!it) {
		bpf_obj_drop(b);
		return 0;
	}
	it->key = skb->len;
	bpf_spin_lock(&b->lock);
	bpf_list_push_front(&b->items, &it->ln);
	l = bpf_list_pop_front(&b->items);
	bpf_spin_unlock(&b->lock);
	if (l)
		bpf_obj_drop((void *)l - __builtin_offsetof(struct item, ln));
	bpf_obj_drop(b);
	return 0;
}

/* add to the box's own rbtree, take the first out: accepted */
SEC("tc")
int box_tree(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	struct tnode *n;
	struct bpf_rb_node *r = 0;
	if (!b)
		return 0;
	n = bpf_obj_new(struct tnode);
	if (!n) {
		bpf_obj_drop(b);
		return 0;
	}
	n->key = skb->len;
	bpf_spin_lock(&b->lock);
	bpf_rbtree_add(&b->tree, &n->rb, less);
	r = bpf_rbtree_first(&b->tree);
	if (r)
		r = bpf_rbtree_remove(&b->tree, r);
	bpf_spin_unlock(&b->lock);
	if (r)
		bpf_obj_drop(r);
	bpf_obj_drop(b);
	return 0;
}

/* the box's list without its lock: refused */
SEC("tc")
int box_unlocked(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	struct item *it;
	if (!b)
		return 0;
	it = bpf_obj_new(struct item);
	if (!it) {
		bpf_obj_drop(b);
		return 0;
	}
	bpf_list_push_front(&b->items, &it->ln);
	bpf_obj_drop(b);
	return 0;
}

/* one box's lock, another box's list: refused (the lock is the object's) */
SEC("tc")
int box_other_lock(struct __sk_buff *skb)
{
	struct box *a = bpf_obj_new(struct box), *b;
	struct item *it;
	if (!a)
		return 0;
	b = bpf_obj_new(struct box);
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	it = bpf_obj_new(struct item);
	if (!it) {
		bpf_obj_drop(a);
		bpf_obj_drop(b);
		return 0;
	}
	bpf_spin_lock(&a->lock);
	bpf_list_push_front(&b->items, &it->ln);
	bpf_spin_unlock(&a->lock);
	bpf_obj_drop(a);
	bpf_obj_drop(b);
	return 0;
}

/* a box's lock held, the global list used: refused */
SEC("tc")
int box_lock_global_list(struct __sk_buff *skb)
{
	struct box *a = bpf_obj_new(struct box), *b;
	if (!a)
		return 0;
	b = bpf_obj_new(struct box);
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	bpf_spin_lock(&a->lock);
	bpf_list_push_front(&boxes, &b->ln);
	bpf_spin_unlock(&a->lock);
	bpf_obj_drop(a);
	return 0;
}

/* a box pushed on the global list is a non-owning node: its lock is not
 * taken (only an owning object's is): refused */
SEC("tc")
int box_non_owning_lock(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	if (!b)
		return 0;
	bpf_spin_lock(&boxes_lock);
	bpf_list_push_front(&boxes, &b->ln);
	bpf_spin_unlock(&boxes_lock);
	bpf_spin_lock(&b->lock);
	bpf_spin_unlock(&b->lock);
	return 0;
}

/* an object without a lock: refused */
SEC("tc")
int plain_lock(struct __sk_buff *skb)
{
	struct plain *p = bpf_obj_new(struct plain);
	if (!p)
		return 0;
	bpf_spin_lock((struct bpf_spin_lock *)&p->b);
	bpf_spin_unlock((struct bpf_spin_lock *)&p->b);
	bpf_obj_drop(p);
	return 0;
}

/* a lock at the wrong offset of a box: refused */
SEC("tc")
int box_lock_off(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	if (!b)
		return 0;
	bpf_spin_lock((struct bpf_spin_lock *)&b->key);
	bpf_spin_unlock((struct bpf_spin_lock *)&b->key);
	bpf_obj_drop(b);
	return 0;
}

/* a box's lock and then the global one: refused (two locks) */
SEC("tc")
int box_two_locks(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	if (!b)
		return 0;
	bpf_spin_lock(&b->lock);
	bpf_spin_lock(&boxes_lock);
	bpf_spin_unlock(&boxes_lock);
	bpf_spin_unlock(&b->lock);
	bpf_obj_drop(b);
	return 0;
}

/* bpf_obj_new called under a box's lock: refused */
SEC("tc")
int box_kfunc_in_lock(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	struct item *it;
	if (!b)
		return 0;
	bpf_spin_lock(&b->lock);
	it = bpf_obj_new(struct item);
	bpf_spin_unlock(&b->lock);
	if (it)
		bpf_obj_drop(it);
	bpf_obj_drop(b);
	return 0;
}

/* two owning references from bpf_refcount_acquire: each has an id of its
 * own (check_kfunc_call: an R0 that may point to a lock), so one's lock
 * does not protect the other's list: refused */
SEC("tc")
int rc_two_refs(struct __sk_buff *skb)
{
	struct rcbox *r = bpf_obj_new(struct rcbox), *m1, *m2;
	struct item *it;
	if (!r)
		return 0;
	m1 = bpf_refcount_acquire(r);
	m2 = bpf_refcount_acquire(r);
	it = bpf_obj_new(struct item);
	if (it) {
		bpf_spin_lock(&m1->lock);
		bpf_list_push_front(&m2->items, &it->ln);
		bpf_spin_unlock(&m1->lock);
	}
	bpf_obj_drop(m1);
	bpf_obj_drop(m2);
	bpf_obj_drop(r);
	return 0;
}

/* the same through one reference: accepted */
SEC("tc")
int rc_one_ref(struct __sk_buff *skb)
{
	struct rcbox *r = bpf_obj_new(struct rcbox), *m;
	struct item *it;
	if (!r)
		return 0;
	m = bpf_refcount_acquire(r);
	it = bpf_obj_new(struct item);
	if (it) {
		bpf_spin_lock(&m->lock);
		bpf_list_push_front(&m->items, &it->ln);
		bpf_spin_unlock(&m->lock);
	}
	bpf_obj_drop(m);
	bpf_obj_drop(r);
	return 0;
}

/* the box's lock held at exit: refused */
SEC("tc")
int box_lock_exit(struct __sk_buff *skb)
{
	struct box *b = bpf_obj_new(struct box);
	if (!b)
		return 0;
	bpf_spin_lock(&b->lock);
	return 0;
}

/* bpf_kptr_xchg under a lock (the one helper besides the unlock allowed
 * there, 6.18.44 and 7.2.13): accepted */
SEC("tc")
int xchg_in_lock(struct __sk_buff *skb)
{
	struct item *it = bpf_obj_new(struct item), *old;
	if (!it)
		return 0;
	bpf_spin_lock(&stash_lock);
	old = bpf_kptr_xchg(&stash, it);
	bpf_spin_unlock(&stash_lock);
	if (old)
		bpf_obj_drop(old);
	return 0;
}
