/* live_regs.h — live registers before each instruction (see live_regs.c). */
#ifndef RB_ENGINE_LIVE_REGS_H
#define RB_ENGINE_LIVE_REGS_H

#include "engine/state.h"

/* env->aux[i].live_regs for every instruction: a backward fixed point over the CFG */
void rb_compute_live_regs(struct rb_env *env);

#endif
