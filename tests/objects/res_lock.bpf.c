/* res_lock.bpf.c — bpf_res_spin_lock / bpf_res_spin_unlock (the engine's
 * locks.c): a lock in a global data section of its own (as sched_ext's
 * scx_qmap keeps its queue locks) and in a map value; the failed
 * acquisition is a branch of its own (R0 in [-MAX_ERRNO, -1], no lock
 * held), several locks may be held and are released in the reverse order.
 * Each program must give what the running kernel (Linux 6.18.44) and
 * 7.2.13 give (tests/cli/res_lock.sh). Debian 12's UAPI headers predate
 * struct bpf_res_spin_lock: it is declared here as the kernel's UAPI has it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct bpf_res_spin_lock {
	__u32 val;
};

extern int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) __ksym;
extern void bpf_res_spin_unlock(struct bpf_res_spin_lock *lock) __ksym;

struct bpf_res_spin_lock lock_a SEC(".data.lock_a");
struct bpf_res_spin_lock lock_b SEC(".data.lock_b");

struct val {
	struct bpf_res_spin_lock lock;
	int cnt;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct val);
} vals SEC(".maps");

/* the result checked, then unlocked: accepted */
SEC("tc")
int global_lock(struct __sk_buff *skb)
{
	if (bpf_res_spin_lock(&lock_a))
		return 0;
	bpf_res_spin_unlock(&lock_a);
	return skb->len;
}

/* a map value's lock around an update: accepted */
SEC("tc")
int map_lock(struct __sk_buff *skb)
{
	int k = skb->len & 3;
	struct val *v = bpf_map_lookup_elem(&vals, &k);
	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->lock))
		return 0;
	v->cnt++;
	bpf_res_spin_unlock(&v->lock);
	return 1;
}

/* the error code is in [-4095, -1]: the failed branch returns it */
SEC("tc")
int error_range(struct __sk_buff *skb)
{
	int err = bpf_res_spin_lock(&lock_a);
	if (err)
		return err < -4095 ? 7 : 0;
	bpf_res_spin_unlock(&lock_a);
	return skb->len & 1;
}

/* two locks, released in reverse order: accepted */
SEC("tc")
int nested(struct __sk_buff *skb)
{
	if (bpf_res_spin_lock(&lock_a))
		return 0;
	if (bpf_res_spin_lock(&lock_b)) {
		bpf_res_spin_unlock(&lock_a);
		return 0;
	}
	bpf_res_spin_unlock(&lock_b);
	bpf_res_spin_unlock(&lock_a);
	return skb->len;
}

/* the result ignored: the failed branch unlocks a lock it never took */
SEC("tc")
int unchecked(struct __sk_buff *skb)
{
	bpf_res_spin_lock(&lock_a);
	bpf_res_spin_unlock(&lock_a);
	return skb->len;
}

/* the first lock released first: refused */
SEC("tc")
int out_of_order(struct __sk_buff *skb)
{
	if (bpf_res_spin_lock(&lock_a))
		return 0;
	if (bpf_res_spin_lock(&lock_b)) {
		bpf_res_spin_unlock(&lock_a);
		return 0;
	}
	bpf_res_spin_unlock(&lock_a);
	bpf_res_spin_unlock(&lock_b);
	return skb->len;
}

/* the same lock twice: refused */
SEC("tc")
int aa_deadlock(struct __sk_buff *skb)
{
	if (bpf_res_spin_lock(&lock_a))
		return 0;
	if (bpf_res_spin_lock(&lock_a))
		return 1;
	bpf_res_spin_unlock(&lock_a);
	return skb->len;
}

/* the program exits with the lock held: refused */
SEC("tc")
int exit_locked(struct __sk_buff *skb)
{
	if (bpf_res_spin_lock(&lock_a))
		return 0;
	return skb->len;
}

/* a helper call under the lock: refused */
SEC("tc")
int helper_locked(struct __sk_buff *skb)
{
	if (bpf_res_spin_lock(&lock_a))
		return 0;
	int r = bpf_get_prandom_u32();
	bpf_res_spin_unlock(&lock_a);
	return r + skb->len;
}

/* the lock word read directly: refused */
SEC("tc")
int direct_read(struct __sk_buff *skb)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);
	if (!v)
		return 0;
	return v->lock.val + skb->len;
}

/* a pointer past the lock: refused */
SEC("tc")
int wrong_off(struct __sk_buff *skb)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);
	if (!v)
		return 0;
	if (bpf_res_spin_lock((struct bpf_res_spin_lock *)&v->cnt))
		return 0;
	bpf_res_spin_unlock((struct bpf_res_spin_lock *)&v->cnt);
	return skb->len;
}

/* taken in a static function, released by its caller (scx_qmap's
 * qmap_spin_lock): accepted */
static __attribute__((noinline)) int take(struct bpf_res_spin_lock *l)
{
	if (bpf_res_spin_lock(l))
		return -16;
	return 0;
}

SEC("tc")
int lock_in_subprog(struct __sk_buff *skb)
{
	struct bpf_res_spin_lock *l = skb->len & 1 ? &lock_a : &lock_b;
	if (take(l))
		return 0;
	bpf_res_spin_unlock(l);
	return skb->len;
}
