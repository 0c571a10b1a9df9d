/* dynptr_kfuncs.c — the dynptr kfuncs whose other arguments are scalars
 * and whose result is a scalar: bpf_dynptr_size, bpf_dynptr_is_null,
 * bpf_dynptr_is_rdonly, bpf_dynptr_adjust (Linux 6.18 check_kfunc_args for
 * KF_ARG_PTR_TO_DYNPTR: process_dynptr_func with MEM_RDONLY added for a
 * CONST_PTR_TO_DYNPTR, any dynptr type; scalar arguments; R0 an unknown
 * scalar). The `special` checker of their kfunc_table.c rows. The kfuncs
 * that build dynptrs (bpf_dynptr_from_skb/xdp, bpf_dynptr_clone) or return
 * slices (bpf_dynptr_slice/_rdwr) are not modelled yet. */
#include <bpf/btf.h>

#include "engine/dynptr.h"
#include "engine/dynptr_kfuncs.h"
#include "engine/log.h"

int rb_kfunc_dynptr_scalar(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	const struct btf *b = env->vmlinux;
	const struct btf_type *proto = b ? btf__type_by_id(b, call->proto_id) : NULL;
	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) < 1 || btf_vlen(proto) > 5)
		return rb_unsupported(env, "kfunc %s prototype", call->name);
	struct rb_reg *regs = rb_cur_regs(env);
	if (regs[1].type != RT_STACK && regs[1].type != RT_CONST_DYNPTR)
		return rb_reject(env, "arg#0 expected pointer to stack or const struct bpf_dynptr");
	struct rb_dynptr_use u = {0};
	int err = rb_dynptr_check_arg(env, 1, RB_DA_RDONLY, RB_DYNPTR_INVALID, &u);
	if (err)
		return err;
	for (int a = 1; a < btf_vlen(proto); a++)
		if (regs[a + 1].type != RT_SCALAR)
			return rb_reject(env, "R%d is not a scalar", a + 1);
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
	rb_reg_unknown(env, &regs[0]);
	return 0;
}
