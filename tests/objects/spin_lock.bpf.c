/* spin_lock.bpf.c — bpf_spin_lock / bpf_spin_unlock on a map value
 * (src/engine/locks.c): each program must give the running kernel's
 * (Linux 6.18.44) log, verdict and counts (tests/cli/kfuncs.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct val {
	int cnt;
	struct bpf_spin_lock lock;
	int other;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct val);
} locked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} locked_arr SEC(".maps");

/* lock, update, unlock: accepted */
SEC("tc")
int lock_update(struct __sk_buff *skb)
{
	int k = skb->len & 3;
	struct val *v = bpf_map_lookup_elem(&locked, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->cnt++;
	bpf_spin_unlock(&v->lock);
	return 1;
}

/* an array value with a constant key (never NULL, still an id): accepted */
SEC("tc")
int lock_array(struct __sk_buff *skb)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&locked_arr, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->other = skb->len;
	bpf_spin_unlock(&v->lock);
	return 1;
}

/* the program exits with the lock held: rejected */
SEC("tc")
int lock_missing_unlock(struct __sk_buff *skb)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&locked, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	if (skb->len > 10) {
		bpf_spin_unlock(&v->lock);
		return 1;
	}
	return 0;
}

/* a helper called inside the locked region: rejected */
SEC("tc")
int lock_call_inside(struct __sk_buff *skb)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&locked, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->cnt = bpf_get_prandom_u32();
	bpf_spin_unlock(&v->lock);
	return 1;
}

/* two values of two lookups: unlocking the other one is rejected */
SEC("tc")
int lock_unlock_other(struct __sk_buff *skb)
{
	int k = 0, j = 1;
	struct val *v = bpf_map_lookup_elem(&locked, &k);
	struct val *w = bpf_map_lookup_elem(&locked, &j);
	if (!v || !w)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&w->lock);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
