/* dynptr.c — dynamic pointers, following Linux 6.18 (kernel/bpf/verifier.c:
 * stack_slot_obj_get_spi, process_dynptr_func, mark_stack_slots_dynptr,
 * unmark_stack_slots_dynptr, invalidate_dynptr, destroy_if_dynptr_stack_slot,
 * is_dynptr_reg_valid_uninit/init, is_dynptr_type_expected, the
 * ARG_PTR_TO_DYNPTR parts of check_reg_type, check_func_arg_reg_off and
 * check_func_arg, mark_dynptr_cb_reg).
 *
 * A struct bpf_dynptr (16 bytes) lives in two stack slots of type
 * SLOT_DYNPTR. A helper with a MEM_UNINIT dynptr argument builds one
 * there: the 16 bytes are written (destroying what was there), both
 * slots get the dynptr's id, type and, for ringbuf dynptrs, an acquired
 * reference. Helpers with a MEM_RDONLY argument need an initialised
 * dynptr; bpf_ringbuf_submit/discard_dynptr release it (the reference,
 * every slice of it and every clone). Writing into one slot of an
 * unreferenced dynptr destroys it and invalidates its slices; writing
 * into a referenced one is refused; reading its bytes is refused. */
#include <stdio.h>
#include <string.h>

#include "engine/dynptr.h"
#include "engine/liveness.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/refs.h"
#include "engine/stack.h"

static bool refcounted(int type)
{
	return type == RB_DYNPTR_RINGBUF;
}

/* stack_slot_obj_get_spi(reg, "dynptr", 2) (rb_stack_obj_spi) */
static int get_spi(struct rb_env *env, const struct rb_reg *reg, int *spi, char *msg, size_t len)
{
	int off;
	return rb_stack_obj_spi(env, reg, "dynptr", 2, spi, &off, msg, len);
}

/* is_dynptr_reg_valid_init for a stack pointer (spi from get_spi) */
static bool valid_init(const struct rb_func *f, int spi)
{
	if (!RB_DYNPTR_FIRST(&f->stack[spi].spilled))
		return false;
	for (int i = 0; i < 8; i++)
		if (f->stack[spi].type[i] != SLOT_DYNPTR || f->stack[spi - 1].type[i] != SLOT_DYNPTR)
			return false;
	return true;
}

/* invalidate_dynptr: both slots become invalid stack */
static void invalidate(struct rb_env *env, struct rb_func *f, int spi)
{
	for (int s = spi; s >= spi - 1; s--) {
		memset(f->stack[s].type, SLOT_INVALID, sizeof(f->stack[s].type));
		rb_reg_not_init(env, &f->stack[s].spilled);
		rb_live_stack_access(env, f->frameno, s, true);
	}
}

/* the dynptr's own check of its register type and offset: check_reg_type
 * (dynptr_types) and check_func_arg_reg_off */
static int check_reg(struct rb_env *env, int regno, const struct rb_reg *reg, bool release)
{
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	if ((reg->type != RT_STACK && reg->type != RT_CONST_DYNPTR) || reg->flags)
		return rb_reject(env, "R%d type=%s expected=fp, dynptr_ptr", regno, tn);
	if (reg->type == RT_STACK)
		return 0;
	bool var_zero = env->t->is_const(&reg->val) && rb_reg_const_val(env, reg) == 0;
	if (release && (!var_zero || reg->off))
		return rb_reject(env, "R%d must have zero offset when passed to release func or trusted arg to kfunc",
				 regno);
	/* __check_ptr_off_reg without a fixed offset allowed */
	if (reg->off < 0)
		return rb_reject(env, "negative offset %s ptr R%d off=%d disallowed", tn, regno, reg->off);
	if (reg->off)
		return rb_reject(env, "dereference of modified %s ptr R%d off=%d disallowed", tn, regno, reg->off);
	if (!var_zero) {
		struct rb_bounds b;
		rb_reg_bounds(env, reg, &b);
		char vo[48];
		return rb_reject(env, "variable %s access var_off=%s disallowed", tn,
				 rb_tnum_str(b.var_off.value, b.var_off.mask, vo, sizeof(vo)));
	}
	return 0;
}

/* mark_stack_slots_dynptr (the slots were just written) */
static int mark_slots(struct rb_env *env, const struct rb_reg *reg, int type)
{
	char msg[96];
	int spi, err;
	if ((err = get_spi(env, reg, &spi, msg, sizeof(msg))))
		return err < 0 ? rb_reject(env, "%s", msg) : RB_E_INTERNAL;
	struct rb_func *f = env->cur->frame[reg->frameno];
	if ((err = rb_dynptr_destroy_slot(env, f, spi)) || (err = rb_dynptr_destroy_slot(env, f, spi - 1)))
		return err;
	uint32_t id = ++env->id_gen, ref = 0;
	if (refcounted(type) && !(ref = rb_acquire_ref(env)))
		return RB_E_NOMEM;
	f = env->cur->frame[reg->frameno];
	for (int s = spi; s >= spi - 1; s--) {
		struct rb_reg *r = &f->stack[s].spilled;
		rb_reg_ptr(env, r, RT_CONST_DYNPTR);
		r->id = id;
		r->ref_obj_id = ref;
		RB_DYNPTR_TYPE(r) = type;
		RB_DYNPTR_FIRST(r) = s == spi;
		memset(f->stack[s].type, SLOT_DYNPTR, sizeof(f->stack[s].type));
		rb_live_stack_access(env, f->frameno, s, true);
	}
	return 0;
}

/* MEM_UNINIT: is_dynptr_reg_valid_uninit, the 16 bytes written, the slots marked */
static int build(struct rb_env *env, int regno, int type)
{
	struct rb_reg reg = rb_cur_regs(env)[regno];
	char msg[96];
	int spi, err;
	if (reg.type == RT_CONST_DYNPTR)
		return rb_reject(env, "Dynptr has to be an uninitialized dynptr");
	if (get_spi(env, &reg, &spi, msg, sizeof(msg)) < 0) {
		rb_log(env, "%s\n", msg);
		return rb_reject(env, "Dynptr has to be an uninitialized dynptr");
	}
	for (int i = 0; i < 16; i += 8)
		if ((err = rb_check_mem_access(env, env->insn_idx, regno, i, 8, true, -1, false, false)))
			return err;
	return mark_slots(env, &reg, type);
}

/* initialised (MEM_RDONLY or none): is_dynptr_reg_valid_init,
 * is_dynptr_type_expected, mark_dynptr_read */
static int use(struct rb_env *env, int regno, enum rb_dynptr_arg how, int type, struct rb_dynptr_use *u)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	if (reg->type == RT_CONST_DYNPTR) {
		if (how != RB_DA_RDONLY)
			return rb_reject(env, "cannot pass pointer to const bpf_dynptr, the helper mutates it");
		u->id = reg->id;
		u->ref_obj_id = reg->ref_obj_id;
		u->type = RB_DYNPTR_TYPE(reg);
	} else {
		char msg[96];
		int spi;
		int r = get_spi(env, reg, &spi, msg, sizeof(msg));
		if (r < 0)
			rb_log(env, "%s\n", msg);
		const struct rb_func *f = env->cur->frame[reg->frameno];
		if (r || !valid_init(f, spi))
			return rb_reject(env, "Expected an initialized dynptr as arg #%d", regno - 1);
		const struct rb_reg *s = &f->stack[spi].spilled;
		u->id = s->id;
		u->ref_obj_id = s->ref_obj_id;
		u->type = RB_DYNPTR_TYPE(s);
		for (int i = spi; i >= spi - 1; i--) {
			rb_live_stack_access(env, f->frameno, i, false);
			rb_scratch_slot(env, i);
		}
	}
	if (how != RB_DA_RDONLY && type != RB_DYNPTR_INVALID && u->type != type)
		return rb_reject(env, "Expected a dynptr of type %s as arg #%d", rb_dynptr_type_str(type), regno - 1);
	return 0;
}

int rb_dynptr_check_arg(struct rb_env *env, int regno, enum rb_dynptr_arg how, int type, struct rb_dynptr_use *u)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	int err;
	if ((err = check_reg(env, regno, reg, how == RB_DA_RELEASE)))
		return err;
	if (how == RB_DA_RELEASE) {
		/* only a dynptr on the stack that holds a reference can be released */
		if (reg->type != RT_STACK)
			return rb_reject(env, "cannot release unowned const bpf_dynptr");
		char msg[96];
		int spi;
		int r = get_spi(env, reg, &spi, msg, sizeof(msg));
		if (r < 0)
			rb_log(env, "%s\n", msg);
		if (r || !env->cur->frame[reg->frameno]->stack[spi].spilled.ref_obj_id)
			return rb_reject(env, "arg %d is an unacquired reference", regno);
		u->release = true;
	}
	u->regno = regno;
	if (how == RB_DA_UNINIT)
		return build(env, regno, type);
	return use(env, regno, how, type, u);
}

int rb_dynptr_release(struct rb_env *env, int regno)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char msg[96];
	int spi;
	if (reg->type != RT_STACK || get_spi(env, reg, &spi, msg, sizeof(msg)))
		return RB_E_INTERNAL;
	struct rb_func *f = env->cur->frame[reg->frameno];
	const struct rb_reg *s = &f->stack[spi].spilled;
	if (!refcounted(RB_DYNPTR_TYPE(s))) {
		invalidate(env, f, spi);
		return 0;
	}
	uint32_t ref = s->ref_obj_id;
	/* the reference and every slice of it, then every clone of the dynptr */
	rb_release_ref(env, ref);
	for (int i = 1; i < f->nslots; i++)
		if (f->stack[i].type[0] == SLOT_DYNPTR && f->stack[i].spilled.ref_obj_id == ref &&
		    RB_DYNPTR_FIRST(&f->stack[i].spilled))
			invalidate(env, f, i);
	return 0;
}

/* mark_reg_invalid on every slice of dynptr id (PTR_TO_MEM, maybe null) */
static void invalidate_slices(struct rb_env *env, uint32_t id)
{
	int fr = 0, i = 0;
	for (struct rb_reg *r; (r = rb_vstate_next_reg(env->cur, 1u << SLOT_SPILL, &fr, &i));)
		if (r->type == RT_MEM && !(r->flags & ~RF_MAYBE_NULL) && (uint32_t)RB_SLICE_DYNPTR_ID(r) == id)
			rb_reg_unknown(env, r);
}

int rb_dynptr_destroy_slot(struct rb_env *env, struct rb_func *f, int spi)
{
	if (spi < 0 || spi >= f->nslots || f->stack[spi].type[0] != SLOT_DYNPTR)
		return 0;
	if (!RB_DYNPTR_FIRST(&f->stack[spi].spilled))
		spi++;
	if (spi >= f->nslots)
		return RB_E_INTERNAL;
	if (refcounted(RB_DYNPTR_TYPE(&f->stack[spi].spilled)))
		return rb_reject(env, "cannot overwrite referenced dynptr");
	rb_scratch_slot(env, spi);
	rb_scratch_slot(env, spi - 1);
	uint32_t id = f->stack[spi].spilled.id;
	memset(f->stack[spi].type, SLOT_INVALID, 8);
	memset(f->stack[spi - 1].type, SLOT_INVALID, 8);
	invalidate_slices(env, id);
	rb_reg_not_init(env, &f->stack[spi].spilled);
	rb_reg_not_init(env, &f->stack[spi - 1].spilled);
	rb_live_stack_access(env, f->frameno, spi, true);
	rb_live_stack_access(env, f->frameno, spi - 1, true);
	return 0;
}

void rb_dynptr_cb_reg(struct rb_env *env, struct rb_reg *r, int type)
{
	rb_reg_ptr(env, r, RT_CONST_DYNPTR);
	r->id = ++env->id_gen;
	RB_DYNPTR_TYPE(r) = type;
	RB_DYNPTR_FIRST(r) = 1;
}

