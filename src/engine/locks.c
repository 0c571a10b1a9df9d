/* locks.c — bpf_spin_lock / bpf_spin_unlock as Linux 6.18 checks them
 * (process_spin_lock, check_map_access, do_check_insn's call rule,
 * check_resource_leak): the lock must be the struct bpf_spin_lock of a
 * map value, found from the map's BTF value type, at a constant offset;
 * at most one lock is held; it is released by an unlock of the same map
 * value (same register id and map); no helper or kfunc other than the
 * unlock may be called while it is held, and the main program may not
 * exit with it. The lock lives in the state's references with the marker
 * RB_REF_LOCK (6.18 REF_TYPE_LOCK), so state comparison and the log's
 * "refs=" see it as the kernel does. Locks in allocated objects
 * (PTR_TO_BTF_ID | MEM_ALLOC) and bpf_res_spin_lock are not modelled. */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

#include "engine/btf.h"
#include "engine/locks.h"
#include "engine/profile.h"
#include "engine/log.h"
#include "engine/refs.h"
#include "engine/timers.h"

const struct btf *rb_obj_btf(struct rb_env *env)
{
	if (!env->obj_btf_tried) {
		env->obj_btf_tried = true;
		if (env->obj->btf && env->obj->btf_size) {
			struct btf *b = btf__new(env->obj->btf, (uint32_t)env->obj->btf_size);
			env->obj_btf = (b && !libbpf_get_error(b)) ? b : NULL;
		}
	}
	return env->obj_btf;
}

void rb_locks_free(struct rb_env *env)
{
	btf__free(env->obj_btf);
	env->obj_btf = NULL;
}

/* the offset of a member of struct `name` (bpf_spin_lock, bpf_timer),
 * here or in nested structs */
static int32_t find_struct(const struct btf *b, uint32_t id, const char *name, int depth)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || depth > 8)
		return -1;
	/* a global data map's value (.data.NAME): its variables, the variable
	 * itself of the struct or a struct holding it (btf_parse_fields ->
	 * btf_find_datasec_var, the same in 6.18 and 7.2.13) */
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		for (int i = 0; i < btf_vlen(t) && i < 4096; i++, v++) {
			const struct btf_type *var = btf__type_by_id(b, v->type);
			if (!var || !btf_is_var(var))
				continue;
			const struct btf_type *vt = btf__type_by_id(b, var->type);
			while (vt && (btf_is_mod(vt) || btf_is_typedef(vt)))
				vt = btf__type_by_id(b, vt->type);
			const char *n = vt && btf_is_composite(vt) ? btf__name_by_offset(b, vt->name_off) : NULL;
			if (n && !strcmp(n, name))
				return (int32_t)v->offset;
			int32_t in = find_struct(b, var->type, name, depth + 1);
			if (in >= 0)
				return (int32_t)v->offset + in;
		}
		return -1;
	}
	if (!btf_is_composite(t))
		return -1;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = btf__type_by_id(b, m->type);
		while (mt && (btf_is_mod(mt) || btf_is_typedef(mt)))
			mt = btf__type_by_id(b, mt->type);
		if (!mt || !btf_is_composite(mt))
			continue;
		int32_t moff = (int32_t)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		const char *n = btf__name_by_offset(b, mt->name_off);
		if (n && !strcmp(n, name))
			return moff;
		int32_t in = find_struct(b, m->type, name, depth + 1);
		if (in >= 0)
			return moff + in;
	}
	return -1;
}

int32_t rb_map_struct_field_off(struct rb_env *env, int map_idx, const char *name)
{
	if (map_idx < 0 || (size_t)map_idx >= env->obj->map_cnt)
		return -1;
	const struct rb_map *m = &env->obj->maps[map_idx];
	const struct btf *b = m->btf_value_type_id ? rb_obj_btf(env) : NULL;
	return b ? find_struct(b, m->btf_value_type_id, name, 0) : -1;
}

int32_t rb_map_spin_lock_off(struct rb_env *env, int map_idx)
{
	return rb_map_struct_field_off(env, map_idx, "bpf_spin_lock");
}

static int lock_index(const struct rb_vstate *st)
{
	for (int i = 0; i < st->nrefs; i++)
		if (st->ref_insns[i] == RB_REF_LOCK)
			return i;
	return -1;
}

int rb_check_spin_lock_arg(struct rb_env *env, int32_t helper_id, int regno)
{
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	struct rb_vstate *st = env->cur;
	bool lock = helper_id == BPF_FUNC_spin_lock;
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	if (reg->type == RT_BTF_ID)
		return rb_unsupported(env, "bpf_spin_lock in an allocated object");
	if (reg->type != RT_MAP_VALUE || (reg->flags & RF_MAYBE_NULL))
		return rb_reject(env, "R%d type=%s expected=map_value, ptr_", regno, tn);
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d doesn't have constant offset. bpf_spin_lock has to be at the constant offset",
				 regno);
	const struct rb_map *m = &env->obj->maps[reg->map_idx];
	if (!m->btf_value_type_id || !rb_obj_btf(env))
		return rb_reject(env, "map '%.15s' has to have BTF in order to use bpf_spin_lock", m->name);
	int32_t lock_off = rb_map_spin_lock_off(env, reg->map_idx);
	if (lock_off < 0)
		return rb_reject(env, "map '%.15s' has no valid bpf_spin_lock", m->name);
	int64_t val = (int64_t)rb_reg_const_val(env, reg) + reg->off;
	if (val != lock_off)
		return rb_reject(env, "off %lld doesn't point to 'struct bpf_spin_lock' that is at %d", (long long)val,
				 lock_off);
	int li = lock_index(st);
	if (lock) {
		if (li >= 0)
			return rb_reject(env, "Locking two bpf_spin_locks are not allowed");
		uint32_t *r = realloc(st->refs, sizeof(uint32_t) * (size_t)(st->nrefs + 1));
		if (!r)
			return RB_E_NOMEM;
		st->refs = r;
		int32_t *ri = realloc(st->ref_insns, sizeof(int32_t) * (size_t)(st->nrefs + 1));
		if (!ri)
			return RB_E_NOMEM;
		st->ref_insns = ri;
		st->refs[st->nrefs] = reg->id;
		st->ref_insns[st->nrefs] = RB_REF_LOCK;
		st->nrefs++;
		st->lock_map = reg->map_idx;
		return 0;
	}
	if (li < 0)
		return rb_reject(env, "bpf_spin_unlock without taking a lock");
	if (st->refs[li] != reg->id || st->lock_map != reg->map_idx)
		return rb_reject(env, "bpf_spin_unlock of different lock");
	/* release_lock_state: the others keep their order */
	memmove(&st->refs[li], &st->refs[li + 1], sizeof(uint32_t) * (size_t)(st->nrefs - li - 1));
	memmove(&st->ref_insns[li], &st->ref_insns[li + 1], sizeof(int32_t) * (size_t)(st->nrefs - li - 1));
	st->nrefs--;
	st->lock_map = -1;
	return 0;
}

int rb_lock_check_call(struct rb_env *env, const struct bpf_insn *insn)
{
	if (lock_index(env->cur) < 0)
		return 0;
	if (insn->src_reg == 0 && insn->imm != BPF_FUNC_spin_unlock)
		return rb_reject(env, "function calls are not allowed while holding a lock");
	if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
		/* 7.2.13 kfunc_spin_allowed: the arena and bpf_iter_num kfuncs
		 * (profile.h arena_kfuncs); graph, res_spin_lock and stream
		 * kfuncs are not modelled */
		const struct btf *b = env->prof->arena_kfuncs ? rb_need_vmlinux(env) : NULL;
		const struct btf_type *ft = b && insn->imm > 0 ? btf__type_by_id(b, (uint32_t)insn->imm) : NULL;
		const char *n = ft && btf_is_func(ft) ? btf__name_by_offset(b, ft->name_off) : NULL;
		if (n && (!strcmp(n, "bpf_arena_alloc_pages") || !strcmp(n, "bpf_arena_free_pages") ||
			  !strcmp(n, "bpf_arena_reserve_pages") || !strcmp(n, "bpf_iter_num_new") ||
			  !strcmp(n, "bpf_iter_num_next") || !strcmp(n, "bpf_iter_num_destroy")))
			return 0;
		return rb_unsupported(env, "kfunc call while holding a bpf_spin_lock");
	}
	return 0;
}

int rb_lock_check_access(struct rb_env *env, const struct rb_reg *reg, int off, int size)
{
	int32_t lock_off = rb_map_spin_lock_off(env, reg->map_idx);
	if (lock_off < 0)
		return 0;
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	int64_t lo = (int64_t)b.smin + off, hi = (int64_t)b.umax + off + size;
	if (lo < lock_off + 4 && lock_off < hi)
		return rb_reject(env, "bpf_spin_lock cannot be accessed directly by load/store");
	return 0;
}

int rb_locks_precheck(struct rb_env *env)
{
	uint32_t t = env->prog->prog_type;
	bool sf = t == BPF_PROG_TYPE_SOCKET_FILTER;
	bool tracing = t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT || t == BPF_PROG_TYPE_PERF_EVENT ||
		       t == BPF_PROG_TYPE_RAW_TRACEPOINT || t == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE;
	if (!sf && !tracing)
		return 0;
	for (int i = 0; i + 1 < env->insn_cnt; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if ((in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) &&
		    rb_map_spin_lock_off(env, in->imm) >= 0) {
			env->insn_idx = -1; /* before do_check: no instruction */
			return rb_reject(env, sf ? "socket filter progs cannot use bpf_spin_lock yet"
						 : "tracing progs cannot use bpf_spin_lock yet");
		}
		if ((in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) &&
		    rb_map_timer_refused(env, in->imm)) {
			env->insn_idx = -1; /* before do_check: no instruction */
			return rb_reject(env, "tracing progs cannot use bpf_timer yet");
		}
		i++;
	}
	env->insn_idx = 0;
	return 0;
}

bool rb_lock_held(struct rb_env *env)
{
	return lock_index(env->cur) >= 0;
}
