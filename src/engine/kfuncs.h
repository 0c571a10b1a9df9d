/* kfuncs.h — kfunc calls (Linux 6.18 check_kfunc_call; the kfuncs are
 * rows of kfunc_table.c, their prototypes vmlinux BTF). */
#ifndef RB_ENGINE_KFUNCS_H
#define RB_ENGINE_KFUNCS_H

#include "engine/state.h"

/* a BPF_PSEUDO_KFUNC_CALL instruction at insn_idx */
int rb_check_kfunc_call(struct rb_env *env, const struct bpf_insn *insn, int insn_idx);
/* add_kfunc_call, before verification: every called id is a FUNC with a prototype */
int rb_kfunc_precheck(struct rb_env *env);
/* fixup_kfunc_call, after a successful verification: a reachable call
 * with imm 0 (a kfunc the loader could not resolve) is rejected */
int rb_kfunc_fixup(struct rb_env *env);
/* btf_struct_ids_match: struct `id` (at byte offset off) is struct `need`,
 * or (not strict) has it as the member found at that offset, recursively */
bool rb_btf_struct_ids_match(const struct btf *b, uint32_t id, int off, uint32_t need, bool strict);

#endif
