/* alloc_lock.h — a bpf_spin_lock and the graph roots inside allocated
 * objects (Linux 6.18 and 7.2.13). See alloc_lock.c. */
#ifndef RB_ENGINE_ALLOC_LOCK_H
#define RB_ENGINE_ALLOC_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

/* byte offset of the struct `type` ("bpf_spin_lock", ...) in the program
 * BTF's struct type_id (nested structs too), -1 when none */
int32_t rb_alloc_lock_off(struct rb_env *env, int32_t type_id, const char *type);
/* reg_may_point_to_spin_lock of an allocated object (owning or not) */
bool rb_alloc_may_lock(struct rb_env *env, const struct rb_reg *reg);
/* PTR_TO_BTF_ID | MEM_ALLOC exactly: owning, not NULL, no other flag */
bool rb_alloc_owning_exact(const struct rb_reg *reg);
/* __check_ptr_off_reg with a fixed offset allowed: a constant,
 * non-negative offset */
int rb_alloc_ptr_off(struct rb_env *env, const struct rb_reg *reg, int regno);
/* ARG_PTR_TO_SPIN_LOCK (bpf_spin_lock's struct `type`, or a
 * bpf_res_spin_lock kfunc's) of an allocated object in regno: checked,
 * *key the register to lock on (its map_idx RB_LOCK_PROG_BTF) */
int rb_alloc_lock_arg(struct rb_env *env, const struct rb_reg *reg, int regno, const char *type,
		      struct rb_reg *key);

#endif
