/* subprog_topo.h — Linux 7.2.13's static recursion check (see subprog_topo.c) */
#ifndef RB_ENGINE_SUBPROG_TOPO_H
#define RB_ENGINE_SUBPROG_TOPO_H

#include "engine/state.h"

/* 7.2 sort_subprogs_topo: 0, a rejection naming the first recursive call
 * found, or RB_E_NOMEM */
int rb_subprog_topo_check(struct rb_env *env);

#endif
