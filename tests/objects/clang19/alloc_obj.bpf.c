/* alloc_obj.bpf.c — objects the program allocates (the engine's alloc_obj.c and
 * kptrs.c): bpf_obj_new of a struct of the program's own BTF, its fields
 * written and read, stashed in a map value's kptr by bpf_kptr_xchg and taken
 * back, bpf_obj_drop; each program must give what the running kernel (Linux
 * 6.18.44) and 7.2.13 give (tests/cli/alloc_obj.sh). clang 19: the kptr type
 * tag. The struct has a name vmlinux lacks, so the kptr is the program's
 * own type (btf_parse_kptr). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

#define __kptr __attribute__((btf_type_tag("kptr")))

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
#define bpf_core_type_id_local(type) __builtin_btf_type_id(*(typeof(type) *)0, 0)

struct rb_anode {
	__u64 key;
	__u64 val;
};

struct stash {
	struct rb_anode __kptr *node;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct stash);
} stashes SEC(".maps");

/* a new object, filled and stashed; the old one dropped */
SEC("tc")
int new_stash(struct __sk_buff *skb)
{
	int k = skb->len & 3;
	struct stash *s = bpf_map_lookup_elem(&stashes, &k);
	if (!s)
		return 0;
	struct rb_anode *n = bpf_obj_new(struct rb_anode);
	if (!n)
		return 0;
	n->key = k;
	n->val = skb->len;
	n = bpf_kptr_xchg(&s->node, n);
	if (n)
		bpf_obj_drop(n);
	return 1;
}

/* take the stashed object out, read it, drop it */
SEC("tc")
int take(struct __sk_buff *skb)
{
	int k = 0;
	struct stash *s = bpf_map_lookup_elem(&stashes, &k);
	if (!s)
		return 0;
	struct rb_anode *n = bpf_kptr_xchg(&s->node, NULL);
	if (!n)
		return 0;
	int v = n->val + skb->len;
	bpf_obj_drop(n);
	return v;
}

/* the object leaks */
SEC("tc")
int leak(struct __sk_buff *skb)
{
	struct rb_anode *n = bpf_obj_new(struct rb_anode);
	if (!n)
		return 0;
	n->val = skb->len;
	return 1;
}

/* used after it was dropped */
SEC("tc")
int use_after_drop(struct __sk_buff *skb)
{
	struct rb_anode *n = bpf_obj_new(struct rb_anode);
	if (!n)
		return 0;
	bpf_obj_drop(n);
	return n->val;
}

/* not checked for NULL */
SEC("tc")
int no_null_check(struct __sk_buff *skb)
{
	struct rb_anode *n = bpf_obj_new(struct rb_anode);
	n->val = skb->len;
	bpf_obj_drop(n);
	return 0;
}

/* read past the object */
SEC("tc")
int past_end(struct __sk_buff *skb)
{
	struct rb_anode *n = bpf_obj_new(struct rb_anode);
	if (!n)
		return 0;
	__u64 *p = (__u64 *)n;
	int v = p[2];
	bpf_obj_drop(n);
	return v;
}
