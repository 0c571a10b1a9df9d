/* call.h — subprogram calls and exits (Linux 6.18 check_func_call, prepare_func_exit, check_return_code). */
#ifndef RB_ENGINE_CALL_H
#define RB_ENGINE_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_func_call(struct rb_env *env, const struct bpf_insn *insn, int *insn_idx);
int rb_check_exit(struct rb_env *env, int *insn_idx, bool *exit_path);
int rb_subprog_return(struct rb_env *env, int *insn_idx);

#endif
