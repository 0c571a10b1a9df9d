/* alu.h — ALU instructions (Linux 6.18 check_alu_op, adjust_scalar_min_max_vals, adjust_ptr_min_max_vals). */
#ifndef RB_ENGINE_ALU_H
#define RB_ENGINE_ALU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_alu(struct rb_env *env, const struct bpf_insn *insn);
void rb_reg_sanity(struct rb_env *env, struct rb_reg *r, const char *ctx);
/* give src an id before a copy, so the copies are linked scalars */
void rb_assign_id_before_mov(struct rb_env *env, struct rb_reg *src);

#endif
