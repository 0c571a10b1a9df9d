/* dynptr_kfuncs.h — the dynptr kfuncs with scalar results (see
 * dynptr_kfuncs.c): the `special` checker of their kfunc_table.c rows. */
#ifndef RB_ENGINE_DYNPTR_KFUNCS_H
#define RB_ENGINE_DYNPTR_KFUNCS_H

#include "engine/kfunc_table.h"
#include "engine/state.h"

/* bpf_dynptr_size, bpf_dynptr_is_null, bpf_dynptr_is_rdonly, bpf_dynptr_adjust */
int rb_kfunc_dynptr_scalar(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);

#endif
