/* const_fold.h — 7.2's constant branch folding (see const_fold.c). */
#ifndef RB_ENGINE_CONST_FOLD_H
#define RB_ENGINE_CONST_FOLD_H

#include "engine/state.h"

/* rewrite the conditional jumps whose outcome known constants decide into
 * gotos (env->insns then points to the engine's own copy) */
int rb_const_fold_branches(struct rb_env *env);

#endif
