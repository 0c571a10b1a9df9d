/* insn_fields.h — Linux 7.2.13's static instruction checks (see insn_fields.c) */
#ifndef RB_ENGINE_INSN_FIELDS_H
#define RB_ENGINE_INSN_FIELDS_H

#include "engine/state.h"

/* 7.2 check_and_resolve_insns: a register number above R10 (R11 only as
 * a stack argument's base): 0, or a rejection */
int rb_insn_regs_72(struct rb_env *env, const struct bpf_insn *in);
/* 7.2 check_insn_fields: the reserved fields of one instruction that is
 * not an ld_imm64: 0, or a rejection */
int rb_insn_fields_72(struct rb_env *env, const struct bpf_insn *in);

#endif
