/* kptrs.h — the destination argument of bpf_kptr_xchg (Linux 6.18
 * process_kptr_func). See kptrs.c. */
#ifndef RB_ENGINE_KPTRS_H
#define RB_ENGINE_KPTRS_H

#include "engine/state.h"

/* ARG_KPTR_XCHG_DEST in register regno: the kernel's rejection, or
 * "unsupported" for a valid referenced kptr (not modelled further) */
int rb_check_kptr_xchg_dest(struct rb_env *env, int regno);

#endif
