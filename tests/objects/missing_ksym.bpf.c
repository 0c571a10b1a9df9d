/* missing_ksym.bpf.c — one program calls a kfunc no kernel has; the other
 * does not. The object must still open: the first program is marked as
 * unusable, the second is intact. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int rb_no_such_kfunc(int x) __ksym;

SEC("tc")
int calls_missing(struct __sk_buff *skb)
{
	return rb_no_such_kfunc(skb->len);
}

SEC("tc")
int fine(struct __sk_buff *skb)
{
	return skb->len > 100;
}

char LICENSE[] SEC("license") = "GPL";
