/* kptrs.c — the destination of bpf_kptr_xchg (Linux 6.18 process_kptr_func
 * and the kptr part of btf_parse_fields / btf_find_kptr): a map value
 * pointer at a constant offset where the map's BTF value type has a
 * referenced kptr field, or an allocated object (MEM_ALLOC, owning or
 * non-owning) whose struct has one. A kptr field is a pointer member whose pointee
 * is a type tag "kptr" (referenced), "kptr_untrusted", "percpu_kptr" or
 * "uptr" and whose pointee is a struct (in a struct, an array, or a
 * variable of a global data section: `.data.NAME` holding a
 * `struct bpf_cpumask __kptr *`); any other type tag, a second tag or
 * another pointee (a forward declaration) makes 6.18 fail the whole
 * field record (btf_find_kptr returns -EINVAL), which map creation ignores,
 * so the map then has no kptr at all. The exchange (6.18 and 7.2.13
 * check_func_arg / map_kptr_match_type / check_helper_call): the second
 * argument is NULL or a referenced object of the kptr's type (an
 * allocated object for a kptr of the program's own type, a kernel
 * object otherwise), released; R0 the old kptr, maybe NULL, acquired.
 * A percpu kptr (BPF_KPTR_PERCPU) takes and gives per-CPU allocated
 * objects (MEM_ALLOC | MEM_PERCPU: bpf_percpu_obj_new). The fields are
 * found once per map (rb_map_kptrs, kept in env->kptr_recs); plain loads
 * and stores of them are kptr_access.c's. */
#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alloc_obj.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/helper_args.h"
#include "engine/kfuncs.h"
#include "engine/kptrs.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/profile.h"
#include "engine/rcu.h"
#include "engine/refs.h"

enum { NO_KPTR = 0, HAS_KPTR = 1, BAD_RECORD = -1 };

/* the kptr kind of a pointer type's tag (RB_KPTR_*), 0 no tag, -1 an
 * unknown tag */
static int kptr_tag(const struct btf *b, const struct btf_type *ptr, uint32_t *ptee)
{
	const struct btf_type *t = btf__type_by_id(b, ptr->type);
	if (!t || !btf_is_type_tag(t) || btf_kflag(t))
		return 0;
	const char *n = btf__name_by_offset(b, t->name_off);
	if (!n)
		return -1;
	int kind = !strcmp(n, "kptr") ? RB_KPTR_REF : !strcmp(n, "kptr_untrusted") ? RB_KPTR_UNREF
		 : !strcmp(n, "percpu_kptr") ? RB_KPTR_PERCPU : !strcmp(n, "uptr") ? RB_KPTR_UPTR : -1;
	/* no second tag; the pointee (past modifiers) must be a struct, not
	 * a forward declaration */
	uint32_t pid = t->type;
	const struct btf_type *pt = btf__type_by_id(b, pid);
	if (pt && btf_is_type_tag(pt))
		return -1;
	while (pt && (btf_is_mod(pt) || btf_is_typedef(pt))) {
		pid = pt->type;
		pt = btf__type_by_id(b, pid);
	}
	*ptee = pid;
	return pt && btf_is_struct(pt) ? kind : -1;
}

/* the kptr fields of type id (nested structs and arrays too) at byte
 * offset base into rec: HAS_KPTR/NO_KPTR, or BAD_RECORD */
static int scan(const struct btf *b, uint32_t id, int64_t base, struct rb_kptr_rec *rec, int depth)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || depth > 8)
		return NO_KPTR;
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int64_t esz = btf__resolve_size(b, a->type);
		int r = NO_KPTR;
		for (uint32_t i = 0; esz > 0 && i < a->nelems && i < 64; i++) {
			int s = scan(b, a->type, base + (int64_t)i * esz, rec, depth + 1);
			if (s == BAD_RECORD)
				return BAD_RECORD;
			if (s == NO_KPTR) /* nor any element after (the same type) */
				break;
			r |= s;
		}
		return r;
	}
	if (btf_is_ptr(t)) {
		uint32_t pid = 0;
		int k = kptr_tag(b, t, &pid);
		if (k < 0)
			return BAD_RECORD;
		if (!k)
			return NO_KPTR;
		/* BTF_FIELDS_MAX: a record holds 11 fields at most (-E2BIG) */
		if (rec->n == RB_KPTR_MAX)
			return BAD_RECORD;
		rec->f[rec->n++] = (struct rb_kptr_field){.off = (int32_t)base, .kind = (int8_t)k, .ptee = pid};
		return HAS_KPTR;
	}
	/* a global data map's value (.data, .bss, .data.NAME): its variables,
	 * as 6.18 btf_parse_fields -> btf_find_datasec_var reads them */
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		int r = NO_KPTR;
		for (int i = 0; i < btf_vlen(t) && i < 4096; i++, v++) {
			const struct btf_type *var = btf__type_by_id(b, v->type);
			if (!var || !btf_is_var(var))
				continue;
			int s = scan(b, var->type, base + (int64_t)v->offset, rec, depth + 1);
			if (s == BAD_RECORD)
				return BAD_RECORD;
			r |= s;
		}
		return r;
	}
	if (!btf_is_composite(t))
		return NO_KPTR;
	const struct btf_member *m = btf_members(t);
	int r = NO_KPTR;
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		int s = scan(b, m->type, base + (int64_t)(btf_member_bit_offset(t, (uint32_t)i) / 8), rec, depth + 1);
		if (s == BAD_RECORD)
			return BAD_RECORD;
		r |= s;
	}
	return r;
}

static void fill(struct rb_env *env, uint32_t id, struct rb_kptr_rec *rec);

const struct rb_kptr_rec *rb_map_kptrs(struct rb_env *env, int map_idx)
{
	static const struct rb_kptr_rec none = {0};
	if (map_idx < 0 || (size_t)map_idx >= env->obj->map_cnt)
		return &none;
	if (!env->kptr_recs && !(env->kptr_recs = calloc(env->obj->map_cnt, sizeof(*env->kptr_recs))))
		return &none;
	struct rb_kptr_rec *rec = &env->kptr_recs[map_idx];
	if (!rec->done) {
		const struct rb_map *m = &env->obj->maps[map_idx];
		fill(env, m->btf_value_type_id, rec);
	}
	return rec;
}

/* the record of type id of the object's BTF (a map value, or an allocated
 * object's struct: 6.18 and 7.2.13 btf_parse_fields / reg_btf_record) */
static void fill(struct rb_env *env, uint32_t id, struct rb_kptr_rec *rec)
{
	rec->done = true;
	const struct btf *b = id ? rb_obj_btf(env) : NULL;
	/* a record that fails to parse holds no kptr at all */
	if (b && scan(b, id, 0, rec, 0) == BAD_RECORD)
		rec->n = 0;
	/* btf_parse_kptr: a struct of that name in vmlinux makes a kernel
	 * kptr (of vmlinux's type), otherwise the program's own type,
	 * allocated by bpf_obj_new (MEM_ALLOC); a percpu kptr is always of
	 * the program's own type */
	for (int i = 0; i < rec->n; i++) {
		struct rb_kptr_field *f = &rec->f[i];
		const struct btf_type *pt = btf__type_by_id(b, f->ptee);
		const char *pn = pt ? btf__name_by_offset(b, pt->name_off) : NULL;
		const struct btf *vb = pn && pn[0] && f->kind != RB_KPTR_PERCPU ? rb_need_vmlinux(env) : NULL;
		int32_t kid = vb ? btf__find_by_name_kind(vb, pn, BTF_KIND_STRUCT) : -1;
		f->local = kid <= 0;
		f->btf_id = kid > 0 ? kid : (int32_t)f->ptee;
	}
}

void rb_kptrs_free(struct rb_env *env)
{
	free(env->kptr_recs);
	env->kptr_recs = NULL;
}

const struct rb_kptr_field *rb_kptr_at(const struct rb_kptr_rec *rec, int64_t off)
{
	for (int i = 0; i < rec->n; i++)
		if (rec->f[i].off == off)
			return &rec->f[i];
	return NULL;
}

int rb_check_kptr_xchg_dest(struct rb_env *env, int regno, struct rb_call_args *ca)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	/* kptr_xchg_dest_types: a map value, or an allocated object (owning,
	 * or non-owning, RCU too) whose struct holds the kptr */
	bool obj = RB_IS_ALLOC(reg) && (reg->range == RB_BTF_ALLOC ? !reg->flags : !(reg->flags & ~RF_RCU));
	if (!obj && (reg->type != RT_MAP_VALUE || reg->flags))
		return rb_reject(env, "R%d type=%s expected=map_value, ptr_, ptr_, rcu_ptr_", regno, tn);
	struct rb_kptr_rec orec = {0};
	if (obj) {
		fill(env, (uint32_t)reg->map_idx, &orec);
	} else {
		const struct rb_map *m = &env->obj->maps[reg->map_idx];
		if (!m->btf_value_type_id || !rb_obj_btf(env))
			return rb_reject(env, "map '%.15s' has to have BTF in order to use bpf_kptr_xchg", m->name);
	}
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d doesn't have constant offset. kptr has to be at the constant offset", regno);
	int64_t off = (int64_t)rb_reg_const_val(env, reg) + reg->off;
	const struct rb_kptr_rec *rec = obj ? &orec : rb_map_kptrs(env, reg->map_idx);
	if (!rec->n)
		return rb_reject(env, "R%d has no valid kptr", regno);
	const struct rb_kptr_field *f = rb_kptr_at(rec, off);
	if (!f)
		return rb_reject(env, "off=%lld doesn't point to kptr", (long long)off);
	if (f->kind != RB_KPTR_REF && f->kind != RB_KPTR_PERCPU)
		return rb_reject(env, "off=%lld kptr isn't referenced kptr", (long long)off);
	ca->kptr_percpu = f->kind == RB_KPTR_PERCPU;
	ca->kptr_local = f->local;
	ca->kptr_btf_id = f->btf_id;
	return 0;
}

int rb_check_kptr_xchg_src(struct rb_env *env, int regno, struct rb_call_args *ca)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	/* ARG_PTR_TO_BTF_ID_OR_NULL: NULL stores nothing */
	if (reg->type == RT_SCALAR && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0)
		return 0;
	/* check_reg_type (btf_ptr_types, MEM_ALLOC dropped for this
	 * argument): a plain, trusted or RCU BTF pointer */
	uint8_t fold = RB_IS_ALLOC(reg) ? RF_PERCPU : 0; /* MEM_ALLOC and MEM_PERCPU folded for a local kptr */
	if (reg->type != RT_BTF_ID || (reg->flags & ~(RF_MAYBE_NULL | RF_TRUSTED | RF_RCU | fold)))
		return rb_reject(env, "R%d type=%s expected=ptr_, trusted_ptr_, rcu_ptr_", regno, tn);
	if (reg->flags & RF_MAYBE_NULL)
		return rb_reject(env, "Possibly NULL pointer passed to helper arg%d", regno - 1);
	/* map_kptr_match_type: a local kptr takes an allocated object of its
	 * type, a kernel kptr a kernel object of its type, at offset 0 */
	const char *want = ca->kptr_local ? rb_alloc_type_name(env, (uint32_t)ca->kptr_btf_id)
					  : rb_btf_name(env, (uint32_t)ca->kptr_btf_id);
	/* map_kptr_match_type: MEM_PERCPU exactly where the kptr is percpu */
	bool ok = ca->kptr_local ? reg->range == RB_BTF_ALLOC && reg->map_idx == ca->kptr_btf_id &&
					   !(reg->flags & RF_PERCPU) == !ca->kptr_percpu
				 : !RB_IS_ALLOC(reg) && !(reg->flags & RF_UNTRUSTED) &&
					   rb_btf_struct_ids_match(rb_need_vmlinux(env), (uint32_t)reg->map_idx, 0,
								   (uint32_t)ca->kptr_btf_id, true);
	if (ok && (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg)))
		return rb_reject(env, "dereference of modified %s ptr R%d off=%d disallowed", tn, regno, reg->off);
	if (!ok)
		return rb_reject(env, "invalid kptr access, R%d type=%s expected=%sptr_%s", regno, tn,
				 ca->kptr_local ? "" : "ptr_", want);
	/* OBJ_RELEASE */
	if (!reg->ref_obj_id)
		return rb_reject(env, "R%d must be referenced when passed to release function", regno);
	ca->release_id = reg->ref_obj_id;
	return 0;
}

int rb_kptr_xchg_return(struct rb_env *env, const struct rb_call_args *ca, struct rb_reg *r0)
{
	/* RET_PTR_TO_BTF_ID_OR_NULL of the kptr's type (MEM_ALLOC for a
	 * local one), acquired (is_acquire_function) */
	rb_reg_ptr(env, r0, RT_BTF_ID);
	r0->map_idx = ca->kptr_btf_id;
	if (ca->kptr_local)
		r0->range = RB_BTF_ALLOC;
	r0->flags = RF_MAYBE_NULL | (ca->kptr_percpu ? RF_PERCPU : 0);
	return rb_acquire_ref_null(env, r0);
}

/* 6.18 and 7.2.13 check_helper_call: bpf_kptr_xchg storing a MEM_ALLOC |
 * MEM_PERCPU object in_rcu_cs (a non-sleepable program, an RCU read
 * section, a lock held): the registers still holding it become RCU
 * pointers to it, no longer referenced and no longer allocated (6.18
 * release_reg's convert_rcu loop, 7.2.13 ref_convert_alloc_rcu_protected,
 * which clears their id too: 7.2's ids survive the null check,
 * profile.h null_check_keeps_id); outside one they go with the reference */
static void percpu_to_rcu(struct rb_env *env, struct rb_reg *r, uint32_t ref)
{
	if (r->type != RT_BTF_ID || r->ref_obj_id != ref || r->range != RB_BTF_ALLOC || !(r->flags & RF_PERCPU))
		return;
	r->ref_obj_id = 0;
	r->range = RB_BTF_PROG;
	r->flags |= RF_RCU;
	if (env->prof->null_check_keeps_id)
		r->id = 0;
}

int rb_kptr_percpu_stored(struct rb_env *env, uint32_t ref)
{
	if (!rb_in_rcu_cs(env))
		return 0;
	struct rb_vstate *st = env->cur;
	for (int fi = 0; fi <= st->curframe; fi++) {
		struct rb_func *f = st->frame[fi];
		for (int i = 0; i < RB_MAX_REG; i++)
			percpu_to_rcu(env, &f->regs[i], ref);
		for (int s = 0; s < f->nslots; s++)
			if (f->stack[s].type[0] == SLOT_SPILL)
				percpu_to_rcu(env, &f->stack[s].spilled, ref);
	}
	return 0;
}
