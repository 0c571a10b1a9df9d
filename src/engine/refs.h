/* refs.h — references and packet pointers across a state (see refs.c). */
#ifndef RB_ENGINE_REFS_H
#define RB_ENGINE_REFS_H

#include <stdint.h>

#include "engine/state.h"

/* a new acquired reference of the current state (0: out of memory) */
uint32_t rb_acquire_ref(struct rb_env *env);
/* a maybe-NULL result that is acquired (6.18 and 7.2.13: its null-check
 * id is drawn, then replaced by the new reference's): r's id and
 * ref_obj_id; 0 or RB_E_NOMEM */
int rb_acquire_ref_null(struct rb_env *env, struct rb_reg *r);
/* release_reference: the reference and every register holding it */
void rb_release_ref(struct rb_env *env, uint32_t ref_obj_id);
/* release_reference_state (6.18 and 7.2.13): entry i leaves st's refs,
 * the others keep their order (saved IRQ flags are restored in the
 * reverse order of their entries) */
void rb_ref_remove(struct rb_vstate *st, int i);
/* the state's acquired references that are pointers (6.18 and 7.2.13
 * REF_TYPE_PTR: not locks, not saved IRQ flags), which
 * check_reference_leak counts */
int rb_ptr_refs(const struct rb_vstate *st);
/* every packet pointer of the current state becomes unknown */
void rb_clear_pkt_pointers(struct rb_env *env);

#endif
