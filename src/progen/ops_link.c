/* ops_link.c — the link32 family's operation: linked scalars (rD = rS,
 * wD = wS, with or without a constant added in 64 or 32 bits) bounded by
 * mixes of 64- and 32-bit, signed and unsigned jumps on either copy, then
 * one of them used as a map value offset (r8) so the bounds that reached it
 * decide the verdict. */
#include "progen/gen.h"

static const uint8_t uops[] = {BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE};
static const uint8_t sops[] = {BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};

void pg_op_link32(struct gen *g, int depth)
{
	if (depth)
		return;
	int s = pg_pick_scalar(g);
	int d = pg_pick_from(g, (uint16_t)(0x3fe & ~g->reserved & ~(s >= 0 ? 1u << s : 0)));
	if (s < 0 || d < 0)
		return;
	if (pg_chance(g, 40)) /* a source of moderate width first */
		pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)s, 0, 0, pg_chance(g, 50) ? 0xff : 0xffff);
	else if (pg_chance(g, 25))
		pg_emit(g, BPF_ALU | BPF_MOV | BPF_X, (uint8_t)s, (uint8_t)s, 0, 0); /* zero-extended */
	unsigned form = pg_rnd(g, 6);
	if (form < 3)
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
	else
		pg_emit(g, BPF_ALU | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
	pg_set_scalar(g, d);
	if (form == 1 || form == 4) {
		int32_t k = (int32_t)pg_rnd(g, 40) - 20;
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)d, 0, 0, k);
	} else if (form == 2 || form == 5) {
		int32_t k = (int32_t)pg_rnd(g, 40) - 20;
		pg_emit(g, BPF_ALU | (pg_chance(g, 70) ? BPF_ADD : BPF_SUB) | BPF_K, (uint8_t)d, 0, 0, k);
	}
	/* one to three jumps, each on either copy, 32 or 64 bit, signed or not */
	int nj = 1 + (int)pg_rnd(g, 3);
	for (int i = 0; i < nj; i++) {
		int r = pg_chance(g, 50) ? s : d;
		uint8_t cls = pg_chance(g, 50) ? BPF_JMP32 : BPF_JMP;
		uint8_t jop = pg_chance(g, 60) ? uops[pg_rnd(g, 4)] : sops[pg_rnd(g, 4)];
		int32_t k = pg_chance(g, 70) ? (int32_t)pg_rnd(g, 80) - 8 : pg_interesting(g);
		if (pg_chance(g, 15)) {
			int o = r == s ? d : s;
			pg_cond_jump_out(g, cls | jop | BPF_X, r, o, 0);
		} else if (pg_chance(g, 80)) {
			pg_cond_jump_out(g, cls | jop | BPF_K, r, 0, k);
		} else {
			pg_skip_over(g, cls | jop | BPF_K, r, 0, k, 1);
			if (!(g->scalars & (1u << s)) || !(g->scalars & (1u << d)))
				return;
		}
	}
	if (!g->fam->map || pg_chance(g, 20))
		return;
	/* a map value access at r8 + one copy */
	int r = pg_chance(g, 50) ? s : d;
	int tb = pg_pick_from(g, (uint16_t)(0x3e & ~g->reserved & ~(1u << s) & ~(1u << d)));
	if (tb < 0)
		return;
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)tb, BPF_REG_8, 0, 0);
	pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)tb, (uint8_t)r, 0, 0);
	pg_set_ptr(g, tb);
	int size = pg_rand_size(g);
	int ld = pg_pick_from(g, (uint16_t)(0x3fe & ~g->reserved & ~(1u << tb)));
	if (ld >= 0 && pg_chance(g, 60)) {
		pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(size), (uint8_t)ld, (uint8_t)tb, 0, 0);
		pg_set_scalar(g, ld);
	} else {
		pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), (uint8_t)tb, 0, 0, 1);
	}
}
