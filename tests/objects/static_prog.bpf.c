/* static_prog.bpf.c — a program that is a static function (libbpf 1.x:
 * "program is static and not supported"; libbpf < 1.0 and iproute2 load
 * it), in a section named the old way. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp_prog") __attribute__((used)) static int xdp_static(struct xdp_md *ctx)
{
	return ctx->ingress_ifindex ? 2 : 1;
}

char __license[] SEC("license") = "GPL";
