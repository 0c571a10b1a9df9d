/* stack.h — stack slot accesses (see stack.c). */
#ifndef RB_ENGINE_STACK_H
#define RB_ENGINE_STACK_H

#include <stdbool.h>

#include "engine/mem.h"
#include "engine/state.h"

/* a load (value_regno: the destination) or store (value_regno: the source,
 * or -1 for an immediate) of size bytes at reg + off on the stack */
int rb_check_stack_access(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size, bool write,
			  int value_regno, bool sext, const struct bpf_insn *insn);
/* helper memory on the stack: [reg + off, + sz) read or written as use says */
int rb_check_stack_range(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int sz, bool zero_ok,
			 enum rb_mem_use use);
/* stack_slot_obj_get_spi (Linux 6.18 and 7.2.13) for a stack object of
 * nr_slots slots named kind ("dynptr", "iter", "irq_flag") that reg points
 * to: 0 and the first (highest) slot's spi; -1 with the kernel's message in
 * msg; 1 when the slots lie beyond the allocated stack (-ERANGE, no
 * message). *off: reg's constant offset (when not -1 for a variable one). */
int rb_stack_obj_spi(struct rb_env *env, const struct rb_reg *reg, const char *kind, int nr_slots, int *spi, int *off,
		     char *msg, size_t len);

#endif
