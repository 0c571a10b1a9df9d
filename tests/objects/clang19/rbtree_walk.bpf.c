/* rbtree_walk.bpf.c — walking an rbtree of allocated objects under its
 * bpf_spin_lock (the engine's graph.c): bpf_rbtree_root, bpf_rbtree_left
 * and bpf_rbtree_right (6.18.44 and 7.2.13 alike: KF_RET_NULL, a
 * non-owning node; left and right take a non-owning or referenced node,
 * never inside the `less` callback). Each program must give what the
 * running kernel (Linux 6.18.44) and 7.2.13 give (tests/cli/rbtree_walk.sh).
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
extern struct bpf_rb_node *bpf_rbtree_root(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_left(struct bpf_rb_root *root, struct bpf_rb_node *node) __ksym;
extern struct bpf_rb_node *bpf_rbtree_right(struct bpf_rb_root *root, struct bpf_rb_node *node) __ksym;

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

/* a lookup from the root down, at most 8 levels: accepted */
SEC("tc")
int search(struct __sk_buff *skb)
{
	struct bpf_rb_node *r;
	__u64 want = skb->len, found = 0;
	bpf_spin_lock(&tree_lock);
	r = bpf_rbtree_root(&tree);
	for (int i = 0; i < 8 && r; i++) {
		__u64 k = ((struct rb_tnode *)r)->key;
		if (k == want) {
			found = 1;
			break;
		}
		r = k < want ? bpf_rbtree_right(&tree, r) : bpf_rbtree_left(&tree, r);
	}
	bpf_spin_unlock(&tree_lock);
	return found;
}

/* the left child of a node just added (non-owning): accepted */
SEC("tc")
int add_then_left(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	struct bpf_rb_node *l;
	int k = 0;
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&tree_lock);
	bpf_rbtree_add(&tree, &n->rb, less);
	l = bpf_rbtree_left(&tree, &n->rb);
	if (l)
		k = ((struct rb_tnode *)l)->key;
	bpf_spin_unlock(&tree_lock);
	return k;
}

/* the root without the lock: refused */
SEC("tc")
int root_unlocked(struct __sk_buff *skb)
{
	struct bpf_rb_node *r = bpf_rbtree_root(&tree);
	return r ? skb->len : 0;
}

/* the root's child used after the unlock: refused */
SEC("tc")
int right_after_unlock(struct __sk_buff *skb)
{
	struct bpf_rb_node *r;
	bpf_spin_lock(&tree_lock);
	r = bpf_rbtree_root(&tree);
	if (r)
		r = bpf_rbtree_right(&tree, r);
	bpf_spin_unlock(&tree_lock);
	return r ? ((struct rb_tnode *)r)->key : 0;
}

/* the root may be NULL: its child is not asked for before the check: refused */
SEC("tc")
int left_of_null(struct __sk_buff *skb)
{
	struct bpf_rb_node *r, *l;
	bpf_spin_lock(&tree_lock);
	r = bpf_rbtree_root(&tree);
	l = bpf_rbtree_left(&tree, r);
	bpf_spin_unlock(&tree_lock);
	return l ? skb->len : 0;
}

static _Bool less_walks(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct bpf_rb_node *l = bpf_rbtree_left(&tree, a);
	return l != 0;
}

/* bpf_rbtree_left inside the `less` callback: refused */
SEC("tc")
int left_in_less(struct __sk_buff *skb)
{
	struct rb_tnode *n = bpf_obj_new(struct rb_tnode);
	if (!n)
		return 0;
	bpf_spin_lock(&tree_lock);
	bpf_rbtree_add(&tree, &n->rb, less_walks);
	bpf_spin_unlock(&tree_lock);
	return 0;
}
