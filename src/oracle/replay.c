/* replay.c — replay an opdiff program through a userspace tracker (see
 * replay.h). Follows the exploration order and the printing of Linux
 * 6.18's do_check(): the fall-through of an undecided jump first, the
 * jump target later, each with its refined registers; a decided jump
 * follows only its outcome and leaves the registers as they were. */
#include "oracle/replay.h"

#include <stdlib.h>
#include <string.h>

struct path {
	int pc, from;
	uint16_t scalar;
	rb_val r[RB_VLOG_MAX_REGS];
};

static int add_event(struct rb_replay *out, enum rb_vlog_kind kind, int insn, int from,
		     const struct path *p, uint16_t touched, struct rb_err *err)
{
	if (out->nev >= RB_REPLAY_MAX_EVENTS)
		return rb_errf(err, "replay: more than %d states", RB_REPLAY_MAX_EVENTS);
	struct rb_replay_event *e = &out->ev[out->nev++];
	e->kind = kind;
	e->insn = insn;
	e->from = from;
	e->scalar = p->scalar;
	e->touched = touched;
	memcpy(e->regs, p->r, sizeof(e->regs));
	return 0;
}

static int do_alu(const struct rb_tracker *t, struct path *p, const struct bpf_insn *in,
		  struct rb_err *err)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	bool is64 = cls == BPF_ALU64;
	unsigned d = in->dst_reg, s = in->src_reg;
	rb_val src;
	if (d > 9)
		return rb_errf(err, "replay: ALU on r%u", d);
	if (op == BPF_NEG || op == BPF_END) {
		if (!(p->scalar & (1u << d)))
			return rb_errf(err, "replay: %s of a non-scalar r%u", rb_alu_name(op), d);
		src = p->r[d];
	} else if (BPF_SRC(in->code) == BPF_X) {
		if (s > 9 || !(p->scalar & (1u << s)))
			return rb_errf(err, "replay: ALU source r%u is not a scalar", s);
		src = p->r[s];
	} else {
		t->constant(&src, is64 ? (uint64_t)(int64_t)in->imm : (uint64_t)(uint32_t)in->imm);
	}
	if (!(p->scalar & (1u << d))) {
		if (op != BPF_MOV)
			return rb_errf(err, "replay: ALU on a non-scalar r%u", d);
		t->unknown(&p->r[d]);
	}
	struct rb_alu a = {.code = in->code, .off = in->off, .imm = in->imm};
	t->alu(&p->r[d], &src, &a);
	p->scalar |= (uint16_t)(1u << d);
	return 0;
}

int rb_replay_run(const struct rb_tracker *t, const struct bpf_insn *insns, unsigned n,
		  struct rb_replay *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	if (n > RB_REPLAY_MAX_INSNS)
		return rb_errf(err, "replay: program of %u insns is too long", n);
	struct path *stack = malloc(sizeof(*stack) * (RB_REPLAY_MAX_INSNS + 1));
	if (!stack)
		return rb_errf(err, "replay: out of memory");
	unsigned sp = 0;
	/* entry: r1 = ctx, r10 = fp (not scalars), the rest uninitialised */
	memset(&stack[0], 0, sizeof(stack[0]));
	stack[0].pc = 0;
	stack[0].from = -1;
	sp = 1;
	int rc = 0;
	unsigned steps = 0;
	while (sp > 0 && rc == 0) {
		struct path p = stack[--sp];
		if (p.from >= 0 && (rc = add_event(out, RB_VLOG_BRANCH, p.pc, p.from, &p, 0, err)))
			break;
		for (;;) {
			if (p.pc < 0 || (unsigned)p.pc >= n) {
				rc = rb_errf(err, "replay: jump out of the program to %d", p.pc);
				break;
			}
			if (++steps > 10000) {
				rc = rb_errf(err, "replay: too many steps (a loop?)");
				break;
			}
			const struct bpf_insn *in = &insns[p.pc];
			uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
			out->visits[p.pc]++;
			if (cls == BPF_ALU || cls == BPF_ALU64) {
				if ((rc = do_alu(t, &p, in, err)))
					break;
				uint16_t touched = (uint16_t)(1u << in->dst_reg);
				if (BPF_SRC(in->code) == BPF_X && op != BPF_END && op != BPF_NEG)
					touched |= (uint16_t)(1u << in->src_reg);
				if ((rc = add_event(out, RB_VLOG_AFTER, p.pc, -1, &p, touched, err)))
					break;
				p.pc++;
				continue;
			}
			if (in->code == (BPF_LD | BPF_DW | BPF_IMM)) {
				if (p.pc + 1 >= (int)n || in->src_reg != 0 || in->dst_reg > 9) {
					rc = rb_errf(err, "replay: unsupported ld_imm64 at %d", p.pc);
					break;
				}
				uint64_t v = (uint64_t)(uint32_t)in->imm | (uint64_t)(uint32_t)insns[p.pc + 1].imm << 32;
				t->constant(&p.r[in->dst_reg], v);
				p.scalar |= (uint16_t)(1u << in->dst_reg);
				if ((rc = add_event(out, RB_VLOG_AFTER, p.pc, -1, &p, (uint16_t)(1u << in->dst_reg), err)))
					break;
				p.pc += 2;
				continue;
			}
			if (cls != BPF_JMP && cls != BPF_JMP32) {
				rc = rb_errf(err, "replay: unsupported instruction 0x%02x at %d", in->code, p.pc);
				break;
			}
			if (op == BPF_EXIT)
				break;
			if (op == BPF_JA && cls == BPF_JMP) {
				p.pc += in->off + 1;
				continue;
			}
			if (op == BPF_CALL) {
				if (in->src_reg != 0) {
					rc = rb_errf(err, "replay: only helper calls are modelled (insn %d)", p.pc);
					break;
				}
				t->unknown(&p.r[0]);
				p.scalar = (uint16_t)((p.scalar & ~0x3fu) | 1u);
				if ((rc = add_event(out, RB_VLOG_AFTER, p.pc, -1, &p, 1, err)))
					break;
				p.pc++;
				continue;
			}
			/* conditional jump */
			bool is32 = cls == BPF_JMP32;
			unsigned d = in->dst_reg, s = in->src_reg;
			bool isx = BPF_SRC(in->code) == BPF_X;
			if (d > 9 || !(p.scalar & (1u << d)) || (isx && (s > 9 || !(p.scalar & (1u << s))))) {
				rc = rb_errf(err, "replay: jump on a non-scalar at %d", p.pc);
				break;
			}
			rb_val b;
			if (isx)
				b = p.r[s];
			else
				t->constant(&b, is32 ? (uint64_t)(uint32_t)in->imm : (uint64_t)(int64_t)in->imm);
			uint16_t touched = (uint16_t)((1u << d) | (isx ? 1u << s : 0));
			struct rb_replay_jump *j = &out->jumps[out->njumps < RB_REPLAY_MAX_INSNS ? out->njumps++ : out->njumps - 1];
			j->insn = p.pc;
			/* "r6 op r6" with a tracker that decides it itself (Linux
			 * 7.2's is_scalar_branch_taken() with reg1 == reg2) */
			bool same = isx && s == d && t->branch_taken_same;
			j->taken = same ? t->branch_taken_same(&p.r[d], op, is32) : t->branch_taken(&p.r[d], &b, op, is32);
			int target = p.pc + in->off + 1;
			if (j->taken == RB_BR_ALWAYS) {
				if ((rc = add_event(out, RB_VLOG_AFTER, p.pc, -1, &p, touched, err)))
					break;
				p.pc = target;
				continue;
			}
			if (j->taken == RB_BR_NEVER) {
				if ((rc = add_event(out, RB_VLOG_AFTER, p.pc, -1, &p, touched, err)))
					break;
				p.pc++;
				continue;
			}
			/* undecided: the taken side waits on the stack, refined */
			/* "r6 op r6": Linux 6.18 refines through two pointers to the
			 * same register (reg_set_min_max() with reg1 == reg2), so
			 * the tracker gets the same value twice as well; Linux 7.2
			 * (branch_taken_same) refines neither outcome */
			struct path tp = p;
			rb_val tb = b, fb = b;
			bool t_ok = same || t->branch_refine(&tp.r[d], isx ? &tp.r[s] : &tb, op, is32);
			tp.pc = target;
			tp.from = p.pc;
			bool f_ok = same || t->branch_refine(&p.r[d], isx ? &p.r[s] : &fb, rb_jmp_negate(op), is32);
			j->true_impossible = !t_ok;
			j->false_impossible = !f_ok;
			if (t_ok)
				stack[sp++] = tp;
			if (!f_ok)
				break;
			if ((rc = add_event(out, RB_VLOG_AFTER, p.pc, -1, &p, touched, err)))
				break;
			p.pc++;
		}
	}
	free(stack);
	return rc;
}

const struct rb_replay_event *rb_replay_find(const struct rb_replay *r, enum rb_vlog_kind kind,
					     int insn, int from)
{
	for (unsigned i = 0; i < r->nev; i++)
		if (r->ev[i].kind == kind && r->ev[i].insn == insn &&
		    (kind != RB_VLOG_BRANCH || r->ev[i].from == from))
			return &r->ev[i];
	return NULL;
}

const struct rb_replay_jump *rb_replay_jump_at(const struct rb_replay *r, int insn)
{
	for (unsigned i = 0; i < r->njumps; i++)
		if (r->jumps[i].insn == insn)
			return &r->jumps[i];
	return NULL;
}
