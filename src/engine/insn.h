/* insn.h — one instruction: decode and dispatch to its checker (Linux 6.18 do_check_insn). */
#ifndef RB_ENGINE_INSN_H
#define RB_ENGINE_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_do_insn(struct rb_env *env, bool *exit_path);

#endif
