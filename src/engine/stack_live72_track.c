/* stack_live72_track.c — the arg tracking of Linux 7.2.13's static stack
 * liveness (kernel/bpf/liveness.c: struct arg_track, its join, and
 * arg_track_xfer): which frame's FP, at which constant offsets, each
 * register and 8-byte spill slot may hold. Reimplemented from 7.2.13's
 * rules; see stack_live72.c. */
#include "engine/stack_live72_int.h"

const struct l72_at l72_none = {.frame = L72_NONE};
const struct l72_at l72_unvisited = {.frame = L72_UNVISITED};

struct l72_at l72_single(int frame, int off)
{
	struct l72_at a = {.frame = (int8_t)frame, .cnt = 1};
	a.off[0] = (int16_t)off;
	return a;
}

bool l72_visited(const struct l72_at *a)
{
	return a->frame != L72_UNVISITED;
}

bool l72_is_fp(const struct l72_at *a)
{
	return a->frame >= 0 || a->frame == L72_IMPRECISE;
}

static bool at_eq(const struct l72_at *a, const struct l72_at *b)
{
	if (a->frame != b->frame)
		return false;
	if (a->frame == L72_IMPRECISE)
		return a->mask == b->mask;
	if (a->frame < 0)
		return true;
	if (a->cnt != b->cnt)
		return false;
	for (int i = 0; i < a->cnt; i++)
		if (a->off[i] != b->off[i])
			return false;
	return true;
}

/* arg_merge_offsets: the sorted union, offset-imprecise past L72_NOFF */
static struct l72_at merge_offs(struct l72_at a, struct l72_at b)
{
	struct l72_at r = {.frame = a.frame}, imp = {.frame = a.frame};
	int i = 0, j = 0, k = 0;
	while (i < a.cnt || j < b.cnt) {
		int16_t v;
		if (j >= b.cnt || (i < a.cnt && a.off[i] <= b.off[j])) {
			v = a.off[i++];
			if (j < b.cnt && v == b.off[j])
				j++;
		} else {
			v = b.off[j++];
		}
		if (k > 0 && r.off[k - 1] == v)
			continue;
		if (k >= L72_NOFF)
			return imp;
		r.off[k++] = v;
	}
	r.cnt = (int8_t)k;
	return r;
}

static struct l72_at join_imprecise(struct l72_at a, struct l72_at b)
{
	uint32_t m = 0;
	if (a.frame >= 0)
		m |= 1u << a.frame;
	else if (a.frame == L72_IMPRECISE)
		m |= a.mask;
	if (b.frame >= 0)
		m |= 1u << b.frame;
	else if (b.frame == L72_IMPRECISE)
		m |= b.mask;
	return (struct l72_at){.mask = (uint16_t)m, .frame = L72_IMPRECISE};
}

/* __arg_track_join */
static struct l72_at join(struct l72_at a, struct l72_at b)
{
	if (!l72_visited(&b))
		return a;
	if (!l72_visited(&a))
		return b;
	if (a.frame == b.frame && a.frame >= 0) {
		if (!a.cnt || !b.cnt)
			return (struct l72_at){.frame = a.frame};
		return merge_offs(a, b);
	}
	if (a.frame == L72_NONE && b.frame == L72_NONE)
		return a;
	/* a pointer and a non-pointer: a fake fp+0 keeps the use and
	 * prevents a def */
	if (a.frame >= 0 && b.frame == L72_NONE)
		return a.cnt == 1 ? merge_offs(a, l72_single(a.frame, 0)) : a;
	if (b.frame >= 0 && a.frame == L72_NONE)
		return b.cnt == 1 ? merge_offs(b, l72_single(b.frame, 0)) : b;
	return join_imprecise(a, b);
}

bool l72_join_into(struct l72_at *in, struct l72_at out)
{
	struct l72_at nw = join(*in, out);
	if (at_eq(&nw, in))
		return false;
	*in = nw;
	return true;
}

/* arg_track_alu64 */
static void alu64(struct l72_at *dst, const struct l72_at *src)
{
	if (dst->frame >= 0 && (src->frame == L72_NONE || src->frame == dst->frame)) {
		dst->cnt = 0;
		return;
	}
	if (src->frame >= 0 && dst->frame == L72_NONE) {
		dst->cnt = 0;
		dst->frame = src->frame;
		return;
	}
	if (dst->frame == L72_NONE && src->frame == L72_NONE)
		return;
	*dst = join_imprecise(*dst, *src);
}

/* arg_add: true on overflow of the s16 offset */
bool l72_add_off(int16_t off, int64_t delta, int16_t *out)
{
	if (delta != (int16_t)delta)
		return true;
	int32_t s = (int32_t)off + (int32_t)delta;
	if (s != (int16_t)s)
		return true;
	*out = (int16_t)s;
	return false;
}

static void padd(struct l72_at *a, int64_t delta)
{
	for (int i = 0; i < a->cnt; i++) {
		int16_t n;
		if (l72_add_off(a->off[i], delta, &n)) {
			a->cnt = 0;
			return;
		}
		a->off[i] = n;
	}
}

static int fp_slot(int off)
{
	if (off >= 0 || off < -L72_NSPILL * 8 || off % 8)
		return -1;
	return -off / 8 - 1;
}

static struct l72_at fill(const struct bpf_insn *in, const struct l72_at *regs, int reg, const struct l72_at *stk, int depth)
{
	struct l72_at imp = {.mask = (uint16_t)((1u << (depth + 1)) - 1), .frame = L72_IMPRECISE};
	if (reg == BPF_REG_10) {
		int s = fp_slot(in->off);
		return s >= 0 ? stk[s] : imp;
	}
	if (!regs[reg].cnt)
		return imp;
	struct l72_at r = l72_none;
	for (int i = 0; i < regs[reg].cnt; i++) {
		int16_t o;
		if (l72_add_off(regs[reg].off[i], in->off, &o))
			return imp;
		int s = fp_slot(o);
		if (s < 0)
			return imp;
		r = join(r, stk[s]);
	}
	return r;
}

static void spill(const struct bpf_insn *in, const struct l72_at *regs, int reg, struct l72_at *stk, const struct l72_at *val,
		  int sz)
{
	struct l72_at nv = sz == 8 ? *val : l72_none;
	if (reg == BPF_REG_10) {
		int s = fp_slot(in->off);
		if (s >= 0)
			stk[s] = nv;
		return;
	}
	int cnt = regs[reg].cnt;
	if (!cnt) {
		for (int s = 0; s < L72_NSPILL; s++)
			stk[s] = join(stk[s], nv);
		return;
	}
	for (int i = 0; i < cnt; i++) {
		int16_t o;
		if (l72_add_off(regs[reg].off[i], in->off, &o))
			continue;
		int s = fp_slot(o);
		if (s >= 0)
			stk[s] = cnt == 1 ? nv : join(stk[s], nv);
	}
}

/* clear_overlapping_stack_slots */
static void clear_slots(struct l72_at *stk, int off, int sz, int cnt)
{
	for (int i = 0; i < L72_NSPILL; i++) {
		int lo = -(i + 1) * 8;
		if (cnt && !(lo < off + sz && lo + 8 > off))
			continue;
		stk[i] = cnt == 1 ? l72_none : join(stk[i], l72_none);
	}
}

/* clear_stack_for_all_offs */
static void clear_all_offs(const struct bpf_insn *in, const struct l72_at *regs, int reg, struct l72_at *stk, int sz)
{
	if (reg == BPF_REG_10) {
		clear_slots(stk, in->off, sz, 1);
		return;
	}
	int cnt = regs[reg].cnt;
	if (!cnt) {
		clear_slots(stk, 0, sz, 0);
		return;
	}
	for (int i = 0; i < cnt; i++) {
		int16_t o;
		if (l72_add_off(regs[reg].off[i], in->off, &o)) {
			clear_slots(stk, 0, sz, 0);
			break;
		}
		clear_slots(stk, o, sz, cnt);
	}
}

int l72_size_bytes(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static bool local_fp(int depth, int reg, const struct l72_at *a)
{
	return reg == BPF_REG_10 || a->frame == depth || (a->frame == L72_IMPRECISE && (a->mask & (1u << depth)));
}


/* bpf_atomic_load_reg: the register an atomic op loads into, -1 l72_none */
static int atomic_load_reg(const struct bpf_insn *in)
{
	if (in->imm == BPF_CMPXCHG)
		return BPF_REG_0;
	if (in->imm == RB_LOAD_ACQ)
		return in->dst_reg;
	if (in->imm & BPF_FETCH)
		return in->src_reg;
	return -1;
}

/* arg_track_xfer */
void l72_xfer(const struct bpf_insn *in, struct l72_at *o, struct l72_at *stk, int depth,
	      const struct l72_at *const *parents)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	struct l72_at *dst = &o[in->dst_reg % L72_NAT], *src = &o[in->src_reg % L72_NAT];
	if (cls == BPF_ALU64 && BPF_SRC(in->code) == BPF_K) {
		if (op == BPF_MOV)
			*dst = l72_none;
		else if (dst->frame >= 0) {
			if (op == BPF_ADD)
				padd(dst, in->imm);
			else if (op == BPF_SUB)
				padd(dst, -(int64_t)in->imm);
			else
				dst->cnt = 0;
		}
	} else if (cls == BPF_ALU64) {
		if (op == BPF_MOV)
			*dst = in->off ? l72_none : *src;
		else
			alu64(dst, src);
	} else if (cls == BPF_ALU) {
		*dst = l72_none;
	} else if (cls == BPF_JMP && op == BPF_CALL) {
		for (int r = 0; r <= 5; r++)
			o[r] = l72_none;
	} else if (cls == BPF_LDX) {
		int sz = l72_size_bytes(in->code);
		bool mem8 = BPF_MODE(in->code) == BPF_MEM && sz == 8;
		if (local_fp(depth, in->src_reg, src) && mem8) {
			*dst = fill(in, o, in->src_reg, stk, depth);
		} else if (src->frame >= 0 && src->frame < depth && mem8) {
			*dst = fill(in, o, in->src_reg, parents[src->frame], src->frame);
		} else if (src->frame == L72_IMPRECISE && !(src->mask & (1u << depth)) && src->mask && mem8) {
			*dst = *src;
		} else {
			*dst = l72_none;
		}
	} else if (cls == BPF_LD && BPF_MODE(in->code) == BPF_IMM) {
		*dst = l72_none;
	} else if (cls == BPF_STX) {
		int sz = l72_size_bytes(in->code);
		bool lfp = local_fp(depth, in->dst_reg, dst);
		if (lfp && BPF_MODE(in->code) == BPF_MEM)
			spill(in, o, in->dst_reg, stk, src, sz);
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			if (lfp && in->imm != RB_LOAD_ACQ)
				clear_all_offs(in, o, in->dst_reg, stk, sz);
			int r = atomic_load_reg(in);
			if (r >= 0 && r < L72_NAT)
				o[r] = l72_none;
		}
	} else if (cls == BPF_ST && BPF_MODE(in->code) == BPF_MEM) {
		if (local_fp(depth, in->dst_reg, dst))
			clear_all_offs(in, o, in->dst_reg, stk, l72_size_bytes(in->code));
	}
}

