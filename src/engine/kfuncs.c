/* kfuncs.c — kfunc calls (Linux 6.18 check_kfunc_call, check_kfunc_args,
 * fetch_kfunc_meta, add_kfunc_call and fixup_kfunc_call's imm == 0 rule).
 *
 * The prototype of a kfunc is its FUNC_PROTO in vmlinux BTF; which program
 * types may call it and its KF_* flags are rows of kfunc_table.c. The
 * generic check covers what 6.18 derives from the prototype alone: scalar
 * arguments (constants for "__k"), pointers to the program's context,
 * pointers to kernel structs (PTR_TO_BTF_ID and the socket types, with the
 * trusted / RCU / release rules and BTF type matching), memory with a size
 * ("__sz"/"__szk" pairs) or of the pointee's size, "__nullable" and
 * "__ign" arguments; returns of scalars, void, kernel structs (acquired,
 * maybe NULL) and read-only memory of a scalar pointee. Arguments of the
 * special kinds (dynptrs, iterators, graph nodes, allocated objects,
 * constant strings, maps, callbacks, locks, IRQ flags) and the kfuncs 6.18
 * treats specially without a `special` row are reported unsupported by
 * name. */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "engine/backtrack.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/dynptr.h"
#include "engine/kfunc_table.h"
#include "engine/kfunc_table72.h"
#include "engine/iter.h"
#include "engine/kfuncs.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/profile.h"
#include "engine/prog_types.h"
#include "engine/refs.h"
#include "engine/rcu.h"
#include "util/array_size.h"

static const struct btf_type *skip_mods(const struct btf *b, uint32_t id, uint32_t *out_id)
{
	return rb_btf_skip_mods(b, id, out_id, NULL);
}

/* btf_type_is_scalar: int, enum (and enum64) */
static bool is_scalar(const struct btf_type *t)
{
	return t && (btf_is_int(t) || btf_is_any_enum(t));
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* btf_type_str for the kinds a message names */
static const char *kind_str(const struct btf_type *t)
{
	if (!t)
		return "UNKN";
	switch (btf_kind(t)) {
	case BTF_KIND_INT: return "INT";
	case BTF_KIND_PTR: return "PTR";
	case BTF_KIND_ARRAY: return "ARRAY";
	case BTF_KIND_STRUCT: return "STRUCT";
	case BTF_KIND_UNION: return "UNION";
	case BTF_KIND_ENUM: return "ENUM";
	case BTF_KIND_FWD: return "FWD";
	case BTF_KIND_FUNC_PROTO: return "FUNC_PROTO";
	case BTF_KIND_ENUM64: return "ENUM64";
	default: return "UNKN";
	}
}

/* __btf_type_is_scalar_struct: members scalars, arrays of scalars or
 * (up to three levels) such structs */
static bool scalar_struct(const struct btf *b, const struct btf_type *t, int rec)
{
	if (!btf_is_composite(t))
		return false;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = skip_mods(b, m->type, NULL);
		if (mt && btf_is_composite(mt)) {
			if (rec >= 3 || !scalar_struct(b, mt, rec + 1))
				return false;
			continue;
		}
		if (mt && btf_is_array(mt)) {
			if (!btf_array(mt)->nelems || !is_scalar(skip_mods(b, btf_array(mt)->type, NULL)))
				return false;
			continue;
		}
		if (!is_scalar(mt))
			return false;
	}
	return true;
}

/* argument names and pointee structs 6.18 gives kinds of their own (not modelled) */
static const char *special_arg(const char *pname, const char *tname)
{
	static const char *const suffixes[] = {"__alloc", "__refcounted_kptr", "__str", "__map", "__irq_flag",
					       "__uninit", "__prog", "__opt", "__szk"};
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (has_suffix(pname, suffixes[i]))
			return suffixes[i];
	static const char *const structs[] = {"bpf_list_head", "bpf_list_node", "bpf_rb_root",
					      "bpf_rb_node",   "bpf_wq",        "bpf_timer",     "bpf_task_work",
					      "bpf_res_spin_lock", "bpf_spin_lock"};
	for (size_t i = 0; i < ARRAY_SIZE(structs); i++)
		if (!strcmp(tname, structs[i]))
			return tname;
	if (!strncmp(tname, "bpf_iter_", 9))
		return "iterator";
	return NULL;
}

/* the struct a socket-type register points to (6.18 reg2btf_ids) */
static int32_t sock_btf_id(struct rb_env *env, const struct rb_reg *reg)
{
	switch (reg->type) {
	case RT_SOCKET: return rb_btf_struct_id(env, "sock");
	case RT_SOCK_COMMON: return rb_btf_struct_id(env, "sock_common");
	case RT_TCP_SOCK: return rb_btf_struct_id(env, "tcp_sock");
	default: return -1;
	}
}

/* is_trusted_reg: referenced, a socket type, or PTR_TRUSTED with no other modifier */
static bool trusted_reg(const struct rb_reg *reg)
{
	if (reg->ref_obj_id)
		return true;
	if (reg->type == RT_SOCKET || reg->type == RT_SOCK_COMMON || reg->type == RT_TCP_SOCK)
		return !(reg->flags & (RF_UNTRUSTED | RF_RCU | RF_MAYBE_NULL));
	return (reg->flags & RF_TRUSTED) && !(reg->flags & (RF_UNTRUSTED | RF_RCU | RF_MAYBE_NULL));
}

/* btf_struct_ids_match: the same struct, or (not strict) the struct found
 * first at offset off inside the register's struct */
bool rb_btf_struct_ids_match(const struct btf *b, uint32_t id, int off, uint32_t need, bool strict)
{
	for (int depth = 0; depth < 32; depth++) {
		const struct btf_type *t = skip_mods(b, id, &id);
		if (id == need && off == 0)
			return true;
		if (strict || !t || !btf_is_composite(t) || !btf_vlen(t))
			return false;
		/* the member at off (the first one covering it) */
		const struct btf_member *m = btf_members(t);
		bool found = false;
		for (int i = 0; i < btf_vlen(t); i++, m++) {
			int moff = (int)(btf_member_bit_offset(t, (uint32_t)i) / 8);
			const struct btf_type *mt = skip_mods(b, m->type, NULL);
			if (!mt || !btf_is_composite(mt) || off < moff || off >= moff + (int)mt->size)
				continue;
			id = m->type;
			off -= moff;
			found = true;
			break;
		}
		if (!found)
			return false;
	}
	return false;
}

/* argument facts the return value and the release need */
struct kf_meta {
	uint32_t ref_obj_id;
	int release_regno;
};

/* KF_ARG_PTR_TO_DYNPTR, initialised, on the stack or CONST_PTR_TO_DYNPTR, any
 * type (6.18 check_kfunc_args, process_dynptr_func; __uninit: special_arg) */
static int dynptr_arg(struct rb_env *env, int regno, const struct rb_reg *reg, int a)
{
	if (reg->type != RT_STACK && reg->type != RT_CONST_DYNPTR)
		return rb_reject(env, "arg#%d expected pointer to stack or const struct bpf_dynptr", a);
	struct rb_dynptr_use u = {0};
	return rb_dynptr_check_arg(env, regno, RB_DA_RDONLY, RB_DYNPTR_INVALID, &u);
}

static int check_ptr_arg(struct rb_env *env, const struct rb_kfunc_call *call, const struct btf_param *args,
			 int nargs, int *i, struct kf_meta *meta)
{
	const struct btf *b = env->vmlinux;
	uint32_t flags = call->row->flags;
	int a = *i, regno = a + 1;
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	const char *pname = btf__name_by_offset(b, args[a].name_off) ? btf__name_by_offset(b, args[a].name_off) : "";
	const struct btf_type *t = skip_mods(b, args[a].type, NULL);
	uint32_t ref_id;
	const struct btf_type *ref_t = skip_mods(b, t->type, &ref_id);
	const char *ref_tname = ref_t ? btf__name_by_offset(b, ref_t->name_off) : "";
	ref_tname = ref_tname ? ref_tname : "";
	bool is_null = reg->type == RT_SCALAR && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0;
	bool nullable = has_suffix(pname, "__nullable");
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));

	if ((is_null || (reg->flags & RF_MAYBE_NULL)) && !nullable)
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg%d", a);
	if (reg->ref_obj_id) {
		if ((flags & KF_RELEASE) && meta->ref_obj_id)
			return rb_reject(env, "verifier internal error: more than one arg with ref_obj_id R%d %u %u",
					 regno, reg->ref_obj_id, meta->ref_obj_id);
		meta->ref_obj_id = reg->ref_obj_id;
		if (flags & KF_RELEASE)
			meta->release_regno = regno;
	}
	/* get_kfunc_ptr_arg_type, in 6.18's order */
	bool mem_size = a + 1 < nargs && (has_suffix(btf__name_by_offset(b, args[a + 1].name_off), "__sz") ||
					  has_suffix(btf__name_by_offset(b, args[a + 1].name_off), "__szk"));
	if (env->ptype->ctx_struct && ref_t && btf_is_composite(ref_t) && !strcmp(ref_tname, env->ptype->ctx_struct)) {
		/* KF_ARG_PTR_TO_CTX */
		if (reg->type != RT_CTX)
			return rb_reject(env, "arg#%d expected pointer to ctx, but got %s", a, tn);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno, reg->off);
		return 0;
	}
	if (nullable && is_null)
		return 0; /* KF_ARG_PTR_TO_NULL */
	if (env->prof->arena_kfuncs && has_suffix(pname, "__map")) {
		/* 7.2.13 KF_ARG_PTR_TO_MAP: a struct bpf_map, so a map pointer
		 * (reg2btf_ids[CONST_PTR_TO_MAP], trusted), at offset 0 */
		if (reg->type != RT_MAP_PTR)
			return rb_reject(env, "R%d is %s expected map_ptr", regno, tn);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_reject(env, "R%d must have zero offset when passed to release func or trusted arg to kfunc",
					 regno);
		return 0;
	}
	const char *special = special_arg(pname, ref_tname);
	if (special)
		return rb_unsupported(env, "kfunc %s argument %d (%s)", call->name, a, special);
	if (!strcmp(ref_tname, "bpf_dynptr"))
		return dynptr_arg(env, regno, reg, a);
	bool sock = reg->type == RT_SOCKET || reg->type == RT_SOCK_COMMON || reg->type == RT_TCP_SOCK;
	if (reg->type == RT_BTF_ID || sock || reg->type == RT_MAP_PTR) {
		if (!ref_t || !btf_is_composite(ref_t))
			return rb_reject(env, "kernel function %s args#%d pointer type %s %s is not supported",
					 call->name, a, kind_str(ref_t), ref_tname);
		if (reg->type == RT_MAP_PTR)
			return rb_unsupported(env, "kfunc %s argument %d: map pointer as a struct bpf_map", call->name, a);
		/* KF_ARG_PTR_TO_BTF_ID: trusted_args covers release kfuncs too */
		bool trusted_args = (flags & (KF_TRUSTED_ARGS | KF_RELEASE)) != 0 || env->prof->kfunc_trusted_default;
		if ((trusted_args || (flags & KF_RCU)) && !trusted_reg(reg)) {
			if (!(flags & KF_RCU))
				return rb_reject(env, "R%d must be referenced or trusted", regno);
			if (!(reg->flags & RF_RCU))
				return rb_reject(env, "R%d must be a rcu pointer", regno);
		}
		/* check_func_arg_reg_off */
		if ((flags & KF_RELEASE) && reg->ref_obj_id && reg->off)
			return rb_reject(env, "R%d must have zero offset when passed to release func or trusted arg to kfunc",
					 regno);
		if (!env->t->is_const(&reg->val) || rb_reg_const_val(env, reg)) {
			char vb[64];
			env->t->print(&reg->val, vb, sizeof(vb));
			return rb_reject(env, "variable %s access var_off=%s disallowed", tn, vb);
		}
		if (reg->type == RT_BTF_ID && (reg->flags & RF_UNTRUSTED))
			return rb_reject(env, "arg#%d is %s expected ptr_ or socket", a, tn);
		/* process_kf_arg_ptr_to_btf_id */
		int32_t reg_id = reg->type == RT_BTF_ID ? reg->map_idx : sock_btf_id(env, reg);
		if (reg_id <= 0)
			return rb_unsupported(env, "kfunc %s argument %d: socket type not in vmlinux BTF", call->name, a);
		/* strict for release of a reference, and for the "___init"-style
		 * no-cast aliases (nf_conn vs nf_conn___init) */
		const struct btf_type *reg_t = skip_mods(b, (uint32_t)reg_id, NULL);
		const char *reg_tname = reg_t ? btf__name_by_offset(b, reg_t->name_off) : "";
		reg_tname = reg_tname ? reg_tname : "";
		const char *fa = strstr(reg_tname, "___"), *fb = strstr(ref_tname, "___");
		size_t na = fa ? (size_t)(fa - reg_tname) : strlen(reg_tname);
		size_t nb = fb ? (size_t)(fb - ref_tname) : strlen(ref_tname);
		bool nocast_alias = (fa || fb) && na == nb && !strncmp(reg_tname, ref_tname, na);
		bool strict = ((flags & KF_RELEASE) && reg->ref_obj_id) || nocast_alias;
		if (!rb_btf_struct_ids_match(b, (uint32_t)reg_id, reg->off, ref_id, strict))
			return rb_reject(env, "kernel function %s args#%d expected pointer to %s %s but R%d has a pointer to %s %s",
					 call->name, a, kind_str(ref_t), ref_tname, regno, kind_str(reg_t), reg_tname);
		return 0;
	}
	if (ref_t && btf_is_func_proto(ref_t))
		return rb_unsupported(env, "kfunc %s argument %d (callback)", call->name, a);
	if (!is_scalar(ref_t) && !(ref_t && scalar_struct(b, ref_t, 0)) && (mem_size ? !(ref_t && btf_is_void(ref_t)) && ref_id != 0 : true))
		return rb_reject(env, "arg#%d pointer type %s %s must point to %sscalar, or struct with scalar", a,
				 kind_str(ref_t), ref_tname, mem_size ? "void, " : "");
	if (reg->type == RT_CTX)
		return rb_unsupported(env, "kfunc %s argument %d: ctx as memory", call->name, a);
	int err;
	if (!mem_size) {
		/* KF_ARG_PTR_TO_MEM: check_mem_reg, read and write of the pointee's size */
		int64_t sz = btf__resolve_size(b, ref_id);
		if (sz < 0)
			return rb_reject(env, "arg#%d reference type('%s %s') size cannot be determined: %lld", a,
					 kind_str(ref_t), ref_tname, (long long)sz);
		uint64_t scratched = env->scratched_stack;
		err = rb_check_mem_range(env, regno, -1, (uint64_t)sz, false, RB_MEM_READ);
		if (!err)
			err = rb_check_mem_range(env, regno, -1, (uint64_t)sz, false, RB_MEM_WRITE);
		env->scratched_stack = scratched;
		return err;
	}
	/* KF_ARG_PTR_TO_MEM_SIZE: check_kfunc_mem_size_reg, read then write */
	struct rb_reg *size_reg = &rb_cur_regs(env)[regno + 1];
	if (size_reg->type != RT_SCALAR)
		return rb_reject(env, "R%d is not a scalar", regno + 1);
	struct rb_bounds bd;
	rb_reg_bounds(env, size_reg, &bd);
	for (int pass = 0; pass < 2; pass++) {
		if (bd.smin < 0)
			err = rb_reject(env, "R%d min value is negative, either use unsigned or 'var &= const'", regno + 1);
		else if (bd.umax >= (1u << 29))
			err = rb_reject(env, "R%d unbounded memory access, use 'var &= const' or 'if (var < const)'",
					regno + 1);
		else {
			uint64_t scratched = env->scratched_stack;
			err = rb_check_mem_range(env, regno, regno + 1, bd.umax, true, pass == 1 ? RB_MEM_WRITE : RB_MEM_READ);
			env->scratched_stack = scratched;
			if (!err)
				err = rb_mark_chain_precision(env, regno + 1);
		}
		if (err) {
			if (err == RB_E_REJECT)
				rb_log(env, "arg#%d arg#%d memory, len pair leads to invalid memory access\n", a, a + 1);
			return err;
		}
	}
	*i = a + 1; /* the size argument is checked */
	return 0;
}

static int check_args(struct rb_env *env, const struct rb_kfunc_call *call, struct kf_meta *meta)
{
	const struct btf *b = env->vmlinux;
	const struct btf_type *proto = btf__type_by_id(b, call->proto_id);
	const struct btf_param *args = btf_params(proto);
	int nargs = btf_vlen(proto), err;
	if (nargs > 5)
		return rb_reject(env, "Function %s has %d > 5 args", call->name, nargs);
	for (int i = 0; i < nargs; i++) {
		int regno = i + 1;
		/* 7.2.13 is_kfunc_arg_implicit: supplied by the verifier */
		if ((call->row->flags & KF_IMPLICIT_ARGS) && i >= call->nvisible)
			continue;
		struct rb_reg *reg = &rb_cur_regs(env)[regno];
		const char *pname = btf__name_by_offset(b, args[i].name_off);
		pname = pname ? pname : "";
		const struct btf_type *t = skip_mods(b, args[i].type, NULL);
		if (has_suffix(pname, "__ign"))
			continue;
		if (has_suffix(pname, "__prog"))
			return rb_unsupported(env, "kfunc %s argument %d (__prog)", call->name, i);
		if (is_scalar(t)) {
			if (reg->type != RT_SCALAR)
				return rb_reject(env, "R%d is not a scalar", regno);
			if (has_suffix(pname, "__k")) {
				if (!rb_reg_is_const(env, reg))
					return rb_reject(env, "R%d must be a known constant", regno);
				if ((err = rb_mark_chain_precision(env, regno)))
					return err;
				return rb_unsupported(env, "kfunc %s constant argument %d (__k)", call->name, i);
			}
			if (has_suffix(pname, "__sz") || has_suffix(pname, "__szk"))
				return rb_unsupported(env, "kfunc %s size argument %d without its memory", call->name, i);
			continue;
		}
		if (!t || !btf_is_ptr(t))
			return rb_reject(env, "Unrecognized arg#%d type %s", i, kind_str(t));
		/* 7.2.13 KF_ARG_PTR_TO_ITER (a stack pointer: no NULL, ctx or
		 * reference check applies before) */
		if (env->prof->sched_ext && has_suffix(pname, "__iter")) {
			if ((err = rb_kfunc_iter_arg(env, call, i)))
				return err;
			continue;
		}
		if ((err = check_ptr_arg(env, call, args, nargs, &i, meta)))
			return err;
	}
	if ((call->row->flags & KF_RELEASE) && !meta->release_regno)
		return rb_reject(env, "release kernel function %s expects refcounted PTR_TO_BTF_ID", call->name);
	return 0;
}

/* R0 from the return type (after r0-r5 are clobbered) */
static int set_return(struct rb_env *env, const struct rb_kfunc_call *call, const struct kf_meta *meta)
{
	const struct btf *b = env->vmlinux;
	const struct btf_type *proto = btf__type_by_id(b, call->proto_id);
	uint32_t flags = call->row->flags;
	struct rb_reg *r0 = &rb_cur_regs(env)[0];
	const struct btf_type *t = skip_mods(b, proto->type, NULL);
	uint32_t ptr_id = 0;
	const struct btf_type *pt = t && btf_is_ptr(t) ? skip_mods(b, t->type, &ptr_id) : NULL;
	if ((flags & KF_ACQUIRE) && !(pt && btf_is_struct(pt)))
		return rb_reject(env, "acquire kernel function does not return PTR_TO_BTF_ID");
	if (!proto->type) /* void */
		return 0;
	if (is_scalar(t)) {
		rb_reg_unknown(env, r0);
		return 0;
	}
	if (!pt)
		return rb_unsupported(env, "kfunc %s returns %s", call->name, kind_str(t));
	if (!ptr_id) {
		/* check_kfunc_call: "kfunc returning 'void *' is equivalent to
		 * returning scalar" (bpf_arena_alloc_pages) */
		rb_reg_unknown(env, r0);
		return 0;
	}
	if (!btf_is_struct(pt)) {
		int64_t sz = btf__resolve_size(b, ptr_id);
		if (sz <= 0) {
			const char *pn = btf__name_by_offset(b, pt->name_off);
			return rb_reject(env, "kernel function %s returns pointer type %s %s is not supported", call->name,
					 kind_str(pt), pn ? pn : "");
		}
		rb_reg_ptr(env, r0, RT_MEM);
		r0->flags = RF_RDONLY;
		r0->range = (int32_t)sz;
		r0->ref_obj_id = meta->ref_obj_id;
		if (flags & KF_RET_NULL) {
			r0->flags |= RF_MAYBE_NULL;
			r0->id = ++env->id_gen;
		}
		return 0;
	}
	rb_reg_ptr(env, r0, RT_BTF_ID);
	r0->map_idx = (int32_t)ptr_id;
	if (flags & KF_RCU_PROTECTED)
		r0->flags |= RF_RCU;
	if (flags & KF_RET_NULL) {
		r0->flags |= RF_MAYBE_NULL;
		r0->id = ++env->id_gen;
	}
	if (flags & KF_ACQUIRE) {
		uint32_t id = rb_acquire_ref(env);
		if (!id)
			return RB_E_NOMEM;
		if ((flags & KF_RET_NULL) || env->prof->acquire_sets_id)
			r0->id = id;
		r0->ref_obj_id = id;
	}
	return 0;
}

/* fetch_kfunc_meta + the checks of check_kfunc_call before the arguments */
static int fetch_meta(struct rb_env *env, const struct bpf_insn *insn, int insn_idx, struct rb_kfunc_call *call)
{
	const struct btf *b = rb_need_vmlinux(env);
	if (!b)
		return rb_unsupported(env, "kfunc call without vmlinux BTF");
	const struct btf_type *ft = btf__type_by_id(b, (uint32_t)insn->imm);
	if (!ft || !btf_is_func(ft))
		return rb_reject(env, "kernel btf_id %d is not a function", insn->imm);
	memset(call, 0, sizeof(*call));
	call->name = btf__name_by_offset(b, ft->name_off);
	call->btf_id = insn->imm;
	call->proto_id = ft->type;
	call->insn_idx = insn_idx;
	const struct btf_type *proto = btf__type_by_id(b, ft->type);
	if (!proto || !btf_is_func_proto(proto))
		return rb_reject(env, "kernel function btf_id %d does not have a valid func_proto", insn->imm);
	call->row = rb_kfunc_row(call->name);
	call->nvisible = btf_vlen(proto);
	const struct rb_kfunc72 *r72 = rb_kfunc72_row_in(call->name, env->prof);
	if (r72)
		call->row = &r72->k;
	/* a FUNC of vmlinux BTF in no kfunc set of this kernel (no row) is
	 * refused whatever the program type (fetch_kfunc_meta) */
	if (!call->row)
		return rb_reject(env, "calling kernel function %s is not allowed", call->name);
	uint32_t type = env->prog->prog_type;
	bool measured = type < 64 && ((rb_kfunc_measured_types >> type) & 1) &&
			(type != BPF_PROG_TYPE_TRACING || env->prog->expected_attach_type == BPF_TRACE_RAW_TP);
	/* 6.18 and 7.2.13 bpf_prog_type_to_kfunc_hook: tracing programs of
	 * every attach type and LSM programs share BTF_KFUNC_HOOK_TRACING,
	 * which tp_btf measured: a kfunc available there is available to them
	 * (the sets with filters on that hook, bpf_session_filter's, leave
	 * tp_btf out); one unavailable there may still be allowed through a
	 * set registered for LSM alone (bpf_fs_kfunc_set), so stays
	 * unsupported */
	if (!measured && (type == BPF_PROG_TYPE_TRACING || type == BPF_PROG_TYPE_LSM) &&
	    ((call->row->prog_types >> BPF_PROG_TYPE_TRACING) & 1)) {
		measured = true;
		type = BPF_PROG_TYPE_TRACING;
	}
	if (!measured)
		return rb_unsupported(env, "kfunc %s#%d for program type %u attach type %u", call->name, insn->imm, type,
				      env->prog->expected_attach_type);
	/* 7.2.13 btf_kfunc_id_set_contains: the sets registered for the
	 * type, then the hook's filters (scx_kfunc_context_filter) */
	if (!((call->row->prog_types >> type) & 1) ||
	    (r72 && !rb_kfunc72_filter(r72->sets, type, env->st_ops, env->st_member)))
		return rb_reject(env, "calling kernel function %s is not allowed", call->name);
	if (call->row->flags & KF_IMPLICIT_ARGS) {
		/* 7.2.13 fetch_kfunc_meta / find_kfunc_impl_proto: the full
		 * prototype is the "<name>_impl" FUNC's */
		char impl[160];
		snprintf(impl, sizeof(impl), "%s_impl", call->name);
		int32_t iid = btf__find_by_name_kind(b, impl, BTF_KIND_FUNC);
		const struct btf_type *ip = iid > 0 ? btf__type_by_id(b, btf__type_by_id(b, (uint32_t)iid)->type) : NULL;
		if (!ip || !btf_is_func_proto(ip))
			return rb_reject(env, "kernel function btf_id %d does not have a valid func_proto", insn->imm);
		call->proto_id = btf__type_by_id(b, (uint32_t)iid)->type;
	}
	if (!call->row->flags_known && !call->row->special)
		return rb_unsupported(env, "kfunc %s#%d (its 6.18 flags are not recorded)", call->name, insn->imm);
	if ((call->row->flags & KF_SLEEPABLE) && !(env->prog->prog_flags & BPF_F_SLEEPABLE))
		return rb_reject(env, "program must be sleepable to call sleepable kfunc %s", call->name);
	return 0;
}

/* kfuncs 6.18 treats specially (special_kfunc_list, lock and RCU
 * bookkeeping) that have no `special` row yet */
static bool needs_special(const char *name)
{
	static const char *const names[] = {
		"bpf_preempt_disable", "bpf_preempt_enable",
		"bpf_cast_to_kern_ctx", "bpf_rdonly_cast", "bpf_throw", "bpf_obj_new_impl", "bpf_percpu_obj_new_impl",
		"bpf_obj_drop_impl", "bpf_percpu_obj_drop_impl", "bpf_refcount_acquire_impl", "bpf_local_irq_save",
		"bpf_local_irq_restore", "bpf_session_cookie", "bpf_xdp_pull_data",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

int rb_check_kfunc_call(struct rb_env *env, const struct bpf_insn *insn, int insn_idx)
{
	/* 6.18: a call left unresolved by the loader (imm 0) changes nothing
	 * here; fixup_kfunc_call rejects it if it is still reachable */
	if (!insn->imm)
		return 0;
	if (insn->off)
		return rb_unsupported(env, "kfunc #%d of module BTF %d", insn->imm, insn->off);
	struct rb_kfunc_call call;
	int err = fetch_meta(env, insn, insn_idx, &call);
	if (err)
		return err;
	if (call.row->special)
		return call.row->special(env, insn, &call);
	if (needs_special(call.name) || (call.row->flags & (KF_ITER_NEW | KF_ITER_NEXT | KF_ITER_DESTROY)))
		return rb_unsupported(env, "kfunc %s#%d", call.name, insn->imm);
	struct kf_meta meta = {0};
	if ((err = check_args(env, &call, &meta)))
		return err;
	/* after the arguments: no sleepable kfunc inside an RCU read section */
	if ((call.row->flags & KF_SLEEPABLE) && (err = rb_rcu_check_sleepable(env, call.name, 0, false)))
		return err;
	if (meta.release_regno) {
		/* release_reference: every register holding it becomes unknown */
		rb_release_ref(env, rb_cur_regs(env)[meta.release_regno].ref_obj_id);
	}
	struct rb_reg *regs = rb_cur_regs(env);
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
	return set_return(env, &call, &meta);
}

int rb_kfunc_fixup(struct rb_env *env)
{
	for (int i = 0; i < env->insn_cnt; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->imm &&
		    env->aux[i].seen) {
			/* (the error names the last instruction verified, as the kernel's log ends there) */
			return rb_reject(env, "invalid kernel function call not eliminated in verifier pass");
		}
	}
	return 0;
}

int rb_kfunc_precheck(struct rb_env *env)
{
	for (int i = 0; i < env->insn_cnt; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_KFUNC_CALL || !in->imm || in->off)
			continue;
		const struct btf *b = rb_need_vmlinux(env);
		if (!b)
			return 0; /* reported at the call */
		const struct btf_type *ft = btf__type_by_id(b, (uint32_t)in->imm);
		env->insn_idx = i;
		if (!ft || !btf_is_func(ft))
			return rb_reject(env, "kernel btf_id %d is not a function", in->imm);
		const struct btf_type *proto = btf__type_by_id(b, ft->type);
		if (!proto || !btf_is_func_proto(proto))
			return rb_reject(env, "kernel function btf_id %d does not have a valid func_proto", in->imm);
	}
	env->insn_idx = 0;
	return 0;
}
