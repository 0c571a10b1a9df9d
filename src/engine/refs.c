/* refs.c — bookkeeping over a whole state: acquired references (Linux
 * 6.18 acquire_reference, release_reference) and invalidating packet
 * pointers (clear_all_pkt_pointers). */
#include <stdlib.h>
#include <string.h>

#include "engine/refs.h"
#include "util/pool.h"

/* a new acquired reference of the current state (0: out of memory) */
uint32_t rb_acquire_ref(struct rb_env *env)
{
	struct rb_vstate *st = env->cur;
	uint32_t *r = rb_pool_realloc(rb_pool_of(st), st->refs, sizeof(uint32_t) * (size_t)(st->nrefs + 1));
	if (!r)
		return 0;
	st->refs = r;
	int32_t *ri = rb_pool_realloc(rb_pool_of(st), st->ref_insns, sizeof(int32_t) * (size_t)(st->nrefs + 1));
	if (!ri)
		return 0;
	st->ref_insns = ri;
	st->ref_insns[st->nrefs] = env->insn_idx;
	uint32_t id = ++env->id_gen;
	st->refs[st->nrefs++] = id;
	return id;
}

int rb_acquire_ref_null(struct rb_env *env, struct rb_reg *r)
{
	++env->id_gen;
	uint32_t id = rb_acquire_ref(env);
	if (!id)
		return RB_E_NOMEM;
	r->id = id;
	r->ref_obj_id = id;
	return 0;
}

void rb_ref_remove(struct rb_vstate *st, int i)
{
	st->nrefs--;
	memmove(&st->refs[i], &st->refs[i + 1], sizeof(st->refs[0]) * (size_t)(st->nrefs - i));
	memmove(&st->ref_insns[i], &st->ref_insns[i + 1], sizeof(st->ref_insns[0]) * (size_t)(st->nrefs - i));
}

/* release_reference: the reference and every register holding it */
void rb_release_ref(struct rb_env *env, uint32_t ref_obj_id)
{
	struct rb_vstate *st = env->cur;
	for (int i = 0; i < st->nrefs; i++) {
		if (st->refs[i] == ref_obj_id) {
			rb_ref_remove(st, i);
			break;
		}
	}
	for (int fi = 0; fi <= st->curframe; fi++) {
		struct rb_func *f = st->frame[fi];
		for (int i = 0; i < RB_MAX_REG; i++)
			if (f->regs[i].ref_obj_id == ref_obj_id)
				rb_reg_unknown(env, &f->regs[i]);
		for (int s = 0; s < f->nslots; s++)
			if (f->stack[s].type[7] == SLOT_SPILL && f->stack[s].spilled.ref_obj_id == ref_obj_id)
				rb_reg_unknown(env, &f->stack[s].spilled);
	}
}

int rb_ptr_refs(const struct rb_vstate *st)
{
	int n = 0;
	for (int i = 0; i < st->nrefs; i++)
		n += st->ref_insns[i] >= 0;
	return n;
}

/* every packet pointer of the current state becomes unknown (after a
 * helper or subprogram that may change packet data) */
void rb_clear_pkt_pointers(struct rb_env *env)
{
	struct rb_vstate *st = env->cur;
	for (int fi = 0; fi <= st->curframe; fi++) {
		struct rb_func *f = st->frame[fi];
		for (int i = 0; i < RB_MAX_REG; i++) {
			uint8_t t = f->regs[i].type;
			if (t == RT_PKT || t == RT_PKT_META || t == RT_PKT_END)
				rb_reg_unknown(env, &f->regs[i]);
		}
		for (int s = 0; s < f->nslots; s++) {
			uint8_t t = f->stack[s].spilled.type;
			if (f->stack[s].type[7] == SLOT_SPILL && (t == RT_PKT || t == RT_PKT_META || t == RT_PKT_END))
				rb_reg_unknown(env, &f->stack[s].spilled);
		}
	}
}
