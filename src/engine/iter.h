/* iter.h — open-coded iterators (Linux 6.18 process_iter_arg,
 * mark_stack_slots_iter, unmark_stack_slots_iter, process_iter_next_call,
 * iter_active_depths_differ): the kfuncs bpf_iter_<type>_{new,next,destroy}
 * behind libbpf's bpf_for/bpf_repeat. See iter.c. */
#ifndef RB_ENGINE_ITER_H
#define RB_ENGINE_ITER_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/kfunc_table.h"
#include "engine/state.h"

/* An iterator's stack slots have type SLOT_ITER in every byte; the state
 * lives in the slot's `spilled` register (the kernel's spilled_ptr.iter):
 * type RT_STACK, ref_obj_id (first slot only), and these fields: */
#define RB_ITER_BTF_ID(r) ((r)->map_idx) /* vmlinux BTF id of struct bpf_iter_<type> */
#define RB_ITER_STATE(r) ((r)->range)    /* enum below */
#define RB_ITER_DEPTH(r) ((r)->off)      /* next() calls that found it active, on this path */
enum { RB_ITER_INVALID = 0, RB_ITER_ACTIVE, RB_ITER_DRAINED };

/* the `special` checkers of kfunc_table.c's iterator rows */
int rb_kfunc_iter_new(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
int rb_kfunc_iter_next(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
int rb_kfunc_iter_destroy(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);

/* 7.2.13 KF_ARG_PTR_TO_ITER of another kfunc (an "__iter" argument, e.g.
 * scx_bpf_dsq_move's): process_iter_arg's initialized iterator */
int rb_kfunc_iter_arg(struct rb_env *env, const struct rb_kfunc_call *call, int argi);

/* check_cfg: an iterator's next() call is a prune point and a forced
 * checkpoint (is_iter_next_insn); after vmlinux BTF is at hand */
void rb_iter_mark_next_calls(struct rb_env *env);
/* is_state_visited at a next() call: cur matched a checkpoint still being
 * explored; the loop converged if cur's iterator (R1) is still active */
bool rb_iter_next_converged(struct rb_env *env, const struct rb_vstate *cur);
/* iter_active_depths_differ: an iterator active in old has another depth in cur */
bool rb_iter_active_depths_differ(const struct rb_vstate *old, const struct rb_vstate *cur);

#endif
