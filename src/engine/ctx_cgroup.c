/* ctx_cgroup.c — context access rules of the cgroup program types defined
 * in Linux 6.18's kernel/bpf/cgroup.c: cgroup_sockopt (struct bpf_sockopt,
 * whose optval/optval_end are a writable packet-like range),
 * cgroup_sysctl (struct bpf_sysctl) and cgroup_device (struct
 * bpf_cgroup_dev_ctx). Checked against the running kernel field by field
 * (tests/unit/test_engine_ctx.c). */
#include <stddef.h>

#include "engine/ctx.h"

#define OFF(s, f) ((int)offsetof(struct s, f))

static int bad(struct rb_env *env, int off, int size)
{
	return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
}

static bool narrow_ok(int size, int field_size)
{
	return size <= field_size && (size & (size - 1)) == 0;
}

int rb_ctx_sockopt(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	uint32_t at = env->prog->expected_attach_type;
	if (off < 0 || off >= (int)sizeof(struct bpf_sockopt) || off % size)
		return bad(env, off, size);
	if (write) {
		bool ok = false;
		if (off == OFF(bpf_sockopt, retval))
			ok = at == BPF_CGROUP_GETSOCKOPT;
		else if (off == OFF(bpf_sockopt, optname) || off == OFF(bpf_sockopt, level))
			ok = at == BPF_CGROUP_SETSOCKOPT;
		else if (off == OFF(bpf_sockopt, optlen))
			ok = true;
		return ok && size == 4 ? 0 : bad(env, off, size);
	}
	if (off >= OFF(bpf_sockopt, sk) && off < OFF(bpf_sockopt, level)) {
		/* sk, optval, optval_end: 8-byte pointers */
		if (size != 8)
			return bad(env, off, size);
		out->reg_type = off < OFF(bpf_sockopt, optval) ? RT_SOCKET
				: off < OFF(bpf_sockopt, optval_end) ? RT_PKT
								     : RT_PKT_END;
		return 0;
	}
	if (off >= OFF(bpf_sockopt, retval) && off < OFF(bpf_sockopt, retval) + 4 && at != BPF_CGROUP_GETSOCKOPT)
		return bad(env, off, size);
	return size == 4 ? 0 : bad(env, off, size);
}

int rb_ctx_sysctl(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	if (off < 0 || off + size > (int)sizeof(struct bpf_sysctl) || off % size)
		return bad(env, off, size);
	if (off < OFF(bpf_sysctl, file_pos)) /* write: read-only */
		return !write && narrow_ok(size, 4) ? 0 : bad(env, off, size);
	if (write)
		return size == 4 ? 0 : bad(env, off, size);
	return narrow_ok(size, 4) ? 0 : bad(env, off, size);
}

int rb_ctx_cgroup_dev(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out)
{
	(void)out;
	if (write || off < 0 || off + size > (int)sizeof(struct bpf_cgroup_dev_ctx) || off % size)
		return bad(env, off, size);
	if (off < OFF(bpf_cgroup_dev_ctx, major)) /* access_type */
		return narrow_ok(size, 4) ? 0 : bad(env, off, size);
	return size == 4 ? 0 : bad(env, off, size);
}
