/* lsm.c — BPF LSM programs, following Linux 6.18: the attach target is a
 * bpf_lsm_<hook> function (bpf_lsm_verify_prog, checked here by its name),
 * its arguments are the context as for fentry (btf.c), and the value the
 * program returns is checked by check_return_code:
 *   - lsm (BPF_LSM_MAC) on a void hook: R0 is not read;
 *   - on a hook returning int: bpf_lsm_get_retval_range, [0, 1] for the
 *     hooks returning a bool (bool_lsm_hooks), else [-MAX_ERRNO, 0],
 *     compared on the 32-bit subregister;
 *   - lsm_cgroup: [0, 1], or [1, 1] on a void hook.
 * Sleepable hooks (sleepable_lsm_hooks): a sleepable program on another
 * hook is refused at attach ("... is not sleepable",
 * bpf_check_attach_target), and bpf_ima_file_hash / bpf_ima_inode_hash are
 * .allowed only there (bpf_ima_inode_hash_allowed).
 * The running kernel refuses LSM programs (lockdown=integrity), so the
 * engine's verdicts are the only ones here. Not modelled: the LSM-only
 * kfunc set; helpers follow the tracing class plus the LSM-only ima
 * helpers (helper_table.c). */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "engine/lsm.h"
#include "util/array_size.h"

/* bool_lsm_hooks (6.18 kernel/bpf/bpf_lsm.c) */
static const char *const bool_hooks[] = {"bpf_lsm_xfrm_state_pol_flow_match", "bpf_lsm_audit_rule_known",
					 "bpf_lsm_inode_xattr_skipcap"};

/* sleepable_lsm_hooks without the "bpf_lsm_" prefix, sorted (the list
 * of Linux 7.2.13's kernel/bpf/bpf_lsm.c, CONFIG_SECURITY_PATH and
 * CONFIG_SECURITY_NETWORK set as in Debian's kernels; every hook of it
 * predates 6.18, whose list is taken to be the same: the running 6.18.44
 * refuses LSM programs, so it could not be measured) */
static const char *const sleepable_hooks[] = {
	"bdev_alloc_security", "bdev_setintegrity", "bpf", "bpf_map", "bpf_map_create", "bpf_map_free",
	"bpf_prog", "bpf_prog_load", "bpf_token_capable", "bpf_token_cmd", "bpf_token_create",
	"bpf_token_free", "bprm_check_security", "bprm_committed_creds", "bprm_committing_creds",
	"bprm_creds_for_exec", "bprm_creds_from_file", "capget", "capset", "cred_prepare", "file_ioctl",
	"file_lock", "file_open", "file_post_open", "file_receive", "inode_create", "inode_free_security",
	"inode_getattr", "inode_getxattr", "inode_mknod", "inode_need_killpriv", "inode_post_removexattr",
	"inode_post_setxattr", "inode_readlink", "inode_removexattr", "inode_rename", "inode_rmdir",
	"inode_setattr", "inode_setxattr", "inode_symlink", "inode_unlink", "kernel_module_request",
	"kernel_read_file", "kernfs_init_security", "mmap_file", "netlink_send", "path_chmod", "path_chown",
	"path_link", "path_mkdir", "path_notify", "path_rename", "path_rmdir", "path_symlink",
	"path_truncate", "path_unlink", "release_secctx", "sb_alloc_security", "sb_eat_lsm_opts",
	"sb_kern_mount", "sb_mount", "sb_remount", "sb_set_mnt_opts", "sb_show_options", "sb_statfs",
	"sb_umount", "settime", "socket_accept", "socket_bind", "socket_connect", "socket_create",
	"socket_getpeername", "socket_getpeersec_dgram", "socket_getsockname", "socket_getsockopt",
	"socket_listen", "socket_post_create", "socket_recvmsg", "socket_sendmsg", "socket_shutdown",
	"socket_socketpair", "syslog", "task_alloc", "task_prctl", "task_setscheduler", "userns_create",
};

static int hook_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

bool rb_lsm_sleepable_hook(const char *fname)
{
	if (!fname || strncmp(fname, "bpf_lsm_", 8))
		return false;
	return bsearch(fname + 8, sleepable_hooks, ARRAY_SIZE(sleepable_hooks),
		       sizeof(sleepable_hooks[0]), hook_cmp) != NULL;
}

int rb_lsm_init(struct rb_env *env, const struct btf_type *proto)
{
	const struct rb_prog *p = env->prog;
	const char *fname = env->func_name;
	if (strncmp(fname, "bpf_lsm_", 8))
		return rb_reject(env, "attach_btf_id %u points to wrong type name %s", p->attach_btf_id, fname);
	/* 6.18 bpf_check_attach_target: only some hooks may sleep */
	if ((p->prog_flags & BPF_F_SLEEPABLE) && !rb_lsm_sleepable_hook(fname)) {
		env->insn_idx = -1; /* refused before any instruction */
		int rc = rb_reject(env, "%s is not sleepable", fname);
		env->insn_idx = 0;
		return rc;
	}
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
	for (size_t i = 0; i < ARRAY_SIZE(bool_hooks); i++)
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
