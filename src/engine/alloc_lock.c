/* alloc_lock.c — a bpf_spin_lock (bpf_res_spin_lock) and the roots of
 * lists and rbtrees inside objects the program allocated (bpf_obj_new'd
 * structs of its own BTF; Linux 6.18 and 7.2.13 alike):
 *  - check_reg_type: only PTR_TO_BTF_ID | MEM_ALLOC exactly (an owning
 *    reference, not NULL, not RCU, not a non-owning node) takes the lock;
 *  - check_func_arg_reg_off (__check_ptr_off_reg with a fixed offset):
 *    a constant, non-negative offset;
 *  - process_spin_lock: reg_btf_record is the struct's btf_struct_meta
 *    (its lock found as btf_parse_fields finds it, nested structs too),
 *    "local 'kptr' has no valid bpf_spin_lock" without one; the lock's
 *    `ptr` is reg->btf, the program's BTF, so two objects' locks differ
 *    by the register's id only (RB_LOCK_PROG_BTF stands for that BTF
 *    where a map index stands for a map);
 *  - mark_ptr_or_null_reg (6.18) and check_kfunc_call's R0:
 *    reg_may_point_to_spin_lock keeps (gives) the id of an allocated
 *    object whose struct has a lock;
 *  - KF_ARG_PTR_TO_LIST_HEAD / KF_ARG_PTR_TO_RB_ROOT on such an object:
 *    referenced, and check_reg_allocation_locked by (id, BTF). */
#include <bpf/btf.h>

#include "engine/alloc_lock.h"
#include "engine/btf_names.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/profile.h"

int32_t rb_alloc_lock_off(struct rb_env *env, int32_t type_id, const char *type)
{
	return rb_type_struct_field_off(env, (uint32_t)type_id, type);
}

bool rb_alloc_may_lock(struct rb_env *env, const struct rb_reg *reg)
{
	return RB_IS_ALLOC(reg) && (rb_alloc_lock_off(env, reg->map_idx, "bpf_spin_lock") >= 0 ||
				    rb_alloc_lock_off(env, reg->map_idx, "bpf_res_spin_lock") >= 0);
}

bool rb_alloc_owning_exact(const struct rb_reg *reg)
{
	return reg->type == RT_BTF_ID && reg->range == RB_BTF_ALLOC && !reg->flags;
}

int rb_alloc_ptr_off(struct rb_env *env, const struct rb_reg *reg, int regno)
{
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	if (reg->off < 0)
		return rb_reject(env, "negative offset %s ptr R%d off=%d disallowed", tn, regno, reg->off);
	if (!env->t->is_const(&reg->val) || (!env->prof->ptr_off_in_var && rb_reg_const_val(env, reg))) {
		struct rb_bounds vb;
		char tb[64];
		rb_reg_bounds(env, reg, &vb);
		return rb_reject(env, "variable %s access var_off=%s disallowed", tn,
				 rb_tnum_str(vb.var_off.value, vb.var_off.mask, tb, sizeof(tb)));
	}
	if ((int64_t)rb_reg_const_val(env, reg) + reg->off < 0)
		return rb_reject(env, "negative offset %s ptr R%d off=%lld disallowed", tn, regno,
				 (long long)((int64_t)rb_reg_const_val(env, reg) + reg->off));
	return 0;
}

int rb_alloc_lock_arg(struct rb_env *env, const struct rb_reg *reg, int regno, const char *type,
		      struct rb_reg *key)
{
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	if (!rb_alloc_owning_exact(reg))
		return rb_reject(env, "R%d type=%s expected=map_value, ptr_", regno, tn);
	int err = rb_alloc_ptr_off(env, reg, regno);
	if (err)
		return err;
	int32_t lock_off = rb_alloc_lock_off(env, reg->map_idx, type);
	if (lock_off < 0)
		return rb_reject(env, "local 'kptr' has no valid %s", type);
	int64_t val = (int64_t)rb_reg_const_val(env, reg) + reg->off;
	if (val != lock_off)
		return rb_reject(env, "off %lld doesn't point to 'struct %s' that is at %d", (long long)val, type,
				 lock_off);
	*key = *reg;
	key->map_idx = RB_LOCK_PROG_BTF;
	return 0;
}
