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
/* how a helper or kfunc uses memory it is passed (6.18
 * check_helper_mem_access): read; written in place (check_stack_range_initialized
 * with clobber: the bytes must be readable, and are read for liveness); or
 * raw (MEM_UNINIT at a constant stack offset, meta->raw_mode: nothing is
 * read, the helper's byte-by-byte writes after the call are one-byte
 * stores, which 6.18's liveness counts neither as reads nor as writes) */
enum rb_mem_use { RB_MEM_READ, RB_MEM_WRITE, RB_MEM_RAW };

int rb_check_mem_range(struct rb_env *env, int regno, int size_regno_or_neg, uint64_t size,
		       bool zero_size_ok, enum rb_mem_use use);

#endif
