/* helpers.h — helper calls (Linux 6.18 check_helper_call, bpf_func_proto), references. */
#ifndef RB_ENGINE_HELPERS_H
#define RB_ENGINE_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_helper_call(struct rb_env *env, const struct bpf_insn *insn, int insn_idx);
const char *rb_helper_proto_name(int32_t func_id);
int rb_helper_changes_pkt(int32_t func_id);
int rb_helper_nargs(int32_t func_id);

#endif
