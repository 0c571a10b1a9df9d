/* lsm_cgroup_storage.bpf.c — bpf_get_local_storage from lsm_cgroup
 * programs (bpf_lsm_func_proto gives them the cgroup types' prototype:
 * src/engine/helpers.c check_modelled), and a NULL test of its result,
 * which is never NULL (RET_PTR_TO_MAP_VALUE). tests/cli/key_kfuncs.sh pins
 * them to Linux 7.2.13's counts; the 6.18 profile has no measured helper
 * set for LSM programs (6.18.44 here refuses them). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_STORAGE);
	__type(key, __u64);
	__type(value, __u64);
} cg_storage SEC(".maps");

SEC("lsm_cgroup/socket_bind")
int storage_bind(void *ctx)
{
	__u64 *val = bpf_get_local_storage(&cg_storage, 0);

	if (!val)
		return 0;
	*val += 1;
	return 1;
}

/* the flags must be 0 */
SEC("lsm_cgroup/socket_bind")
int storage_flags(void *ctx)
{
	__u64 *val = bpf_get_local_storage(&cg_storage, 1);

	*val += 1;
	return 1;
}

char _license[] SEC("license") = "GPL";
