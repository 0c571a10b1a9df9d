/* ops_memsx.c — the memsx family's operations: sign-extending loads
 * (BPF_MEMSX, 1/2/4 bytes) from map values at constant and variable
 * offsets, from the stack (immediates, zeroes, spilled scalars, slots never
 * written) and from the socket filter's context (r9); and signed division
 * and modulo (sdiv/smod) at their edge values (INT_MIN, -1, 0, divisors whose
 * range holds -1 and 0). */
#include <linux/bpf.h>
#include <stddef.h>

#include "progen/gen.h"
#include "util/array_size.h"

static int free_reg(struct gen *g, int avoid)
{
	return pg_pick_from(g, (uint16_t)(0x3fe & ~g->reserved & ~(avoid >= 0 ? 1u << avoid : 0)));
}

static int sx_size(struct gen *g)
{
	static const int sizes[] = {1, 2, 4};
	return sizes[pg_rnd(g, 3)];
}

static void after_load(struct gen *g, int d)
{
	pg_set_scalar(g, d);
	if (pg_chance(g, 40))
		pg_cond_jump_out(g, pg_jmp_class(g) | pg_cond_op(g) | BPF_K, d, 0, pg_interesting(g));
}

void pg_op_ldsx_mem(struct gen *g, int depth)
{
	int size = sx_size(g);
	unsigned src = pg_rnd(g, 10);
	uint8_t mode = pg_chance(g, 80) ? BPF_MEMSX : BPF_MEM;
	if (src < 4 && g->fam->map) {
		/* the map value (r8), at a constant or a masked variable offset */
		int base = BPF_REG_8;
		int16_t off;
		if (!depth && pg_chance(g, 40)) {
			int ti, tb;
			if (!pg_ptr_regs(g, &ti, &tb))
				return;
			static const int32_t masks[] = {0x3, 0xf, 0x1f, 0x38, 0x3c, 0x7f};
			int32_t m = masks[pg_rnd(g, ARRAY_SIZE(masks))];
			pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)ti, 0, 0, m);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)tb, BPF_REG_8, 0, 0);
			pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)tb, (uint8_t)ti, 0, 0);
			pg_set_ptr(g, tb);
			base = tb;
			int room = 64 - m - size;
			off = room > 0 ? (int16_t)pg_rnd(g, (unsigned)room + 1) : 0;
		} else {
			off = (int16_t)pg_rnd(g, (unsigned)(64 - size + 1));
			if (pg_chance(g, 50)) {
				/* a value there first */
				int v = pg_pick_scalar(g);
				int16_t so = (int16_t)(off & ~7);
				if (so > 56)
					so = 56;
				if (v >= 0)
					pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_8, (uint8_t)v, so, 0);
				else
					pg_emit(g, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_8, 0, so, pg_interesting(g));
			}
		}
		int d = free_reg(g, base);
		if (d < 0)
			return;
		pg_emit(g, BPF_LDX | mode | pg_size_code(size), (uint8_t)d, (uint8_t)base, off, 0);
		after_load(g, d);
		return;
	}
	if (src < 7 || !g->fam->ctx) {
		/* the stack: an immediate, a zero, a spilled scalar or nothing written */
		int16_t soff = (int16_t)(-8 * (1 + (int)pg_rnd(g, 8)));
		unsigned w = pg_rnd(g, 4);
		if (w == 0) {
			pg_emit(g, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, soff, pg_interesting(g));
		} else if (w == 1) {
			static const int ws[] = {1, 2, 4};
			int wsz = ws[pg_rnd(g, 3)];
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(wsz), BPF_REG_10, 0, soff, pg_interesting(g));
		} else if (w == 2) {
			int v = pg_pick_scalar(g);
			if (v >= 0)
				pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(pg_chance(g, 50) ? 8 : 4), BPF_REG_10,
					(uint8_t)v, soff, 0);
		}
		int16_t off = (int16_t)(soff + (pg_chance(g, 60) ? 0 : size * (int)pg_rnd(g, (unsigned)(8 / size))));
		int d = free_reg(g, -1);
		if (d < 0)
			return;
		pg_emit(g, BPF_LDX | mode | pg_size_code(size), (uint8_t)d, BPF_REG_10, off, 0);
		after_load(g, d);
		return;
	}
	/* the context (struct __sk_buff), a field or part of one */
	static const int16_t fields[] = {
		offsetof(struct __sk_buff, len),         offsetof(struct __sk_buff, pkt_type),
		offsetof(struct __sk_buff, mark),        offsetof(struct __sk_buff, queue_mapping),
		offsetof(struct __sk_buff, protocol),    offsetof(struct __sk_buff, vlan_present),
		offsetof(struct __sk_buff, vlan_tci),    offsetof(struct __sk_buff, priority),
		offsetof(struct __sk_buff, ifindex),     offsetof(struct __sk_buff, cb[0]),
		offsetof(struct __sk_buff, cb[3]),       offsetof(struct __sk_buff, hash),
		offsetof(struct __sk_buff, data_meta),   offsetof(struct __sk_buff, napi_id),
		offsetof(struct __sk_buff, gso_segs),    offsetof(struct __sk_buff, gso_size),
	};
	int16_t off = fields[pg_rnd(g, ARRAY_SIZE(fields))];
	if (size < 4 && pg_chance(g, 30))
		off = (int16_t)(off + size * (int)pg_rnd(g, (unsigned)(4 / size)));
	int d = free_reg(g, BPF_REG_9);
	if (d < 0)
		return;
	pg_emit(g, BPF_LDX | mode | pg_size_code(size), (uint8_t)d, BPF_REG_9, off, 0);
	after_load(g, d);
}

/* a dividend and a divisor at the edges of signed division */
void pg_op_sdiv_edge(struct gen *g)
{
	int d = pg_pick_scalar(g);
	if (d < 0)
		return;
	bool alu32 = pg_chance(g, 40);
	uint8_t cls = alu32 ? BPF_ALU : BPF_ALU64;
	unsigned dv = pg_rnd(g, 5);
	if (dv == 0)
		pg_emit_ld64(g, (uint8_t)d, 0x8000000000000000ULL, 0);
	else if (dv == 1)
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)d, 0, 0, INT32_MIN);
	else if (dv == 2)
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)d, 0, 0, -1);
	/* else: whatever d holds */
	uint8_t aop = pg_chance(g, 50) ? BPF_DIV : BPF_MOD;
	if (pg_chance(g, 50)) {
		static const int32_t ks[] = {-1, -1, 1, -2, INT32_MIN, 0x7fffffff, 3, -3};
		pg_emit(g, cls | aop | BPF_K, (uint8_t)d, 0, 1, ks[pg_rnd(g, ARRAY_SIZE(ks))]);
	} else {
		int s = pg_pick_scalar(g);
		int t = pg_pick_from(g, (uint16_t)(0x3e & ~g->reserved & ~(1u << d)));
		if (t >= 0 && pg_chance(g, 70)) {
			/* a divisor in a small signed range around 0 */
			if (s >= 0 && pg_chance(g, 60)) {
				pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)t, (uint8_t)s, 0, 0);
				pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)t, 0, 0, 3);
				pg_emit(g, BPF_ALU64 | BPF_SUB | BPF_K, (uint8_t)t, 0, 0, 1 + (int32_t)pg_rnd(g, 2));
			} else {
				pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)t, 0, 0, pg_chance(g, 70) ? -1 : 0);
			}
			pg_set_scalar(g, t);
			s = t;
		}
		if (s < 0)
			return;
		pg_emit(g, cls | aop | BPF_X, (uint8_t)d, (uint8_t)s, 1, 0);
	}
	pg_set_scalar(g, d);
	if (pg_chance(g, 50))
		pg_cond_jump_out(g, pg_jmp_class(g) | pg_cond_op(g) | BPF_K, d, 0, pg_interesting(g));
}
