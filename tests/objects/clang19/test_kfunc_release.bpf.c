// SPDX-License-Identifier: GPL-2.0
/* test_kfunc_release.bpf.c — bpf_kfunc_call_test_release (net/bpf/test_run.c
 * test_sk_check_kfunc_ids, KF_RELEASE in 6.18.44 and 7.2.13) of a
 * referenced kptr taken out of a map value by bpf_kptr_xchg, as the
 * selftests' local_kptr_stash stash_test_ref_kfunc does (the engine's
 * kfunc_table.c: its flags were not recorded, so the call was
 * unsupported). Each program must give what the running kernel (Linux
 * 6.18.44) and 7.2.13 give (tests/cli/test_kfunc_release.sh). clang 19:
 * the type tag. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __kptr __attribute__((btf_type_tag("kptr")))

char _license[] SEC("license") = "GPL";

/* the kernel's struct, by name (its members do not matter to the field) */
struct prog_test_ref_kfunc {
	int a;
	int b;
};
struct prog_test_ref_kfunc types_ref;

extern void bpf_kfunc_call_test_release(struct prog_test_ref_kfunc *p) __ksym;

struct map_value {
	struct prog_test_ref_kfunc __kptr *val;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct map_value);
} vals SEC(".maps");

/* take the kptr out and release it: accepted */
SEC("tc")
int xchg_release(struct __sk_buff *skb)
{
	struct prog_test_ref_kfunc *res;
	int key = 0;
	struct map_value *v = bpf_map_lookup_elem(&vals, &key);
	if (!v)
		return 1;
	res = bpf_kptr_xchg(&v->val, NULL);
	if (res)
		bpf_kfunc_call_test_release(res);
	return 0;
}

/* released twice: refused */
SEC("tc")
int release_twice(struct __sk_buff *skb)
{
	struct prog_test_ref_kfunc *res;
	int key = 0;
	struct map_value *v = bpf_map_lookup_elem(&vals, &key);
	if (!v)
		return 1;
	res = bpf_kptr_xchg(&v->val, NULL);
	if (res) {
		bpf_kfunc_call_test_release(res);
		bpf_kfunc_call_test_release(res);
	}
	return 0;
}

/* maybe NULL: refused */
SEC("tc")
int release_null(struct __sk_buff *skb)
{
	int key = 0;
	struct map_value *v = bpf_map_lookup_elem(&vals, &key);
	if (!v)
		return 1;
	bpf_kfunc_call_test_release(bpf_kptr_xchg(&v->val, NULL));
	return 0;
}
