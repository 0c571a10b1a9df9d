/* sock_helpers.bpf.c — the socket helpers of src/engine/helper_table.c
 * (bpf_sk_fullsock, bpf_tcp_sock, bpf_get_listener_sock, bpf_skc_lookup_tcp,
 * bpf_skc_to_tcp_sock) and the pointers they return: each program must
 * give the running kernel's (Linux 6.18.44) log, verdict and counts
 * (tests/cli/kfuncs.sh runs `rangebench kdiff` on every program). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct tcp_sock {
	int unused;
} __attribute__((preserve_access_index));

/* a full socket and its TCP fields, each pointer checked: accepted */
SEC("tc")
int fullsock_fields(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;
	if (!sk)
		return 0;
	sk = bpf_sk_fullsock(sk);
	if (!sk)
		return 0;
	int r = sk->type;
	struct bpf_tcp_sock *tp = bpf_tcp_sock(sk);
	if (tp)
		r += tp->snd_cwnd + (int)tp->bytes_acked;
	return r & 1;
}

/* the cast may fail: a field read without the check is rejected */
SEC("tc")
int fullsock_unchecked(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;
	if (!sk)
		return 0;
	struct bpf_sock *full = bpf_sk_fullsock(sk);
	asm volatile("" : "+r"(full));
	return *(volatile __u32 *)&full->type;
}

/* a looked-up socket: cast (no new reference), listener, release: accepted */
SEC("tc")
int skc_lookup_cast_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple tup = {};
	struct bpf_sock *sk = bpf_skc_lookup_tcp(skb, &tup, sizeof(tup.ipv4), -1, 0);
	if (!sk)
		return 0;
	int r = 0;
	struct tcp_sock *tp = bpf_skc_to_tcp_sock(sk);
	if (tp)
		r = 1;
	struct bpf_sock *l = bpf_get_listener_sock(sk);
	if (l)
		r += l->state;
	bpf_sk_release(sk);
	return r & 1;
}

/* a cast of a reference is not a reference of its own: releasing the cast
 * releases the socket, then the socket is used after its release */
SEC("tc")
int fullsock_use_after_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple tup = {};
	struct bpf_sock *sk = bpf_sk_lookup_tcp(skb, &tup, sizeof(tup.ipv4), -1, 0);
	if (!sk)
		return 0;
	struct bpf_sock *full = bpf_sk_fullsock(sk);
	if (!full) {
		bpf_sk_release(sk);
		return 0;
	}
	bpf_sk_release(full);
	return *(volatile __u32 *)&sk->type;
}

char LICENSE[] SEC("license") = "GPL";
