/* liveness.h — stack slot liveness per call chain (Linux 6.18
 * kernel/bpf/liveness.c, approximated; see liveness.c). */
#ifndef RB_ENGINE_LIVENESS_H
#define RB_ENGINE_LIVENESS_H

#include <stdbool.h>

#include "engine/state.h"

/* a stack slot of frame `frameno` is read (or fully written) by the
 * current instruction of the innermost frame */
void rb_live_stack_access(struct rb_env *env, int frameno, int spi, bool write_full);
/* clean_verifier_state: dead stack slots of a complete checkpoint become invalid */
void rb_clean_state(struct rb_env *env, struct rb_vstate *st);
void rb_free_chains(struct rb_env *env);

#endif
