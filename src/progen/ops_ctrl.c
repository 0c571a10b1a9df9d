/* ops_ctrl.c — the maygoto family's operations: may_goto (BPF_JMP |
 * BPF_JCOND, src_reg BPF_MAY_GOTO) as the exit of counted and of unbounded
 * loops and as a forward branch, and gotol (BPF_JMP32 | BPF_JA, the offset
 * in imm) as the else-jump of diamonds and as a loop's back edge. */
#include "progen/gen.h"

#define JCOND 0xe0 /* BPF_JCOND */

static int may_goto(struct gen *g) { return pg_emit(g, BPF_JMP | JCOND, 0, 0, 0, 0); }

static int gotol(struct gen *g) { return pg_emit(g, BPF_JMP32 | BPF_JA, 0, 0, 0, 0); }

/* patch the gotol at j to land on `to` */
static void land_long(struct gen *g, int j, int to) { g->p->insns[j].imm = to - j - 1; }

static void body(struct gen *g, int n)
{
	for (int i = 0; i < n && !g->full; i++)
		pg_op(g, pg_chance(g, 15) ? OP_RANGE_JMP : pg_simple_kind(g), 1);
}

void pg_op_maygoto(struct gen *g, int depth)
{
	if (depth)
		return;
	unsigned form = pg_rnd(g, 10);
	if (form < 3) {
		/* may_goto +n over a few operations: both sides continue */
		int j = may_goto(g);
		g->branches++;
		pg_side_ops(g, 1 + (int)pg_rnd(g, 3));
		pg_land(g, j, pg_here(g));
		return;
	}
	if (form < 6) {
		/* a counted loop that may_goto may leave early */
		int c = pg_pick_from(g, (uint16_t)(0x3fe & ~g->reserved));
		if (c < 0)
			return;
		int n = 1 + (int)pg_rnd(g, 6);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)c, 0, 0, 0);
		pg_set_scalar(g, c);
		g->reserved |= (uint16_t)(1u << c);
		int top = pg_here(g);
		int m = may_goto(g);
		body(g, 1 + (int)pg_rnd(g, 3));
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)c, 0, 0, 1);
		int j = pg_emit(g, BPF_JMP | BPF_JLT | BPF_K, (uint8_t)c, 0, 0, n);
		pg_land(g, j, top);
		pg_land(g, m, pg_here(g));
		g->branches += 2;
		g->reserved &= (uint16_t)~(1u << c);
		return;
	}
	/* an unbounded loop: only may_goto (or a break on a scalar the body
	 * leaves alone) leaves it. The body has no jumps of its own: a branch
	 * decided on a value the body changes would make it precise, never
	 * widened, and the loop would be explored to the instruction limit */
	uint16_t before = g->scalars;
	int r = pg_chance(g, 40) ? pg_pick_scalar(g) : -1;
	if (r >= 0)
		g->reserved |= (uint16_t)(1u << r);
	int top = pg_here(g);
	int m = may_goto(g);
	for (int i = 0, n = 1 + (int)pg_rnd(g, 3); i < n && !g->full; i++)
		pg_op(g, pg_simple_kind(g), 1);
	int brk = -1;
	if (r >= 0) {
		g->reserved &= (uint16_t)~(1u << r);
		brk = pg_emit(g, pg_jmp_class(g) | pg_cond_op(g) | BPF_K, (uint8_t)r, 0, 0, pg_interesting(g));
	}
	int back = pg_chance(g, 50) ? gotol(g) : pg_emit(g, BPF_JMP | BPF_JA, 0, 0, 0, 0);
	if (g->p->insns[back].code == (BPF_JMP32 | BPF_JA))
		land_long(g, back, top);
	else
		pg_land(g, back, top);
	pg_land(g, m, pg_here(g));
	if (brk >= 0)
		pg_land(g, brk, pg_here(g));
	g->branches += 2;
	g->scalars &= before;
}

void pg_op_gotol(struct gen *g, int depth)
{
	if (depth)
		return;
	int r = pg_pick_scalar(g);
	if (r < 0)
		return;
	if (pg_chance(g, 65)) {
		/* if (cond) { A } else { B } with gotol over B */
		int j = pg_emit(g, pg_jmp_class(g) | pg_cond_op(g) | BPF_K, (uint8_t)r, 0, 0, pg_interesting(g));
		g->branches++;
		pg_side_ops(g, 1 + (int)pg_rnd(g, 3));
		int ja = gotol(g);
		pg_land(g, j, pg_here(g));
		pg_side_ops(g, 1 + (int)pg_rnd(g, 3));
		land_long(g, ja, pg_here(g));
		return;
	}
	/* a counted loop whose back edge is a gotol */
	int c = pg_pick_from(g, (uint16_t)(0x3fe & ~g->reserved));
	if (c < 0)
		return;
	int n = 1 + (int)pg_rnd(g, 5);
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)c, 0, 0, n);
	pg_set_scalar(g, c);
	g->reserved |= (uint16_t)(1u << c);
	int top = pg_here(g);
	body(g, 1 + (int)pg_rnd(g, 3));
	pg_emit(g, BPF_ALU64 | BPF_SUB | BPF_K, (uint8_t)c, 0, 0, 1);
	int j = pg_emit(g, BPF_JMP | BPF_JEQ | BPF_K, (uint8_t)c, 0, 0, 0);
	int back = gotol(g);
	land_long(g, back, top);
	pg_land(g, j, pg_here(g));
	g->branches += 2;
	g->reserved &= (uint16_t)~(1u << c);
}
