/* iter_bufs.bpf.c — iterator programs whose context holds buffers
 * (PTR_TO_BUF | PTR_MAYBE_NULL in their target's bpf_iter_reg.ctx_arg_info:
 * bpf_map_elem's key read-only and value read-write, sockmap's key
 * read-only, bpf_sk_storage_map's value read-write) and the map argument
 * no ctx_arg_info entry names (a trusted, non-NULL BTF pointer). The
 * verifier does not know the map, so any non-negative constant offset is
 * accepted; the attach checks it against the key and value sizes.
 * tests/cli/iter_bufs.sh pins each program's verdict and counts as Linux
 * 7.2.13 gives them (6.18.44 refuses these targets here, EPERM). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct seq_file;
struct sock;

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

struct bpf_map {
	__u32 max_entries;
} __attribute__((preserve_access_index));

struct bpf_iter__bpf_map_elem {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
	void *key;
	void *value;
} __attribute__((preserve_access_index));

struct bpf_iter__sockmap {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
	void *key;
	struct sock *sk;
} __attribute__((preserve_access_index));

struct bpf_iter__bpf_sk_storage_map {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
	struct sock *sk;
	void *value;
} __attribute__((preserve_access_index));

__u64 sum;

/* read the key, write the value, hand both to a helper, move the key
 * pointer by a constant */
SEC("iter/bpf_map_elem")
int elem_rw(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;
	__u64 *val = ctx->value;

	if (!key || !val)
		return 0;
	bpf_seq_write(ctx->meta->seq, key, 8);
	bpf_seq_write(ctx->meta->seq, val, 16);
	sum += key[1] + *val;
	*val = key[0];
	val[3] = 7;
	return 0;
}

/* the map argument: trusted, never NULL */
SEC("iter/bpf_map_elem")
int elem_map(struct bpf_iter__bpf_map_elem *ctx)
{
	struct bpf_map *map = ctx->map;

	return map->max_entries & 1;
}

/* the key is read-only: refused */
SEC("iter/bpf_map_elem")
int elem_key_write(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;

	if (!key)
		return 0;
	*key = 1;
	return 0;
}

/* a read before the NULL check: refused */
SEC("iter/bpf_map_elem")
int elem_no_null_check(struct bpf_iter__bpf_map_elem *ctx)
{
	__u64 *val = ctx->value;

	return *val & 1;
}

/* a negative offset: refused */
SEC("iter/bpf_map_elem")
int elem_neg_off(struct bpf_iter__bpf_map_elem *ctx)
{
	char *val = ctx->value;

	if (!val)
		return 0;
	return *(__u32 *)(val - 4) & 1;
}

/* a variable offset: refused */
SEC("iter/bpf_map_elem")
int elem_var_off(struct bpf_iter__bpf_map_elem *ctx)
{
	char *val = ctx->value;
	__u32 i = bpf_get_prandom_u32() & 7;

	if (!val)
		return 0;
	return val[i] & 1;
}

/* a helper may not write into the read-only key */
SEC("iter/bpf_map_elem")
int elem_helper_key_write(struct bpf_iter__bpf_map_elem *ctx)
{
	void *key = ctx->key;

	if (!key)
		return 0;
	bpf_probe_read_kernel(key, 4, (void *)0);
	return 0;
}

SEC("iter/sockmap")
int sockmap_key(struct bpf_iter__sockmap *ctx)
{
	__u32 *key = ctx->key;
	struct sock *sk = ctx->sk;

	if (!key)
		return 0;
	sum += *key;
	return sk != 0;
}

SEC("iter/bpf_sk_storage_map")
int sk_storage_value(struct bpf_iter__bpf_sk_storage_map *ctx)
{
	__u32 *val = ctx->value;

	if (!ctx->sk || !val)
		return 0;
	val[1] += 1;
	return 0;
}

char _license[] SEC("license") = "GPL";
