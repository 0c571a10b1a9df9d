/* newer_sections.bpf.c — one program per section name that mainline libbpf
 * (tools/lib/bpf/libbpf.c section_defs[], 2026) knows and Debian's libbpf
 * 1.1 does not, plus usdt, whose attach type mainline chooses otherwise.
 * tests/cli/newer_sections.sh checks the program and attach type `load`
 * prints for each, and that the engine (old) and the running kernel agree
 * on every program the kernel verifies here (log, verdict and counts). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct pt_regs;

/* uprobe-multi programs: KPROBE, BPF_TRACE_UPROBE_MULTI */
SEC("uprobe.multi")
int up_multi(struct pt_regs *ctx)
{
	return bpf_get_attach_cookie(ctx) & 1;
}

SEC("uretprobe.multi/libc.so.6:malloc")
int uret_multi(struct pt_regs *ctx)
{
	return (int)bpf_get_func_ip(ctx) & 1;
}

/* sleepable: BPF_F_SLEEPABLE, so bpf_copy_from_user is allowed */
SEC("uprobe.multi.s/libc.so.6:free")
int up_multi_s(struct pt_regs *ctx)
{
	char buf[8];
	(void)ctx;
	return bpf_copy_from_user(buf, sizeof(buf), (void *)0x1000) < 0;
}

SEC("uretprobe.multi.s")
int uret_multi_s(struct pt_regs *ctx)
{
	char buf[8];
	(void)ctx;
	return bpf_copy_from_user(buf, sizeof(buf), (void *)0x1000) < 0;
}

/* session programs (BPF_TRACE_KPROBE_SESSION, _UPROBE_SESSION) return 0
 * or 1 (6.18 check_return_code): both in range */
SEC("kprobe.session/do_nanosleep")
int kp_session(struct pt_regs *ctx)
{
	return bpf_get_attach_cookie(ctx) == 7;
}

SEC("uprobe.session")
int up_session(struct pt_regs *ctx)
{
	(void)ctx;
	return 0;
}

/* and one returning 2: refused, "At program exit the register R0 has ..." */
SEC("uprobe.session.s")
int up_session_s_bad(struct pt_regs *ctx)
{
	(void)ctx;
	return 2;
}

/* usdt: mainline loads it with BPF_TRACE_UPROBE_MULTI on this kernel */
SEC("usdt/libc.so.6:libc:setjmp")
int usdt_probe(struct pt_regs *ctx)
{
	return bpf_get_attach_cookie(ctx) & 1;
}

SEC("usdt.s")
int usdt_s(struct pt_regs *ctx)
{
	char buf[4];
	(void)ctx;
	return bpf_copy_from_user(buf, sizeof(buf), (void *)0x1000) < 0;
}

/* tcx and netkit: SCHED_CLS with their attach types */
SEC("tc/ingress")
int tc_ingress(struct __sk_buff *skb)
{
	return skb->len > 64;
}

SEC("tcx/egress")
int tcx_egress(struct __sk_buff *skb)
{
	return skb->protocol == 8;
}

SEC("netkit/primary")
int nk_primary(struct __sk_buff *skb)
{
	return skb->mark & 1;
}

SEC("netkit/peer")
int nk_peer(struct __sk_buff *skb)
{
	return skb->priority & 1;
}

/* sk_skb with BPF_SK_SKB_VERDICT */
SEC("sk_skb/verdict")
int skb_verdict(struct __sk_buff *skb)
{
	return skb->len > 10 ? SK_PASS : SK_DROP;
}

/* the AF_UNIX cgroup hooks: CGROUP_SOCK_ADDR with their attach types */
SEC("cgroup/connect_unix")
int unix_connect(struct bpf_sock_addr *ctx)
{
	return ctx->user_family == 1;
}

SEC("cgroup/sendmsg_unix")
int unix_sendmsg(struct bpf_sock_addr *ctx)
{
	return ctx->user_port == 0;
}

SEC("cgroup/recvmsg_unix")
int unix_recvmsg(struct bpf_sock_addr *ctx)
{
	(void)ctx;
	return 1;
}

/* getsockname must return 1: refused, "should have been in [1, 1]" */
SEC("cgroup/getsockname_unix")
int unix_getsockname_bad(struct bpf_sock_addr *ctx)
{
	(void)ctx;
	return 0;
}

/* netfilter: struct bpf_nf_ctx, two trusted BTF pointers; NF_DROP (0) or
 * NF_ACCEPT (1) */
struct nf_hook_state {
	unsigned char hook;
	unsigned char pf;
} __attribute__((preserve_access_index));

struct sk_buff {
	unsigned int len;
} __attribute__((preserve_access_index));

struct bpf_nf_ctx {
	const struct nf_hook_state *state;
	struct sk_buff *skb;
};

SEC("netfilter")
int nf_accept(struct bpf_nf_ctx *ctx)
{
	const struct nf_hook_state *st = ctx->state;
	struct sk_buff *skb = ctx->skb;
	return skb->len > 20 && st->pf == 2;
}

/* a write to the context: refused */
SEC("netfilter")
int nf_write_bad(struct bpf_nf_ctx *ctx)
{
	ctx->skb = 0;
	return 1;
}

/* sleepable tracepoints: 6.18 refuses them ("Only fentry/fexit/fmod_ret,
 * lsm, iter, uprobe, and struct_ops programs can be sleepable") */
SEC("tp.s/syscalls/sys_enter_nanosleep")
int tp_sleepable(void *ctx)
{
	(void)ctx;
	return 0;
}

SEC("raw_tp.s/sys_enter")
int raw_tp_sleepable(void *ctx)
{
	(void)ctx;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
