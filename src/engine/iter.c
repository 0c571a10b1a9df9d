/* iter.c — open-coded iterators (Linux 6.18 process_iter_arg,
 * stack_slot_obj_get_spi, is_iter_reg_valid_uninit/init,
 * mark_stack_slots_iter, unmark_stack_slots_iter, process_iter_next_call,
 * iter_active_depths_differ), for the kfuncs bpf_iter_<type>_new/next/
 * destroy whose iterator state is a struct on the program's stack.
 *
 * new() turns the struct's stack slots into an iterator (an acquired
 * reference, state "active", depth 0); destroy() releases it. next() is a
 * forced checkpoint; each check of it pushes the "returned an element"
 * branch (R0 a read-only pointer, iterator depth + 1, imprecise scalars
 * widened against the previous visit of this next() on the path) and goes
 * on with the "returned NULL" one (the iterator drained). The loop ends
 * when a next() state lies within a checkpoint of the same next() still
 * being explored while its iterator is active (prune.c): that is a loop
 * backedge. */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/iter.h"
#include "engine/kfunc_table72.h"
#include "engine/liveness.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/names.h"
#include "engine/profile.h"
#include "engine/refs.h"
#include "engine/states.h"
#include "engine/rcu.h"
#include "engine/stack.h"

void rb_iter_mark_next_calls(struct rb_env *env)
{
	for (int i = 0; i < env->insn_cnt; i++) {
		const struct bpf_insn *in = &env->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_KFUNC_CALL || !in->imm || in->off)
			continue;
		const char *name = rb_kfunc_name(rb_need_vmlinux(env), in->imm);
		const struct rb_kfunc *row = name ? rb_kfunc_row(name) : NULL;
		/* the 7.2 profile's sched_ext iterators (kfunc_table72.c) */
		const struct rb_kfunc72 *r72 = !row && name && env->prof->sched_ext ? rb_kfunc72_row(name) : NULL;
		if (r72)
			row = &r72->k;
		if (!row || !(row->flags & KF_ITER_NEXT))
			continue;
		env->aux[i].prune_point = true;
		env->aux[i].force_checkpoint = true;
		env->aux[i].is_iter_next = true;
	}
}

/* the iterator struct the kfunc's argument argi points to:
 * btf_check_iter_arg (a "struct bpf_iter_<type> *"); its BTF id and size */
static int iter_struct(struct rb_env *env, const struct rb_kfunc_call *call, int argi, uint32_t *id, uint32_t *size,
		       const char **type)
{
	const struct btf *b = rb_need_vmlinux(env);
	const struct btf_type *proto = b ? btf__type_by_id(b, call->proto_id) : NULL;
	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) <= argi)
		return -1;
	const struct btf_type *t = btf__type_by_id(b, btf_params(proto)[argi].type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_ptr(t))
		return -1;
	uint32_t sid = t->type;
	const struct btf_type *st = btf__type_by_id(b, sid);
	while (st && (btf_is_mod(st) || btf_is_typedef(st))) {
		sid = st->type;
		st = btf__type_by_id(b, sid);
	}
	const char *nm = st ? btf__name_by_offset(b, st->name_off) : NULL;
	if (!st || !btf_is_struct(st) || !nm || strncmp(nm, "bpf_iter_", 9) || st->size % 8)
		return -1;
	*id = sid;
	*size = st->size;
	*type = nm + 9;
	return 0;
}

/* stack_slot_obj_get_spi (rb_stack_obj_spi): the first (highest) slot of
 * the iterator R1 points to; RB_E_REJECT (with the kernel's message), or
 * -ERANGE-like 1 when the slots are beyond the allocated stack */
static int iter_get_spi(struct rb_env *env, const struct rb_reg *reg, int nr_slots, int *spi)
{
	char msg[96];
	int off, rc = rb_stack_obj_spi(env, reg, "iter", nr_slots, spi, &off, msg, sizeof(msg));
	return rc < 0 ? rb_reject(env, "%s", msg) : rc;
}

static int check_iter_reg(struct rb_env *env, int argi)
{
	int err = rb_check_reg_read(env, argi + 1);
	if (err)
		return err;
	if (rb_cur_regs(env)[argi + 1].type != RT_STACK)
		return rb_reject(env, "arg#%d expected pointer to an iterator on stack", argi);
	return 0;
}

/* the start of process_iter_arg for R1: the iterator struct, R1 a stack
 * pointer, and iter_get_spi's answer (negative: refused; 0: the slots
 * at spi; 1: beyond the allocated stack) */
struct iter_arg {
	uint32_t sid;     /* the struct's BTF id */
	const char *type; /* its name after "bpf_iter_" */
	struct rb_reg reg;
	int nr_slots, spi;
};

static int iter_arg(struct rb_env *env, const struct rb_kfunc_call *call, int argi, struct iter_arg *a)
{
	uint32_t size;
	int err;
	if (iter_struct(env, call, argi, &a->sid, &size, &a->type))
		return rb_unsupported(env, "kfunc %s (iterator argument)", call->name);
	if ((err = check_iter_reg(env, argi)))
		return err;
	a->reg = rb_cur_regs(env)[argi + 1];
	a->nr_slots = (int)size / 8;
	return iter_get_spi(env, &a->reg, a->nr_slots, &a->spi);
}

static int scalar_args(struct rb_env *env, const struct rb_kfunc_call *call)
{
	const struct btf *b = rb_need_vmlinux(env);
	const struct btf_type *proto = btf__type_by_id(b, call->proto_id);
	/* 7.2.13 is_kfunc_arg_implicit: the verifier supplies the rest */
	int n = (call->row->flags & KF_IMPLICIT_ARGS) ? call->nvisible : btf_vlen(proto);
	for (int a = 1; a < n && a < 5; a++) {
		rb_scratch_reg(env, a + 1);
		if (rb_cur_regs(env)[a + 1].type != RT_SCALAR)
			return rb_reject(env, "R%d is not a scalar", a + 1);
	}
	return 0;
}

int rb_kfunc_iter_new(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	struct iter_arg a;
	int err, r = iter_arg(env, call, 0, &a);
	if (r < 0)
		return r;
	int nr_slots = a.nr_slots, spi = a.spi;
	struct rb_func *f = env->cur->frame[a.reg.frameno];
	/* 7.2.13 mark_stack_slots_iter: a KF_RCU_PROTECTED iterator made in
	 * an RCU critical section is MEM_RCU (its next() gives RCU pointers),
	 * outside one untrusted (every later use refused); in_rcu_cs: a
	 * non-sleepable program or a held lock (bpf_rcu_read_lock is not
	 * modelled) */
	bool rcu_prot = (call->row->flags & KF_RCU_PROTECTED) != 0;
	bool in_rcu = rb_in_rcu_cs(env);
	/* is_iter_reg_valid_uninit */
	if (r == 0)
		for (int i = 0; i < nr_slots; i++)
			for (int j = 0; j < 8; j++)
				if (f->stack[spi - i].type[j] == SLOT_ITER)
					return rb_reject(env, "expected uninitialized iter_%s as arg #0", a.type);
	for (int i = 0; i < nr_slots * 8; i += 8)
		if ((err = rb_check_mem_access(env, call->insn_idx, 1, i, 8, true, -1, false, false)))
			return err;
	if ((err = scalar_args(env, call)))
		return err;
	if ((err = iter_get_spi(env, &a.reg, nr_slots, &spi)))
		return err < 0 ? err : RB_E_INTERNAL;
	/* mark_stack_slots_iter */
	uint32_t id = rb_acquire_ref(env);
	if (!id)
		return RB_E_NOMEM;
	f = env->cur->frame[a.reg.frameno];
	for (int i = 0; i < nr_slots; i++) {
		struct rb_slot *s = &f->stack[spi - i];
		rb_reg_ptr(env, &s->spilled, RT_STACK);
		if (rcu_prot)
			s->spilled.flags = in_rcu ? RF_RCU : RF_UNTRUSTED;
		s->spilled.ref_obj_id = i == 0 ? id : 0;
		RB_ITER_BTF_ID(&s->spilled) = (int32_t)a.sid;
		RB_ITER_STATE(&s->spilled) = RB_ITER_ACTIVE;
		RB_ITER_DEPTH(&s->spilled) = 0;
		memset(s->type, SLOT_ITER, sizeof(s->type));
		rb_live_stack_access(env, f->frameno, spi - i, true);
		rb_scratch_slot(env, spi - i);
	}
	rb_clobber_caller_saved(env);
	rb_reg_unknown(env, &rb_cur_regs(env)[0]); /* int bpf_iter_<type>_new() */
	if (rcu_prot && !in_rcu)
		return rb_reject(env, "kernel func %s requires RCU critical section protection", call->name);
	return 0;
}

/* is_iter_reg_valid_init, then mark_iter_read: the iterator's first slot */
static int valid_init(struct rb_env *env, const struct rb_kfunc_call *call, int argi, struct rb_slot **first,
		      int *frameno, int *spi_out)
{
	struct iter_arg a;
	int r = iter_arg(env, call, argi, &a);
	if (r < 0)
		return r;
	int nr_slots = a.nr_slots, spi = a.spi;
	struct rb_func *f = env->cur->frame[a.reg.frameno];
	bool ok = r == 0;
	for (int i = 0; ok && i < nr_slots; i++) {
		const struct rb_slot *s = &f->stack[spi - i];
		if ((i == 0) != (s->spilled.ref_obj_id != 0) || RB_ITER_BTF_ID(&s->spilled) != (int32_t)a.sid)
			ok = false;
		for (int j = 0; ok && j < 8; j++)
			if (s->type[j] != SLOT_ITER)
				ok = false;
	}
	/* 7.2.13 is_iter_reg_valid_init: an untrusted (made outside an RCU
	 * critical section) iterator is -EPROTO */
	for (int i = 0; ok && i < nr_slots; i++)
		if (f->stack[spi - i].spilled.flags & RF_UNTRUSTED)
			return rb_reject(env, "expected an RCU CS when using %s", call->name);
	if (!ok)
		return rb_reject(env, "expected an initialized iter_%s as arg #%d", a.type, argi);
	for (int i = 0; i < nr_slots; i++)
		rb_live_stack_access(env, f->frameno, spi - i, false);
	*first = &f->stack[spi];
	*frameno = a.reg.frameno;
	*spi_out = spi;
	return nr_slots;
}

int rb_kfunc_iter_destroy(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	struct rb_slot *s;
	int frameno, spi;
	int n = valid_init(env, call, 0, &s, &frameno, &spi);
	if (n < 0)
		return n;
	/* unmark_stack_slots_iter */
	rb_release_ref(env, s->spilled.ref_obj_id);
	struct rb_func *f = env->cur->frame[frameno];
	for (int i = 0; i < n; i++) {
		struct rb_slot *sl = &f->stack[spi - i];
		rb_reg_not_init(env, &sl->spilled);
		memset(sl->type, SLOT_INVALID, sizeof(sl->type));
		rb_live_stack_access(env, f->frameno, spi - i, true);
		rb_scratch_slot(env, spi - i);
	}
	rb_clobber_caller_saved(env);
	return 0; /* void bpf_iter_<type>_destroy() */
}

int rb_kfunc_iter_arg(struct rb_env *env, const struct rb_kfunc_call *call, int argi)
{
	struct rb_slot *s;
	int frameno, spi;
	int n = valid_init(env, call, argi, &s, &frameno, &spi);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		rb_scratch_slot(env, spi - i);
	return 0;
}

/* R0 of next(): a read-only pointer to the element (its pointee's size),
 * or NULL; it holds the iterator's reference. 7.2.13 check_kfunc_call: a
 * struct element (bpf_iter_scx_dsq_next's task) is a BTF pointer, MEM_RCU
 * when the iterator is (an RCU-protected one), trusted otherwise, with an
 * id of its own and no reference */
static int next_r0(struct rb_env *env, const struct rb_kfunc_call *call, const struct rb_reg *it)
{
	uint32_t ref = it->ref_obj_id;
	const struct btf *b = rb_need_vmlinux(env);
	const struct btf_type *proto = btf__type_by_id(b, call->proto_id);
	const struct btf_type *t = btf__type_by_id(b, proto->type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_ptr(t))
		return rb_unsupported(env, "kfunc %s return type", call->name);
	int64_t sz = btf__resolve_size(b, t->type);
	const struct btf_type *pt = btf__type_by_id(b, t->type);
	while (pt && (btf_is_mod(pt) || btf_is_typedef(pt)))
		pt = btf__type_by_id(b, pt->type);
	struct rb_reg *r0 = &rb_cur_regs(env)[0];
	if (pt && btf_is_struct(pt) && env->prof->sched_ext) {
		uint32_t pid = t->type;
		const struct btf_type *m = btf__type_by_id(b, pid);
		while (m && (btf_is_mod(m) || btf_is_typedef(m))) {
			pid = m->type;
			m = btf__type_by_id(b, pid);
		}
		rb_reg_ptr(env, r0, RT_BTF_ID);
		r0->map_idx = (int32_t)pid;
		r0->flags = (uint8_t)(((it->flags & RF_RCU) ? RF_RCU : RF_TRUSTED) | RF_MAYBE_NULL);
		r0->id = ++env->id_gen;
		return 0;
	}
	if (sz <= 0 || !pt || btf_is_composite(pt))
		return rb_unsupported(env, "kfunc %s return type (struct pointer)", call->name);
	rb_reg_ptr(env, r0, RT_MEM);
	r0->flags = RF_RDONLY | RF_MAYBE_NULL;
	r0->range = (int32_t)sz;
	r0->ref_obj_id = ref;
	r0->id = ++env->id_gen;
	return 0;
}

static struct rb_reg *iter_in(struct rb_vstate *st, int frameno, int spi)
{
	return &st->frame[frameno]->stack[spi].spilled;
}

int rb_kfunc_iter_next(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call)
{
	(void)insn;
	struct rb_slot *s;
	int frameno, spi, err;
	int n = valid_init(env, call, 0, &s, &frameno, &spi);
	if (n < 0)
		return n;
	rb_clobber_caller_saved(env);
	if ((err = next_r0(env, call, &s->spilled)))
		return err;
	/* process_iter_next_call */
	struct rb_vstate *cur = env->cur;
	struct rb_reg *it = iter_in(cur, frameno, spi);
	int insn_idx = call->insn_idx;
	if (RB_ITER_STATE(it) == RB_ITER_ACTIVE) {
		/* next() is a forced checkpoint: cur's parent was stored here */
		if (!cur->parent || cur->parent->insn_idx != insn_idx)
			return RB_E_INTERNAL;
		struct rb_vstate *prev = rb_find_prev_entry(env, cur->parent, insn_idx);
		struct rb_vstate *q = rb_push_branch(env, insn_idx + 1, insn_idx);
		if (!q)
			return env->done ? RB_E_REJECT : RB_E_NOMEM;
		struct rb_reg *qit = iter_in(q, frameno, spi);
		RB_ITER_STATE(qit) = RB_ITER_ACTIVE;
		RB_ITER_DEPTH(qit)++;
		if (prev)
			rb_widen_imprecise_scalars(env, prev, q);
		q->frame[q->curframe]->regs[0].flags &= (uint8_t)~RF_MAYBE_NULL;
	}
	RB_ITER_STATE(it) = RB_ITER_DRAINED;
	rb_reg_const(env, &rb_cur_regs(env)[0], 0);
	rb_scratch_slot(env, spi);
	return 0;
}

bool rb_iter_next_converged(struct rb_env *env, const struct rb_vstate *cur)
{
	const struct rb_reg *r1 = &cur->frame[cur->curframe]->regs[1];
	if (r1->type != RT_STACK || !env->t->is_const(&r1->val))
		return false;
	/* states_equal already held: R1 is a valid iterator pointer */
	int off = r1->off + (int)rb_reg_const_val(env, r1);
	int spi = (-off - 1) / 8;
	const struct rb_func *f = cur->frame[r1->frameno];
	if (spi < 0 || spi >= f->nslots)
		return false;
	return RB_ITER_STATE(&f->stack[spi].spilled) == RB_ITER_ACTIVE;
}

bool rb_iter_active_depths_differ(const struct rb_vstate *old, const struct rb_vstate *cur)
{
	for (int fr = old->curframe; fr >= 0; fr--) {
		const struct rb_func *fo = old->frame[fr], *fc = cur->frame[fr];
		for (int i = 0; i < fo->nslots; i++) {
			if (fo->stack[i].type[0] != SLOT_ITER || RB_ITER_STATE(&fo->stack[i].spilled) != RB_ITER_ACTIVE)
				continue;
			int cd = i < fc->nslots ? RB_ITER_DEPTH(&fc->stack[i].spilled) : 0;
			if (cd != RB_ITER_DEPTH(&fo->stack[i].spilled))
				return true;
		}
	}
	return false;
}

