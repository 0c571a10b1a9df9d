/* locks.c — bpf_spin_lock / bpf_spin_unlock as Linux 6.18 checks them
 * (process_spin_lock, check_map_access, do_check_insn's call rule,
 * check_resource_leak): the lock must be the struct bpf_spin_lock of a
 * map value, found from the map's BTF value type, at a constant offset;
 * at most one lock is held; it is released by an unlock of the same map
 * value (same register id and map); no helper or kfunc other than the
 * unlock may be called while it is held, and the main program may not
 * exit with it. The lock lives in the state's references with the marker
 * RB_REF_LOCK (6.18 REF_TYPE_LOCK), so state comparison and the log's
 * "refs=" see it as the kernel does. bpf_res_spin_lock / unlock (the
 * kfuncs, 6.18 and 7.2.13 alike): the failed acquisition is a branch of
 * its own, several such locks may be held (never the same one twice) and
 * are released in the reverse order; each is a refs entry whose marker
 * names its map (RB_REF_RES_LOCK); the _irqsave / _irqrestore variants
 * save and restore an IRQ flag too (irq_flags.c). A bpf_spin_lock in an
 * allocated object (PTR_TO_BTF_ID | MEM_ALLOC) is checked in alloc_lock.c
 * and keyed by RB_LOCK_PROG_BTF; a bpf_res_spin_lock there is not
 * modelled. */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alloc_lock.h"
#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/graph.h"
#include "engine/irq_flags.h"
#include "engine/kfunc_table.h"
#include "engine/locks.h"
#include "engine/profile.h"
#include "engine/log.h"
#include "engine/refs.h"
#include "engine/timers.h"
#include "util/pool.h"

void rb_locks_free(struct rb_env *env)
{
	btf__free(env->obj_btf);
	env->obj_btf = NULL;
	free(env->field_offs);
	env->field_offs = NULL;
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

/* the structs looked for in map values; each map's offsets of them are
 * found once per verification (as 6.18 and 7.2.13 parse a map value's
 * special fields once, btf_parse_fields at map creation), not at every
 * access to the value (netif_receive_skb: 34% of old's exploration in
 * find_struct) */
static const char *const field_names[RB_NFIELDS] = {"bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer", "bpf_wq",
						  "bpf_task_work"};
#define NFIELDS (sizeof(field_names) / sizeof(field_names[0]))
#define FIELD_UNKNOWN INT32_MIN

int32_t rb_map_field_off(struct rb_env *env, int map_idx, enum rb_map_field k)
{
	if (map_idx < 0 || (size_t)map_idx >= env->obj->map_cnt)
		return -1;
	if (env->field_offs && env->field_offs[(size_t)map_idx * NFIELDS + k] != FIELD_UNKNOWN)
		return env->field_offs[(size_t)map_idx * NFIELDS + k];
	const struct rb_map *m = &env->obj->maps[map_idx];
	const struct btf *b = m->btf_value_type_id ? rb_obj_btf(env) : NULL;
	if (!b)
		return -1;
	if (!env->field_offs && (env->field_offs = malloc(sizeof(int32_t) * NFIELDS * env->obj->map_cnt)))
		for (size_t i = 0; i < NFIELDS * env->obj->map_cnt; i++)
			env->field_offs[i] = FIELD_UNKNOWN;
	int32_t off = find_struct(b, m->btf_value_type_id, field_names[k], 0);
	if (env->field_offs) /* else (out of memory) found again each time */
		env->field_offs[(size_t)map_idx * NFIELDS + k] = off;
	return off;
}

int32_t rb_map_struct_field_off(struct rb_env *env, int map_idx, const char *name)
{
	size_t k = 0;
	while (k < NFIELDS && strcmp(field_names[k], name))
		k++;
	if (k < NFIELDS)
		return rb_map_field_off(env, map_idx, (enum rb_map_field)k);
	if (map_idx < 0 || (size_t)map_idx >= env->obj->map_cnt)
		return -1;
	const struct rb_map *m = &env->obj->maps[map_idx];
	const struct btf *b = m->btf_value_type_id ? rb_obj_btf(env) : NULL;
	return b ? find_struct(b, m->btf_value_type_id, name, 0) : -1;
}

int32_t rb_type_struct_field_off(struct rb_env *env, uint32_t type_id, const char *name)
{
	const struct btf *b = rb_obj_btf(env);
	return b ? find_struct(b, type_id, name, 0) : -1;
}

int32_t rb_map_spin_lock_off(struct rb_env *env, int map_idx)
{
	return rb_map_field_off(env, map_idx, RB_FIELD_SPIN_LOCK);
}

static int lock_index(const struct rb_vstate *st)
{
	for (int i = 0; i < st->nrefs; i++)
		if (st->ref_insns[i] == RB_REF_LOCK)
			return i;
	return -1;
}

/* process_spin_lock's checks of where the lock is (6.18 and 7.2.13): a
 * constant offset into a map value whose BTF has a lock of this struct
 * type ("bpf_spin_lock", "bpf_res_spin_lock") at that offset */
static int check_lock_off(struct rb_env *env, const struct rb_reg *reg, int regno, const char *type)
{
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d doesn't have constant offset. %s has to be at the constant offset", regno,
				 type);
	const struct rb_map *m = &env->obj->maps[reg->map_idx];
	if (!m->btf_value_type_id || !rb_obj_btf(env))
		return rb_reject(env, "map '%.15s' has to have BTF in order to use %s", m->name, type);
	int32_t lock_off = rb_map_struct_field_off(env, reg->map_idx, type);
	if (lock_off < 0)
		return rb_reject(env, "map '%.15s' has no valid %s", m->name, type);
	int64_t val = (int64_t)rb_reg_const_val(env, reg) + reg->off;
	if (val != lock_off)
		return rb_reject(env, "off %lld doesn't point to 'struct %s' that is at %d", (long long)val, type,
				 lock_off);
	return 0;
}

/* the map of the lock held in refs entry i */
static int32_t lock_entry_map(const struct rb_vstate *st, int i)
{
	return st->ref_insns[i] == RB_REF_LOCK ? st->lock_map : RB_REF_RES_LOCK_MAP(st->ref_insns[i]);
}

/* find_lock_state: the entry of a lock of one of these kinds (RB_LOCK_*)
 * held on (id, map), -1 when none */
enum { RB_LOCK_PLAIN = 1, RB_LOCK_RES = 2, RB_LOCK_RES_IRQ = 4 };
static int lock_kind(int32_t marker)
{
	if (marker == RB_REF_LOCK)
		return RB_LOCK_PLAIN;
	if (!RB_REF_IS_LOCK(marker))
		return 0;
	return RB_REF_RES_LOCK_IRQ(marker) ? RB_LOCK_RES_IRQ : RB_LOCK_RES;
}

static int find_lock(const struct rb_vstate *st, int kinds, uint32_t id, int32_t map)
{
	for (int i = 0; i < st->nrefs; i++)
		if ((lock_kind(st->ref_insns[i]) & kinds) && st->refs[i] == id && lock_entry_map(st, i) == map)
			return i;
	return -1;
}

/* active_lock_id / active_lock_ptr: the last lock taken and not released
 * (locks are released in the reverse order, so the last lock entry) */
static int active_lock(const struct rb_vstate *st)
{
	for (int i = st->nrefs - 1; i >= 0; i--)
		if (RB_REF_IS_LOCK(st->ref_insns[i]))
			return i;
	return -1;
}

/* process_spin_lock (6.18 and 7.2.13) for a map value pointer in regno
 * whose lock offset is already checked: take (acquire_lock_state) or
 * release (release_lock_state) a lock of kind (RB_LOCK_*) */
static int take_or_release(struct rb_env *env, const struct rb_reg *reg, int kind, bool lock, const char *what)
{
	struct rb_vstate *st = env->cur;
	bool held = active_lock(st) >= 0;
	if (lock) {
		if (kind == RB_LOCK_PLAIN && held && lock_index(st) >= 0)
			return rb_reject(env, "Locking two bpf_spin_locks are not allowed");
		if (kind != RB_LOCK_PLAIN && held && find_lock(st, RB_LOCK_RES | RB_LOCK_RES_IRQ, reg->id, reg->map_idx) >= 0)
			return rb_reject(env, "Acquiring the same lock again, AA deadlock detected");
		uint32_t *r = rb_pool_realloc(rb_pool_of(st), st->refs, sizeof(uint32_t) * (size_t)(st->nrefs + 1));
		if (!r)
			return RB_E_NOMEM;
		st->refs = r;
		int32_t *ri = rb_pool_realloc(rb_pool_of(st), st->ref_insns, sizeof(int32_t) * (size_t)(st->nrefs + 1));
		if (!ri)
			return RB_E_NOMEM;
		st->ref_insns = ri;
		st->refs[st->nrefs] = reg->id;
		st->ref_insns[st->nrefs] = kind == RB_LOCK_PLAIN ? RB_REF_LOCK
								 : RB_REF_RES_LOCK(reg->map_idx, kind == RB_LOCK_RES_IRQ);
		st->nrefs++;
		if (kind == RB_LOCK_PLAIN)
			st->lock_map = reg->map_idx;
		return 0;
	}
	if (!held)
		return rb_reject(env, "%s_unlock without taking a lock", what);
	int li = find_lock(st, kind, reg->id, reg->map_idx);
	if (li < 0)
		return rb_reject(env, "%s_unlock of different lock", what);
	int act = active_lock(st);
	if (st->refs[act] != reg->id || lock_entry_map(st, act) != reg->map_idx)
		return rb_reject(env, "%s_unlock cannot be out of order", what);
	/* release_lock_state: the others keep their order */
	memmove(&st->refs[li], &st->refs[li + 1], sizeof(uint32_t) * (size_t)(st->nrefs - li - 1));
	memmove(&st->ref_insns[li], &st->ref_insns[li + 1], sizeof(int32_t) * (size_t)(st->nrefs - li - 1));
	st->nrefs--;
	if (kind == RB_LOCK_PLAIN)
		st->lock_map = -1;
	rb_graph_invalidate_non_owning(env); /* invalidate_non_owning_refs */
	return 0;
}

bool rb_lock_held_on(struct rb_env *env, uint32_t id, int32_t map_idx)
{
	return find_lock(env->cur, RB_LOCK_PLAIN | RB_LOCK_RES | RB_LOCK_RES_IRQ, id, map_idx) >= 0;
}

int rb_check_spin_lock_arg(struct rb_env *env, int32_t helper_id, int regno)
{
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	bool lock = helper_id == BPF_FUNC_spin_lock;
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	if (reg->type == RT_BTF_ID) { /* alloc_lock.c */
		struct rb_reg key;
		int err = rb_alloc_lock_arg(env, reg, regno, "bpf_spin_lock", &key);
		return err ? err : take_or_release(env, &key, RB_LOCK_PLAIN, lock, "bpf_spin");
	}
	if (reg->type != RT_MAP_VALUE || (reg->flags & RF_MAYBE_NULL))
		return rb_reject(env, "R%d type=%s expected=map_value, ptr_", regno, tn);
	int err = check_lock_off(env, reg, regno, "bpf_spin_lock");
	return err ? err : take_or_release(env, reg, RB_LOCK_PLAIN, lock, "bpf_spin");
}

/* kfunc_spin_allowed (6.18 and 7.2.13): the res_spin_lock kfuncs; 7.2.13
 * also the arena and bpf_iter_num kfuncs (profile.h arena_kfuncs) and the
 * implicit-argument graph kfuncs (is_bpf_graph_api_kfunc, profile.h
 * graph_kfuncs_72) */
static bool spin_allowed(const char *n, const struct rb_profile *p)
{
	bool k72 = p->arena_kfuncs;
	static const char *const graph72[] = {"bpf_list_push_front", "bpf_list_push_back", "bpf_list_add",
					      "bpf_list_del", "bpf_list_empty", "bpf_list_is_first",
					      "bpf_list_is_last", "bpf_rbtree_add", "bpf_refcount_acquire"};
	for (size_t i = 0; p->graph_kfuncs_72 && i < sizeof(graph72) / sizeof(graph72[0]); i++)
		if (!strcmp(n, graph72[i]))
			return true;
	static const char *const both[] = {"bpf_res_spin_lock", "bpf_res_spin_unlock", "bpf_res_spin_lock_irqsave",
					   "bpf_res_spin_unlock_irqrestore",
					   /* is_bpf_graph_api_kfunc */
					   "bpf_rbtree_add_impl", "bpf_rbtree_first", "bpf_rbtree_remove",
					   "bpf_rbtree_root", "bpf_rbtree_left", "bpf_rbtree_right",
					   "bpf_list_push_front_impl", "bpf_list_push_back_impl", "bpf_list_pop_front",
					   "bpf_list_pop_back", "bpf_list_front", "bpf_list_back",
					   "bpf_refcount_acquire_impl"};
	static const char *const only72[] = {"bpf_arena_alloc_pages", "bpf_arena_free_pages",
					     "bpf_arena_reserve_pages", "bpf_iter_num_new",
					     "bpf_iter_num_next", "bpf_iter_num_destroy"};
	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++)
		if (!strcmp(n, both[i]))
			return true;
	for (size_t i = 0; k72 && i < sizeof(only72) / sizeof(only72[0]); i++)
		if (!strcmp(n, only72[i]))
			return true;
	return false;
}

int rb_lock_check_call(struct rb_env *env, const struct bpf_insn *insn)
{
	if (active_lock(env->cur) < 0)
		return 0;
	/* 7.2.13 also lets bpf_kptr_xchg run (profile.h kptr_xchg_in_lock) */
	if (insn->src_reg == 0 && insn->imm != BPF_FUNC_spin_unlock &&
	    !(env->prof->kptr_xchg_in_lock && insn->imm == BPF_FUNC_kptr_xchg))
		return rb_reject(env, "function calls are not allowed while holding a lock");
	if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
		const struct btf *b = rb_need_vmlinux(env);
		const struct btf_type *ft = b && insn->imm > 0 ? btf__type_by_id(b, (uint32_t)insn->imm) : NULL;
		const char *n = ft && btf_is_func(ft) ? btf__name_by_offset(b, ft->name_off) : NULL;
		if (n && !insn->off && spin_allowed(n, env->prof))
			return 0;
		/* the stream kfuncs (is_bpf_stream_kfunc) are not listed */
		if (!n || insn->off || !strncmp(n, "bpf_stream", 10))
			return rb_unsupported(env, "kfunc call while holding a bpf_spin_lock");
		return rb_reject(env, "function calls are not allowed while holding a lock");
	}
	return 0;
}

/* check_map_access: a load or store overlapping a lock (4 bytes each) */
int rb_lock_check_access(struct rb_env *env, const struct rb_reg *reg, int off, int size)
{
	for (int i = RB_FIELD_SPIN_LOCK; i <= RB_FIELD_RES_SPIN_LOCK; i++) {
		int32_t lock_off = rb_map_field_off(env, reg->map_idx, (enum rb_map_field)i);
		if (lock_off < 0)
			continue;
		struct rb_bounds b;
		rb_reg_bounds(env, reg, &b);
		int64_t lo = (int64_t)b.smin + off, hi = (int64_t)b.umax + off + size;
		if (lo < lock_off + 4 && lock_off < hi)
			return rb_reject(env, "%s cannot be accessed directly by load/store", field_names[i]);
	}
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
		    rb_map_has_lock(env, in->imm)) {
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
	return active_lock(env->cur) >= 0;
}

bool rb_map_has_lock(struct rb_env *env, int map_idx)
{
	return rb_map_field_off(env, map_idx, RB_FIELD_SPIN_LOCK) >= 0 ||
	       rb_map_field_off(env, map_idx, RB_FIELD_RES_SPIN_LOCK) >= 0;
}

int rb_kfunc_res_spin_lock(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	bool lock = !strcmp(call->name, "bpf_res_spin_lock") || !strcmp(call->name, "bpf_res_spin_lock_irqsave");
	bool irq = strstr(call->name, "_irq") != NULL;
	if (lock) {
		/* check_kfunc_call, before the arguments: the failed
		 * acquisition continues from the next instruction with r0-r5
		 * cleared and R0 an error code in [-MAX_ERRNO, -1] */
		struct rb_vstate *fail = rb_push_branch(env, call->insn_idx + 1, call->insn_idx);
		if (!fail)
			return env->done ? RB_E_REJECT : RB_E_NOMEM;
		struct rb_reg *fr = fail->frame[fail->curframe]->regs;
		for (int i = 0; i <= 5; i++)
			rb_reg_not_init(env, &fr[i]);
		rb_reg_unknown(env, &fr[0]);
		struct rb_bounds b;
		env->t->bounds(&fr[0].val, &b);
		b.s32_min = -4095;
		b.s32_max = -1;
		if (env->prof->res_lock_err_s64) {
			b.smin = -4095;
			b.smax = -1;
		}
		env->t->from_bounds(&fr[0].val, &b);
	}
	int err = rb_check_reg_read(env, 1);
	if (err)
		return err;
	struct rb_reg *reg = &rb_cur_regs(env)[1];
	rb_scratch_reg(env, 1);
	if ((reg->type == RT_SCALAR && rb_reg_is_const(env, reg) && rb_reg_const_val(env, reg) == 0) ||
	    (reg->flags & RF_MAYBE_NULL))
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg0");
	if (reg->type == RT_BTF_ID)
		return rb_unsupported(env, "bpf_res_spin_lock in an allocated object");
	if (reg->type != RT_MAP_VALUE)
		return rb_reject(env, "R1 doesn't point to map value or allocated object");
	if ((err = check_lock_off(env, reg, 1, "bpf_res_spin_lock")) ||
	    (err = take_or_release(env, reg, irq ? RB_LOCK_RES_IRQ : RB_LOCK_RES, lock, "bpf_res_spin")))
		return err;
	/* the _irqsave / _irqrestore flag, the second argument (irq_flags.c) */
	if (irq && (err = rb_irq_flag_arg(env, 2, lock, RB_IRQ_LOCK)))
		return err;
	rb_clobber_caller_saved(env);
	struct rb_reg *regs = rb_cur_regs(env);
	/* int bpf_res_spin_lock: 0 on this path; void bpf_res_spin_unlock */
	if (lock)
		rb_reg_const(env, &regs[0], 0);
	return 0;
}
