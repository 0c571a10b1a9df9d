/* explore.h — the explorer (see explore.c): the main loop and the
 * time budget's clock. */
#ifndef RB_ENGINE_EXPLORE_H
#define RB_ENGINE_EXPLORE_H

#include "engine/state.h"

/* explore every path from insn start with env->cur (do_check) */
int rb_explore(struct rb_env *env, int start);
/* monotonic seconds (time budgets, verify_us) */
double rb_now_s(void);

#endif
