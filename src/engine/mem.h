/* mem.h — loads, stores and memory ranges (Linux 6.18 check_mem_access, check_stack_*, check_helper_mem_access). */
#ifndef RB_ENGINE_MEM_H
#define RB_ENGINE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_check_mem_access(struct rb_env *env, int insn_idx, int regno, int off, int size, bool write,
			int value_regno, bool sext, bool strict_alignment_once);
int rb_check_ldst(struct rb_env *env, const struct bpf_insn *insn);
int rb_check_mem_range(struct rb_env *env, int regno, int size_regno_or_neg, uint64_t size,
		       bool zero_size_ok, bool write_uninit);

#endif
