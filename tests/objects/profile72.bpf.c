/* profile72.bpf.c — programs whose verification differs between Linux
 * 6.18.44 and 7.2.13, one behaviour each, pinning the engine's kernel
 * profiles (src/engine/profile.h): the bare engine must give the running
 * 6.18 kernel's counts, the engine @7.2 the counts measured on the real
 * 7.2.13 kernel (tests/cli/profile72.sh holds them, with the command that
 * measured them). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

/* null_check_keeps_id: two map values meet at a join, once as two copies
 * of one pointer (one id), once from two lookups (two ids). 6.18 drops a
 * map value's id at its null check, so the second arrival is pruned; 7.2
 * keeps the ids, which then differ between the states, and explores the
 * join again. */
SEC("xdp")
int null_id_join(struct xdp_md *ctx)
{
	__u32 k = 0, k1 = 1;
	__u64 *a, *b;

	a = bpf_map_lookup_elem(&vals, &k);
	if (!a)
		return XDP_PASS;
	if (ctx->data_end - ctx->data > 64) {
		b = a;
	} else {
		b = bpf_map_lookup_elem(&vals, &k1);
		if (!b)
			return XDP_PASS;
		/* jumps enough for a checkpoint at the join (6.18 and 7.2
		 * is_state_visited: 2 jumps and 8 insns since the last one) */
		if (ctx->ingress_ifindex == 3)
			*b += 3;
		if (ctx->rx_queue_index == 4)
			*b += 4;
	}
	asm volatile("" : "+r"(a), "+r"(b));
	*a += 1;
	*b += 2;
	*a += *b;
	return XDP_PASS;
}

/* stack_live_half_slots: a four-byte key spilled on one path only; at the
 * join the key's half slot is written again before it is read, so 7.2
 * (liveness per half slot) finds it dead and prunes the second arrival,
 * while 6.18 (whole slots, killed by 8-byte writes only) keeps the slot
 * live and explores the join again. */
SEC("xdp")
int half_slot_join(struct xdp_md *ctx)
{
	__u32 key __attribute__((aligned(8)));
	__u64 *v;

	if (ctx->rx_queue_index == 7) {
		key = bpf_get_smp_processor_id();
		v = bpf_map_lookup_elem(&vals, &key);
		if (!v)
			return XDP_PASS;
		if (ctx->ingress_ifindex == 9)
			*v += 1;
	}
	key = (__u32)bpf_get_prandom_u32();
	v = bpf_map_lookup_elem(&vals, &key);
	if (v)
		*v += 2;
	return XDP_PASS;
}

/* const_fold_branches: a branch on a constant of .rodata. 7.2 rewrites it
 * into a goto before exploring (const_fold.c), so the dead side's use of
 * `p` keeps no register live and the second arrival at the join is pruned;
 * 6.18 explores the branch and keeps `p` (a packet pointer on one path, 0
 * on the other) live there. */
const volatile __u32 fold_flag = 0;

SEC("xdp")
int rodata_fold(struct xdp_md *ctx)
{
	void *p = 0;
	__u32 k = 0;
	__u64 *v;

	/* jumps and insns enough for a checkpoint at the join (both kernels'
	 * is_state_visited: 2 jumps and 8 insns since the last one) */
	if (ctx->ingress_ifindex == 5)
		k = 1;
	asm volatile("" : "+r"(k));
	if (ctx->rx_queue_index == 3)
		p = (void *)(long)ctx->data;
	asm volatile("" : "+r"(p));
	if (fold_flag && p)
		return XDP_DROP;
	v = bpf_map_lookup_elem(&vals, &k);
	if (v)
		*v += 1;
	if (ctx->ingress_ifindex == 2)
		return XDP_TX;
	return XDP_PASS;
}

/* helper_sets_72: 7.2 gives raw tracepoints (tp_btf) bpf_get_func_arg_cnt
 * and bpf_get_func_arg (7.2 tracing_prog_func_proto); 6.18 refuses them
 * ("program of this type cannot use helper"). */
SEC("tp_btf/sched_switch")
int tp_func_args(__u64 *ctx)
{
	__u64 a = 0;

	if (bpf_get_func_arg_cnt(ctx) > 1 && bpf_get_func_arg(ctx, 1, &a) == 0 && a)
		return 1;
	return 0;
}

/* helper_sets_72: a trampoline program's helpers (7.2.13's set, measured
 * in its guest; 6.18.44 here refuses fentry programs, and the engine
 * following 6.18 has no set for them) */
SEC("fentry/bpf_fentry_test1")
int fentry_func_args(__u64 *ctx)
{
	__u64 r = 0;

	if (bpf_get_func_arg_cnt(ctx) == 1 && bpf_get_func_arg(ctx, 0, &r) == 0 && r > 7) {
		__u32 k = 0;

		bpf_map_delete_elem(&vals, &k);
	}
	return 0;
}

/* not a profile switch: fentry arguments are untrusted pointers ("ptr_",
 * kernel/bpf/btf.c prog_args_trusted, the same in 6.18 and 7.2.13), so a
 * NULL test on one is explored both ways; the engine had them trusted
 * (non-NULL, the test decided), which the running 6.18.44 cannot show:
 * it refuses fentry programs here */
SEC("fentry/bpf_fentry_test7")
int fentry_arg_null(__u64 *ctx)
{
	if (!ctx[0]) {
		__u32 k = 1;

		bpf_map_delete_elem(&vals, &k);
	}
	return 0;
}

/* linked_regs_max_5: r6, r7, r8 share one id; "if r6 > r7" collects the
 * linked registers of both operands, each three times over (r6, r7, r8
 * twice): 7.2 keeps 5 and clears the id of the sixth, r8, so "if r8 > 5"
 * no longer bounds r6 and "if r6 > 5" is explored both ways; 6.18 keeps
 * 6 and decides it (ml72's finding, confirmed in the 7.2.13 guest) */
SEC("socket")
__attribute__((naked)) int linked_regs_max(void)
{
	asm volatile("call %[rand];"
		     "r6 = r0;"
		     "r7 = r6;"
		     "r8 = r6;"
		     "if r6 > r7 goto +0;"
		     "if r8 > 5 goto +3;"
		     "if r6 > 5 goto +2;"
		     "r0 = 0;"
		     "exit;"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}

/* stacksafe_half_scalars: the first path spills r6 as 32 bits into
 * fp-8 (the half at fp-8..-5, the other half never written), the second
 * makes those bytes misc (a 64-bit spill scrubbed by a byte store); both
 * reach the load at insn 12. 7.2 compares the spilled half with the misc
 * half as registers (stacksafe, scalar_reg_for_stack per half): r6 is
 * not precise, so the second path is pruned there; 6.18 compared whole
 * 8-byte slots only and walks the second path to its exit. */
SEC("socket")
__attribute__((naked)) int half_spill_misc(void)
{
	asm volatile("call %[rand];"
		     "r6 = r0;"
		     "call %[rand];"
		     "if r0 > 100 goto +6;"
		     "*(u32 *)(r10 -8) = r6;"
		     "r1 = 1;"
		     "r1 += 1;"
		     "r1 += 1;"
		     "r1 += 1;"
		     "goto +2;"
		     "*(u64 *)(r10 -8) = r6;"
		     "*(u8 *)(r10 -5) = r6;"
		     "r1 = *(u32 *)(r10 -8);"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [rand] "i"(BPF_FUNC_get_prandom_u32)
		     : "memory");
}

/* ptr_cast_branch: bpf_tcp_sock() of a looked-up (referenced) socket,
 * its result used after the socket's release (the selftests' "use ptr
 * from bpf_tcp_sock() after release"). 7.2 explores the cast's NULL
 * result as a branch of its own and follows the non-NULL result first,
 * so it fails before walking the NULL path; 6.18 returns a maybe-NULL
 * pointer and walks the NULL path (the fall-through) first. */
SEC("tc")
__attribute__((naked)) int cast_after_release(void)
{
	asm volatile("r2 = 0;"
		     "*(u32 *)(r10 -8) = r2;"
		     "*(u64 *)(r10 -16) = r2;"
		     "*(u64 *)(r10 -24) = r2;"
		     "*(u64 *)(r10 -32) = r2;"
		     "*(u64 *)(r10 -40) = r2;"
		     "*(u64 *)(r10 -48) = r2;"
		     "r2 = r10;"
		     "r2 += -48;"
		     "r3 = 36;"
		     "r4 = 0;"
		     "r5 = 0;"
		     "call %[lookup];"
		     "if r0 != 0 goto +1;"
		     "exit;"
		     "r6 = r0;"
		     "r1 = r0;"
		     "call %[tcp_sock];"
		     "if r0 != 0 goto +3;"
		     "r1 = r6;"
		     "call %[release];"
		     "exit;"
		     "r7 = r0;"
		     "r1 = r6;"
		     "call %[release];"
		     "r0 = *(u32 *)(r7 +0);"
		     "exit;"
		     :
		     : [lookup] "i"(BPF_FUNC_sk_lookup_tcp), [tcp_sock] "i"(BPF_FUNC_tcp_sock),
		       [release] "i"(BPF_FUNC_sk_release)
		     : "memory");
}

/* timers_in_tracing: a kprobe program initialising a bpf_timer of a map
 * value. 6.18 refuses the map before exploring ("tracing progs cannot
 * use bpf_timer yet"); 7.2 no longer does. */
struct timer_val {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct timer_val);
} timer_map SEC(".maps");

SEC("kprobe/do_nanosleep")
int kprobe_timer(void *ctx)
{
	__u32 k = 0;
	struct timer_val *v = bpf_map_lookup_elem(&timer_map, &k);
	if (v)
		bpf_timer_init(&v->t, &timer_map, 1 /* CLOCK_MONOTONIC */);
	return 0;
}
