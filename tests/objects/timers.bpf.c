/* timers.bpf.c — struct bpf_timer in map values (the engine's timers.c):
 * bpf_timer_init/set_callback/start/cancel with the callback verified as
 * an async callback, and the rejections (the timer of another map, a
 * direct load of the timer, a wrong offset, a map with a timer in a
 * tracing program), and the map_uid of an inner map with a timer (the
 * inner map of one map-in-map lookup is not that of another). Each
 * program must give the running kernel's (Linux 6.18.44) level-2 log line
 * for line, its verdict and its counts (tests/cli/timers.sh runs
 * `rangebench kdiff` on every program here, and pins the map_uid programs'
 * counts in Linux 7.2.13). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

#define CLOCK_MONOTONIC 1

struct elem {
	__u64 count;
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct elem);
} timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct elem);
} other SEC(".maps");

/* a map of maps whose inner maps hold timers */
struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct elem);
} inner_timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = {
	.values = {[0] = &inner_timers},
};

static int timer_cb(void *map, __u32 *key, struct elem *e)
{
	e->count++;
	return 0;
}

/* the full life of a timer */
SEC("tc")
int timer_ok(struct __sk_buff *skb)
{
	__u32 key = skb->len & 1;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 0;
	bpf_timer_init(&e->t, &timers, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&e->t, timer_cb);
	bpf_timer_start(&e->t, 1000, 0);
	if (skb->mark)
		bpf_timer_cancel(&e->t);
	return 0;
}

/* bpf_timer_init with another map than the timer's */
SEC("tc")
int timer_other_map(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 0;
	bpf_timer_init(&e->t, &other, CLOCK_MONOTONIC);
	return 0;
}

/* a load from the timer's bytes */
SEC("tc")
int timer_load(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 0;
	return *(volatile __u32 *)&e->t;
}

/* the timer helper given the value, not its timer */
SEC("tc")
int timer_wrong_offset(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 0;
	bpf_timer_start((struct bpf_timer *)e, 1000, 0);
	return 0;
}

/* tracing programs may not use a map with a timer */
SEC("raw_tp")
int timer_in_tracing(void *ctx)
{
	__u32 key = 0;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 0;
	return e->count;
}

/* declares m and m2, the inner maps of two lookups in outer, and e, the
 * value of m's key 0; the program returns 0 where one is missing */
#define TWO_INNER_OR_RETURN(m, m2, e)                   \
	__u32 k0 = 0, k1 = 1, key = 0;                  \
	void *m = bpf_map_lookup_elem(&outer, &k0);     \
	void *m2 = bpf_map_lookup_elem(&outer, &k1);    \
	struct elem *e;                                 \
	if (!m || !m2)                                  \
		return 0;                               \
	e = bpf_map_lookup_elem(m, &key);               \
	if (!e)                                         \
		return 0

/* bpf_timer_init with the inner map of the lookup that gave the timer */
SEC("tc")
int timer_mim_same(struct __sk_buff *skb)
{
	TWO_INNER_OR_RETURN(m, m2, e);
	bpf_timer_init(&e->t, m, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&e->t, timer_cb);
	return 0;
}

/* ... with the inner map of another lookup: its map_uid differs */
SEC("tc")
int timer_mim_other(struct __sk_buff *skb)
{
	TWO_INNER_OR_RETURN(m, m2, e);
	bpf_timer_init(&e->t, m2, CLOCK_MONOTONIC);
	return 0;
}

/* two paths join with inner maps of two lookups in one register: the
 * states differ in map_uid only, so the second path is not pruned */
SEC("tc")
int timer_mim_join(struct __sk_buff *skb)
{
	__u32 k0 = 0, k1 = 1, key = 0;
	void *m;
	struct elem *e;

	if (skb->len & 1) {
		m = bpf_map_lookup_elem(&outer, &k0);
		if (!m)
			return 1;
	} else {
		m = bpf_map_lookup_elem(&outer, &k1);
		if (!m)
			return 2;
	}
	e = bpf_map_lookup_elem(m, &key);
	if (!e)
		return 0;
	bpf_timer_init(&e->t, m, CLOCK_MONOTONIC);
	return 0;
}
