/* const_str.h — helper arguments that are strings in read-only map values
 * (Linux 6.18 check_reg_const_str, check_bpf_snprintf_call). */
#ifndef RB_ENGINE_CONST_STR_H
#define RB_ENGINE_CONST_STR_H

#include "engine/state.h"

/* ARG_PTR_TO_CONST_STR in register regno: 0, or the kernel's rejection */
int rb_check_const_str_arg(struct rb_env *env, int regno);
/* bpf_snprintf's format (r3) against its data size (r5), after the
 * argument checks: 0, or the kernel's rejection */
int rb_check_snprintf_format(struct rb_env *env);

#endif
