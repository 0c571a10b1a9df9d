/* callbacks.h — callbacks (Linux 6.18 push_callback_call, the
 * set_*_callback_state family, the callback half of prepare_func_exit,
 * widen_imprecise_scalars): subprograms a helper calls back, whose address
 * the program loads with a BPF_PSEUDO_FUNC ld_imm64. See callbacks.c. */
#ifndef RB_ENGINE_CALLBACKS_H
#define RB_ENGINE_CALLBACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

/* how a helper calls its callback: not at all, synchronously (any number of
 * times before it returns: bpf_loop, for_each_map_elem, find_vma,
 * user_ringbuf_drain) or later (bpf_timer_set_callback) */
enum rb_cb_kind { RB_CB_NONE = 0, RB_CB_SYNC, RB_CB_ASYNC };
enum rb_cb_kind rb_helper_cb_kind(int32_t helper_id);
/* the helper id standing for bpf_rbtree_add_impl's `less` callback (a
 * kfunc: is_sync_callback_calling_kfunc) */
#define RB_CB_RBTREE_ADD (-2)

/* the static pass (check_cfg): marks of the instructions that call back */
void rb_cfg_mark_callback_insn(struct rb_env *env, int insn_idx);

/* check_ld_imm for BPF_PSEUDO_FUNC: dst becomes a PTR_TO_FUNC of the
 * subprogram the ld_imm64 names */
int rb_ld_pseudo_func(struct rb_env *env, const struct bpf_insn *insn, struct rb_reg *dst);

/* check_helper_call after the arguments were checked (before r0-r5 are
 * clobbered): the callback visit of a callback-calling helper is pushed
 * (bpf_loop: while its depth is below nr_loops). subprog: the callback's,
 * from the PTR_TO_FUNC argument. No-op for other helpers. */
int rb_helper_callback(struct rb_env *env, int32_t helper_id, int insn_idx, int subprog);

/* check_kfunc_call's push_callback_call for a sync callback-calling
 * kfunc (helper_id: RB_CB_RBTREE_ADD) */
int rb_kfunc_callback(struct rb_env *env, int32_t helper_id, int insn_idx, int subprog);
/* in_rbtree_lock_required_cb: the current frame is bpf_rbtree_add's callback */
bool rb_in_rbtree_cb(struct rb_env *env);

/* prepare_func_exit of a callback frame: R0 must be a scalar in the
 * callback's return range (marked precise) */
int rb_callback_exit_check(struct rb_env *env, const struct rb_func *callee);
/* prepare_func_exit, after the callback frame was dropped and the path is
 * back at the calling instruction insn_idx: imprecise scalars that differ
 * from the previous visit of this instruction on the same path widen to
 * unknown (so that a callback looping over a counter converges) */
int rb_callback_widen(struct rb_env *env, int insn_idx);

/* check_return_code of an async callback's frame 0 */
int rb_async_callback_return(struct rb_env *env);

#endif
