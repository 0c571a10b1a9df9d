/* graph.c — the rbtree and linked-list kfuncs on a bpf_rb_root or
 * bpf_list_head of a map value (Linux 6.18 and 7.2.13, the same rules):
 * the root argument (KF_ARG_PTR_TO_RB_ROOT / KF_ARG_PTR_TO_LIST_HEAD,
 * __process_kf_arg_ptr_to_graph_root: a constant offset onto a root field
 * whose "contains:TYPE:FIELD" declaration tag names the nodes, under a
 * lock of the same allocation, check_reg_allocation_locked), the node
 * argument (KF_ARG_PTR_TO_RB_NODE / KF_ARG_PTR_TO_LIST_NODE,
 * __process_kf_arg_ptr_to_graph_node: an owning allocated object for
 * bpf_rbtree_add and bpf_list_push_*, a non-owning or owning one for
 * bpf_rbtree_remove, of the root's node type at the node's offset),
 * bpf_rbtree_add's `less` callback (push_callback_call with
 * set_rbtree_add_callback_state: R1 and R2 non-owning nodes, a return in
 * [0, 1]), ref_convert_owning_non_owning (the added node's reference is
 * gone, its registers non-owning), R0 of bpf_rbtree_first and
 * bpf_list_front/back, bpf_rbtree_root/left/right (a non-owning node,
 * maybe NULL) and
 * bpf_rbtree_remove and bpf_list_pop_front/back (an owning node, maybe
 * NULL, acquired), ref_set_non_owning's MEM_RCU for refcounted nodes,
 * bpf_refcount_acquire_impl (KF_ARG_PTR_TO_REFCOUNTED_KPTR), and
 * invalidate_non_owning_refs at the lock's release. A root inside an
 * owning allocated object is under that object's lock (alloc_lock.c). */
#include <bpf/btf.h>
#include <string.h>

#include "engine/alloc_lock.h"
#include "engine/alloc_obj.h"
#include "engine/btf_names.h"
#include "engine/callbacks.h"
#include "engine/btf.h"
#include "engine/graph.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/refs.h"

static const struct btf_type *skip(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	return t;
}

static bool is_struct_named(const struct btf *b, uint32_t id, const char *name)
{
	const struct btf_type *t = skip(b, id);
	const char *n = t && btf_is_struct(t) ? btf__name_by_offset(b, t->name_off) : NULL;
	return n && !strcmp(n, name);
}

/* the "contains:TYPE:FIELD" declaration tag of type id (component comp) */
static const char *contains_tag(const struct btf *b, uint32_t id, int comp)
{
	uint32_t n = btf__type_cnt(b);
	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(b, i);
		if (!btf_is_decl_tag(t) || t->type != id || btf_decl_tag(t)->component_idx != comp)
			continue;
		const char *s = btf__name_by_offset(b, t->name_off);
		if (s && !strncmp(s, "contains:", 9))
			return s + 9;
	}
	return NULL;
}

/* the nodes' struct has a bpf_refcount member (btf_parse_fields) */
static bool has_refcount(const struct btf *b, const struct btf_type *vt)
{
	const struct btf_member *m = btf_members(vt);
	for (int i = 0; i < btf_vlen(vt); i++, m++)
		if (is_struct_named(b, m->type, "bpf_refcount"))
			return true;
	return false;
}

/* btf_parse_graph_root: the node struct and its bpf_rb_node (a list's:
 * bpf_list_node) member */
static int parse_contains(const struct btf *b, const char *tag, bool list, struct rb_graph_root *out)
{
	const char *colon = strchr(tag, ':');
	char type[128];
	if (!colon || (size_t)(colon - tag) >= sizeof(type))
		return -1;
	memcpy(type, tag, (size_t)(colon - tag));
	type[colon - tag] = '\0';
	int32_t vid = btf__find_by_name_kind(b, type, BTF_KIND_STRUCT);
	const struct btf_type *vt = vid > 0 ? btf__type_by_id(b, (uint32_t)vid) : NULL;
	if (!vt)
		return -1;
	const struct btf_member *m = btf_members(vt);
	for (int i = 0; i < btf_vlen(vt); i++, m++) {
		const char *mn = btf__name_by_offset(b, m->name_off);
		if (mn && !strcmp(mn, colon + 1) && is_struct_named(b, m->type, list ? "bpf_list_node" : "bpf_rb_node")) {
			out->value_id = vid;
			out->node_off = (int32_t)(btf_member_bit_offset(vt, (uint32_t)i) / 8);
			out->list = list;
			out->refcounted = has_refcount(b, vt);
			return 0;
		}
	}
	return -1;
}

/* the root kind of a type: 1 bpf_rb_root, 2 bpf_list_head, 0 neither */
static int root_kind(const struct btf *b, uint32_t id)
{
	return is_struct_named(b, id, "bpf_rb_root") ? 1 : is_struct_named(b, id, "bpf_list_head") ? 2 : 0;
}

/* the root field at byte offset want of type id placed at base
 * (btf_parse_fields / btf_find_field: struct members, nested structs,
 * arrays of roots, a global data section's variables; 6.18.44 and 7.2.13
 * alike: tests/objects/clang19/list.bpf.o array_head, nested_head); its "contains:"
 * tag is on the member (hid, comp) or variable (hid, -1) holding it */
static int find_root(const struct btf *b, uint32_t id, int64_t base, int64_t want, uint32_t hid, int comp,
		     int depth, struct rb_graph_root *out)
{
	const struct btf_type *t = rb_btf_skip_mods(b, id, &id, NULL);
	if (!t || depth > 8 || want < base)
		return -1;
	int kind = root_kind(b, id);
	if (kind) {
		const char *tag = base == want ? contains_tag(b, hid, comp) : NULL;
		return tag ? parse_contains(b, tag, kind == 2, out) : -1;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int64_t esz = btf__resolve_size(b, a->type), i = esz > 0 ? (want - base) / esz : -1;
		if (i < 0 || i >= a->nelems)
			return -1;
		return find_root(b, a->type, base + i * esz, want, hid, comp, depth + 1, out);
	}
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		for (int i = 0; i < btf_vlen(t); i++, v++) {
			const struct btf_type *var = btf__type_by_id(b, v->type);
			if (var && btf_is_var(var) && want >= base + v->offset && want < base + v->offset + v->size)
				return find_root(b, var->type, base + v->offset, want, v->type, -1, depth + 1, out);
		}
		return -1;
	}
	if (!btf_is_struct(t))
		return -1;
	const struct btf_member *mb = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, mb++) {
		int64_t moff = base + (int64_t)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		int64_t msz = btf__resolve_size(b, mb->type);
		if (want >= moff && want < moff + (msz > 0 ? msz : 1))
			return find_root(b, mb->type, moff, want, id, i, depth + 1, out);
	}
	return -1;
}

int rb_graph_root_of(struct rb_env *env, const struct rb_reg *reg, struct rb_graph_root *out)
{
	if ((reg->type != RT_MAP_VALUE && !RB_IS_ALLOC(reg)) || !env->t->is_const(&reg->val))
		return -1;
	/* a map value's BTF type, or an allocated object's struct (alloc_lock.c) */
	uint32_t type = RB_IS_ALLOC(reg) ? (uint32_t)reg->map_idx : env->obj->maps[reg->map_idx].btf_value_type_id;
	const struct btf *b = type ? rb_obj_btf(env) : NULL;
	int64_t off = (int64_t)rb_reg_const_val(env, reg) + reg->off;
	return b ? find_root(b, type, 0, off, 0, -1, 0, out) : -1;
}

void rb_graph_non_owning(struct rb_env *env, struct rb_reg *r, const struct rb_graph_root *root)
{
	rb_reg_ptr(env, r, RT_BTF_ID);
	r->range = RB_BTF_ALLOC_NON_OWN;
	r->map_idx = root->value_id;
	r->off = root->node_off; /* 6.18's fixed offset (7.2.13: var_off) */
	if (root->refcounted)
		r->flags |= RF_RCU;
}

void rb_graph_invalidate_non_owning(struct rb_env *env)
{
	struct rb_vstate *st = env->cur;
	for (int fi = 0; fi <= st->curframe; fi++) {
		struct rb_func *f = st->frame[fi];
		for (int i = 0; i < RB_MAX_REG; i++)
			if (RB_IS_NON_OWN(&f->regs[i]))
				rb_reg_unknown(env, &f->regs[i]);
		for (int s = 0; s < f->nslots; s++)
			if (f->stack[s].type[0] == SLOT_SPILL && RB_IS_NON_OWN(&f->stack[s].spilled))
				rb_reg_unknown(env, &f->stack[s].spilled);
	}
}

/* the register's whole offset (the fixed one and a constant value) */
static int64_t reg_off(struct rb_env *env, const struct rb_reg *r)
{
	return (int64_t)rb_reg_const_val(env, r) + r->off;
}

/* the root argument R1 of a kfunc on a bpf_rb_root (list: bpf_list_head) */
static int root_arg(struct rb_env *env, bool list, struct rb_graph_root *root)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[1];
	const char *head = list ? "bpf_list_head" : "bpf_rb_root";
	if ((reg->type == RT_SCALAR && rb_reg_is_const(env, reg) && !rb_reg_const_val(env, reg)) ||
	    (reg->flags & RF_MAYBE_NULL))
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg0");
	/* an allocated object's root (alloc_lock.c): owning and referenced */
	bool alloc = rb_alloc_owning_exact(reg);
	int err;
	if (reg->type != RT_MAP_VALUE && !alloc)
		return rb_reject(env, "arg#0 expected pointer to map value or allocated object");
	if (alloc && !reg->ref_obj_id)
		return rb_reject(env, "allocated object must be referenced");
	if (alloc && (err = rb_alloc_ptr_off(env, reg, 1)))
		return err;
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R1 doesn't have constant offset. %s has to be at the constant offset", head);
	/* btf_record_find(rec, off, BPF_LIST_HEAD or BPF_RB_ROOT) */
	if (rb_graph_root_of(env, reg, root) || root->list != list)
		return rb_reject(env, "%s not found at offset=%u", head, (unsigned)reg_off(env, reg));
	/* check_reg_allocation_locked: a lock of the same map value (object) held */
	int32_t key = alloc ? RB_LOCK_PROG_BTF : reg->map_idx;
	if (!rb_lock_held_on(env, reg->id, key) && rb_lock_held(env))
		rb_log(env, "held lock and object are not in the same allocation\n");
	if (!rb_lock_held_on(env, reg->id, key))
		return rb_reject(env, "bpf_spin_lock at off=%d must be held for %s",
				 alloc ? rb_alloc_lock_off(env, reg->map_idx, "bpf_spin_lock")
				       : rb_map_spin_lock_off(env, reg->map_idx),
				 head);
	return 0;
}

/* the node argument R2: owning (add: bpf_rbtree_add, bpf_list_push_*) or
 * non-owning too (bpf_rbtree_remove) */
static int node_arg_in(struct rb_env *env, const struct rb_kfunc_call *call, int regno, bool add,
		       const struct rb_graph_root *root);
static int node_arg(struct rb_env *env, const struct rb_kfunc_call *call, bool add, const struct rb_graph_root *root)
{
	return node_arg_in(env, call, 2, add, root);
}

/* KF_ARG_PTR_TO_LIST_NODE of a "__nonown_allowed" argument (7.2.13
 * bpf_list_add's prev, bpf_list_del, bpf_list_is_first/last): a
 * non-owning reference not referenced goes straight to the node checks */
static int list_node_nonown(struct rb_env *env, const struct rb_kfunc_call *call, int regno,
			    const struct rb_graph_root *root)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	bool nonown = RB_IS_NON_OWN(reg) && !reg->ref_obj_id && !(reg->flags & RF_MAYBE_NULL);
	return node_arg_in(env, call, regno, !nonown, root);
}

static int node_arg_in(struct rb_env *env, const struct rb_kfunc_call *call, int regno, bool add,
		       const struct rb_graph_root *root)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	const char *node = root->list ? "bpf_list_node" : "bpf_rb_node";
	if ((reg->type == RT_SCALAR && rb_reg_is_const(env, reg) && !rb_reg_const_val(env, reg)) ||
	    (reg->flags & RF_MAYBE_NULL))
		return rb_reject(env, "Possibly NULL pointer passed to trusted arg%d", regno - 1);
	if (add && !(RB_IS_ALLOC(reg) && !RB_IS_NON_OWN(reg) && !(reg->flags & ~RF_MAYBE_NULL)))
		return rb_reject(env, "arg#%d expected pointer to allocated object", regno - 1);
	if (add && !reg->ref_obj_id)
		return rb_reject(env, "allocated object must be referenced");
	if (!add && !RB_IS_NON_OWN(reg) && !reg->ref_obj_id)
		return rb_reject(env, "%s can only take non-owning or refcounted bpf_rb_node pointer", call->name);
	if (!add && rb_in_rbtree_cb(env))
		return rb_reject(env, "%s not allowed in rbtree cb", call->name);
	if (!RB_IS_ALLOC(reg))
		return rb_reject(env, "arg#%d expected pointer to allocated object", regno - 1);
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d doesn't have constant offset. %s has to be at the constant offset", regno, node);
	const struct btf *b = rb_obj_btf(env);
	int64_t off = reg_off(env, reg);
	const char *field = rb_alloc_special_field(b, (uint32_t)reg->map_idx, (int)off, 1);
	if (!field || strcmp(field, node))
		return rb_reject(env, "%s not found at offset=%u", node, (unsigned)off);
	if (reg->map_idx != root->value_id)
		return rb_reject(env, "operation on %s expects arg#1 %s at offset=%d in struct %s, but arg is at offset=%d in struct %s",
				 root->list ? "bpf_list_head" : "bpf_rb_root", node, root->node_off,
				 rb_alloc_type_name(env, (uint32_t)root->value_id), (int)off,
				 rb_alloc_type_name(env, (uint32_t)reg->map_idx));
	if (off != root->node_off)
		return rb_reject(env, "arg#1 offset=%d, but expected %s at offset=%d in struct %s", (int)off, node,
				 root->node_off, rb_alloc_type_name(env, (uint32_t)root->value_id));
	return 0;
}

/* ref_convert_owning_non_owning: the reference is gone (no register
 * invalidated), its registers become non-owning */
static void convert_owning(struct rb_env *env, uint32_t ref, const struct rb_graph_root *root)
{
	uint8_t rcu = root->refcounted ? RF_RCU : 0;
	struct rb_vstate *st = env->cur;
	for (int i = 0; i < st->nrefs; i++) {
		if (st->refs[i] != ref)
			continue;
		memmove(&st->refs[i], &st->refs[i + 1], sizeof(st->refs[0]) * (size_t)(st->nrefs - i - 1));
		memmove(&st->ref_insns[i], &st->ref_insns[i + 1], sizeof(st->ref_insns[0]) * (size_t)(st->nrefs - i - 1));
		st->nrefs--;
		break;
	}
	for (int fi = 0; fi <= st->curframe; fi++) {
		struct rb_func *f = st->frame[fi];
		for (int i = 0; i < RB_MAX_REG; i++)
			if (f->regs[i].type == RT_BTF_ID && f->regs[i].ref_obj_id == ref) {
				f->regs[i].ref_obj_id = 0;
				f->regs[i].id = 0;
				f->regs[i].range = RB_BTF_ALLOC_NON_OWN;
				f->regs[i].flags |= rcu;
			}
		for (int s = 0; s < f->nslots; s++) {
			struct rb_reg *r = &f->stack[s].spilled;
			if (f->stack[s].type[0] == SLOT_SPILL && r->type == RT_BTF_ID && r->ref_obj_id == ref) {
				r->ref_obj_id = 0;
				r->id = 0;
				r->range = RB_BTF_ALLOC_NON_OWN;
				r->flags |= rcu;
			}
		}
	}
}

bool rb_is_rbtree_add(const char *name)
{
	return name && (!strcmp(name, "bpf_rbtree_add_impl") || !strcmp(name, "bpf_rbtree_add"));
}

/* R0 of a kfunc returning a node (is_rbtree_node_type / is_list_node_type):
 * check_special_kfunc's mark_reg_graph_node, then KF_RET_NULL, and
 * KF_ACQUIRE (owning: bpf_rbtree_remove, bpf_list_pop_*) or
 * ref_set_non_owning (bpf_rbtree_first, bpf_list_front/back) */
static int node_result(struct rb_env *env, const struct rb_graph_root *root, bool owning)
{
	struct rb_reg *r0 = &rb_cur_regs(env)[0];
	rb_graph_non_owning(env, r0, root);
	r0->flags |= RF_MAYBE_NULL;
	if (owning) {
		r0->range = RB_BTF_ALLOC;
		r0->flags = RF_MAYBE_NULL;
		return rb_acquire_ref_null(env, r0);
	}
	r0->id = ++env->id_gen;
	return 0;
}

int rb_kfunc_rbtree(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	/* bpf_rbtree_root is bpf_rbtree_first's kind, bpf_rbtree_left/right
	 * bpf_rbtree_remove's but for a non-owning R0 (6.18.44, 7.2.13) */
	const char *n = call->name;
	bool add = rb_is_rbtree_add(n), first = !strcmp(n, "bpf_rbtree_first") || !strcmp(n, "bpf_rbtree_root");
	bool remove = !strcmp(n, "bpf_rbtree_remove");
	bool walk = !strcmp(n, "bpf_rbtree_left") || !strcmp(n, "bpf_rbtree_right");
	if (!add && !first && !remove && !walk)
		return rb_unsupported(env, "kfunc %s", n);
	int nargs = first ? 1 : add ? 3 : 2, err;
	for (int i = 1; i <= nargs; i++)
		if ((err = rb_check_reg_read(env, i)))
			return err;
	struct rb_graph_root root;
	if ((err = root_arg(env, false, &root)))
		return err;
	if (!first && (err = node_arg(env, call, add, &root)))
		return err;
	struct rb_reg *regs = rb_cur_regs(env);
	if (add) {
		/* KF_ARG_PTR_TO_CALLBACK, then push_callback_call */
		if (regs[3].type != RT_FUNC)
			return rb_reject(env, "arg2 expected pointer to func");
		if ((err = rb_kfunc_callback(env, RB_CB_RBTREE_ADD, call->insn_idx, regs[3].map_idx)))
			return err;
		convert_owning(env, regs[2].ref_obj_id, &root);
	}
	rb_clobber_caller_saved(env);
	if (add) {
		rb_reg_unknown(env, &regs[0]); /* int bpf_rbtree_add_impl() */
		return 0;
	}
	return node_result(env, &root, remove);
}

/* 6.18 and 7.2.13 kernel/bpf/helpers.c: bpf_list_push_{front,back}_impl(head,
 * node, meta__ign, off), bpf_list_pop_{front,back}(head) (KF_ACQUIRE |
 * KF_RET_NULL), bpf_list_{front,back}(head) (KF_RET_NULL); 7.2.13 also
 * bpf_list_push_{front,back}(head, node) and bpf_list_add(head, new,
 * prev__nonown_allowed) (KF_IMPLICIT_ARGS), bpf_list_del(head,
 * node__nonown_allowed) (KF_ACQUIRE | KF_RET_NULL), bpf_list_is_first/
 * is_last(head, node__nonown_allowed) and bpf_list_empty(head) (bool).
 * check_kfunc_args and check_kfunc_call as for the rbtree: the pushed
 * node's reference converted to non-owning (ref_convert_owning_non_owning),
 * R0 of a push an int */
int rb_kfunc_list(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	const char *n = call->name;
	bool push = !strncmp(n, "bpf_list_push_", 14) || !strcmp(n, "bpf_list_add");
	bool add = !strcmp(n, "bpf_list_add"), del = !strcmp(n, "bpf_list_del");
	bool is_edge = !strcmp(n, "bpf_list_is_first") || !strcmp(n, "bpf_list_is_last");
	bool empty = !strcmp(n, "bpf_list_empty");
	bool owning = !strncmp(n, "bpf_list_pop_", 13) || del;
	if (!push && !owning && !is_edge && !empty && strcmp(n, "bpf_list_front") && strcmp(n, "bpf_list_back"))
		return rb_unsupported(env, "kfunc %s", n);
	int nargs = add ? 3 : push || del || is_edge ? 2 : 1, err;
	for (int i = 1; i <= nargs; i++)
		if ((err = rb_check_reg_read(env, i)))
			return err;
	struct rb_graph_root root;
	if ((err = root_arg(env, true, &root)))
		return err;
	if (push && (err = node_arg(env, call, true, &root)))
		return err;
	if ((add || del || is_edge) && (err = list_node_nonown(env, call, add ? 3 : 2, &root)))
		return err;
	struct rb_reg *regs = rb_cur_regs(env);
	if (push)
		convert_owning(env, regs[2].ref_obj_id, &root);
	rb_clobber_caller_saved(env);
	if (push || is_edge || empty) {
		rb_reg_unknown(env, &regs[0]); /* int, or bool */
		return 0;
	}
	return node_result(env, &root, owning);
}
