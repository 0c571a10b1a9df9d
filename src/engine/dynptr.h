/* dynptr.h — dynamic pointers (Linux 6.18 process_dynptr_func,
 * mark_stack_slots_dynptr, unmark_stack_slots_dynptr,
 * destroy_if_dynptr_stack_slot, is_dynptr_reg_valid_init/uninit,
 * is_dynptr_type_expected, dynptr_id, dynptr_ref_obj_id): a struct
 * bpf_dynptr on the program's stack (two slots) or a callback's
 * CONST_PTR_TO_DYNPTR argument. See dynptr.c. */
#ifndef RB_ENGINE_DYNPTR_H
#define RB_ENGINE_DYNPTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

/* the dynptr kinds (the kernel's enum bpf_dynptr_type) */
enum { RB_DYNPTR_INVALID = 0, RB_DYNPTR_LOCAL, RB_DYNPTR_RINGBUF, RB_DYNPTR_SKB, RB_DYNPTR_XDP };

/* A dynptr's two stack slots have type SLOT_DYNPTR in every byte; each
 * slot's `spilled` register (the kernel's spilled_ptr) is an
 * RT_CONST_DYNPTR with the dynptr's id, its reference (ringbuf dynptrs)
 * and these fields; an RT_CONST_DYNPTR register uses the same ones. */
#define RB_DYNPTR_TYPE(r) ((r)->map_idx) /* RB_DYNPTR_* */
#define RB_DYNPTR_FIRST(r) ((r)->range)  /* 1 in the first (higher) slot */
/* a slice (RT_MEM from bpf_dynptr_data) keeps its dynptr's id here */
#define RB_SLICE_DYNPTR_ID(r) ((r)->map_idx)

/* how a helper's ARG_PTR_TO_DYNPTR argument is declared */
enum rb_dynptr_arg {
	RB_DA_UNINIT, /* MEM_UNINIT: a new dynptr of `type` is built there */
	RB_DA_RDONLY, /* MEM_RDONLY: an initialised dynptr of any type, not changed */
	RB_DA_RELEASE /* OBJ_RELEASE: an initialised dynptr of `type`, destroyed */
};

/* what the dynptr argument tells the rest of the call */
struct rb_dynptr_use {
	int regno;           /* the argument register, 0 when none */
	bool release;        /* destroy it after the argument checks */
	uint32_t id, ref_obj_id;
	int type;
};

/* check_func_arg for an ARG_PTR_TO_DYNPTR argument in register regno */
int rb_dynptr_check_arg(struct rb_env *env, int regno, enum rb_dynptr_arg how, int type, struct rb_dynptr_use *u);
/* unmark_stack_slots_dynptr: the released dynptr in register regno */
int rb_dynptr_release(struct rb_env *env, int regno);
/* destroy_if_dynptr_stack_slot: a write to slot spi of frame f */
int rb_dynptr_destroy_slot(struct rb_env *env, struct rb_func *f, int spi);
/* mark_dynptr_cb_reg: a callback's R1 (bpf_user_ringbuf_drain) */
void rb_dynptr_cb_reg(struct rb_env *env, struct rb_reg *r, int type);

#endif
