/* cfg.h — the control-flow graph: subprograms, prune points, live registers, SCCs (Linux 6.18 check_cfg, compute_live_registers, compute_scc). */
#ifndef RB_ENGINE_CFG_H
#define RB_ENGINE_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_cfg(struct rb_env *env);
/* strongly connected components of the CFG into env->aux[].scc */
int rb_compute_scc(struct rb_env *env);

#endif
