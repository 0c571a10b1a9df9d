/* jmp.h — conditional jumps (Linux 6.18 check_cond_jmp_op, reg_set_min_max, is_branch_taken). */
#ifndef RB_ENGINE_JMP_H
#define RB_ENGINE_JMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_cond_jmp(struct rb_env *env, const struct bpf_insn *insn, int *insn_idx);

#endif
