/* stack_depth.h — per-subprogram stack depth and Linux 6.18's check_max_stack_depth(). */
#ifndef RB_ENGINE_STACK_DEPTH_H
#define RB_ENGINE_STACK_DEPTH_H

#include "engine/state.h"

/* record that frame f's stack grew to `bytes` (grow_stack_state) */
void rb_note_stack_depth(struct rb_env *env, const struct rb_func *f, int bytes);
/* after verification: combined stack of call chains, tail-call depth */
int rb_check_max_stack_depth(struct rb_env *env);

#endif
