/* real_objects.bpf.c — minimal programs for engine disagreements first seen
 * on real BPF objects from public projects (issue 9: Cilium's tc datapath,
 * ...). Each must give the running kernel's (Linux 6.18.44) level-2 log line
 * for line, its verdict and its counts (tests/cli/real_objects.sh runs
 * `rangebench kdiff` on every program). Written in BPF assembly so that clang
 * cannot reshape them. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define IMM(name) [name] "i"(name)
#define ADDR(name) [name] "i"(&name)
#define SKB(field) [field] "i"(__builtin_offsetof(struct __sk_buff, field))
#define CLOBBERS "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"
#define TC(name) SEC("tc") __attribute__((naked)) int name(void)

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} jmp_table SEC(".maps");

/* bpf_skb_change_type only sets skb->pkt_type: 6.18's
 * bpf_helper_changes_pkt_data does not list it, so packet pointers checked
 * before the call stay valid (Cilium bpf_host.o
 * tail_handle_ipv4_cont_from_netdev: the engine dropped them and refused at
 * insn 503, the kernel verifies 9398 insns) */
TC(change_type_keeps_pkt)
{
	asm volatile("r6 = r1;"
		     "r7 = *(u32 *)(r6 + %[data]);"
		     "r8 = *(u32 *)(r6 + %[data_end]);"
		     "r1 = r7;"
		     "r1 += 8;"
		     "if r1 > r8 goto 1f;"
		     "r1 = r6;"
		     "r2 = 0;"
		     "call %[bpf_skb_change_type];"
		     "r0 = *(u32 *)(r7 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::SKB(data), SKB(data_end), IMM(bpf_skb_change_type) : CLOBBERS);
}

/* a tail call in the main program (no return to a caller) keeps them too:
 * 6.18 counts bpf_tail_call as changing packet data only for subprograms */
TC(tail_call_keeps_pkt)
{
	asm volatile("r6 = r1;"
		     "r7 = *(u32 *)(r6 + %[data]);"
		     "r8 = *(u32 *)(r6 + %[data_end]);"
		     "r1 = r7;"
		     "r1 += 8;"
		     "if r1 > r8 goto 1f;"
		     "r1 = r6;"
		     "r2 = %[jmp_table] ll;"
		     "r3 = 0;"
		     "call %[bpf_tail_call];"
		     "r0 = *(u32 *)(r7 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::SKB(data), SKB(data_end), IMM(bpf_tail_call), ADDR(jmp_table) : CLOBBERS);
}

/* cgroup local storage (Linux 6.2; map type 32, helpers 210/211, which the
 * build host's 6.1 uapi header lacks) */
struct {
	__uint(type, 32 /* BPF_MAP_TYPE_CGRP_STORAGE */);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} cgrp_map SEC(".maps");

/* bpf_cgrp_storage_get (6.18 bpf_base_func_proto: every program type): a
 * cgroup pointer or NULL, a map value or NULL back (ebpf_exporter's
 * cgroup_id_map_cgrp_storage: "helper #210: its prototype is not modelled"
 * before) */
SEC("raw_tp/sys_enter") __attribute__((naked)) int cgrp_storage_null_cgroup(void)
{
	asm volatile("r1 = %[cgrp_map] ll;"
		     "r2 = 0;"
		     "r3 = 0;"
		     "r4 = 0;"
		     "call 210;"
		     "if r0 == 0 goto 1f;"
		     "r0 = *(u64 *)(r0 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::ADDR(cgrp_map) : CLOBBERS);
}

/* a map-in-map lookup: 6.18 gives R0 the inner map's pointer or NULL at the
 * call ("map_ptr_or_null(id=1,ks=4,vs=8)"), where the engine had the outer
 * map's value until the null check (Tetragon's string_postfix_maps) */
struct inner_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, long);
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, int);
	__array(values, struct inner_map);
} outer_map SEC(".maps");

SEC("socket") __attribute__((naked)) int map_in_map_lookup(void)
{
	asm volatile("r1 = *(u32 *)(r1 + 0);"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[outer_map] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 1f;"
		     "r1 = r0;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 1f;"
		     "r0 = *(u64 *)(r0 + 0);"
		     "exit;"
		     "1: r0 = 0;"
		     "exit;" ::ADDR(outer_map), IMM(bpf_map_lookup_elem) : CLOBBERS);
}

/* ld_imm64 of a kfunc's address (BPF_PSEUDO_BTF_ID naming a FUNC, libbpf's
 * bpf_ksym_exists()): 6.18 __check_pseudo_btf_id gives read-only memory of
 * size 0, so "if (kfunc)" is decided when it exists (Tetragon's test for
 * bpf_strnstr; "unsupported: ksym (ld_imm64 BTF id)" before) */
extern void *bpf_cast_to_kern_ctx(void *obj) __attribute__((weak)) __ksym;

/* in C, so that clang describes the extern in BTF (libbpf needs it) */
SEC("socket") int kfunc_address(void *ctx)
{
	void *p = bpf_cast_to_kern_ctx;

	asm volatile("" : "+r"(p)); /* bpf_ksym_exists(): hide the address from clang */
	return p ? 1 : 0;
}

/* bpf_probe_read into the stack with a size that is not a constant
 * (tracee's save_str_to_buf-style copies: R2 in [0, 15]): 6.18
 * check_mem_size_reg drops raw mode, so the destination is checked as a
 * clobbering write, every slot is read for liveness and none is printed as
 * written after the call. The two paths leave a pointer and a scalar in
 * fp-16; fp-16 stays live at the join (a checkpoint: 2 jumps and 8 insns
 * since the one at the branch), so the second path is not pruned
 * (aquasecurity/tracee trace_security_socket_connect: 3899 insns, the
 * engine 5346 before) */
SEC("kprobe") __attribute__((naked)) int probe_read_var_size(void)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 &= 15;"
		     "r8 = 0;"
		     "r9 = 0;"
		     "if r6 > 5 goto 1f;"
		     "*(u64 *)(r10 - 16) = r10;"
		     "r8 = 0;"
		     "r9 = 0;"
		     "r8 = 0;"
		     "r9 = 0;"
		     "r8 = 0;"
		     "goto 2f;"
		     "1: r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "2: r2 = r7;"
		     "r1 = r10;"
		     "r1 += -16;"
		     "r3 = 0;"
		     "call %[bpf_probe_read];"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32), IMM(bpf_probe_read) : CLOBBERS);
}

/* tp_btf arguments that 6.18's raw_tp_null_args marks (btf_ctx_access):
 * signal_deliver's kernel_siginfo may be SEND_SIG_PRIV, so it is read as a
 * scalar ("may encode error") and dereferencing it fails
 * (falcosecurity/libs modern_bpf signal_deliver: the kernel refuses it at
 * insn 131, the engine verified it); sched_pi_setprio's second task may be
 * NULL (trusted_ptr_or_null_), so a load needs a NULL check first */
SEC("tp_btf/signal_deliver") __attribute__((naked)) int tp_arg_may_encode_error(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "r3 = *(u64 *)(r1 + 16);"
		     "r0 = *(u32 *)(r2 + 0);"
		     "r0 = 0;"
		     "exit;" ::: CLOBBERS);
}

SEC("tp_btf/sched_pi_setprio") __attribute__((naked)) int tp_arg_maybe_null(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "if r2 == 0 goto 1f;"
		     "r0 = *(u32 *)(r2 + 0);"
		     "1: r2 = *(u64 *)(r1 + 8);"
		     "r0 = *(u32 *)(r2 + 0);"
		     "r0 = 0;"
		     "exit;" ::: CLOBBERS);
}

/* bpf_d_path of &file->f_path (a BTF pointer at a fixed offset: 6.18
 * check_func_arg_reg_off allows it for PTR_TO_BTF_ID, and the struct walk
 * finds struct path there), then bpf_seq_write of a length that may be 0
 * (its size is ARG_CONST_SIZE_OR_ZERO) (falcosecurity/libs modern_bpf
 * dump_task_file: the engine left it unsupported at the d_path call, then
 * refused the zero-sized write; the kernel verifies 5749 insns) */
struct seq_file;
struct path {
	void *dentry;
} __attribute__((preserve_access_index));

struct file {
	struct path f_path;
} __attribute__((preserve_access_index));

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

struct bpf_iter__task_file {
	struct bpf_iter_meta *meta;
	void *task;
	__u32 fd;
	struct file *file;
} __attribute__((preserve_access_index));

SEC("iter/task_file") int d_path_of_file(struct bpf_iter__task_file *ctx)
{
	struct file *f = ctx->file;
	char buf[64];
	long n;

	if (!f)
		return 0;
	n = bpf_d_path(&f->f_path, buf, sizeof(buf));
	if (n < 0)
		return 0;
	bpf_seq_write(ctx->meta->seq, buf, bpf_get_prandom_u32() & 63);
	return 0;
}

SEC("iter/task_file") int seq_write_maybe_empty(struct bpf_iter__task_file *ctx)
{
	char buf[8] = {};

	bpf_seq_write(ctx->meta->seq, buf, bpf_get_prandom_u32() & 7);
	return 0;
}

char _license[] SEC("license") = "GPL";
