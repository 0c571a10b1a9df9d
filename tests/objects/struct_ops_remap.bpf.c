/* struct_ops_remap.bpf.c — a tcp_congestion_ops of three members, for
 * struct_ops member indexes in another kernel's BTF (--btf; libbpf reads it
 * as the vmlinux BTF: src/loader/bpf_standin.c; tests/unit/test_loader.c):
 * each program gets the index of its member in that BTF's struct, and
 * 7.2.13's tcp_congestion_ops has a member 6.18.44's lacks. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct sock;

struct tcp_congestion_ops {
	__u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, __u32 ack, __u32 acked);
	__u32 (*undo_cwnd)(struct sock *sk);
	char name[16];
};

SEC("struct_ops/rb_ssthresh")
__u32 rb_ssthresh(__u64 *ctx)
{
	(void)ctx;
	return 2;
}

SEC("struct_ops/rb_cong_avoid")
void rb_cong_avoid(__u64 *ctx)
{
	(void)ctx;
}

SEC("struct_ops/rb_undo_cwnd")
__u32 rb_undo_cwnd(__u64 *ctx)
{
	(void)ctx;
	return 2;
}

SEC(".struct_ops")
struct tcp_congestion_ops rb_remap = {
	.ssthresh = (void *)rb_ssthresh,
	.cong_avoid = (void *)rb_cong_avoid,
	.undo_cwnd = (void *)rb_undo_cwnd,
	.name = "rb_remap",
};
