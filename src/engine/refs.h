/* refs.h — references and packet pointers across a state (see refs.c). */
#ifndef RB_ENGINE_REFS_H
#define RB_ENGINE_REFS_H

#include <stdint.h>

#include "engine/state.h"

/* a new acquired reference of the current state (0: out of memory) */
uint32_t rb_acquire_ref(struct rb_env *env);
/* release_reference: the reference and every register holding it */
void rb_release_ref(struct rb_env *env, uint32_t ref_obj_id);
/* every packet pointer of the current state becomes unknown */
void rb_clear_pkt_pointers(struct rb_env *env);

#endif
