/* ksym.c — ld_imm64 of a kernel symbol by BTF id (Linux 6.18
 * __check_pseudo_btf_id, check_ld_imm). */
#include <string.h>

#include <bpf/btf.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/ksym.h"

/* is var_id one of the variables of vmlinux's ".data..percpu" section
 * (6.18 find_btf_percpu_datasec) */
static bool is_percpu_var(const struct btf *b, uint32_t var_id)
{
	int32_t ds = btf__find_by_name_kind(b, ".data..percpu", BTF_KIND_DATASEC);
	if (ds <= 0)
		return false;
	const struct btf_type *d = btf__type_by_id(b, (uint32_t)ds);
	const struct btf_var_secinfo *v = btf_var_secinfos(d);
	for (uint16_t i = 0; i < btf_vlen(d); i++)
		if (v[i].type == var_id)
			return true;
	return false;
}

int rb_ld_ksym(struct rb_env *env, const struct bpf_insn *insn, struct rb_reg *dst)
{
	uint32_t id = (uint32_t)insn->imm;
	if (insn[1].imm)
		return rb_unsupported(env, "ksym in a module's BTF (ld_imm64 BTF fd %d)", insn[1].imm);
	const struct btf *b = rb_need_vmlinux(env);
	if (!b)
		return rb_unsupported(env, "ksym (ld_imm64 BTF id) without vmlinux BTF");
	const struct btf_type *t = btf__type_by_id(b, id);
	if (!t || !id)
		return rb_reject(env, "ldimm64 insn specifies invalid btf_id %d.", insn->imm);
	if (!btf_is_var(t) && !btf_is_func(t))
		return rb_reject(env, "pseudo btf_id %d in ldimm64 isn't KIND_VAR or KIND_FUNC", insn->imm);
	if (btf_is_func(t)) {
		/* a kfunc's address */
		rb_reg_ptr(env, dst, RT_MEM);
		dst->flags = RF_RDONLY;
		dst->range = 0;
		return 0;
	}
	/* a per-CPU variable: PTR_TO_BTF_ID | MEM_PERCPU of the variable's
	 * type as written (not resolved), whatever its kind; only
	 * bpf_per_cpu_ptr and bpf_this_cpu_ptr take it (helper_args.c) */
	if (is_percpu_var(b, id)) {
		rb_reg_ptr(env, dst, RT_BTF_ID);
		dst->flags = RF_PERCPU;
		dst->map_idx = (int32_t)t->type;
		return 0;
	}
	int32_t type = btf__resolve_type(b, t->type); /* modifiers and typedefs skipped */
	const struct btf_type *vt = type > 0 ? btf__type_by_id(b, (uint32_t)type) : NULL;
	if (vt && btf_is_struct(vt)) {
		rb_reg_ptr(env, dst, RT_BTF_ID);
		dst->map_idx = type;
		return 0;
	}
	int64_t sz = btf__resolve_size(b, t->type);
	if (sz < 0) {
		const struct btf_type *nt = btf__type_by_id(b, t->type);
		const char *tn = nt ? btf__name_by_offset(b, nt->name_off) : "";
		return rb_reject(env, "ldimm64 unable to resolve the size of type '%s': %lld", tn ? tn : "",
				 (long long)sz);
	}
	rb_reg_ptr(env, dst, RT_MEM);
	dst->flags = RF_RDONLY;
	dst->range = (int32_t)sz;
	return 0;
}
