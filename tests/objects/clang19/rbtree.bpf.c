/* rbtree.bpf.c — an rbtree of allocated objects under a bpf_spin_lock,
 * both in a global data section of their own (as sched_ext's scx_flatcg
 * keeps its cgroup tree; the engine's graph.c): bpf_rbtree_add with its
 * `less` callback, bpf_rbtree_first and bpf_rbtree_remove, the added node
 * non-owning until the lock is released. Each program must give what the
 * running kernel (Linux 6.18.44) and 7.2.13 give (tests/cli/rbtree.sh).
 * clang 19: the "contains" declaration tag. Debian 12's UAPI headers
 * predate the graph types: they are declared here as the kernel's UAPI
 * has them. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_rb_node {
	__u64 __opaque[4];
} __attribute__((aligned(8)));

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern int bpf_rbtree_add_impl(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       _Bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b), void *meta__ign,
			       __u64 off) __ksym;
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root, struct bpf_rb_node *node) __ksym;

#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))
#define bpf_obj_drop(p) bpf_obj_drop_impl(p, NULL)
#define bpf_rbtree_add(root, node, less) bpf_rbtree_add_impl(root, node, less, NULL, 0)
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))
#define private(name) SEC(".data." #name) __attribute__((visibility("hidden"), aligned(8)))

struct rb_tnode {
	struct bpf_rb_node rb;
	__u64 key;
};

private(TREE) struct bpf_spin_lock tree_lock;
private(TREE) struct bpf_rb_root tree __contains(rb_tnode, rb);

static _Bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct rb_tnode *x = (struct rb_tnode *)a, *y = (struct rb_tnode *)b;
	return x->key < y->key;
}

/* add a node, then take the first one out and drop it: accepted */
SEC("tc")
int add_first_remove(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	struct bpf_rb_node *r;
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&tree_lock);
	bpf_rbtree_add(&tree, &n->rb, less);
	bpf_spin_unlock(&tree_lock);

	bpf_spin_lock(&tree_lock);
	r = bpf_rbtree_first(&tree);
	if (!r) {
		bpf_spin_unlock(&tree_lock);
		return 0;
	}
	r = bpf_rbtree_remove(&tree, r);
	bpf_spin_unlock(&tree_lock);
	if (!r)
		return 0;
	n = (struct rb_tnode *)r;
	int k = n->key;
	bpf_obj_drop(n);
	return k;
}

/* the added node is readable (non-owning) until the unlock: accepted */
SEC("tc")
int read_while_locked(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&tree_lock);
	bpf_rbtree_add(&tree, &n->rb, less);
	int k = n->key;
	bpf_spin_unlock(&tree_lock);
	return k;
}

/* the tree without its lock: refused */
SEC("tc")
int add_unlocked(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_rbtree_add(&tree, &n->rb, less);
	return 0;
}

/* the node read after the unlock: refused */
SEC("tc")
int use_after_unlock(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&tree_lock);
	bpf_rbtree_add(&tree, &n->rb, less);
	bpf_spin_unlock(&tree_lock);
	return n->key;
}

/* the same node added twice (the second time non-owning): refused */
SEC("tc")
int add_twice(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&tree_lock);
	bpf_rbtree_add(&tree, &n->rb, less);
	bpf_rbtree_add(&tree, &n->rb, less);
	bpf_spin_unlock(&tree_lock);
	return 0;
}

/* the removed node is leaked: refused */
SEC("tc")
int remove_leak(struct __sk_buff *skb)
{
	struct bpf_rb_node *r;
	bpf_spin_lock(&tree_lock);
	r = bpf_rbtree_first(&tree);
	if (r)
		r = bpf_rbtree_remove(&tree, r);
	bpf_spin_unlock(&tree_lock);
	return skb->len;
}
