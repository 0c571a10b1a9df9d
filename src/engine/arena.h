/* arena.h — BPF arenas (BPF_MAP_TYPE_ARENA, PTR_TO_ARENA), as Linux 6.18
 * and 7.2.13 verify them; see arena.c. */
#ifndef RB_ENGINE_ARENA_H
#define RB_ENGINE_ARENA_H

#include <stdbool.h>

#include "engine/state.h"

#define RB_MAP_TYPE_ARENA 33 /* BPF_MAP_TYPE_ARENA, after the system's UAPI header */

struct bpf_insn;

/* prog->aux->arena: the program references an arena map by ld_imm64 */
bool rb_prog_uses_arena(const struct rb_env *env);
/* addr_space_cast (BPF_MOV64 with off 1), its fields already checked */
int rb_arena_cast(struct rb_env *env, const struct bpf_insn *insn);
/* an ALU operation with an arena operand: true when handled (dst is then
 * PTR_TO_ARENA) */
bool rb_arena_alu(struct rb_env *env, const struct bpf_insn *insn);

#endif
