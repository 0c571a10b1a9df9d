/* callbacks.bpf.c — programs whose helpers call back a subprogram (the
 * engine's callbacks.c): bpf_loop and bpf_for_each_map_elem with their
 * callback arguments, return ranges and repeated visits until the states
 * converge. Each must give the running kernel's (Linux 6.18.44) level-2 log
 * line for line, its verdict and its counts (tests/cli/callbacks.sh runs
 * `rangebench kdiff` on every program here). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 8);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, __u64);
} lpm SEC(".maps");

/* 64-bit fields: a spilled 64-bit scalar is widened between visits (a
 * 32-bit counter is not, and the kernel then counts to its insn limit) */
struct loop_ctx {
	__u64 sum;
	__u64 i;
};

static int add_index(__u32 idx, struct loop_ctx *c)
{
	c->sum += idx;
	c->i++;
	return 0;
}

/* a constant count: the callback is visited until its states converge */
SEC("socket")
int loop_const(void *skb)
{
	struct loop_ctx c = {};
	bpf_loop(10, add_index, &c, 0);
	return c.sum & 1;
}

/* an unknown count, and the callback's counter widened to unknown */
SEC("socket")
int loop_unknown_count(void *skb)
{
	struct loop_ctx c = {};
	__u32 n = bpf_get_prandom_u32();
	bpf_loop(n, add_index, &c, 0);
	return (c.i + c.sum) & 1;
}

static int stop_early(__u32 idx, void *unused)
{
	return idx > 3;
}

/* no context (NULL), a return value in [0, 1] */
SEC("socket")
int loop_null_ctx(void *skb)
{
	return bpf_loop(100, stop_early, 0, 0) > 0;
}

static int bad_ret(__u32 idx, void *unused)
{
	return 2;
}

/* rejected: a bpf_loop callback must return 0 or 1 */
SEC("socket")
int loop_bad_ret(void *skb)
{
	bpf_loop(1, bad_ret, 0, 0);
	return 0;
}

static int inner(__u32 idx, struct loop_ctx *c)
{
	c->sum += 2;
	return 0;
}

static int outer(__u32 idx, struct loop_ctx *c)
{
	bpf_loop(3, inner, c, 0);
	return 0;
}

/* a callback that loops itself */
SEC("socket")
int loop_nested(void *skb)
{
	struct loop_ctx c = {};
	bpf_loop(2, outer, &c, 0);
	return c.sum == 12;
}

struct buf_ctx {
	__u8 buf[16];
	__u32 last;
};

static int fill(__u32 idx, struct buf_ctx *b)
{
	if (idx >= 16)
		return 1;
	b->buf[idx] = (__u8)idx;
	b->last = idx;
	return 0;
}

/* the callback's index bounds a write into the caller's stack */
SEC("socket")
int loop_index_bounds(void *skb)
{
	struct buf_ctx b = {};
	bpf_loop(16, fill, &b, 0);
	return b.buf[b.last & 15];
}

static int one_iteration(__u32 idx, __u64 *x)
{
	*x += 1;
	return 0;
}

/* a single iteration (nr_loops 1): the limit ends the visits */
SEC("socket")
int loop_once(void *skb)
{
	__u64 x = 0;
	bpf_loop(1, one_iteration, &x, 0);
	return x;
}

struct sum_ctx {
	__u64 sum;
	__u64 n;
};

static __u64 sum_value(void *map, __u32 *key, __u64 *val, struct sum_ctx *c)
{
	c->sum += *val + *key;
	c->n++;
	return c->sum > 2;
}

/* for_each over an array: the key and value pointers of the callback */
SEC("socket")
int for_each_array(void *skb)
{
	struct sum_ctx c = {};
	__u64 n = bpf_for_each_map_elem(&arr, sum_value, &c, 0);
	return (c.sum + n) & 1;
}

static __u64 count_hash(void *map, __u32 *key, __u64 *val, struct sum_ctx *c)
{
	__u32 k = *key;
	c->n++;
	if (k < 4)
		bpf_map_lookup_elem(&arr, key);
	return 0;
}

/* for_each over a hash map; the key goes on to a lookup */
SEC("socket")
int for_each_hash(void *skb)
{
	struct sum_ctx c = {};
	bpf_for_each_map_elem(&hash, count_hash, &c, 0);
	return c.n & 1;
}

static __u64 write_key(void *map, __u32 *key, __u64 *val, void *unused)
{
	*key = 1;
	return 0;
}

/* rejected: the key of a for_each callback is read-only */
SEC("socket")
int for_each_write_key(void *skb)
{
	bpf_for_each_map_elem(&arr, write_key, 0, 0);
	return 0;
}

static __u64 nothing(void *map, void *key, void *val, void *unused)
{
	return 0;
}

/* rejected: an LPM trie has no for_each */
SEC("socket")
int for_each_lpm(void *skb)
{
	bpf_for_each_map_elem(&lpm, nothing, 0, 0);
	return 0;
}

/* the callback refines a scalar the caller spilled (a null test on its
 * linked copy) and has several exits: the precision asked for when the
 * bpf_loop call is revisited walks back through the callback's exit and
 * entry into the caller (6.18 backtrack_insn drops r1-r5 at both), so the
 * caller's slot stays imprecise and is widened on the next return (the
 * engine used to fall back to "every scalar precise" there: 79 insns
 * against the kernel's 77; pyperf600_bpf_loop 4128 against 3561) */
struct walk_ctx {
	__u64 ptr;
	__u64 n;
};

static int walk(__u32 idx, struct walk_ctx *w)
{
	__u64 p = w->ptr;

	if (p && (bpf_get_prandom_u32() & 1)) {
		w->n++;
		if (bpf_get_prandom_u32() & 2)
			return 1;
		w->ptr = bpf_get_prandom_u32();
	}
	return 0;
}

SEC("socket")
int loop_refines_caller(void *skb)
{
	struct walk_ctx w = {};

	w.ptr = bpf_get_prandom_u32();
	bpf_loop(8, walk, &w, 0);
	return w.n & 1;
}

/* bpf_loop with flags 0 on one path and 1 on another (as the kernel's
 * test_verifier bpf_loop_inline "don't inline bpf_loop call, flags non
 * zero"): 6.18 marks a zero flags register precise while the call may
 * still be inlined (update_loop_inline_state), so the path with flags 1
 * is not pruned against the checkpoint where flags was 0 (the engine
 * pruned it: 22 insns against the kernel's 33 on that test) */
static int once(__u32 idx, void *unused)
{
	return 1;
}

SEC("socket")
__attribute__((naked)) int loop_flags_join(void)
{
	asm volatile("call %[bpf_jiffies64];"
		     "r6 = r0;"
		     "call %[bpf_jiffies64];"
		     "r7 = r0;"
		     "if r6 != 0 goto 2f;"
		     "r4 = 0;"
		     "1: if r7 != 0 goto 3f;"
		     "3: r1 = 1;"
		     "r2 = %[once] ll;"
		     "r3 = 0;"
		     "call %[bpf_loop];"
		     "r0 = 0;"
		     "exit;"
		     "2: r4 = 1;"
		     "goto 1b;" ::[bpf_jiffies64] "i"(bpf_jiffies64),
		     [bpf_loop] "i"(bpf_loop), [once] "i"(once)
		     : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "memory");
}

/* A cursor into a map value kept in the caller's frame and advanced by the
 * callback (the pattern of selftests' strobemeta_bpf_loop payload): its
 * offset range grows on every visit, so the visits do not converge before
 * nr_loops. Linux 6.18.44 makes the bpf_loop call an SCC of its own
 * ("scc-for-callbacks"): checkpoints inside the callback compare with
 * RANGE_WITHIN and are not cleaned while the loop's marks are incomplete,
 * an old invalid or misc stack slot matches anything even then, the
 * caller's r1/r4 precision reaches the callback's checkpoints through its
 * exit, and a caller slot the callback reads is live at the call insn.
 * Before, the engine pruned visits the kernel explores: loop_cursor
 * 546 insns / 38 states against the kernel's 2986 / 277, loop_cursor_read
 * 406 / 34 (peak 33) against 408 / 35 (peak 65). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[256]);
} buf SEC(".maps");

struct cursor_ctx {
	char *p;
	__u32 kind;
};

static int advance(__u32 idx, struct cursor_ctx *c)
{
	if (c->kind == 1) {
		__u64 n = bpf_get_prandom_u32() & 1;
		c->p += n;
	} else if (c->kind == 2) {
		c->p += 1;
	}
	return 0;
}

SEC("socket")
int loop_cursor(void *skb)
{
	__u32 k = 0;
	char *v = bpf_map_lookup_elem(&buf, &k);
	if (!v)
		return 0;
	struct cursor_ctx c = {.p = v, .kind = 1};
	bpf_loop(20, advance, &c, 0);
	c.kind = 2;
	bpf_loop(10, advance, &c, 0);
	return 0;
}

static int advance_read(__u32 idx, struct cursor_ctx *c)
{
	char *p = c->p;
	if (p[0])
		c->p = p + 1;
	return 0;
}

SEC("socket")
int loop_cursor_read(void *skb)
{
	__u32 k = 0;
	char *v = bpf_map_lookup_elem(&buf, &k);
	if (!v)
		return 0;
	struct cursor_ctx c = {.p = v, .kind = 1};
	bpf_loop(30, advance_read, &c, 0);
	return 0;
}

/* Two counts reach the same bpf_loop call. Backtracking the caller's R1
 * (nr_loops) from the call insn through the callback's exit keeps it
 * requested in the caller's frame (6.18.44): the checkpoint inside the
 * callback gets R1 = 5 precise, so the path with R1 = 7 is not pruned
 * there (the engine dropped r1-r5 at that exit: 71 insns against the
 * kernel's 99). */
static int add_odd(__u32 idx, struct loop_ctx *c)
{
	if (idx & 1)
		c->sum += idx;
	c->i++;
	return 0;
}

SEC("socket")
__attribute__((naked)) int loop_two_counts(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "call %[bpf_get_prandom_u32];"
		     "r1 = 5;"
		     "if r0 != 0 goto 1f;"
		     "r1 = 7;"
		     "1: r2 = %[add_odd] ll;"
		     "r3 = r10;"
		     "r3 += -16;"
		     "r4 = 0;"
		     "call %[bpf_loop];"
		     "r0 = *(u64 *)(r10 - 16);"
		     "r0 &= 1;"
		     "exit;" ::[bpf_get_prandom_u32] "i"(bpf_get_prandom_u32),
		     [bpf_loop] "i"(bpf_loop), [add_odd] "i"(add_odd)
		     : "r0", "r1", "r2", "r3", "r4", "r5", "memory");
}

char _license[] SEC("license") = "GPL";
