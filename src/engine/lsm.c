/* lsm.c — BPF LSM programs, following Linux 6.18: the attach target is a
 * bpf_lsm_<hook> function (bpf_lsm_verify_prog, checked here by its name),
 * its arguments are the context as for fentry (btf.c), and the value the
 * program returns is checked by check_return_code:
 *   - lsm (BPF_LSM_MAC) on a void hook: R0 is not read;
 *   - on a hook returning int: bpf_lsm_get_retval_range, [0, 1] for the
 *     hooks returning a bool (bool_lsm_hooks), else [-MAX_ERRNO, 0],
 *     compared on the 32-bit subregister;
 *   - lsm_cgroup: [0, 1], or [1, 1] on a void hook.
 * The running kernel refuses LSM programs (lockdown=integrity), so the
 * engine's verdicts are the only ones here. Not modelled: which hooks may
 * be sleepable (bpf_lsm_sleepable_hooks) and the LSM-only helper and kfunc
 * sets (helpers follow the tracing class, helper_table.c). */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <string.h>

#include "engine/lsm.h"

/* bool_lsm_hooks (6.18 kernel/bpf/bpf_lsm.c) */
static const char *const bool_hooks[] = {"bpf_lsm_xfrm_state_pol_flow_match", "bpf_lsm_audit_rule_known",
					 "bpf_lsm_inode_xattr_skipcap"};

int rb_lsm_init(struct rb_env *env, const struct btf_type *proto)
{
	const struct rb_prog *p = env->prog;
	const char *fname = env->func_name;
	if (strncmp(fname, "bpf_lsm_", 8))
		return rb_reject(env, "attach_btf_id %u points to wrong type name %s", p->attach_btf_id, fname);
	bool void_hook = proto->type == 0;
	if (p->expected_attach_type == BPF_LSM_CGROUP) {
		env->ret_set = true;
		env->ret_lo = void_hook ? 1 : 0;
		env->ret_hi = 1;
		return 0;
	}
	if (void_hook) {
		env->ret_void = true;
		return 0;
	}
	env->ret_set = true;
	env->ret32 = true;
	env->ret_lo = -4095; /* -MAX_ERRNO */
	env->ret_hi = 0;
	for (size_t i = 0; i < sizeof(bool_hooks) / sizeof(bool_hooks[0]); i++)
		if (!strcmp(fname, bool_hooks[i])) {
			env->ret_lo = 0;
			env->ret_hi = 1;
		}
	return 0;
}

void rb_lsm_retval(struct rb_env *env, struct rb_reg *r)
{
	struct rb_bounds b;
	env->t->bounds(&r->val, &b);
	if (b.s32_min < env->ret_lo)
		b.s32_min = env->ret_lo;
	if (b.s32_max > env->ret_hi)
		b.s32_max = env->ret_hi;
	if (b.smin < env->ret_lo)
		b.smin = env->ret_lo;
	if (b.smax > env->ret_hi)
		b.smax = env->ret_hi;
	env->t->from_bounds(&r->val, &b);
}
