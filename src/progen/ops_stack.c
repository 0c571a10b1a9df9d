/* ops_stack.c — the stack family's operations: variable-offset stack
 * accesses (bounded by a mask or by signed/unsigned jumps), pointers spilled
 * to the stack and filled back (whole, narrow, partly overwritten), and
 * narrow spills and fills (32-bit spills, immediates, zeroes, fills that
 * straddle two writes or read a slot never written). */
#include "progen/gen.h"
#include "util/array_size.h"

/* a free register (r1..r9 but the reserved ones and `avoid`), or -1 */
static int free_reg(struct gen *g, int avoid)
{
	return pg_pick_from(g, (uint16_t)(0x3fe & ~g->reserved & ~(avoid >= 0 ? 1u << avoid : 0)));
}

/* rB = fp + base + rI with rI bounded by a mask or by jumps; then a store,
 * an immediate store or a load of 1..8 bytes at a constant offset */
void pg_op_stackvar(struct gen *g, int depth)
{
	if (depth)
		return;
	int ti, tb;
	if (!pg_ptr_regs(g, &ti, &tb))
		return;
	int size = pg_rand_size(g);
	int lo, hi, base;
	unsigned how = pg_rnd(g, 10);
	if (how < 4) {
		static const int32_t masks[] = {0x38, 0x3c, 0x3e, 0x3f, 0x7, 0x1f, 0x18, 0x30, 0x4};
		int32_t m = masks[pg_rnd(g, ARRAY_SIZE(masks))];
		if (pg_chance(g, 70))
			m &= ~(size - 1);
		pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)ti, 0, 0, m);
		lo = 0;
		hi = m;
		base = -64;
	} else if (how < 8) {
		/* a signed window [-k, k] around fp-32 */
		int k = 1 + (int)pg_rnd(g, 32);
		uint8_t cls = pg_chance(g, 25) ? BPF_JMP32 : BPF_JMP;
		pg_cond_jump_out(g, cls | BPF_JSGT | BPF_K, ti, 0, k);
		pg_cond_jump_out(g, cls | (pg_chance(g, 50) ? BPF_JSLT : BPF_JSLE) | BPF_K, ti, 0, -k);
		lo = -k;
		hi = k;
		base = -32;
	} else {
		/* unsigned bounds from a jump: [0, k] (a 32-bit jump leaves the upper half) */
		int k = (int)pg_rnd(g, 56);
		uint8_t cls = pg_chance(g, 20) ? BPF_JMP32 : BPF_JMP;
		pg_cond_jump_out(g, cls | (pg_chance(g, 50) ? BPF_JGT : BPF_JGE) | BPF_K, ti, 0, k);
		lo = 0;
		hi = k;
		base = -64;
	}
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)tb, BPF_REG_10, 0, 0);
	if (pg_chance(g, 50)) {
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)tb, (uint8_t)ti, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)tb, 0, 0, base);
	} else {
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)tb, 0, 0, base);
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)tb, (uint8_t)ti, 0, 0);
	}
	pg_set_ptr(g, tb);
	/* [base + lo + off, base + hi + off + size) inside [-64, 0) mostly */
	int minoff = -64 - (base + lo), maxoff = -(base + hi) - size;
	int16_t off = 0;
	if (maxoff >= minoff)
		off = (int16_t)(minoff + (int)pg_rnd(g, (unsigned)(maxoff - minoff + 1)));
	if (pg_chance(g, 6))
		off = (int16_t)(off + (pg_chance(g, 50) ? 8 : -8)); /* may leave the stack: refused */
	if (size > 1 && pg_chance(g, 80))
		off = (int16_t)(off & ~(size - 1));
	unsigned what = pg_rnd(g, 10);
	if (what < 3) {
		int v = pg_pick_scalar(g);
		if (v >= 0 && v != tb)
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), (uint8_t)tb, (uint8_t)v, off, 0);
		else
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), (uint8_t)tb, 0, off, 0);
	} else if (what < 4) {
		pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), (uint8_t)tb, 0, off,
			pg_chance(g, 50) ? 0 : pg_interesting(g));
	} else if (what < 5 && g->fam->map) {
		/* a pointer stored at a variable offset */
		pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, (uint8_t)tb, BPF_REG_8, (int16_t)(off & ~7), 0);
	} else {
		int d = free_reg(g, tb);
		if (d < 0)
			return;
		pg_emit(g, BPF_LDX | (pg_chance(g, 15) ? BPF_MEMSX : BPF_MEM) | pg_size_code(size == 8 ? 4 : size),
			(uint8_t)d, (uint8_t)tb, off, 0);
		if (size == 8) /* (ldsx has no 8-byte form: the load above is 4 bytes) */
			pg_emit(g, BPF_LDX | BPF_MEM | BPF_DW, (uint8_t)d, (uint8_t)tb, off, 0);
		pg_set_scalar(g, d);
	}
}

/* a pointer (fp, fp + k or the map value) spilled to a slot and filled
 * back whole (then dereferenced), narrow, or after a partial overwrite */
void pg_op_ptrspill(struct gen *g, int depth)
{
	(void)depth;
	int slot = 1 + (int)pg_rnd(g, 8);
	int16_t soff = (int16_t)(-8 * slot);
	int src = BPF_REG_10;
	bool map = g->fam->map && pg_chance(g, 50);
	int kind_off = 0; /* the spilled pointer's offset (fp-relative) */
	if (map) {
		src = BPF_REG_8;
	} else if (pg_chance(g, 50)) {
		int t = free_reg(g, -1);
		if (t < 0)
			return;
		kind_off = -8 * (1 + (int)pg_rnd(g, 8));
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)t, BPF_REG_10, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)t, 0, 0, kind_off);
		pg_set_ptr(g, t);
		src = t;
	}
	pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, (uint8_t)src, soff, 0);
	unsigned what = pg_rnd(g, 10);
	if (what == 0) {
		/* a partial overwrite: the slot no longer holds the pointer */
		static const int sizes[] = {1, 2, 4};
		int size = sizes[pg_rnd(g, 3)];
		int16_t o = (int16_t)(soff + size * (int)pg_rnd(g, (unsigned)(8 / size)));
		int v = pg_pick_scalar(g);
		if (v >= 0 && pg_chance(g, 60))
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), BPF_REG_10, (uint8_t)v, o, 0);
		else
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), BPF_REG_10, 0, o, pg_chance(g, 50) ? 0 : 5);
	}
	if (what == 1) {
		/* a narrow fill of the spilled pointer: refused */
		int d = free_reg(g, -1);
		if (d >= 0) {
			pg_emit(g, BPF_LDX | BPF_MEM | BPF_W, (uint8_t)d, BPF_REG_10, soff, 0);
			pg_set_scalar(g, d);
		}
		return;
	}
	if (what >= 7)
		return; /* left in the stack */
	int d = free_reg(g, -1);
	if (d < 0)
		return;
	pg_emit(g, BPF_LDX | BPF_MEM | BPF_DW, (uint8_t)d, BPF_REG_10, soff, 0);
	pg_set_ptr(g, d);
	if (what == 0 && pg_chance(g, 70)) {
		pg_set_scalar(g, d); /* (a scalar now) */
		return;
	}
	/* dereference it */
	int size = pg_rand_size(g);
	int16_t o;
	if (map)
		o = (int16_t)(size * (int)pg_rnd(g, (unsigned)(64 / size)));
	else if (src == BPF_REG_10)
		o = (int16_t)(-size * (1 + (int)pg_rnd(g, (unsigned)(64 / size))));
	else
		o = (int16_t)((-64 - kind_off) + size * (int)pg_rnd(g, (unsigned)(64 / size)));
	int r = free_reg(g, d);
	if (r < 0)
		return;
	if (pg_chance(g, 60)) {
		pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(size), (uint8_t)r, (uint8_t)d, o, 0);
		pg_set_scalar(g, r);
	} else {
		int v = pg_pick_scalar(g);
		if (v >= 0 && v != d)
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), (uint8_t)d, (uint8_t)v, o, 0);
	}
}

/* narrow spills and fills: a 32-bit (or 16/8-bit) spill of a bounded or
 * unknown scalar, immediates and zeroes, then fills of the same size, of
 * the whole slot, of another part or across two writes */
void pg_op_narrow(struct gen *g)
{
	int slot = 1 + (int)pg_rnd(g, 8);
	int16_t soff = (int16_t)(-8 * slot);
	static const int sizes[] = {4, 4, 4, 2, 1, 8};
	int size = sizes[pg_rnd(g, ARRAY_SIZE(sizes))];
	int16_t woff = (int16_t)(soff + (pg_chance(g, 60) ? 0 : size * (int)pg_rnd(g, (unsigned)(8 / size))));
	unsigned w = pg_rnd(g, 10);
	int v = pg_pick_scalar(g);
	if (w < 5 && v >= 0) {
		if (pg_chance(g, 40)) /* bounded first: a 32-bit spill keeps it */
			pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)v, 0, 0, pg_chance(g, 50) ? 0xff : 0xffff);
		pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), BPF_REG_10, (uint8_t)v, woff, 0);
	} else if (w < 7) {
		pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), BPF_REG_10, 0, woff, 0);
	} else if (w < 9) {
		pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), BPF_REG_10, 0, woff, pg_interesting(g));
	} else if (v >= 0) {
		/* a constant in a register, spilled */
		int t = free_reg(g, -1);
		if (t < 0)
			return;
		if (pg_chance(g, 50))
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)t, 0, 0, pg_interesting(g));
		else
			pg_emit_ld64(g, (uint8_t)t, pg_interesting64(g), 0);
		pg_set_scalar(g, t);
		pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), BPF_REG_10, (uint8_t)t, woff, 0);
	}
	if (pg_chance(g, 25)) {
		/* a second write into the same slot */
		int s2 = size == 8 ? 4 : size;
		int16_t o2 = (int16_t)(soff + s2 * (int)pg_rnd(g, (unsigned)(8 / s2)));
		int u = pg_pick_scalar(g);
		if (u >= 0 && pg_chance(g, 50))
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(s2), BPF_REG_10, (uint8_t)u, o2, 0);
		else
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(s2), BPF_REG_10, 0, o2, pg_chance(g, 50) ? 0 : -1);
	}
	/* the fill */
	int d = free_reg(g, -1);
	if (d < 0)
		return;
	unsigned f = pg_rnd(g, 10);
	int fsize;
	int16_t foff;
	if (f < 4) {
		fsize = size;
		foff = woff;
	} else if (f < 7) {
		fsize = 8;
		foff = soff;
	} else {
		static const int fs[] = {1, 2, 4};
		fsize = fs[pg_rnd(g, 3)];
		foff = (int16_t)(soff + fsize * (int)pg_rnd(g, (unsigned)(8 / fsize)));
		if (pg_chance(g, 10) && slot > 1)
			foff = (int16_t)(soff - fsize / 2 - 1 + fsize); /* straddles: misaligned, refused */
	}
	bool sx = fsize < 8 && pg_chance(g, 20);
	pg_emit(g, BPF_LDX | (sx ? BPF_MEMSX : BPF_MEM) | pg_size_code(fsize), (uint8_t)d, BPF_REG_10, foff, 0);
	pg_set_scalar(g, d);
	if (pg_chance(g, 50)) {
		uint8_t cls = pg_jmp_class(g);
		pg_cond_jump_out(g, cls | pg_cond_op(g) | BPF_K, d, 0, pg_interesting(g));
	}
}
