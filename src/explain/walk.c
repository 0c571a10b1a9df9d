/* walk.c — locations (registers, spilled stack slots) in the engine's
 * states, and what one instruction does to them: which locations it
 * writes and which feed the new value (def-use), so explain can follow a
 * value back along the path. Follows the engine's (Linux 6.18's) register
 * conventions: r1-r5 arguments, r0 the result, r10 the frame pointer,
 * slot i at fp-8*(i+1). */
#include <stdio.h>
#include <string.h>

#include "engine/log.h"
#include "explain/internal.h"
#include "util/array_size.h"

struct rb_reg *ex_loc_reg(const struct rb_vstate *st, struct ex_loc l)
{
	if (!st || l.frame < 0 || l.frame > st->curframe || !st->frame[l.frame])
		return NULL;
	struct rb_func *f = st->frame[l.frame];
	if (l.kind == LOC_REG)
		return l.no >= 0 && l.no < RB_MAX_REG ? &f->regs[l.no] : NULL;
	if (l.no < 0 || l.no >= f->nslots || f->stack[l.no].type[7] != SLOT_SPILL)
		return NULL;
	return &f->stack[l.no].spilled;
}

static bool bounds_equal(const struct rb_bounds *a, const struct rb_bounds *b)
{
	return a->umin == b->umin && a->umax == b->umax && a->smin == b->smin && a->smax == b->smax &&
	       a->u32_min == b->u32_min && a->u32_max == b->u32_max && a->s32_min == b->s32_min &&
	       a->s32_max == b->s32_max && a->var_off.value == b->var_off.value && a->var_off.mask == b->var_off.mask;
}

/* value sets compared through each tracker's bounds (the kernel's eight
 * bounds and var_off), then by the membership of each probe value */
bool ex_loc_differs(const struct rb_tracker *ta, const struct rb_vstate *a, const struct rb_tracker *tb,
		    const struct rb_vstate *b, struct ex_loc l, const struct ex_probes *probes)
{
	const struct rb_reg *x = ex_loc_reg(a, l), *y = ex_loc_reg(b, l);
	if (!x || !y)
		return x != y;
	if (l.kind == LOC_SLOT && memcmp(a->frame[l.frame]->stack[l.no].type, b->frame[l.frame]->stack[l.no].type, 8))
		return true;
	if (x->type != y->type)
		return true;
	if (x->type == RT_NOT_INIT)
		return false;
	if (x->type != RT_SCALAR && (x->off != y->off || x->flags != y->flags || x->range != y->range))
		return true;
	struct rb_bounds p, q;
	ta->bounds(&x->val, &p);
	tb->bounds(&y->val, &q);
	if (!bounds_equal(&p, &q))
		return true;
	for (int i = 0; probes && x->type == RT_SCALAR && i < probes->n; i++)
		if (ta->contains(&x->val, probes->v[i]) != tb->contains(&y->val, probes->v[i]))
			return true;
	return false;
}

void ex_loc_name(struct ex_loc l, int curframe, char *buf, size_t len)
{
	char fr[16] = "";
	if (l.frame != curframe)
		snprintf(fr, sizeof(fr), " (frame %d)", l.frame);
	if (l.kind == LOC_REG)
		snprintf(buf, len, "r%d%s", l.no, fr);
	else
		snprintf(buf, len, "fp-%d%s", 8 * (l.no + 1), fr);
}

void ex_loc_value(const struct rb_tracker *t, const struct rb_vstate *st, struct ex_loc l, char *buf, size_t len)
{
	const struct rb_reg *r = ex_loc_reg(st, l);
	if (!r) {
		snprintf(buf, len, "%s", l.kind == LOC_SLOT ? "(no spilled register)" : "(no such frame)");
		return;
	}
	if (r->type == RT_NOT_INIT) {
		snprintf(buf, len, "not initialised");
		return;
	}
	char tn[64], v[640];
	if (t->print_repr)
		t->print_repr(&r->val, v, sizeof(v));
	else
		t->print(&r->val, v, sizeof(v));
	if (r->type == RT_SCALAR)
		snprintf(buf, len, "scalar %s", v[0] ? v : "(unknown: no bounds)");
	else
		snprintf(buf, len, "%s off=%d, variable part %s", rb_rtype_name(r, tn, sizeof(tn)), r->off, v);
}

static struct ex_loc reg_loc(int frame, int no)
{
	return (struct ex_loc){.frame = (int8_t)frame, .kind = LOC_REG, .no = (int16_t)no};
}

static bool loc_eq(struct ex_loc a, struct ex_loc b)
{
	return a.frame == b.frame && a.kind == b.kind && a.no == b.no;
}

/* the stack slot a load or store through register `reg` at offset off
 * addresses, when the address is a stack pointer with a constant offset */
static bool stack_slot(const struct rb_vstate *st, int reg, int16_t off, struct ex_loc *out)
{
	const struct rb_reg *r = &st->frame[st->curframe]->regs[reg];
	if (r->type != RT_STACK)
		return false;
	/* the fixed offset only: a variable part is not followed */
	int o = r->off + off;
	if (o >= 0)
		return false;
	int slot = -o - 1;
	*out = (struct ex_loc){.frame = (int8_t)r->frameno, .kind = LOC_SLOT, .no = (int16_t)(slot / 8)};
	return true;
}

static void add_in(struct ex_effect *e, struct ex_loc l)
{
	if (e->nin < (int)(ARRAY_SIZE(e->in)))
		e->in[e->nin++] = l;
}

static void call_effect(const struct bpf_insn *insn, const struct rb_vstate *before, const struct rb_vstate *after,
			struct ex_loc l, struct ex_effect *e)
{
	int f = before->curframe;
	if (insn->src_reg == BPF_PSEUDO_CALL && after && after->curframe == f + 1) {
		/* into a subprogram: the callee's r1-r5 are the caller's */
		if (l.frame == f + 1 && l.kind == LOC_REG) {
			e->writes = e->full = true;
			if (l.no >= 1 && l.no <= 5)
				add_in(e, reg_loc(f, l.no));
		}
		return;
	}
	/* a helper, kfunc or an inlined callback: r0 is the result, r1-r5
	 * are clobbered; the result depends on the arguments */
	if (l.frame == f && l.kind == LOC_REG && l.no <= 5) {
		e->writes = e->full = true;
		if (l.no == 0)
			for (int i = 1; i <= 5; i++)
				add_in(e, reg_loc(f, i));
	}
}

void ex_insn_effect(const struct bpf_insn *insn, const struct rb_vstate *before, const struct rb_vstate *after,
		    struct ex_loc l, struct ex_effect *e)
{
	memset(e, 0, sizeof(*e));
	int f = before->curframe;
	uint8_t cls = BPF_CLASS(insn->code);
	struct ex_loc dst = reg_loc(f, insn->dst_reg), src = reg_loc(f, insn->src_reg), slot;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (!loc_eq(l, dst))
			return;
		e->writes = true;
		e->full = BPF_OP(insn->code) == BPF_MOV;
		if (BPF_SRC(insn->code) == BPF_X && BPF_OP(insn->code) != BPF_NEG && BPF_OP(insn->code) != BPF_END)
			add_in(e, src);
		return;
	case BPF_LD:
		if (loc_eq(l, dst) || (l.frame == f && l.kind == LOC_REG && l.no <= 5 && BPF_MODE(insn->code) != BPF_IMM))
			e->writes = e->full = true;
		return;
	case BPF_LDX:
		if (!loc_eq(l, dst))
			return;
		e->writes = e->full = true;
		if (stack_slot(before, insn->src_reg, insn->off, &slot))
			add_in(e, slot);
		return;
	case BPF_ST:
	case BPF_STX:
		if (!stack_slot(before, insn->dst_reg, insn->off, &slot)) {
			/* atomics with fetch write their source register */
			if (cls == BPF_STX && BPF_MODE(insn->code) == BPF_ATOMIC && loc_eq(l, src))
				e->writes = true;
			return;
		}
		if (!loc_eq(l, slot))
			return;
		e->writes = true;
		e->full = BPF_SIZE(insn->code) == BPF_DW && BPF_MODE(insn->code) == BPF_MEM;
		if (cls == BPF_STX)
			add_in(e, src);
		return;
	case BPF_JMP:
	case BPF_JMP32: {
		uint8_t op = BPF_OP(insn->code);
		if (op == BPF_CALL) {
			call_effect(insn, before, after, l, e);
			return;
		}
		if (op == BPF_EXIT) {
			/* back into the caller: its r0 is the callee's */
			if (f > 0 && l.frame == f - 1 && l.kind == LOC_REG && l.no == 0) {
				e->writes = e->full = true;
				add_in(e, reg_loc(f, 0));
			}
			return;
		}
		if (op == BPF_JA)
			return;
		/* a conditional jump refines both operands, each by the other */
		if (loc_eq(l, dst)) {
			e->writes = true;
			if (BPF_SRC(insn->code) == BPF_X)
				add_in(e, src);
		} else if (BPF_SRC(insn->code) == BPF_X && loc_eq(l, src)) {
			e->writes = true;
			add_in(e, dst);
		}
		return;
	}
	}
}

int ex_insn_operands(const struct bpf_insn *insn, const struct rb_vstate *st, struct ex_loc *out, int max)
{
	int n = 0, f = st->curframe;
	uint8_t cls = BPF_CLASS(insn->code);
	struct ex_loc slot;
#define ADD(l)                                                                                                         \
	do {                                                                                                           \
		if (n < max)                                                                                           \
			out[n++] = (l);                                                                                \
	} while (0)
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) == BPF_X)
			ADD(reg_loc(f, insn->src_reg));
		ADD(reg_loc(f, insn->dst_reg));
		break;
	case BPF_LDX:
		ADD(reg_loc(f, insn->src_reg));
		if (stack_slot(st, insn->src_reg, insn->off, &slot))
			ADD(slot);
		break;
	case BPF_ST:
	case BPF_STX:
		ADD(reg_loc(f, insn->dst_reg));
		if (cls == BPF_STX)
			ADD(reg_loc(f, insn->src_reg));
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (BPF_OP(insn->code) == BPF_CALL) {
			for (int i = 1; i <= 5; i++)
				ADD(reg_loc(f, i));
		} else if (BPF_OP(insn->code) == BPF_EXIT) {
			ADD(reg_loc(f, 0));
		} else if (BPF_OP(insn->code) != BPF_JA) {
			ADD(reg_loc(f, insn->dst_reg));
			if (BPF_SRC(insn->code) == BPF_X)
				ADD(reg_loc(f, insn->src_reg));
		}
		break;
	default:
		break;
	}
#undef ADD
	return n;
}
