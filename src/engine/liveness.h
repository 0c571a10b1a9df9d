/* liveness.h — stack slot liveness per call chain (Linux 6.18
 * kernel/bpf/liveness.c; see liveness.c). */
#ifndef RB_ENGINE_LIVENESS_H
#define RB_ENGINE_LIVENESS_H

#include <stdbool.h>

#include "engine/state.h"

/* a stack slot of frame `frameno` is read (or fully written) by the
 * current instruction of the innermost frame */
void rb_live_stack_access(struct rb_env *env, int frameno, int spi, bool write_full);
/* the profile's stack_live_half_slots: bytes [off, off + size) of the
 * frame's stack are read (or written) by the current instruction, in 7.2's
 * half-slot granularity */
void rb_live_stack_bytes(struct rb_env *env, int frameno, int off, int size, bool write);
/* around one instruction: collect its full writes, then merge them into
 * its earlier visits' (bpf_reset/commit_stack_write_marks) */
void rb_live_insn_begin(struct rb_env *env);
void rb_live_insn_commit(struct rb_env *env);
/* the instruction entered or left a subprogram: its writes are not merged */
void rb_live_reset_callchain(struct rb_env *env);
/* bpf_update_live_stack: at a path's end and before a subprogram's exit */
int rb_live_update(struct rb_env *env);
/* each subprogram's instructions in CFG postorder (env->live_po, from
 * env->live_po_start[s]), computed once: 0 or RB_E_NOMEM */
int rb_live_postorder(struct rb_env *env);
/* clean_verifier_state: dead stack slots of a complete checkpoint become invalid */
void rb_clean_state(struct rb_env *env, struct rb_vstate *st);
/* clean_func_state of each of st's frames: registers dead before the
 * frame's insn become NOT_INIT; stack halves alive(ctx, frame, half)
 * says are dead become invalid (7.2's STACK_POISON) */
void rb_clean_frames(struct rb_env *env, struct rb_vstate *st, bool (*alive)(void *ctx, int frameno, int half),
		     void *ctx);
void rb_free_chains(struct rb_env *env);
/* bpf_insn_successors: the instructions control may reach from insn i
 * (none after exit), into out; returns their count */
int rb_insn_successors(const struct rb_env *env, int i, int out[2]);

#endif
