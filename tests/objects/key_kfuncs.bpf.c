/* key_kfuncs.bpf.c — the key kfuncs (kernel/bpf/helpers.c generic set:
 * bpf_lookup_user_key KF_ACQUIRE | KF_RET_NULL | KF_SLEEPABLE,
 * bpf_lookup_system_key KF_ACQUIRE | KF_RET_NULL, bpf_key_put KF_RELEASE,
 * bpf_verify_pkcs7_signature KF_SLEEPABLE with two dynptr arguments) from
 * LSM and trampoline programs, which share tp_btf's kfunc hook
 * (src/engine/kfuncs.c fetch_meta). tests/cli/key_kfuncs.sh pins each
 * program to Linux 7.2.13's verdict and counts; 6.18.44 here refuses LSM
 * and trampoline programs, and has no bpf_verify_pkcs7_signature kfunc
 * (profile.h kfunc_sets_72). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_key {
	int unused;
};
extern struct bpf_key *bpf_lookup_user_key(__s32 serial, __u64 flags) __ksym;
extern struct bpf_key *bpf_lookup_system_key(__u64 id) __ksym;
extern void bpf_key_put(struct bpf_key *key) __ksym;
extern int bpf_verify_pkcs7_signature(struct bpf_dynptr *data_ptr, struct bpf_dynptr *sig_ptr,
				      struct bpf_key *trusted_keyring) __ksym;

__u32 serial;
char data[64], sig[128];

SEC("lsm.s/bpf")
int user_key(void *ctx)
{
	struct bpf_key *k = bpf_lookup_user_key(serial, 0);

	if (!k)
		return 0;
	bpf_key_put(k);
	return 0;
}

/* not sleepable: the system key only */
SEC("fentry/vfs_read")
int system_key_fentry(void *ctx)
{
	struct bpf_key *k = bpf_lookup_system_key(1);

	if (!k)
		return 0;
	bpf_key_put(k);
	return 0;
}

/* bpf_lookup_user_key may sleep: refused in a program that may not */
SEC("fentry/vfs_read")
int user_key_not_sleepable(void *ctx)
{
	struct bpf_key *k = bpf_lookup_user_key(serial, 0);

	if (k)
		bpf_key_put(k);
	return 0;
}

/* the key may be NULL: refused */
SEC("lsm.s/bpf")
int put_unchecked(void *ctx)
{
	bpf_key_put(bpf_lookup_system_key(0));
	return 0;
}

/* the reference is leaked: refused */
SEC("lsm.s/bpf")
int key_leak(void *ctx)
{
	struct bpf_key *k = bpf_lookup_user_key(serial, 0);

	return k ? -1 : 0;
}

/* two local dynptrs and a system key */
SEC("lsm.s/bpf")
int pkcs7(void *ctx)
{
	struct bpf_dynptr d, s;
	struct bpf_key *k;
	int ret;

	bpf_dynptr_from_mem(data, sizeof(data), 0, &d);
	bpf_dynptr_from_mem(sig, sizeof(sig), 0, &s);
	k = bpf_lookup_system_key(1);
	if (!k)
		return 0;
	ret = bpf_verify_pkcs7_signature(&d, &s, k);
	bpf_key_put(k);
	return ret ? -1 : 0;
}

/* the data dynptr is not initialised: refused */
SEC("lsm.s/bpf")
int pkcs7_uninit(void *ctx)
{
	struct bpf_dynptr d, s;
	struct bpf_key *k;
	int ret;

	bpf_dynptr_from_mem(sig, sizeof(sig), 0, &s);
	k = bpf_lookup_system_key(1);
	if (!k)
		return 0;
	ret = bpf_verify_pkcs7_signature(&d, &s, k);
	bpf_key_put(k);
	return ret < 0 ? ret : 0;
}

char _license[] SEC("license") = "GPL";
