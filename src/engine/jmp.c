/* jmp.c — conditional jumps (Linux 6.18 check_cond_jmp_op): branch
 * decided by the tracker's branch_taken (and the pointer rules of
 * is_branch_taken), the other branch pushed, both refined; null checks
 * (mark_ptr_or_null_regs), packet range learning (try_match_pkt_pointers),
 * linked scalars (sync_linked_regs). */
#include <string.h>

#include "engine/alloc_lock.h"
#include "engine/backtrack.h"
#include "engine/branches.h"
#include "engine/jmp.h"
#include "engine/profile.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/refs.h"
#include "engine/timers.h"


#define FOR_EACH_REG(st, f, r, body)                                                                        \
	for (int _fi = 0; _fi <= (st)->curframe; _fi++) {                                                   \
		struct rb_func *f = (st)->frame[_fi];                                                        \
		for (int _ri = 0; _ri < RB_MAX_REG; _ri++) {                                                \
			struct rb_reg *r = &f->regs[_ri];                                                    \
			body                                                                                 \
		}                                                                                            \
		for (int _si = 0; _si < f->nslots; _si++) {                                                 \
			if (f->stack[_si].type[7] != SLOT_SPILL)                                             \
				continue;                                                                    \
			struct rb_reg *r = &f->stack[_si].spilled;                                           \
			body                                                                                 \
		}                                                                                            \
	}

/* a BTF pointer holding a reference is trusted (6.18.44 and 7.2.13
 * is_trusted_reg), which decides its null test (measured on 6.18.44:
 * 7.2.13's selftests cpumask_success test_global_mask_array_rcu, a
 * bpf_cpumask_create result found not NULL, tested again) */
static bool reg_not_null(const struct rb_reg *r)
{
	if (r->flags & RF_MAYBE_NULL)
		return false;
	if (r->type == RT_BTF_ID)
		return (r->flags & RF_TRUSTED) || r->ref_obj_id;
	if (r->type == RT_MEM && (r->flags & RF_UNTRUSTED)) /* 6.18: untrusted memory may be NULL */
		return false;
	switch (r->type) {
	case RT_SOCKET:
	case RT_TCP_SOCK:
	case RT_MAP_VALUE:
	case RT_MAP_KEY:
	case RT_SOCK_COMMON:
	case RT_MEM:
	case RT_MAP_PTR:
	case RT_XDP_SOCK:
		return true;
	default:
		return false;
	}
}

static bool is_pkt_any(const struct rb_reg *r)
{
	return r->type == RT_PKT || r->type == RT_PKT_META || r->type == RT_PKT_END;
}

static uint8_t flip(uint8_t op)
{
	return rb_jmp_swap(op);
}

static int pkt_branch_taken(const struct rb_reg *dst, const struct rb_reg *src, uint8_t op)
{
	const struct rb_reg *pkt;
	if (src->type == RT_PKT_END) {
		pkt = dst;
	} else if (dst->type == RT_PKT_END) {
		pkt = src;
		op = flip(op);
	} else {
		return -1;
	}
	if (pkt->range >= 0)
		return -1;
	switch (op) {
	case BPF_JLE:
	case BPF_JGT:
		if (pkt->range == RB_BEYOND_PKT_END)
			return op == BPF_JGT;
		break;
	case BPF_JLT:
	case BPF_JGE:
		if (pkt->range == RB_BEYOND_PKT_END || pkt->range == RB_AT_PKT_END)
			return op == BPF_JGE;
		break;
	}
	return -1;
}

static bool reg_const32(struct rb_env *env, const struct rb_reg *r, bool is32, uint64_t *v)
{
	if (r->type != RT_SCALAR)
		return false;
	struct rb_bounds b;
	rb_reg_bounds(env, r, &b);
	if (is32) {
		/* the subregister is constant */
		if (b.u32_min != b.u32_max)
			return false;
		*v = b.u32_min;
		return true;
	}
	if (!env->t->is_const(&r->val))
		return false;
	*v = b.var_off.value;
	return true;
}

/* same: BPF_X with src_reg == dst_reg (a and b are that one register) */
static int branch_taken(struct rb_env *env, const struct rb_reg *a, const struct rb_reg *b, uint8_t op, bool is32,
			bool same)
{
	if (is_pkt_any(a) && is_pkt_any(b) && !is32)
		return pkt_branch_taken(a, b, op);
	if (rb_is_pointer(a) || rb_is_pointer(b)) {
		uint64_t v;
		if (!reg_const32(env, b, is32, &v)) {
			const struct rb_reg *t = a;
			a = b;
			b = t;
			op = flip(op);
		}
		if (!reg_const32(env, b, is32, &v))
			return -1;
		if (!reg_not_null(a))
			return -1;
		if (v != 0)
			return -1;
		if (op == BPF_JEQ)
			return 0;
		if (op == BPF_JNE)
			return 1;
		return -1;
	}
	if (same && env->t->branch_taken_same)
		return env->t->branch_taken_same(&a->val, op, is32);
	return env->t->branch_taken(&a->val, &b->val, op, is32);
}

/* sync_linked_regs: every collected scalar (live before the jump, see
 * collect_linked_regs below: packed entries of frame, is-register, number)
 * sharing known's id takes its value */
static void sync_linked(struct rb_env *env, struct rb_vstate *st, const struct rb_reg *known_in, uint64_t packed,
			int cnt)
{
	struct rb_reg known = *known_in;
	uint32_t base = known.id & RB_ID_MASK;
	if (!base)
		return;
	for (int e = 0; e < cnt; e++) {
		unsigned v = (unsigned)(packed >> (10 * e)) & 0x3ff;
		struct rb_func *f = st->frame[v & 7];
		unsigned n = v >> 4;
		if (!f || ((v & 8) && n >= RB_MAX_REG) || (!(v & 8) && (int)n >= f->nslots))
			continue;
		struct rb_reg *r = (v & 8) ? &f->regs[n] : &f->stack[n].spilled;
		if (r->type != RT_SCALAR || (r->id & RB_ID_MASK) != base || r == known_in)
			continue;
		/* 6.18.44 skips mixed links, one made by a 64-bit and the other
		 * by a 32-bit add: the delta does not hold across the widths */
		bool r32 = r->id & RB_ADD_CONST32, k32 = known.id & RB_ADD_CONST32;
		if ((r->id & RB_ADD_CONST) && (known.id & RB_ADD_CONST) && r32 != k32)
			continue;
		if ((!(r->id & RB_ADD_CONST) && !(known.id & RB_ADD_CONST)) || r->off == known.off) {
			*r = known;
		} else {
			uint32_t id = r->id;
			int32_t off = r->off;
			rb_val delta;
			env->t->constant(&delta, (uint64_t)(int64_t)((int64_t)off - (int64_t)known.off));
			*r = known;
			r->id = id;
			r->off = off;
			struct rb_alu op = {.code = (uint8_t)(((id | known.id) & RB_ADD_CONST32) ? BPF_ALU : BPF_ALU64) | BPF_ADD | BPF_X};
			env->t->alu(&r->val, &delta, &op);
		}
	}
}

/* mark_ptr_not_null_reg: what a non-null pointer really points to */
static void not_null_reg(struct rb_env *env, struct rb_reg *r)
{
	r->flags &= (uint8_t)~RF_MAYBE_NULL;
	if (r->type == RT_MAP_VALUE) {
		const struct rb_map *m = &env->obj->maps[r->map_idx];
		if (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || m->type == BPF_MAP_TYPE_HASH_OF_MAPS) {
			r->type = RT_MAP_PTR;
			r->map_idx = m->inner_map_idx;
		} else if (m->type == BPF_MAP_TYPE_XSKMAP) {
			r->type = RT_XDP_SOCK;
		} else if (m->type == BPF_MAP_TYPE_SOCKMAP || m->type == BPF_MAP_TYPE_SOCKHASH) {
			r->type = RT_SOCKET;
			r->flags |= RF_MAP_SOCK;
		}
	}
	/* an inner map (a map-in-map lookup is a map pointer from the call
	 * on): the lookup's id, unique per lookup, becomes the inner map's
	 * uid when its value holds a timer, workqueue or task_work (6.18,
	 * 7.2.13 mark_ptr_not_null_reg) */
	if (r->type == RT_MAP_PTR && rb_map_has_async(env, r->map_idx))
		RB_MAP_UID(r) = (int32_t)r->id;
}

/* mark_ptr_or_null_regs: after "if (p == 0)" */
static void mark_ptr_or_null(struct rb_env *env, struct rb_vstate *st, uint32_t id, bool is_null)
{
	if (!id)
		return;
	FOR_EACH_REG(st, f, r, {
		(void)f;
		if (!(r->flags & RF_MAYBE_NULL) || r->id != id)
			continue;
		if (is_null) {
			rb_reg_const(env, r, 0);
		} else {
			not_null_reg(env, r);
			/* 6.18: only pointers that may point to a bpf_spin_lock
			 * keep it; 7.2 keeps every id (profile.h) */
			if (!env->prof->null_check_keeps_id &&
			    (r->type != RT_MAP_VALUE || !rb_map_has_lock(env, r->map_idx)) &&
			    !rb_alloc_may_lock(env, r))
				r->id = 0;
		}
	})
	if (is_null) {
		/* a NULL reference was never acquired (release_reference_nomark:
		 * the others keep their order) */
		for (int i = 0; i < st->nrefs; i++) {
			if (st->refs[i] == id) {
				rb_ref_remove(st, i);
				break;
			}
		}
	}
}

static void find_good_pkt(struct rb_env *env, struct rb_vstate *st, const struct rb_reg *dst, bool right_open)
{
	struct rb_bounds b;
	int new_range;
	if (env->prof->ptr_off_in_var) {
		/* 7.2: the range counts from the packet start: the compared
		 * pointer's largest offset (constant included) */
		rb_ptr_whole_bounds(env, dst, &b);
		if ((b.umax == 0 && right_open) || b.umax > RB_MAX_PACKET_OFF)
			return;
		new_range = (int)b.umax;
	} else {
		if (dst->off < 0 || (dst->off == 0 && right_open))
			return;
		rb_reg_bounds(env, dst, &b);
		if (b.umax > RB_MAX_PACKET_OFF || b.umax + (uint64_t)dst->off > RB_MAX_PACKET_OFF)
			return;
		/* 6.18 (since 5.16's off-by-two fix): pkt' < pkt_end proves
		 * pkt' + 1 <= pkt_end, so a right-open comparison gives off + 1 */
		new_range = dst->off;
	}
	if (right_open)
		new_range++;
	uint8_t type = dst->type;
	uint32_t id = dst->id;
	FOR_EACH_REG(st, f, r, {
		(void)f;
		if (r->type == type && r->id == id && r->range < new_range)
			r->range = new_range;
	})
}

static void mark_pkt_end(struct rb_vstate *st, int regno, bool open)
{
	struct rb_reg *r = &st->frame[st->curframe]->regs[regno];
	if (r->type != RT_PKT)
		return;
	r->range = open ? RB_BEYOND_PKT_END : RB_AT_PKT_END;
}

static bool init_pkt_ptr(struct rb_env *env, const struct rb_reg *r)
{
	return r->type == RT_PKT && r->off == 0 && env->t->is_const(&r->val) && rb_reg_const_val(env, r) == 0;
}

static bool match_pkt(struct rb_env *env, const struct bpf_insn *insn, struct rb_vstate *this_b,
		      struct rb_vstate *other)
{
	struct rb_reg *dst = &this_b->frame[this_b->curframe]->regs[insn->dst_reg];
	struct rb_reg *src = &this_b->frame[this_b->curframe]->regs[insn->src_reg];
	if (BPF_SRC(insn->code) != BPF_X || BPF_CLASS(insn->code) == BPF_JMP32)
		return false;
	uint8_t op = BPF_OP(insn->code);
	bool dst_pkt = (dst->type == RT_PKT && src->type == RT_PKT_END) ||
		       (dst->type == RT_PKT_META && init_pkt_ptr(env, src));
	bool src_pkt = (src->type == RT_PKT && dst->type == RT_PKT_END) ||
		       (src->type == RT_PKT_META && init_pkt_ptr(env, dst));
	struct rb_reg d = *dst, s = *src;
	switch (op) {
	case BPF_JGT:
		if (dst_pkt) {
			find_good_pkt(env, this_b, &d, false);
			mark_pkt_end(other, insn->dst_reg, true);
		} else if (src_pkt) {
			find_good_pkt(env, other, &s, true);
			mark_pkt_end(this_b, insn->src_reg, false);
		} else
			return false;
		break;
	case BPF_JLT:
		if (dst_pkt) {
			find_good_pkt(env, other, &d, true);
			mark_pkt_end(this_b, insn->dst_reg, false);
		} else if (src_pkt) {
			find_good_pkt(env, this_b, &s, false);
			mark_pkt_end(other, insn->src_reg, true);
		} else
			return false;
		break;
	case BPF_JGE:
		if (dst_pkt) {
			find_good_pkt(env, this_b, &d, true);
			mark_pkt_end(other, insn->dst_reg, false);
		} else if (src_pkt) {
			find_good_pkt(env, other, &s, false);
			mark_pkt_end(this_b, insn->src_reg, true);
		} else
			return false;
		break;
	case BPF_JLE:
		if (dst_pkt) {
			find_good_pkt(env, other, &d, false);
			mark_pkt_end(this_b, insn->dst_reg, true);
		} else if (src_pkt) {
			find_good_pkt(env, this_b, &s, true);
			mark_pkt_end(other, insn->src_reg, false);
		} else
			return false;
		break;
	default:
		return false;
	}
	return true;
}

/* branch_refine(), with the tracker's REG INVARIANTS VIOLATION reports
 * where it has them */
static bool refine(struct rb_env *env, rb_val *a, rb_val *b, uint8_t op, bool is32, char why[2][RB_VIOLATION_LEN])
{
	why[0][0] = why[1][0] = 0;
	if (env->t->branch_refine_report)
		return env->t->branch_refine_report(a, b, op, is32, why);
	return env->t->branch_refine(a, b, op, is32);
}

/* a scalar left out of a link loses its delta too (6.18.44 stable fix
 * "Clear delta when clearing reg id": clear_scalar_id), or a later
 * "rX = rY" would give rY a new id with the stale delta, and a link made
 * from it would be synchronised without the delta */
static void clear_scalar_id(struct rb_reg *r)
{
	r->id = 0;
	r->off = 0;
}

/* collect_linked_regs: live scalars sharing the compared registers'
 * ids, at most 6 (7.2: 5, profile.h linked_regs_max_5; the rest lose
 * their ids); only they are synchronised after the branch */
static void collect_linked(struct rb_env *env, const struct bpf_insn *insn, const struct rb_reg *dst, uint64_t *packed,
			   int *cnt)
{
	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_reg *sr = BPF_SRC(insn->code) == BPF_X ? &regs[insn->src_reg] : NULL;
	uint32_t ids[2] = {sr && sr->type == RT_SCALAR ? sr->id & RB_ID_MASK : 0,
			   dst->type == RT_SCALAR ? dst->id & RB_ID_MASK : 0};
	const int max = env->prof->linked_regs_max_5 ? 5 : 6;
	for (int k = 0; k < 2; k++) {
		if (!ids[k])
			continue;
		struct rb_vstate *st = env->cur;
		for (int fr = st->curframe; fr >= 0; fr--) {
			struct rb_func *f = st->frame[fr];
			uint16_t live = env->aux[fr == st->curframe ? st->insn_idx : st->frame[fr + 1]->callsite].live_regs;
			for (int j = 0; j < RB_REG_FP; j++) {
				struct rb_reg *r = &f->regs[j];
				if (!(live & (1u << j)) || r->type != RT_SCALAR || (r->id & RB_ID_MASK) != ids[k])
					continue;
				if (*cnt < max)
					*packed |= (uint64_t)((fr & 7) | (1u << 3) | ((unsigned)j << 4)) << (10 * (*cnt)++);
				else
					clear_scalar_id(r);
			}
			for (int j = 0; j < f->nslots && j < 64; j++) {
				struct rb_reg *r = &f->stack[j].spilled;
				if (f->stack[j].type[7] != SLOT_SPILL || r->type != RT_SCALAR ||
				    (r->id & RB_ID_MASK) != ids[k])
					continue;
				if (*cnt < max)
					*packed |= (uint64_t)((fr & 7) | ((unsigned)j << 4)) << (10 * (*cnt)++);
				else
					clear_scalar_id(r);
			}
		}
	}
}

/* ... into the jump history, which both branches share */
static int push_linked(struct rb_env *env, uint64_t packed, int cnt)
{
	if (cnt < 2)
		return 0;
	int err = rb_push_hist(env, env->cur, 0);
	if (err)
		return err;
	env->cur_hist_ent->linked = packed | ((uint64_t)cnt << 60);
	return 0;
}

/* refine the true outcome v[0] (dst, src) and the false one v[1]; *t_dead
 * / *f_dead when the tracker finds one impossible */
static void refine_outcomes(struct rb_env *env, rb_val *v[2][2], uint8_t op, bool is32, bool aliased,
			    char why[2][2][RB_VIOLATION_LEN], bool *t_dead, bool *f_dead)
{
	if (aliased && env->t->branch_taken_same)
		/* same register, undecided (a tracker following Linux 7.2:
		 * is_scalar_branch_taken() returned -1 before
		 * simulate_both_branches_taken(), so both outcomes keep the
		 * register as it was) */
		return;
	/* same register: 6.18.44 reg_set_min_max() refines it as both
	 * operands at once (aliased), e.g. the impossible "r < r" leaves
	 * umin=1 and umax=U64_MAX-1 */
	*t_dead = !refine(env, v[0][0], aliased ? v[0][0] : v[0][1], op, is32, why[0]);
	*f_dead = !refine(env, v[1][0], aliased ? v[1][0] : v[1][1], rb_jmp_negate(op), is32, why[1]);
}

/* returns 0, 1 when the current (fall-through) path is impossible, < 0 on error */
int rb_check_cond_jmp(struct rb_env *env, const struct bpf_insn *insn, int *insn_idx)
{
	uint8_t op = BPF_OP(insn->code);
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	int err;
	if (op > BPF_JSLE)
		return rb_reject(env, "invalid BPF_JMP/JMP32 opcode %x", op);
	if (BPF_SRC(insn->code) == BPF_X) {
		if (insn->imm != 0)
			return rb_reject(env, "BPF_JMP/JMP32 uses reserved fields");
		if ((err = rb_check_reg_read(env, insn->src_reg)))
			return err;
	} else if (insn->src_reg != 0) {
		return rb_reject(env, "BPF_JMP/JMP32 uses reserved fields");
	}
	if ((err = rb_check_reg_read(env, insn->dst_reg)))
		return err;

	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_reg *dst = &regs[insn->dst_reg];
	struct rb_reg kreg;
	const struct rb_reg *src;
	if (BPF_SRC(insn->code) == BPF_X) {
		src = &regs[insn->src_reg];
	} else {
		rb_reg_const(env, &kreg, is32 ? (uint64_t)(uint32_t)insn->imm : (uint64_t)(int64_t)insn->imm);
		src = &kreg;
	}
	bool aliased = BPF_SRC(insn->code) == BPF_X && insn->src_reg == insn->dst_reg;
	uint64_t packed = 0;
	int cnt = 0;
	/* 7.2: the links are collected whatever the outcome (profile.h linked_regs_first) */
	if (env->prof->linked_regs_first)
		collect_linked(env, insn, dst, &packed, &cnt);
	int pred = branch_taken(env, dst, src, op, is32, aliased);
	if (pred >= 0) {
		if (!rb_is_pointer(dst))
			err = rb_mark_chain_precision(env, insn->dst_reg);
		if (!err && BPF_SRC(insn->code) == BPF_X && !rb_is_pointer(&regs[insn->src_reg]))
			err = rb_mark_chain_precision(env, insn->src_reg);
		if (err)
			return err;
	}
	if (pred == 1) {
		if (env->log)
			rb_log_insn_state(env);
		*insn_idx += insn->off;
		return 0;
	}
	if (pred == 0) {
		if (env->log)
			rb_log_insn_state(env);
		return 0;
	}

	/* both outcomes refined first (on copies): an outcome the tracker
	 * proves impossible decides the branch as is_branch_taken would, so
	 * the compared scalars are marked precise before the branch forks
	 * (6.18 check_cond_jmp_op on pred >= 0); else a later path lacking
	 * what made it impossible could be pruned against a checkpoint whose
	 * continuation never explored it */
	bool this_dead = false, other_dead = false, scalars = false;
	rb_val t_dst, t_src, f_dst, f_src;
	char why[2][2][RB_VIOLATION_LEN];
	if (dst->type == RT_SCALAR && (BPF_SRC(insn->code) == BPF_K || regs[insn->src_reg].type == RT_SCALAR)) {
		scalars = true;
		t_dst = f_dst = dst->val;
		t_src = f_src = src->val;
		refine_outcomes(env, (rb_val *[2][2]){{&t_dst, &t_src}, {&f_dst, &f_src}}, op, is32, aliased, why,
				&other_dead, &this_dead);
		if (other_dead || this_dead) {
			err = rb_mark_chain_precision(env, insn->dst_reg);
			if (!err && BPF_SRC(insn->code) == BPF_X && !aliased)
				err = rb_mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
		}
	}

	if (!env->prof->linked_regs_first)
		collect_linked(env, insn, dst, &packed, &cnt);
	if ((err = push_linked(env, packed, cnt)))
		return err;
	struct rb_vstate *other = rb_push_branch(env, *insn_idx + insn->off + 1, *insn_idx);
	if (!other)
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	struct rb_vstate *this_b = env->cur;
	struct rb_reg *o_regs = other->frame[other->curframe]->regs;
	regs = rb_cur_regs(env);
	dst = &regs[insn->dst_reg];
	if (scalars) {
		struct rb_reg *odst = &o_regs[insn->dst_reg];
		odst->val = t_dst;
		dst->val = f_dst;
		if (BPF_SRC(insn->code) == BPF_X && !aliased) {
			o_regs[insn->src_reg].val = t_src;
			regs[insn->src_reg].val = f_src;
		}
		/* reg_set_min_max() checks true_reg1, true_reg2, false_reg1, false_reg2 */
		static const char *const names[2][2] = {{"true_reg1", "true_reg2"}, {"false_reg1", "false_reg2"}};
		for (int s = 0; s < 2; s++)
			for (int r = 0; r < 2; r++)
				if (why[s][r][0])
					rb_log(env, "verifier bug: REG INVARIANTS VIOLATION (%s): %s\n", names[s][r],
					       why[s][r]);
		if (BPF_SRC(insn->code) == BPF_X && regs[insn->src_reg].id) {
			sync_linked(env, this_b, &regs[insn->src_reg], packed, cnt);
			sync_linked(env, other, &o_regs[insn->src_reg], packed, cnt);
		}
		if (dst->id) {
			sync_linked(env, this_b, dst, packed, cnt);
			sync_linked(env, other, odst, packed, cnt);
		}
	}
	/* two pointers, one maybe NULL and one not: equal means not NULL
	 * (mark_ptr_not_null_reg on that register only; BTF pointers excluded) */
	if (!is32 && BPF_SRC(insn->code) == BPF_X && (op == BPF_JEQ || op == BPF_JNE)) {
		struct rb_reg *s = &regs[insn->src_reg];
		if (rb_is_pointer(dst) && rb_is_pointer(s) &&
		    ((dst->flags & RF_MAYBE_NULL) != 0) != ((s->flags & RF_MAYBE_NULL) != 0) && dst->type != RT_BTF_ID &&
		    s->type != RT_BTF_ID) {
			struct rb_reg *eq = op == BPF_JEQ ? o_regs : regs;
			not_null_reg(env, &eq[(s->flags & RF_MAYBE_NULL) ? insn->src_reg : insn->dst_reg]);
		}
	}
	if (!is32 && BPF_SRC(insn->code) == BPF_K && insn->imm == 0 && (op == BPF_JEQ || op == BPF_JNE) &&
	    (dst->flags & RF_MAYBE_NULL)) {
		uint32_t id = dst->id;
		if (!id) {
			/* a maybe-null pointer without id (no other copies): mark this one */
			id = dst->id = ++env->id_gen;
			o_regs[insn->dst_reg].id = id;
		}
		mark_ptr_or_null(env, this_b, id, op == BPF_JNE);
		mark_ptr_or_null(env, other, id, op == BPF_JEQ);
	} else {
		match_pkt(env, insn, this_b, other);
	}
	if (other_dead) {
		/* the jump can never be taken: drop the pushed branch */
		rb_drop_last_branch(env, other);
	}
	if (env->log)
		rb_log_insn_state(env);
	return this_dead ? 1 : 0;
}
