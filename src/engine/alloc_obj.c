/* alloc_obj.c — objects a program allocates from its own BTF types
 * (Linux 6.18 and 7.2.13, the same rules in both): bpf_obj_new_impl
 * (check_kfunc_args' constant "__k" local type id, check_special_kfunc:
 * a struct of the program's BTF; R0 PTR_TO_BTF_ID | MEM_ALLOC, maybe
 * NULL, an acquired reference), bpf_obj_drop_impl (KF_ARG_PTR_TO_ALLOC_BTF_ID
 * with OBJ_RELEASE: a referenced allocated object at offset 0, released),
 * and the special fields of such a struct that loads and stores may not
 * touch (btf_struct_access over btf_parse_fields' record). Objects are
 * RT_BTF_ID registers marked RB_BTF_ALLOC (state.h) whose map_idx is a
 * type id of the object's BTF. bpf_refcount_acquire_impl takes an owning
 * or non-owning object of a struct with a bpf_refcount. Per-CPU objects
 * (bpf_percpu_obj_new_impl / bpf_percpu_obj_drop_impl, a struct of scalars
 * of at most 512 bytes without special fields) are the same registers
 * with RF_PERCPU (MEM_PERCPU), never dereferenced. */
#include <bpf/btf.h>
#include <string.h>

#include "engine/alloc_lock.h"
#include "engine/alloc_obj.h"
#include "engine/backtrack.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/profile.h"
#include "engine/refs.h"

static const struct btf_type *skip(const struct btf *b, uint32_t id, uint32_t *out)
{
	return rb_btf_skip_mods(b, id, out, NULL);
}

/* btf_field_type_name of a member's type: the special structs, and
 * kptr-tagged pointers */
static const char *field_kind(const struct btf *b, uint32_t type)
{
	static const char *const structs[] = {"bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer", "bpf_wq",
					      "bpf_list_head", "bpf_list_node", "bpf_rb_root", "bpf_rb_node",
					      "bpf_refcount", "bpf_task_work"};
	const struct btf_type *t = skip(b, type, NULL);
	if (t && btf_is_ptr(t)) {
		const struct btf_type *tag = btf__type_by_id(b, t->type);
		const char *n = tag && btf_is_type_tag(tag) ? btf__name_by_offset(b, tag->name_off) : NULL;
		if (n && (!strcmp(n, "kptr") || !strcmp(n, "kptr_untrusted")))
			return "kptr";
		if (n && (!strcmp(n, "percpu_kptr") || !strcmp(n, "uptr")))
			return n;
		return NULL;
	}
	const char *n = t && btf_is_composite(t) ? btf__name_by_offset(b, t->name_off) : NULL;
	for (size_t i = 0; n && i < sizeof(structs) / sizeof(structs[0]); i++)
		if (!strcmp(n, structs[i]))
			return structs[i];
	return NULL;
}

const char *rb_alloc_special_field(const struct btf *b, uint32_t sid, int off, int size)
{
	const struct btf_type *t = skip(b, sid, NULL);
	if (!t || !btf_is_composite(t))
		return NULL;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *kind = field_kind(b, m->type);
		if (!kind)
			continue;
		int moff = (int)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		int64_t msz = btf__resolve_size(b, m->type);
		if (off < moff + msz && moff < off + size)
			return kind;
	}
	return NULL;
}

/* check_ptr_to_btf_access for an allocated object (MEM_ALLOC, the
 * program's BTF; 6.18 and 7.2.13): reads and writes, never of a special
 * field (btf_struct_access: "direct access to %s is disallowed"); a
 * pointer member reads as a scalar ("for local types, the destination
 * register cannot become a pointer again") */
int rb_alloc_access(struct rb_env *env, const struct rb_reg *reg, int regno, int off, int size, bool write,
			struct rb_reg *out)
{
	/* an object of the program's type that is not allocated (an
	 * untrusted local kptr, kptr_access.c) is only read */
	if (reg->range == RB_BTF_PROG && write)
		return rb_reject(env, "only read is supported");
	const struct btf *b = rb_obj_btf(env);
	uint32_t sid = (uint32_t)reg->map_idx;
	const struct btf_type *t = b ? skip(b, sid, &sid) : NULL;
	if (!t)
		return rb_reject(env, "R%d is an allocated object of no program BTF type", regno);
	const char *tname = btf__name_by_offset(b, t->name_off);
	if (rb_btf_ptr_off(env, reg, regno, tname, &off) < 0)
		return RB_E_REJECT;
	const char *special = rb_alloc_special_field(b, sid, off, size);
	if (special)
		return rb_reject(env, "direct access to %s is disallowed", special);
	char why[256] = "";
	if (rb_btf_walk(b, sid, off, size, why, sizeof(why)))
		return rb_reject(env, "%s", why);
	rb_reg_unknown(env, out);
	return 0;
}

/* __btf_type_is_scalar_struct (6.18 and 7.2.13): members scalars, arrays
 * of scalars or structs of those, nested at most 3 deep */
static bool scalar_struct(const struct btf *b, const struct btf_type *t, int depth)
{
	if (!t || !btf_is_struct(t))
		return false;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = skip(b, m->type, NULL);
		if (mt && btf_is_struct(mt)) {
			if (depth >= 3 || !scalar_struct(b, mt, depth + 1))
				return false;
			continue;
		}
		if (mt && btf_is_array(mt)) {
			if (!btf_array(mt)->nelems)
				return false;
			mt = skip(b, btf_array(mt)->type, NULL);
		}
		if (!mt || !(btf_is_int(mt) || btf_is_enum(mt) || btf_is_enum64(mt)))
			return false;
	}
	return true;
}

/* check_special_kfunc for bpf_percpu_obj_new (6.18 and 7.2.13): at most
 * BPF_GLOBAL_PERCPU_MA_MAX_SIZE (512) bytes, a struct of scalars, no
 * special fields (no btf_struct_meta) */
static int percpu_type_ok(struct rb_env *env, const struct btf *b, uint32_t id, const struct btf_type *t)
{
	if (t->size > 512)
		return rb_reject(env, "bpf_percpu_obj_new type size (%u) is greater than 512", t->size);
	if (!scalar_struct(b, t, 0))
		return rb_reject(env, "bpf_percpu_obj_new type ID argument must be of a struct of scalars");
	if (rb_alloc_special_field(b, id, 0, (int)t->size))
		return rb_reject(env, "bpf_percpu_obj_new type ID argument must not contain special fields");
	return 0;
}

int rb_kfunc_obj_new(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	int err = rb_check_reg_read(env, 1);
	if (err)
		return err;
	struct rb_reg *r1 = &rb_cur_regs(env)[1];
	/* check_kfunc_args: local_type_id__k, a known constant, precise */
	if (r1->type != RT_SCALAR)
		return rb_reject(env, "R1 is not a scalar");
	if (!rb_reg_is_const(env, r1))
		return rb_reject(env, "R1 must be a known constant");
	if ((err = rb_mark_chain_precision(env, 1)))
		return err;
	uint64_t id = rb_reg_const_val(env, r1);
	/* check_special_kfunc */
	if ((uint64_t)(uint32_t)id != id)
		return rb_reject(env, "local type ID argument must be in range [0, U32_MAX]");
	const struct btf *b = rb_obj_btf(env);
	if (!b)
		return rb_reject(env, "bpf_obj_new/bpf_percpu_obj_new requires prog BTF");
	const struct btf_type *t = btf__type_by_id(b, (uint32_t)id);
	if (!t || !btf_is_struct(t))
		return rb_reject(env, "bpf_obj_new/bpf_percpu_obj_new type ID argument must be of a struct");
	bool percpu = !strncmp(call->name, "bpf_percpu_obj_new", 18);
	if (percpu && (err = percpu_type_ok(env, b, (uint32_t)id, t)))
		return err;
	rb_clobber_caller_saved(env);
	struct rb_reg *r0 = &rb_cur_regs(env)[0];
	rb_reg_ptr(env, r0, RT_BTF_ID);
	r0->range = RB_BTF_ALLOC;
	r0->map_idx = (int32_t)id;
	/* KF_RET_NULL, then KF_ACQUIRE: the reference's id replaces the first */
	r0->flags = RF_MAYBE_NULL | (percpu ? RF_PERCPU : 0);
	return rb_acquire_ref_null(env, r0);
}

/* 7.2.13 check_kfunc_call's programs that may run in NMI context:
 * is_tracing_prog_type, and tracing programs neither iterators nor
 * sleepable */
static bool nmi_context(const struct rb_env *env)
{
	uint32_t t = env->prog->prog_type;
	if (t == BPF_PROG_TYPE_TRACING)
		return env->prog->expected_attach_type != BPF_TRACE_ITER && !(env->prog->prog_flags & BPF_F_SLEEPABLE);
	return t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT || t == BPF_PROG_TYPE_PERF_EVENT ||
	       t == BPF_PROG_TYPE_RAW_TRACEPOINT || t == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE;
}

/* the type tag of a kptr pointer type (btf_find_kptr), NULL for another type */
static const char *kptr_tag(const struct btf *b, const struct btf_type *t)
{
	const struct btf_type *tag = t && btf_is_ptr(t) ? btf__type_by_id(b, t->type) : NULL;
	const char *n = tag && btf_is_type_tag(tag) ? btf__name_by_offset(b, tag->name_off) : NULL;
	return n && (!strcmp(n, "kptr") || !strcmp(n, "kptr_untrusted") || !strcmp(n, "percpu_kptr")) ? n : NULL;
}

/* a field of struct id (nested structs and arrays too) that
 * btf_field_is_nmi_safe does not name */
static bool unsafe_field(const struct btf *b, uint32_t id, int depth)
{
	static const char *const graph[] = {"bpf_list_head", "bpf_list_node", "bpf_rb_root", "bpf_rb_node"};
	const struct btf_type *t = skip(b, id, NULL);
	while (t && btf_is_array(t) && depth < 8)
		t = skip(b, btf_array(t)->type, NULL), depth++;
	const char *tag = kptr_tag(b, t);
	if (tag)
		return strcmp(tag, "kptr_untrusted") != 0;
	if (!t || !btf_is_composite(t) || depth > 8)
		return false;
	const char *n = btf__name_by_offset(b, t->name_off);
	for (size_t i = 0; n && i < sizeof(graph) / sizeof(graph[0]); i++)
		if (!strcmp(n, graph[i]))
			return true;
	if (n && field_kind(b, id))
		return false;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (unsafe_field(b, m->type, depth + 1))
			return true;
	return false;
}

/* btf_find_struct_meta(...)->record has a field not NMI-safe: the struct
 * has a meta when a member's type is itself one of alloc_obj_fields'
 * structs or a kptr pointer (btf_parse_struct_metas, 7.2.13) */
static bool nmi_unsafe(const struct btf *b, uint32_t id)
{
	static const char *const metas[] = {"bpf_spin_lock", "bpf_list_head", "bpf_list_node",
					    "bpf_rb_root",   "bpf_rb_node",   "bpf_refcount"};
	const struct btf_type *t = b ? btf__type_by_id(b, id) : NULL;
	if (!t || !btf_is_struct(t))
		return false;
	const struct btf_member *m = btf_members(t);
	bool meta = false;
	for (int i = 0; i < btf_vlen(t) && !meta; i++, m++) {
		const struct btf_type *mt = btf__type_by_id(b, m->type);
		const char *n = mt && btf_is_struct(mt) ? btf__name_by_offset(b, mt->name_off) : NULL;
		meta = kptr_tag(b, mt) != NULL;
		for (size_t k = 0; n && k < sizeof(metas) / sizeof(metas[0]); k++)
			meta = meta || !strcmp(n, metas[k]);
	}
	return meta && unsafe_field(b, id, 0);
}

int rb_kfunc_obj_drop(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	int err = rb_check_reg_read(env, 1);
	if (err)
		return err;
	struct rb_reg *r1 = &rb_cur_regs(env)[1];
	bool is_null = r1->type == RT_SCALAR && rb_reg_is_const(env, r1) && rb_reg_const_val(env, r1) == 0;
	if (is_null || (r1->flags & RF_MAYBE_NULL))
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg0");
	/* KF_ARG_PTR_TO_ALLOC_BTF_ID's is_trusted_reg (6.18.44 and 7.2.13): an
	 * RCU or untrusted pointer that holds no reference (a per-CPU object
	 * bpf_kptr_xchg stored, kptrs.c) */
	if (!r1->ref_obj_id && r1->type == RT_BTF_ID && (r1->flags & (RF_RCU | RF_UNTRUSTED)))
		return rb_reject(env, "R1 must be referenced or trusted");
	if (!RB_IS_ALLOC(r1) || !r1->ref_obj_id) {
		if (!r1->ref_obj_id)
			return rb_reject(env, "release kernel function %s expects refcounted PTR_TO_BTF_ID", call->name);
		return rb_reject(env, "arg#0 expected pointer to allocated object");
	}
	/* KF_ARG_PTR_TO_ALLOC_BTF_ID: a per-CPU object for bpf_percpu_obj_drop
	 * only; the message names the drop the object's type needs (6.18.44
	 * its "_impl" form, 7.2.13 the implicit-argument one: graph_kfuncs_72) */
	bool percpu = !strncmp(call->name, "bpf_percpu_obj_drop", 19);
	if (!(r1->flags & RF_PERCPU) != !percpu)
		return rb_reject(env, "arg#0 expected for %s%s()", percpu ? "bpf_obj_drop" : "bpf_percpu_obj_drop",
				 env->prof->graph_kfuncs_72 ? "" : "_impl");
	/* check_func_arg_reg_off with OBJ_RELEASE */
	if (r1->off || !env->t->is_const(&r1->val) || rb_reg_const_val(env, r1))
		return rb_reject(env, "R1 must have zero offset when passed to release func or trusted arg to kfunc");
	if (env->prof->obj_drop_nmi_fields && nmi_context(env) && nmi_unsafe(rb_obj_btf(env), (uint32_t)r1->map_idx))
		return rb_reject(env, "%s cannot be used in tracing programs on types with NMI unsafe fields",
				 call->name);
	rb_release_ref(env, r1->ref_obj_id);
	rb_clobber_caller_saved(env);
	return 0;
}

/* 6.18 and 7.2.13: bpf_refcount_acquire_impl(p__refcounted_kptr, meta__ign),
 * KF_ACQUIRE | KF_RET_NULL | KF_RCU. check_kfunc_args' NULL check, then
 * KF_ARG_PTR_TO_REFCOUNTED_KPTR (__check_func_arg_reg_off with no fixed
 * offset allowed; an owning or non-owning allocated object of a struct
 * with a bpf_refcount field); R0 a new owning reference to an object of the
 * same type, maybe NULL unless the argument was owning (is_kfunc_ret_null:
 * meta->arg_owning_ref) */
int rb_kfunc_refcount_acquire(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	(void)call;
	int err = rb_check_reg_read(env, 1);
	if (err)
		return err;
	struct rb_reg *r1 = &rb_cur_regs(env)[1];
	char tn[48];
	rb_rtype_str(r1, tn, sizeof(tn));
	if ((r1->type == RT_SCALAR && rb_reg_is_const(env, r1) && rb_reg_const_val(env, r1) == 0) ||
	    (r1->flags & RF_MAYBE_NULL))
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg0");
	if (RB_IS_ALLOC(r1) && (r1->off || !env->t->is_const(&r1->val) || rb_reg_const_val(env, r1)))
		return rb_reject(env, "dereference of modified %s ptr R1 off=%d disallowed", tn, r1->off);
	if (!RB_IS_ALLOC(r1))
		return rb_reject(env, "arg#0 is neither owning or non-owning ref");
	const struct btf *b = rb_obj_btf(env);
	const struct btf_type *t = b ? skip(b, (uint32_t)r1->map_idx, NULL) : NULL;
	bool refcounted = false;
	const struct btf_member *m = t && btf_is_composite(t) ? btf_members(t) : NULL;
	for (int i = 0; m && i < btf_vlen(t); i++)
		if (field_kind(b, m[i].type) && !strcmp(field_kind(b, m[i].type), "bpf_refcount"))
			refcounted = true;
	if (!refcounted)
		return rb_reject(env, "arg#0 doesn't point to a type with bpf_refcount field");
	bool owning = !RB_IS_NON_OWN(r1) && r1->ref_obj_id;
	int32_t type = r1->map_idx;
	rb_clobber_caller_saved(env);
	struct rb_reg *r0 = &rb_cur_regs(env)[0];
	rb_reg_ptr(env, r0, RT_BTF_ID);
	r0->range = RB_BTF_ALLOC;
	r0->map_idx = type;
	if (!owning) {
		r0->flags = RF_MAYBE_NULL;
		return rb_acquire_ref_null(env, r0);
	}
	uint32_t id = rb_acquire_ref(env);
	if (!id)
		return RB_E_NOMEM;
	/* 6.18: no id where R0 cannot be NULL (as kfuncs.c's generic acquire);
	 * 7.2.13 the reference's (profile.h acquire_sets_id) */
	r0->ref_obj_id = id;
	if (env->prof->acquire_sets_id)
		r0->id = id;
	/* check_kfunc_call: an R0 that may point to a lock has an id
	 * (reg_may_point_to_spin_lock; alloc_lock.c) */
	if (!r0->id && rb_alloc_may_lock(env, r0))
		r0->id = ++env->id_gen;
	return 0;
}
