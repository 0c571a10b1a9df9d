/* helpers_unix_write.bpf.c — two helper prototypes (src/engine/helper_table.c):
 * bpf_skc_to_unix_sock (RET_PTR_TO_BTF_ID_OR_NULL of struct unix_sock, not
 * a pointer cast that carries a reference) and bpf_probe_write_user
 * (ARG_ANYTHING, ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE; gpl_only),
 * which 6.18.44 here refuses to every type (lockdown) and 7.2.13's sets
 * give to tracing programs. tests/cli/helpers_unix_write.sh: kdiff against
 * the running kernel, 7.2.13's counts pinned. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct unix_sock {
	void *peer;
} __attribute__((preserve_access_index));

SEC("tp_btf/sock_rcvqueue_full")
int to_unix(__u64 *ctx)
{
	struct unix_sock *u = bpf_skc_to_unix_sock((void *)ctx[0]);

	if (!u)
		return 0;
	return u->peer != 0;
}

char buf[8];

SEC("kprobe/do_nanosleep")
int write_user(void *ctx)
{
	bpf_probe_write_user((void *)0x1000, buf, sizeof(buf));
	return 0;
}

char _license[] SEC("license") = "GPL";
