/* callbacks.c — subprograms called back by helpers (Linux 6.18
 * push_callback_call, setup_func_entry, set_loop_callback_state,
 * set_map_elem_callback_state, set_timer_callback_state,
 * set_find_vma_callback_state, set_user_ringbuf_callback_state, the in_callback_fn half of
 * prepare_func_exit, find_prev_entry).
 *
 * How 6.18 verifies a callback that may run any number of times: the
 * calling instruction C is a forced checkpoint. Checking C pushes a visit of
 * the callback (a copy of the caller's state with a new frame whose
 * arguments the helper sets) and goes on past C as if the callback had not
 * run. A callback's exit returns to C itself, with the caller frame's
 * callback_depth one higher, after widening imprecise scalars that changed
 * since the previous visit of C on this path; C is then checked again and
 * pushes the next visit. The repetition ends when a visit reaches C in a
 * state within a checkpoint of C still being explored (is_state_visited in
 * prune.c, a loop backedge), or, for bpf_loop, when callback_depth reaches
 * the largest possible nr_loops. An async callback (bpf_timer) is verified
 * once, as a program of its own starting in a fresh state. */
#include <stdlib.h>
#include <string.h>

#include "engine/btf_names.h"
#include "engine/profile.h"
#include "engine/backtrack.h"
#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/callbacks.h"
#include "engine/dynptr.h"
#include "engine/graph.h"
#include "engine/names.h"
#include "engine/log.h"
#include "engine/states.h"
#include "util/pool.h"

enum rb_cb_kind rb_helper_cb_kind(int32_t helper_id)
{
	switch (helper_id) {
	case BPF_FUNC_for_each_map_elem:
	case BPF_FUNC_find_vma:
	case BPF_FUNC_loop:
	case BPF_FUNC_user_ringbuf_drain:
	case RB_CB_RBTREE_ADD:
		return RB_CB_SYNC;
	case BPF_FUNC_timer_set_callback:
		return RB_CB_ASYNC;
	default:
		return RB_CB_NONE;
	}
}

/* visit_insn (6.18): an async-callback call is a prune point (so that the
 * state is checked before a new async state is pushed); a sync one is also
 * a forced checkpoint and a jump point, where callback visits come back */
void rb_cfg_mark_callback_insn(struct rb_env *env, int insn_idx)
{
	const struct bpf_insn *in = &env->insns[insn_idx];
	if (in->code != (BPF_JMP | BPF_CALL) || (in->src_reg != 0 && in->src_reg != BPF_PSEUDO_KFUNC_CALL))
		return;
	struct rb_aux *a = &env->aux[insn_idx];
	int32_t id = in->imm;
	if (in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
		/* is_sync_callback_calling_kfunc: bpf_rbtree_add_impl (7.2.13: or bpf_rbtree_add) */
		const char *n = in->imm && !in->off ? rb_kfunc_name(rb_need_vmlinux(env), in->imm) : NULL;
		id = rb_is_rbtree_add(n) ? RB_CB_RBTREE_ADD : 0;
	}
	switch (rb_helper_cb_kind(id)) {
	case RB_CB_ASYNC:
		a->prune_point = true;
		break;
	case RB_CB_SYNC:
		a->calls_callback = a->force_checkpoint = a->prune_point = a->jmp_point = true;
		break;
	default:
		break;
	}
}

static int find_subprog(const struct rb_env *env, int start)
{
	for (int i = 0; i < env->nsubprogs; i++)
		if (env->subprogs[i].start == start)
			return i;
	return -1;
}

int rb_ld_pseudo_func(struct rb_env *env, const struct bpf_insn *insn, struct rb_reg *dst)
{
	int sub = find_subprog(env, env->insn_idx + insn->imm + 1);
	if (sub < 0)
		return rb_reject(env, "verifier bug. No program starts at insn %d", env->insn_idx + insn->imm + 1);
	if (!env->prog->func_info)
		return rb_reject(env, "missing btf func_info");
	if (env->subprogs[sub].global)
		return rb_reject(env, "callback function not static");
	rb_reg_ptr(env, dst, RT_FUNC);
	dst->map_idx = sub;
	return 0;
}

/* init_func_state: every register unreadable, r10 the frame's own stack,
 * the default callback return range [0, 0] */
static struct rb_func *new_frame(struct rb_env *env, struct rb_pool *pool, int callsite, int frameno, int subprog)
{
	struct rb_func *f = rb_pool_calloc(pool, sizeof(*f));
	if (!f)
		return NULL;
	f->callsite = callsite;
	f->frameno = frameno;
	f->subprog = subprog;
	for (int i = 0; i < RB_MAX_REG; i++)
		rb_reg_not_init(env, &f->regs[i]);
	rb_reg_ptr(env, &f->regs[RB_REG_FP], RT_STACK);
	f->regs[RB_REG_FP].frameno = (uint8_t)frameno;
	return f;
}

/* a callback's map pointer, key or value: of the caller's map pointer
 * (map_ptr and map_uid, 6.18 and 7.2.13 set_map_elem_callback_state,
 * set_timer_callback_state) */
static void map_ptr_reg(struct rb_env *env, struct rb_reg *r, enum rb_rtype type, const struct rb_reg *map)
{
	rb_reg_ptr(env, r, type);
	r->map_idx = map->map_idx;
	RB_MAP_UID(r) = RB_MAP_UID(map);
}

/* map_set_for_each_callback_args: the map types that have them in 6.18 */
static bool map_has_for_each(uint32_t map_type)
{
	switch (map_type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		return true;
	default:
		return false;
	}
}

/* the set_*_callback_state functions: the callee's arguments from the
 * helper's (caller) registers */
static int set_callee_state(struct rb_env *env, int32_t helper_id, const struct rb_func *caller, struct rb_func *callee)
{
	const struct rb_reg *cr = caller->regs;
	struct rb_reg *r = callee->regs;
	switch (helper_id) {
	case BPF_FUNC_loop:
		/* callback_fn(u64 index, void *callback_ctx) */
		rb_reg_unknown(env, &r[1]);
		r[2] = cr[3];
		break;
	case BPF_FUNC_for_each_map_elem: {
		/* callback_fn(struct bpf_map *map, void *key, void *value, void *callback_ctx) */
		int32_t m = cr[1].map_idx;
		if (!map_has_for_each(env->obj->maps[m].type))
			return rb_reject(env, "callback function not allowed for map");
		r[1] = cr[1];
		map_ptr_reg(env, &r[2], RT_MAP_KEY, &cr[1]);
		map_ptr_reg(env, &r[3], RT_MAP_VALUE, &cr[1]);
		r[3].id = ++env->id_gen; /* measured on 6.18.44: the value has an id */
		r[4] = cr[3];
		break;
	}
	case BPF_FUNC_find_vma: {
		/* callback_fn(struct task_struct *task, struct vm_area_struct *vma, void *callback_ctx) */
		int32_t vma = rb_btf_struct_id(env, "vm_area_struct");
		if (vma <= 0)
			return rb_unsupported(env, "find_vma callback without vmlinux BTF");
		r[1] = cr[1];
		rb_reg_ptr(env, &r[2], RT_BTF_ID);
		r[2].map_idx = vma;
		r[3] = cr[4];
		break;
	}
	case BPF_FUNC_timer_set_callback: {
		/* callback_fn(struct bpf_map *map, void *key, void *value) */
		map_ptr_reg(env, &r[1], RT_MAP_PTR, &cr[1]);
		map_ptr_reg(env, &r[2], RT_MAP_KEY, &cr[1]);
		map_ptr_reg(env, &r[3], RT_MAP_VALUE, &cr[1]);
		r[3].id = ++env->id_gen; /* measured on 6.18.44, as for bpf_for_each_map_elem */
		callee->in_async_callback_fn = true;
		callee->cb_ret_lo = callee->cb_ret_hi = 0;
		return 0;
	}
	case BPF_FUNC_user_ringbuf_drain:
		/* callback_fn(const struct bpf_dynptr *dynptr, void *ctx) */
		rb_dynptr_cb_reg(env, &r[1], RB_DYNPTR_LOCAL);
		r[2] = cr[3];
		break;
	case RB_CB_RBTREE_ADD: {
		/* set_rbtree_add_callback_state: less(a, b), both non-owning
		 * nodes of the root's type */
		struct rb_graph_root root;
		if (rb_graph_root_of(env, &cr[1], &root))
			return rb_reject(env, "verifier bug: rbtree_add without its root");
		rb_graph_non_owning(env, &r[1], &root);
		rb_graph_non_owning(env, &r[2], &root);
		break;
	}
	default:
		return rb_unsupported(env, "callback of helper #%d", helper_id);
	}
	callee->in_callback_fn = true;
	callee->cb_ret_lo = 0;
	callee->cb_ret_hi = 1;
	return 0;
}

/* setup_func_entry on the pushed state st: a new innermost frame */
static int setup_func_entry(struct rb_env *env, struct rb_vstate *st, int32_t helper_id, int subprog, int callsite)
{
	if (st->curframe + 1 >= env->prof->max_call_frames)
		return rb_reject(env, "the call stack of %d frames is too deep", st->curframe + 2);
	struct rb_func *callee = new_frame(env, rb_pool_of(st), callsite, st->curframe + 1, subprog);
	if (!callee)
		return RB_E_NOMEM;
	rb_scratch_all(env); /* init_func_state: mark_verifier_state_scratched */
	st->frame[st->curframe + 1] = callee;
	int err = set_callee_state(env, helper_id, st->frame[st->curframe], callee);
	if (err)
		return err;
	st->curframe++;
	return 0;
}

/* push_async_cb: the callback starts later, in a fresh state of its own
 * (frame 0, no parent), not as a branch of this path */
static int push_async_callback(struct rb_env *env, int32_t helper_id, int insn_idx, int subprog)
{
	struct rb_vstate *st = rb_state_new(env->pool, env->prof->max_call_frames);
	if (!st)
		return RB_E_NOMEM;
	rb_func_free(st->frame[0]);
	st->frame[0] = new_frame(env, rb_pool_of(st), -1, 0, subprog);
	rb_scratch_all(env);
	if (!st->frame[0]) {
		rb_state_free(st);
		return RB_E_NOMEM;
	}
	st->frame[0]->async_entry_cnt = rb_cur_frame(env)->async_entry_cnt + 1;
	int err = set_callee_state(env, helper_id, rb_cur_frame(env), st->frame[0]);
	if (err || (err = rb_push_branch_state(env, st, env->subprogs[subprog].start, insn_idx))) {
		rb_state_free(st);
		return err;
	}
	return 0;
}

/* push_callback_call */
static int push_callback(struct rb_env *env, int32_t helper_id, int insn_idx, int subprog)
{
	struct rb_subprog *sp = &env->subprogs[subprog];
	sp->is_cb = true;
	if (rb_helper_cb_kind(helper_id) == RB_CB_ASYNC) {
		sp->is_async_cb = true;
		return push_async_callback(env, helper_id, insn_idx, subprog);
	}
	struct rb_vstate *st = rb_push_branch(env, sp->start, insn_idx);
	if (!st)
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	/* the pushed copy grows a frame: account for its final size */
	rb_states_mem_sub(env, st);
	int err = setup_func_entry(env, st, helper_id, subprog, insn_idx);
	rb_states_mem_add(env, st);
	if (err)
		return err;
	st->callback_unroll_depth++;
	st->frame[st->curframe - 1]->callback_depth++;
	rb_cur_frame(env)->callback_depth = 0;
	return 0;
}

int rb_kfunc_callback(struct rb_env *env, int32_t helper_id, int insn_idx, int subprog)
{
	if (subprog < 0 || subprog >= env->nsubprogs)
		return rb_reject(env, "verifier bug: callback subprog %d", subprog);
	return push_callback(env, helper_id, insn_idx, subprog);
}

bool rb_in_rbtree_cb(struct rb_env *env)
{
	const struct rb_func *f = rb_cur_frame(env);
	if (!env->cur->curframe || !f->in_callback_fn || f->callsite < 0)
		return false;
	const struct bpf_insn *in = &env->insns[f->callsite];
	const char *n = in->src_reg == BPF_PSEUDO_KFUNC_CALL && in->imm && !in->off
				? rb_kfunc_name(rb_need_vmlinux(env), in->imm) : NULL;
	return rb_is_rbtree_add(n);
}

/* loop_flag_is_zero: R4 is the constant 0 (then marked precise) */
static bool loop_flag_is_zero(struct rb_env *env, int *err)
{
	const struct rb_reg *r4 = &rb_cur_regs(env)[4];
	if (r4->type != RT_SCALAR || !rb_reg_is_const(env, r4) || rb_reg_const_val(env, r4) != 0)
		return false;
	*err = rb_mark_chain_precision(env, 4);
	return true;
}

int rb_helper_callback(struct rb_env *env, int32_t helper_id, int insn_idx, int subprog)
{
	if (rb_helper_cb_kind(helper_id) == RB_CB_NONE)
		return 0;
	if (subprog < 0 || subprog >= env->nsubprogs)
		return rb_reject(env, "verifier bug: callback subprog %d", subprog);
	if (helper_id != BPF_FUNC_loop)
		return push_callback(env, helper_id, insn_idx, subprog);
	/* 6.18 update_loop_inline_state: whether the call may be inlined; a
	 * zero flags register (R4) is marked precise each time it is asked
	 * (loop_flag_is_zero), on the first visit and then while the call
	 * stays fit for inlining */
	struct rb_aux *a = &env->aux[insn_idx];
	int err = 0;
	if (!a->loop_inline_init || a->loop_fit_for_inline) {
		bool zero = loop_flag_is_zero(env, &err);
		if (err)
			return err;
		a->loop_fit_for_inline = zero && (!a->loop_inline_init || a->loop_cb_subprog == subprog);
		if (!a->loop_inline_init)
			a->loop_cb_subprog = subprog;
		a->loop_inline_init = true;
	}
	/* bpf_loop: R1 (nr_loops) decides when the iteration is finished */
	err = rb_mark_chain_precision(env, 1);
	if (err)
		return err;
	struct rb_bounds b;
	rb_reg_bounds(env, &rb_cur_regs(env)[1], &b);
	struct rb_func *f = rb_cur_frame(env);
	if ((uint64_t)f->callback_depth < b.umax)
		return push_callback(env, helper_id, insn_idx, subprog);
	f->callback_depth = 0;
	rb_log(env, "frame%d bpf_loop iteration limit reached\n", env->cur->curframe);
	return 0;
}

/* retval_range_within (64-bit) and verbose_invalid_scalar */
static int check_ret_range(struct rb_env *env, const struct rb_reg *r0, int32_t lo, int32_t hi, const char *ctx)
{
	struct rb_bounds b;
	rb_reg_bounds(env, r0, &b);
	if (b.smin >= lo && b.smax <= hi)
		return 0;
	char msg[200];
	int n = snprintf(msg, sizeof(msg), "%s the register R0 has", ctx);
	if (b.smin > INT64_MIN)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, " smin=%lld", (long long)b.smin);
	if (b.smax < INT64_MAX)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, " smax=%lld", (long long)b.smax);
	if (b.smin == INT64_MIN && b.smax == INT64_MAX)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, " unknown scalar value");
	snprintf(msg + n, sizeof(msg) - (size_t)n, " should have been in [%d, %d]", lo, hi);
	return rb_reject(env, "%s", msg);
}

int rb_callback_exit_check(struct rb_env *env, const struct rb_func *callee)
{
	const struct rb_reg *r0 = &callee->regs[0];
	if (r0->type != RT_SCALAR)
		return rb_reject(env, "R0 not a scalar value");
	int err = rb_mark_chain_precision(env, 0);
	if (err)
		return err;
	return check_ret_range(env, r0, callee->cb_ret_lo, callee->cb_ret_hi, "At callback return");
}

int rb_async_callback_return(struct rb_env *env)
{
	int err = rb_check_reg_read(env, 0);
	if (err)
		return err;
	const struct rb_func *f = env->cur->frame[0];
	const struct rb_reg *r0 = &f->regs[0];
	if (r0->type != RT_SCALAR) {
		char tn[48];
		return rb_reject(env, "At async callback return the register R0 is not a known value (%s)",
				 rb_rtype_name(r0, tn, sizeof(tn)));
	}
	if ((err = rb_mark_chain_precision(env, 0)))
		return err;
	return check_ret_range(env, r0, f->cb_ret_lo, f->cb_ret_hi, "At async callback return");
}

int rb_callback_widen(struct rb_env *env, int insn_idx)
{
	struct rb_vstate *prev = rb_find_prev_entry(env, env->cur, insn_idx);
	if (prev)
		rb_widen_imprecise_scalars(env, prev, env->cur);
	return 0;
}
