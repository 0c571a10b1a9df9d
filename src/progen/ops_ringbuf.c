/* ops_ringbuf.c — the ringbuf family's operations (maps[0] a ring buffer,
 * r8 an array value): bpf_ringbuf_reserve / submit / discard with the
 * record in a callee-saved register, checked for NULL, written and read at
 * constant and masked offsets; bpf_ringbuf_output and _query; dynptrs on
 * the stack from bpf_ringbuf_reserve_dynptr (released by submit/discard
 * _dynptr) or bpf_dynptr_from_mem over the map value, with
 * bpf_dynptr_data / _read / _write. A few programs leave out the NULL
 * check or the release, access past the end or overwrite a live dynptr:
 * refused for their own reasons. */
#include "progen/gen.h"
#include "util/array_size.h"

static void call(struct gen *g, int32_t helper)
{
	pg_emit(g, BPF_JMP | BPF_CALL, 0, 0, 0, helper);
	g->scalars &= (uint16_t)~0x3f; /* r0..r5 */
}

static void ld_ringbuf(struct gen *g, uint8_t r)
{
	pg_emit_ld64(g, r, 0, BPF_PSEUDO_MAP_IDX);
	pg_set_ptr(g, r);
}

static void fp_plus(struct gen *g, uint8_t r, int off)
{
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, r, BPF_REG_10, 0, 0);
	pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 0, off);
}

static int rec_size(struct gen *g)
{
	static const int sizes[] = {8, 16, 24, 32, 64, 4, 1, 3, 12, 48};
	return sizes[pg_rnd(g, ARRAY_SIZE(sizes))];
}

/* a load or store of 1..8 bytes at base + [0, size) (rarely past it) */
static void access(struct gen *g, uint8_t base, int size)
{
	int asz = pg_rand_size(g);
	while (asz > size && asz > 1)
		asz /= 2;
	int16_t off = (int16_t)(asz <= size ? pg_rnd(g, (unsigned)(size - asz + 1)) : 0);
	if (pg_chance(g, 4))
		off = (int16_t)(size - asz + 1 + (int)pg_rnd(g, 4)); /* past the end: refused */
	unsigned what = pg_rnd(g, 3);
	if (what == 0) {
		pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(asz), base, 0, off, pg_interesting(g));
	} else if (what == 1) {
		int v = pg_pick_scalar(g);
		if (v >= 0 && v != base)
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(asz), base, (uint8_t)v, off, 0);
	} else {
		int d = pg_pick_from(g, (uint16_t)(0x3c0 & ~g->reserved & ~(1u << base)));
		if (d >= 0) {
			pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(asz), (uint8_t)d, base, off, 0);
			pg_set_scalar(g, d);
		}
	}
}

void pg_op_ringbuf(struct gen *g, int depth)
{
	if (depth)
		return;
	unsigned form = pg_rnd(g, 10);
	if (form == 0) {
		/* bpf_ringbuf_output from the stack */
		int size = pg_chance(g, 50) ? 8 : 16;
		if (pg_chance(g, 60)) {
			int v = pg_pick_scalar(g);
			if (v >= 0)
				pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, (uint8_t)v, -64, 0);
		}
		ld_ringbuf(g, BPF_REG_1);
		fp_plus(g, BPF_REG_2, -64);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, size);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, pg_chance(g, 80) ? 0 : 1);
		call(g, BPF_FUNC_ringbuf_output);
		pg_set_scalar(g, BPF_REG_0);
		return;
	}
	if (form == 1) {
		ld_ringbuf(g, BPF_REG_1);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, (int32_t)pg_rnd(g, 4));
		call(g, BPF_FUNC_ringbuf_query);
		int d = pg_pick_from(g, (uint16_t)(0x3c0 & ~g->reserved));
		if (d >= 0) {
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, BPF_REG_0, 0, 0);
			pg_set_scalar(g, d);
		}
		return;
	}
	int rr = pg_pick_from(g, (uint16_t)(0x3c0 & ~g->reserved));
	if (rr < 0)
		return;
	int size = rec_size(g);
	ld_ringbuf(g, BPF_REG_1);
	int sv = pg_pick_scalar(g);
	if (sv >= 0 && pg_chance(g, 4))
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, (uint8_t)sv, 0, 0); /* not a constant: refused */
	else
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, size);
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0);
	call(g, BPF_FUNC_ringbuf_reserve);
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)rr, BPF_REG_0, 0, 0);
	pg_set_ptr(g, rr);
	g->reserved |= (uint16_t)(1u << rr);
	uint16_t before = g->scalars;
	int j = -1;
	if (pg_chance(g, 95)) {
		j = pg_emit(g, BPF_JMP | BPF_JEQ | BPF_K, (uint8_t)rr, 0, 0, 0);
		g->branches++;
	}
	int n = 1 + (int)pg_rnd(g, 3);
	for (int i = 0; i < n && !g->full; i++) {
		if (pg_chance(g, 25) && size >= 8) {
			/* a variable offset */
			int s = pg_pick_scalar(g);
			int t = pg_pick_from(g, (uint16_t)(0x3e & ~g->reserved));
			if (s >= 0 && t >= 0) {
				int32_t m = size >= 32 ? 0x1f : size >= 16 ? 0xf : 0x7;
				if (pg_chance(g, 80))
					m &= ~7;
				pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)t, (uint8_t)s, 0, 0);
				pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)t, 0, 0, m);
				pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)t, (uint8_t)rr, 0, 0);
				pg_set_ptr(g, t);
				access(g, (uint8_t)t, size - (m | 7) > 0 ? size - (m | 7) : 1);
				continue;
			}
		}
		if (pg_chance(g, 25))
			pg_op(g, pg_simple_kind(g), 1);
		else
			access(g, (uint8_t)rr, size);
	}
	unsigned rel = pg_rnd(g, 100);
	if (rel >= 4) {
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, (uint8_t)rr, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, pg_chance(g, 85) ? 0 : 1);
		call(g, pg_chance(g, 60) ? BPF_FUNC_ringbuf_submit : BPF_FUNC_ringbuf_discard);
		if (rel < 7) /* used after the release: refused */
			pg_emit(g, BPF_ST | BPF_MEM | BPF_B, (uint8_t)rr, 0, 0, 1);
	} /* else: never released, refused at exit */
	if (j >= 0)
		pg_land(g, j, pg_here(g));
	g->scalars &= before;
	g->reserved &= (uint16_t)~(1u << rr);
	pg_set_ptr(g, rr);
}

void pg_op_dynptr(struct gen *g, int depth)
{
	if (depth)
		return;
	static const int slots[] = {-16, -32, -48};
	int doff = slots[pg_rnd(g, 3)];
	const int buf = -64; /* 8 bytes for read/write */
	bool ring = !g->fam->map || pg_chance(g, 65);
	int size = rec_size(g);
	if (ring) {
		ld_ringbuf(g, BPF_REG_1);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, pg_chance(g, 95) ? size : 0);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0);
		fp_plus(g, BPF_REG_4, doff);
		call(g, BPF_FUNC_ringbuf_reserve_dynptr);
	} else {
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_8, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, size);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0);
		fp_plus(g, BPF_REG_4, doff);
		call(g, BPF_FUNC_dynptr_from_mem);
	}
	if (pg_chance(g, 30)) {
		int d = pg_pick_from(g, (uint16_t)(0x3c0 & ~g->reserved));
		if (d >= 0) {
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, BPF_REG_0, 0, 0);
			pg_set_scalar(g, d);
		}
	}
	int n = 1 + (int)pg_rnd(g, 3);
	for (int i = 0; i < n && !g->full; i++) {
		unsigned what = pg_rnd(g, 3);
		int len = 1 + (int)pg_rnd(g, 8);
		int off = (int)pg_rnd(g, (unsigned)size + 1);
		if (what == 0) {
			fp_plus(g, BPF_REG_1, doff);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, off);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, len);
			call(g, BPF_FUNC_dynptr_data);
			int j = -1;
			if (pg_chance(g, 95)) {
				j = pg_emit(g, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);
				g->branches++;
			}
			access(g, BPF_REG_0, len);
			if (j >= 0)
				pg_land(g, j, pg_here(g));
		} else if (what == 1) {
			if (pg_chance(g, 50)) {
				int v = pg_pick_scalar(g);
				if (v >= 0)
					pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, (uint8_t)v, buf, 0);
			}
			fp_plus(g, BPF_REG_1, doff);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, off);
			fp_plus(g, BPF_REG_3, buf);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, len);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_5, 0, 0, 0);
			call(g, BPF_FUNC_dynptr_write);
		} else {
			fp_plus(g, BPF_REG_1, buf);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, len);
			fp_plus(g, BPF_REG_3, doff);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, off);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_5, 0, 0, 0);
			call(g, BPF_FUNC_dynptr_read);
			if (pg_chance(g, 50)) {
				int d = pg_pick_from(g, (uint16_t)(0x3c0 & ~g->reserved));
				if (d >= 0) {
					pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(len >= 8 ? 8 : len >= 4 ? 4 : 1),
						(uint8_t)d, BPF_REG_10, buf, 0);
					pg_set_scalar(g, d);
				}
			}
		}
	}
	if (!ring)
		return;
	unsigned rel = pg_rnd(g, 100);
	if (rel < 3) /* the live dynptr overwritten: refused */
		pg_emit(g, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, (int16_t)doff, 0);
	if (rel >= 3 && rel < 7)
		return; /* never released: refused */
	fp_plus(g, BPF_REG_1, doff);
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0);
	call(g, pg_chance(g, 60) ? BPF_FUNC_ringbuf_submit_dynptr : BPF_FUNC_ringbuf_discard_dynptr);
}
