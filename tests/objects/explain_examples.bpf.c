/* explain_examples.bpf.c — the two worked examples of programs/src/ that
 * `rangebench explain` is checked on (tests/cli/explain.sh), written
 * against the UAPI headers so the test build needs no vmlinux.h:
 *   bias_add64      old rejects, cnum accepts: `x += 2^63` moves [-4, 4]
 *                   across S64_MAX; cnum keeps the arc, old loses both
 *                   64-bit ranges (programs/src/bias_add64.bpf.c)
 *   abs_window_neg  old accepts, cnum rejects: 5 <= |x| <= 10 is two runs
 *                   that one arc cannot hold (programs/src/abs_window.bpf.c)
 *   same_both       no change: the explorations are identical */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define OPAQUE(v) asm volatile("" : "+r"(v))

struct slots {
	__u64 v[9];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct slots);
} table SEC(".maps");

static __always_inline struct slots *get_slots(void)
{
	__u32 key = 0;
	return bpf_map_lookup_elem(&table, &key);
}

SEC("tc")
int bias_add64(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u64 x = bpf_get_prandom_u32();
	if (x > 8)
		return 0;
	__u64 k = 1ULL << 63, k4 = (1ULL << 63) - 4;
	asm volatile("%[x] -= 4\n\t"
		     "%[x] += %[k]\n\t"
		     "%[x] -= %[k4]"
		     : [x] "+r"(x)
		     : [k] "r"(k), [k4] "r"(k4));
	return s->v[x] & 1;
}

static __always_inline __s64 window(void)
{
	__s64 x = (__s32)bpf_get_prandom_u32();
	if (x < -10)
		return 0;
	OPAQUE(x);
	if (x > 10)
		return 0;
	OPAQUE(x);
	if ((__u64)x < 5)
		return 0;
	OPAQUE(x);
	if ((__u64)x > (__u64)-5)
		return 0;
	OPAQUE(x);
	return x;
}

SEC("socket")
int abs_window_neg(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__s64 x = window();
	if (x >= 0)
		return 0;
	x += 10;
	OPAQUE(x);
	return s->v[x] & 1;
}

SEC("socket")
int same_both(struct __sk_buff *skb)
{
	struct slots *s = get_slots();
	if (!s)
		return 0;
	__u64 x = bpf_get_prandom_u32();
	if (x > 8)
		return 0;
	return s->v[x] & 1;
}

char LICENSE[] SEC("license") = "GPL";
