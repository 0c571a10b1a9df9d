/* list.bpf.c — linked lists of allocated objects under a bpf_spin_lock,
 * both in a global data section of their own (the engine's graph.c and
 * alloc_obj.c): bpf_list_push_front/back, bpf_list_pop_front/back,
 * bpf_list_front, and bpf_refcount_acquire on a node type with a
 * bpf_refcount (owning and non-owning arguments; a refcounted node's
 * non-owning reference is MEM_RCU). Each program must give what the
 * running kernel (Linux 6.18.44) and 7.2.13 give (tests/cli/list.sh).
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

struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_refcount_acquire_impl(void *p__refcounted_kptr, void *meta__ign) __ksym;
extern int bpf_list_push_front_impl(struct bpf_list_head *head, struct bpf_list_node *node, void *meta__ign,
				    __u64 off) __ksym;
extern int bpf_list_push_back_impl(struct bpf_list_head *head, struct bpf_list_node *node, void *meta__ign,
				   __u64 off) __ksym;
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_front(struct bpf_list_head *head) __ksym;

#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(__builtin_btf_type_id(*(type *)0, 0), NULL))
#define bpf_obj_drop(p) bpf_obj_drop_impl(p, NULL)
#define bpf_refcount_acquire(p) ((typeof(p))bpf_refcount_acquire_impl(p, NULL))
#define bpf_list_push_front(head, node) bpf_list_push_front_impl(head, node, NULL, 0)
#define bpf_list_push_back(head, node) bpf_list_push_back_impl(head, node, NULL, 0)
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))
#define private(name) SEC(".data." #name) __attribute__((visibility("hidden"), aligned(8)))

struct lnode {
	__u64 key;
	struct bpf_list_node ln;
};

/* a refcounted node: bpf_refcount_acquire takes it */
struct rnode {
	__u64 key;
	struct bpf_list_node ln;
	struct bpf_refcount rc;
};

private(LIST) struct bpf_spin_lock list_lock;
private(LIST) struct bpf_list_head list __contains(lnode, ln);
private(RLIST) struct bpf_spin_lock rlist_lock;
private(RLIST) struct bpf_list_head rlist __contains(rnode, ln);

/* heads in an array and in a nested struct (btf_parse_fields walks both) */
struct nested {
	__u64 pad;
	struct {
		struct bpf_spin_lock lock;
		struct bpf_list_head head __contains(lnode, ln);
	} inner;
};
private(ARR) struct bpf_spin_lock arr_lock;
private(ARR) struct bpf_list_head arr_heads[2] __contains(lnode, ln);
private(NEST) struct nested nest;

/* push a node at the front, pop one from the back, drop it: accepted */
SEC("tc")
int push_pop(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode);
	struct bpf_list_node *l;
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&list_lock);
	bpf_list_push_front(&list, &n->ln);
	l = bpf_list_pop_back(&list);
	bpf_spin_unlock(&list_lock);
	if (!l)
		return 0;
	n = (struct lnode *)((void *)l - __builtin_offsetof(struct lnode, ln));
	int k = n->key;
	bpf_obj_drop(n);
	return k;
}

/* push at the back, peek at the front (non-owning) under the lock: accepted */
SEC("tc")
int push_peek(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode);
	struct bpf_list_node *l;
	int k = 0;
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&list_lock);
	bpf_list_push_back(&list, &n->ln);
	k = n->key;
	l = bpf_list_front(&list);
	if (l)
		k += ((struct lnode *)((void *)l - __builtin_offsetof(struct lnode, ln)))->key;
	bpf_spin_unlock(&list_lock);
	return k;
}

/* the list without its lock: refused */
SEC("tc")
int push_unlocked(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_list_push_front(&list, &n->ln);
	return 0;
}

/* the pushed node read after the unlock: refused */
SEC("tc")
int use_after_unlock(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&list_lock);
	bpf_list_push_back(&list, &n->ln);
	bpf_spin_unlock(&list_lock);
	return n->key;
}

/* the popped node is leaked: refused */
SEC("tc")
int pop_leak(struct __sk_buff *skb)
{
	struct bpf_list_node *l;
	bpf_spin_lock(&list_lock);
	l = bpf_list_pop_front(&list);
	bpf_spin_unlock(&list_lock);
	return l ? skb->len : 0;
}

/* a node of the other list's type: refused */
SEC("tc")
int wrong_list(struct __sk_buff *skb)
{
	struct rnode *n = bpf_obj_new(struct rnode);
	if (!n)
		return 0;
	bpf_spin_lock(&list_lock);
	bpf_list_push_front(&list, (struct bpf_list_node *)&n->ln);
	bpf_spin_unlock(&list_lock);
	return 0;
}

/* a second owning reference from an owning one (not NULL), the first
 * pushed, the second dropped: accepted */
SEC("tc")
int refcount_owning(struct __sk_buff *skb)
{
	struct rnode *n = bpf_obj_new(struct rnode), *m;
	if (!n)
		return 0;
	n->key = skb->len;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&rlist_lock);
	bpf_list_push_back(&rlist, &n->ln);
	bpf_spin_unlock(&rlist_lock);
	int k = m->key;
	bpf_obj_drop(m);
	return k;
}

/* a reference from a non-owning one (maybe NULL), kept past the unlock:
 * accepted */
SEC("tc")
int refcount_non_owning(struct __sk_buff *skb)
{
	struct rnode *n = bpf_obj_new(struct rnode), *m;
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&rlist_lock);
	bpf_list_push_front(&rlist, &n->ln);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&rlist_lock);
	if (!m)
		return 0;
	int k = m->key;
	bpf_obj_drop(m);
	return k;
}

/* the reference of a non-owning argument may be NULL: refused */
SEC("tc")
int refcount_null(struct __sk_buff *skb)
{
	struct rnode *n = bpf_obj_new(struct rnode), *m;
	if (!n)
		return 0;
	bpf_spin_lock(&rlist_lock);
	bpf_list_push_front(&rlist, &n->ln);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&rlist_lock);
	int k = m->key;
	bpf_obj_drop(m);
	return k;
}

/* a type without a bpf_refcount: refused */
SEC("tc")
int refcount_plain(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode), *m;
	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
	return 0;
}

/* the second head of an array: accepted */
SEC("tc")
int array_head(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode);
	if (!n)
		return 0;
	n->key = skb->len;
	bpf_spin_lock(&arr_lock);
	bpf_list_push_back(&arr_heads[1], &n->ln);
	bpf_spin_unlock(&arr_lock);
	return 0;
}

/* a head in a nested struct, under the lock beside it: accepted */
SEC("tc")
int nested_head(struct __sk_buff *skb)
{
	struct lnode *n = bpf_obj_new(struct lnode);
	struct bpf_list_node *l;
	if (!n)
		return 0;
	bpf_spin_lock(&nest.inner.lock);
	bpf_list_push_front(&nest.inner.head, &n->ln);
	l = bpf_list_pop_front(&nest.inner.head);
	bpf_spin_unlock(&nest.inner.lock);
	if (l)
		bpf_obj_drop((void *)l - __builtin_offsetof(struct lnode, ln));
	return 0;
}
