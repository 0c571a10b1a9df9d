/* helpers.h — the helper call check (Linux 6.18 check_helper_call); the
 * helpers themselves are rows of helper_table.c. */
#ifndef RB_ENGINE_HELPERS_H
#define RB_ENGINE_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_helper_call(struct rb_env *env, const struct bpf_insn *insn, int insn_idx);

#endif
