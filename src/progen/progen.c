/* progen.c — the random program generator (see progen.h). Our own design:
 * a small emitter with a register model (which registers hold scalars, which
 * are reserved for a pointer or a loop counter) so that most programs are
 * well-formed, plus per-family menus of operations. */
#include "progen/progen.h"
#include "progen/gen.h"
#include "util/array_size.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>


/* weights per operation kind; 0 = never */
static const struct family families[] = {
	{"range", false, false, false, false,
	 {[OP_RANGE_JMP] = 6, [OP_ALU_K] = 4, [OP_ALU_X] = 2, [OP_MOV] = 2, [OP_LINKED_ADD] = 2, [OP_DIAMOND] = 2}},
	{"alu32", true, false, false, false,
	 {[OP_RANGE_JMP] = 4, [OP_ALU_K] = 5, [OP_ALU_X] = 3, [OP_MOV] = 2, [OP_LINKED_ADD] = 2, [OP_ZEXT] = 2,
	  [OP_DIAMOND] = 1}},
	{"muldiv", false, false, false, false,
	 {[OP_RANGE_JMP] = 4, [OP_MULDIV] = 6, [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_DIAMOND] = 1}},
	{"neg", false, false, false, false,
	 {[OP_RANGE_JMP] = 4, [OP_NEG] = 4, [OP_ALU_K] = 3, [OP_ALU_X] = 1, [OP_MOV] = 1}},
	{"bswap", false, false, false, false,
	 {[OP_RANGE_JMP] = 4, [OP_BSWAP] = 5, [OP_ALU_K] = 3, [OP_MOV] = 1}},
	{"movsx", false, false, false, false,
	 {[OP_RANGE_JMP] = 4, [OP_MOVSX] = 4, [OP_LDSX] = 3, [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_SPILL] = 1}},
	{"regjmp", false, false, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_REGJMP] = 6, [OP_ALU_K] = 2, [OP_MOV] = 2, [OP_LINKED_ADD] = 2}},
	{"jset", false, false, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_JSET] = 6, [OP_ALU_K] = 3, [OP_MOV] = 1}},
	{"loop", false, false, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_LOOP] = 3, [OP_ALU_K] = 3, [OP_ALU_X] = 1, [OP_MOV] = 1}},
	{"spill", false, false, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_SPILL] = 5, [OP_FILL] = 5, [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_LINKED_ADD] = 1}},
	{"ptr", false, true, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_PTR_STACK] = 5, [OP_PTR_MAP] = 5, [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_SPILL] = 1}},
	{"mixed", false, true, false, false,
	 {[OP_RANGE_JMP] = 4, [OP_ALU_K] = 3, [OP_ALU_X] = 2, [OP_MOV] = 2, [OP_LINKED_ADD] = 1, [OP_MULDIV] = 2,
	  [OP_NEG] = 1, [OP_BSWAP] = 1, [OP_MOVSX] = 1, [OP_LDSX] = 1, [OP_REGJMP] = 2, [OP_JSET] = 1,
	  [OP_LOOP] = 1, [OP_SPILL] = 2, [OP_FILL] = 2, [OP_PTR_STACK] = 2, [OP_PTR_MAP] = 2, [OP_DIAMOND] = 1,
	  [OP_ZEXT] = 1}},
	{"atomic", false, true, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_ATOMIC] = 6, [OP_SPILL] = 2, [OP_FILL] = 2, [OP_ALU_K] = 2, [OP_MOV] = 1}},
	{"pkt", false, true, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_PKT] = 6, [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_SPILL] = 1, [OP_DIAMOND] = 1}},
	{"call", false, false, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_CALL] = 3, [OP_ALU_K] = 3, [OP_ALU_X] = 1, [OP_MOV] = 1, [OP_SPILL] = 1,
	  [OP_FILL] = 1, [OP_DIAMOND] = 1}},
	{"stack", false, true, false, false,
	 {[OP_RANGE_JMP] = 3, [OP_STACKVAR] = 5, [OP_PTRSPILL] = 4, [OP_NARROW] = 5, [OP_SPILL] = 2, [OP_FILL] = 2,
	  [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_DIAMOND] = 1}},
	{"memsx", false, true, true, false,
	 {[OP_RANGE_JMP] = 3, [OP_LDSX_MEM] = 6, [OP_SDIV_EDGE] = 3, [OP_LDSX] = 1, [OP_ALU_K] = 2, [OP_MOV] = 1,
	  [OP_SPILL] = 1}},
	{"link32", false, true, false, false,
	 {[OP_LINK32] = 6, [OP_LINKED_ADD] = 2, [OP_REGJMP] = 2, [OP_RANGE_JMP] = 2, [OP_ALU_K] = 2, [OP_MOV] = 1,
	  [OP_PTR_MAP] = 2}},
	{"maygoto", false, false, false, false,
	 {[OP_MAYGOTO] = 4, [OP_GOTOL] = 3, [OP_RANGE_JMP] = 3, [OP_ALU_K] = 3, [OP_ALU_X] = 1, [OP_MOV] = 1,
	  [OP_SPILL] = 1, [OP_FILL] = 1, [OP_DIAMOND] = 1}},
	{"ringbuf", false, true, false, true,
	 {[OP_RINGBUF] = 5, [OP_DYNPTR] = 4, [OP_RANGE_JMP] = 2, [OP_ALU_K] = 2, [OP_MOV] = 1, [OP_SPILL] = 1}},
};
#define NFAM ((int)(ARRAY_SIZE(families)))

int rb_progen_family_count(void) { return NFAM; }

const char *rb_progen_family_name(int f) { return f >= 0 && f < NFAM ? families[f].name : NULL; }

int rb_progen_family_find(const char *name)
{
	for (int i = 0; i < NFAM; i++)
		if (!strcmp(families[i].name, name))
			return i;
	return -1;
}

uint64_t pg_next(struct gen *g)
{
	/* splitmix64 */
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned pg_rnd(struct gen *g, unsigned n) { return n ? (unsigned)(pg_next(g) % n) : 0; }
bool pg_chance(struct gen *g, unsigned pct) { return pg_rnd(g, 100) < pct; }

int pg_emit(struct gen *g, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct rb_progen_prog *p = g->p;
	if (p->insn_cnt >= RB_PROGEN_MAX_INSNS) {
		g->full = true;
		return (int)p->insn_cnt - 1;
	}
	p->insns[p->insn_cnt] = (struct bpf_insn){.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm};
	return (int)p->insn_cnt++;
}

void pg_emit_ld64(struct gen *g, uint8_t dst, uint64_t v, uint8_t src)
{
	pg_emit(g, BPF_LD | BPF_IMM | BPF_DW, dst, src, 0, (int32_t)(uint32_t)v);
	pg_emit(g, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

int pg_here(const struct gen *g) { return (int)g->p->insn_cnt; }

/* patch the jump at j to land on `to` */
void pg_land(struct gen *g, int j, int to) { g->p->insns[j].off = (int16_t)(to - j - 1); }

void pg_jump_out(struct gen *g, int j)
{
	if (g->nout < MAX_OUT)
		g->out[g->nout++] = j;
	else
		g->p->insns[j].off = 0; /* falls through: still a valid program */
}

static int pg_popcount16(uint16_t m) { return __builtin_popcount(m); }

int pg_pick_from(struct gen *g, uint16_t mask)
{
	int n = pg_popcount16(mask);
	if (!n)
		return -1;
	int k = (int)pg_rnd(g, (unsigned)n);
	for (int r = 0; r < 11; r++)
		if (mask & (1u << r)) {
			if (!k--)
				return r;
		}
	return -1;
}

/* a register holding a scalar */
int pg_pick_scalar(struct gen *g) { return pg_pick_from(g, g->scalars & ~g->reserved); }
/* any register that may be overwritten (r1..r9 except reserved ones) */
int pg_pick_dst(struct gen *g)
{
	/* prefer scalars (their history makes more interesting states) */
	if (pg_chance(g, 70))
		return pg_pick_scalar(g);
	return pg_pick_from(g, 0x3fe & ~g->reserved);
}
/* a temporary for a pointer (r1..r5), or -1 */
int pg_pick_tmp(struct gen *g, int avoid)
{
	return pg_pick_from(g, 0x3e & ~g->reserved & ~(avoid >= 0 ? 1u << avoid : 0));
}

int32_t pg_interesting(struct gen *g)
{
	static const int32_t k[] = {0,      1,      -1,     2,          3,         7,          8,     15,
				    16,     31,     32,     63,     64,         0x7f,      0x80,       0xff,
				    0x100,  0x7fff, 0x8000, 0xffff, 0x10000,    0x7fffffff, INT32_MIN, -2,
				    -8,     -0x80,  -0x8000, 0xfff, 0x7ffffff0, 1000,      4096,       -4096};
	unsigned r = pg_rnd(g, 10);
	if (r < 7)
		return k[pg_rnd(g, ARRAY_SIZE(k))];
	if (r < 9)
		return (int32_t)pg_rnd(g, 300);
	return (int32_t)(uint32_t)pg_next(g);
}

uint64_t pg_interesting64(struct gen *g)
{
	static const uint64_t k[] = {0x100000000ULL,       0x7fffffffffffffffULL, 0x8000000000000000ULL,
				     0xffffffff00000000ULL, 0x80000000ULL,         0xffffffffULL,
				     0x1ffffffffULL,        0xfffffffffffffff0ULL, 0x8000000080000000ULL};
	return pg_chance(g, 70) ? k[pg_rnd(g, ARRAY_SIZE(k))] : pg_next(g);
}

uint8_t pg_alu_class(struct gen *g)
{
	return pg_chance(g, g->fam->alu32_bias ? 50 : 20) ? BPF_ALU : BPF_ALU64;
}

uint8_t pg_jmp_class(struct gen *g)
{
	return pg_chance(g, g->fam->alu32_bias ? 50 : 25) ? BPF_JMP32 : BPF_JMP;
}

uint8_t pg_cond_op(struct gen *g)
{
	static const uint8_t ops[] = {BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT,
				      BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};
	return ops[pg_rnd(g, ARRAY_SIZE(ops))];
}

void pg_set_scalar(struct gen *g, int r) { g->scalars |= (uint16_t)(1u << r); }
void pg_set_ptr(struct gen *g, int r) { g->scalars &= (uint16_t)~(1u << r); }

/* a conditional jump whose target is the exit block; returns its index */
int pg_cond_jump_out(struct gen *g, uint8_t code, int dst, int src, int32_t imm)
{
	int j = pg_emit(g, code, (uint8_t)dst, (uint8_t)src, 0, imm);
	pg_jump_out(g, j);
	g->branches++;
	return j;
}


/* straight-line operations allowed inside diamonds and loop bodies */
enum op_kind pg_simple_kind(struct gen *g)
{
	static const enum op_kind simple[] = {OP_ALU_K, OP_ALU_X, OP_MOV,   OP_NEG,   OP_MULDIV,
					      OP_MOVSX, OP_BSWAP, OP_SPILL, OP_FILL, OP_LINKED_ADD};
	for (int tries = 0; tries < 16; tries++) {
		enum op_kind k = simple[pg_rnd(g, ARRAY_SIZE(simple))];
		if (g->fam->weight[k] || tries > 8)
			return k;
	}
	return OP_ALU_K;
}

/* n simple operations on one side of a branch: the registers they make
 * scalars are not scalars after the join (the other side did not run them) */
void pg_side_ops(struct gen *g, int n)
{
	uint16_t before = g->scalars;
	for (int i = 0; i < n && !g->full; i++)
		pg_op(g, pg_simple_kind(g), 1);
	g->scalars &= before;
}

/* "if <code> goto L; n simple operations; L:" — both sides continue */
void pg_skip_over(struct gen *g, uint8_t code, int dst, int src, int32_t k, int n)
{
	int j = pg_emit(g, code, (uint8_t)dst, (uint8_t)src, 0, k);
	g->branches++;
	pg_side_ops(g, n);
	pg_land(g, j, pg_here(g));
}

static void op_range_jmp(struct gen *g)
{
	int r = pg_pick_scalar(g);
	if (r < 0)
		return;
	uint8_t cls = pg_jmp_class(g), jop = pg_cond_op(g);
	if (cls == BPF_JMP && pg_chance(g, 12)) {
		/* compare with a 64-bit constant through a temporary */
		int t = pg_pick_tmp(g, r);
		if (t >= 0) {
			pg_emit_ld64(g, (uint8_t)t, pg_interesting64(g), 0);
			pg_set_scalar(g, t);
			pg_cond_jump_out(g, cls | jop | BPF_X, r, t, 0);
			return;
		}
	}
	int32_t k = pg_interesting(g);
	if (pg_chance(g, 75)) {
		pg_cond_jump_out(g, cls | jop | BPF_K, r, 0, k);
		return;
	}
	/* a short forward skip: both sides continue */
	pg_skip_over(g, cls | jop | BPF_K, r, 0, k, 1 + (int)pg_rnd(g, 3));
}

static void op_alu_k(struct gen *g)
{
	int r = pg_pick_scalar(g);
	if (r < 0)
		return;
	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_AND, BPF_OR,
				      BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_AND};
	uint8_t cls = pg_alu_class(g), aop = ops[pg_rnd(g, ARRAY_SIZE(ops))];
	int32_t k = pg_interesting(g);
	if (aop == BPF_LSH || aop == BPF_RSH || aop == BPF_ARSH)
		k = (int32_t)pg_rnd(g, cls == BPF_ALU64 ? 64 : 32);
	pg_emit(g, cls | aop | BPF_K, (uint8_t)r, 0, 0, k);
}

static void op_alu_x(struct gen *g)
{
	int d = pg_pick_scalar(g), s = pg_pick_scalar(g);
	if (d < 0)
		return;
	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_AND, BPF_OR, BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH};
	pg_emit(g, pg_alu_class(g) | ops[pg_rnd(g, ARRAY_SIZE(ops))] | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
}

static void op_mov(struct gen *g)
{
	int d = pg_pick_dst(g), s = pg_pick_scalar(g);
	if (d < 0 || s < 0)
		return;
	unsigned r = pg_rnd(g, 10);
	if (r < 6)
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
	else if (r < 8)
		pg_emit(g, BPF_ALU | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
	else
		pg_emit(g, pg_alu_class(g) | BPF_MOV | BPF_K, (uint8_t)d, 0, 0, pg_interesting(g));
	pg_set_scalar(g, d);
}

/* rD = rS; rD += K (or wD += K): linked scalars */
static void op_linked_add(struct gen *g)
{
	int d = pg_pick_dst(g), s = pg_pick_scalar(g);
	if (d < 0 || s < 0 || d == s)
		return;
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
	pg_set_scalar(g, d);
	int32_t k = pg_chance(g, 70) ? (int32_t)pg_rnd(g, 64) - 32 : pg_interesting(g);
	pg_emit(g, pg_alu_class(g) | (pg_chance(g, 70) ? BPF_ADD : BPF_SUB) | BPF_K, (uint8_t)d, 0, 0, k);
	if (pg_chance(g, 50)) {
		/* bound the source: the bound reaches the copy */
		uint8_t cls = pg_jmp_class(g);
		pg_cond_jump_out(g, cls | pg_cond_op(g) | BPF_K, s, 0, pg_interesting(g));
	}
}

static void op_muldiv(struct gen *g)
{
	int d = pg_pick_scalar(g);
	if (d < 0)
		return;
	static const uint8_t ops[] = {BPF_MUL, BPF_DIV, BPF_MOD, BPF_DIV, BPF_MOD};
	uint8_t aop = ops[pg_rnd(g, ARRAY_SIZE(ops))];
	int16_t off = (aop != BPF_MUL && pg_chance(g, 50)) ? 1 : 0; /* sdiv, smod */
	uint8_t cls = pg_alu_class(g);
	if (pg_chance(g, 55)) {
		int32_t k = pg_interesting(g);
		if (k == 0)
			k = 3;
		pg_emit(g, cls | aop | BPF_K, (uint8_t)d, 0, off, k);
	} else {
		int s = pg_pick_scalar(g);
		pg_emit(g, cls | aop | BPF_X, (uint8_t)d, (uint8_t)s, off, 0);
	}
}

static void op_neg(struct gen *g)
{
	int d = pg_pick_scalar(g);
	if (d >= 0)
		pg_emit(g, pg_alu_class(g) | BPF_NEG | BPF_K, (uint8_t)d, 0, 0, 0);
}

static void op_bswap(struct gen *g)
{
	int d = pg_pick_scalar(g);
	if (d < 0)
		return;
	static const int32_t widths[] = {16, 32, 64};
	int32_t w = widths[pg_rnd(g, 3)];
	unsigned r = pg_rnd(g, 3);
	uint8_t code = r == 0 ? BPF_ALU | BPF_END | BPF_TO_LE
		       : r == 1 ? BPF_ALU | BPF_END | BPF_TO_BE
				: BPF_ALU64 | BPF_END | BPF_TO_LE; /* bswap */
	pg_emit(g, code, (uint8_t)d, 0, 0, w);
}

static void op_movsx(struct gen *g)
{
	int d = pg_pick_dst(g), s = pg_pick_scalar(g);
	if (d < 0 || s < 0)
		return;
	if (pg_chance(g, 65)) {
		static const int16_t offs[] = {8, 16, 32};
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, offs[pg_rnd(g, 3)], 0);
	} else {
		pg_emit(g, BPF_ALU | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, pg_rnd(g, 2) ? 8 : 16, 0);
	}
	pg_set_scalar(g, d);
}

uint8_t pg_size_code(int size)
{
	return size == 1 ? BPF_B : size == 2 ? BPF_H : size == 4 ? BPF_W : BPF_DW;
}

int pg_rand_size(struct gen *g)
{
	static const int sizes[] = {8, 8, 4, 4, 2, 1};
	return sizes[pg_rnd(g, ARRAY_SIZE(sizes))];
}

/* an aligned stack offset for `size` bytes in fp-64 .. fp-1 */
int16_t pg_stack_off(struct gen *g, int size, bool slot_start)
{
	int slot = 1 + (int)pg_rnd(g, 8);
	int off = -8 * slot;
	if (!slot_start && size < 8 && pg_chance(g, 50))
		off += size * (int)pg_rnd(g, (unsigned)(8 / size));
	return (int16_t)off;
}

static void op_spill(struct gen *g)
{
	int size = pg_rand_size(g);
	int16_t off = pg_stack_off(g, size, pg_chance(g, 60));
	int s = pg_pick_scalar(g);
	if (s < 0 || pg_chance(g, 15))
		pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), BPF_REG_10, 0, off, pg_chance(g, 50) ? 0 : pg_interesting(g));
	else
		pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), BPF_REG_10, (uint8_t)s, off, 0);
}

static void op_fill(struct gen *g)
{
	int size = pg_rand_size(g);
	int16_t off = pg_stack_off(g, size, pg_chance(g, 60));
	int d = pg_pick_dst(g);
	if (d < 0)
		return;
	pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(size), (uint8_t)d, BPF_REG_10, off, 0);
	pg_set_scalar(g, d);
}

/* spill a scalar, then a sign-extending load of part of it */
static void op_ldsx(struct gen *g)
{
	int s = pg_pick_scalar(g), d = pg_pick_dst(g);
	if (s < 0 || d < 0)
		return;
	int16_t off = pg_stack_off(g, 8, true);
	if (pg_chance(g, 85))
		pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, (uint8_t)s, off, 0);
	static const int sizes[] = {1, 2, 4};
	int size = sizes[pg_rnd(g, 3)];
	int16_t loff = off;
	if (pg_chance(g, 25))
		loff = (int16_t)(off + size * (int)pg_rnd(g, (unsigned)(8 / size)));
	pg_emit(g, BPF_LDX | BPF_MEMSX | pg_size_code(size), (uint8_t)d, BPF_REG_10, loff, 0);
	pg_set_scalar(g, d);
}

static void op_regjmp(struct gen *g)
{
	int a = pg_pick_scalar(g), b = pg_pick_scalar(g);
	if (a < 0)
		return;
	uint8_t cls = pg_jmp_class(g), jop = pg_cond_op(g);
	if (pg_chance(g, 70)) {
		pg_cond_jump_out(g, cls | jop | BPF_X, a, b, 0);
		return;
	}
	pg_skip_over(g, cls | jop | BPF_X, a, b, 0, 1 + (int)pg_rnd(g, 3));
}

static void op_jset(struct gen *g)
{
	int a = pg_pick_scalar(g);
	if (a < 0)
		return;
	uint8_t cls = pg_jmp_class(g);
	if (pg_chance(g, 70)) {
		int32_t k = pg_chance(g, 60) ? (int32_t)(1u << pg_rnd(g, 32)) : pg_interesting(g);
		if (pg_chance(g, 60)) {
			pg_cond_jump_out(g, cls | BPF_JSET | BPF_K, a, 0, k);
			return;
		}
		pg_skip_over(g, cls | BPF_JSET | BPF_K, a, 0, k, 1);
		return;
	}
	int b = pg_pick_scalar(g);
	pg_cond_jump_out(g, cls | BPF_JSET | BPF_X, a, b, 0);
}

/* a bounded loop with a counter in a free register */
static void op_loop(struct gen *g, int depth)
{
	if (depth)
		return;
	int c = pg_pick_from(g, 0x3fe & ~g->reserved);
	if (c < 0)
		return;
	int n = 1 + (int)pg_rnd(g, 5);
	unsigned shape = pg_rnd(g, 3);
	int s = pg_pick_scalar(g);
	if (shape == 2 && (s < 0 || s == c))
		shape = 0;
	if (shape == 0) {
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)c, 0, 0, 0);
	} else if (shape == 1) {
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)c, 0, 0, n);
	} else {
		pg_cond_jump_out(g, BPF_JMP | BPF_JGT | BPF_K, s, 0, n);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)c, (uint8_t)s, 0, 0);
	}
	pg_set_scalar(g, c);
	g->reserved |= (uint16_t)(1u << c);
	int top = pg_here(g);
	int body = 1 + (int)pg_rnd(g, 3);
	for (int i = 0; i < body && !g->full; i++)
		pg_op(g, pg_chance(g, 20) ? OP_RANGE_JMP : pg_simple_kind(g), 1);
	int j;
	if (shape == 0) {
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)c, 0, 0, 1);
		j = pg_emit(g, BPF_JMP | BPF_JLT | BPF_K, (uint8_t)c, 0, 0, n);
	} else if (shape == 1) {
		pg_emit(g, BPF_ALU64 | BPF_SUB | BPF_K, (uint8_t)c, 0, 0, 1);
		j = pg_emit(g, BPF_JMP | BPF_JNE | BPF_K, (uint8_t)c, 0, 0, 0);
	} else {
		pg_emit(g, BPF_ALU64 | BPF_SUB | BPF_K, (uint8_t)c, 0, 0, 1);
		j = pg_emit(g, BPF_JMP | BPF_JSGT | BPF_K, (uint8_t)c, 0, 0, 0);
	}
	pg_land(g, j, top);
	g->branches += 2;
	g->reserved &= (uint16_t)~(1u << c);
}

/* the pointer operations' registers: ti a temporary holding a copy of a
 * scalar (the index), tb another for the address; false if none is free */
bool pg_ptr_regs(struct gen *g, int *ti, int *tb)
{
	int s = pg_pick_scalar(g);
	*ti = pg_pick_tmp(g, -1);
	*tb = pg_pick_tmp(g, *ti);
	if (s < 0 || *ti < 0 || *tb < 0)
		return false;
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)*ti, (uint8_t)s, 0, 0);
	pg_set_scalar(g, *ti);
	return true;
}

/* a load of `size` bytes at tb + off into a free register */
void pg_load_via(struct gen *g, int tb, int size, int16_t off)
{
	int d = pg_pick_from(g, (0x3fe & ~g->reserved) & ~(1u << tb));
	if (d < 0)
		return;
	pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(size), (uint8_t)d, (uint8_t)tb, off, 0);
	pg_set_scalar(g, d);
}

/* rB = fp - 64 + (rS & mask) [+ off]; a load or a store there */
static void op_ptr_stack(struct gen *g, int depth)
{
	if (depth)
		return;
	int ti, tb;
	if (!pg_ptr_regs(g, &ti, &tb))
		return;
	int size = pg_rand_size(g);
	int maxv;
	unsigned how = pg_rnd(g, 10);
	if (how < 7 || size > 1) {
		static const int32_t masks[] = {0x38, 0x18, 0x8, 0x30, 0x3f, 0x1f, 0x7, 0x20};
		int32_t m = masks[pg_rnd(g, ARRAY_SIZE(masks))];
		if (how == 9)
			m = 0xff; /* too wide: rejected */
		m &= ~(size - 1);
		pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)ti, 0, 0, m);
		maxv = m;
	} else {
		maxv = (int)pg_rnd(g, 64);
		pg_cond_jump_out(g, BPF_JMP | (how == 8 ? BPF_JSGT : BPF_JGT) | BPF_K, ti, 0, maxv);
	}
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)tb, BPF_REG_10, 0, 0);
	pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)tb, 0, 0, -64);
	pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)tb, (uint8_t)ti, 0, 0);
	pg_set_ptr(g, tb);
	int room = 64 - maxv - size; /* bytes left above the highest address */
	int16_t off = 0;
	if (room > 0)
		off = (int16_t)((int)pg_rnd(g, (unsigned)(room / size + 1)) * size);
	if (pg_chance(g, 50)) {
		int v = pg_pick_scalar(g);
		if (v < 0 || pg_chance(g, 20))
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), (uint8_t)tb, 0, off, pg_chance(g, 50) ? 0 : pg_interesting(g));
		else
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), (uint8_t)tb, (uint8_t)v, off, 0);
	} else {
		pg_load_via(g, tb, size, off);
	}
}

/* rB = map value (r8) + index; a load or a store there */
static void op_ptr_map(struct gen *g, int depth)
{
	if (depth || !g->fam->map)
		return;
	int ti, tb;
	if (!pg_ptr_regs(g, &ti, &tb))
		return;
	const int vsize = (int)g->p->maps[g->p->map_cnt - 1].value_size;
	int size = pg_rand_size(g);
	int maxv;
	unsigned how = pg_rnd(g, 10);
	if (how < 5) {
		static const int32_t masks[] = {0x38, 0x1f, 0xf, 0x3, 0x30, 0x3f, 0x7};
		int32_t m = masks[pg_rnd(g, ARRAY_SIZE(masks))];
		pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)ti, 0, 0, m);
		maxv = m;
	} else {
		maxv = (int)pg_rnd(g, (unsigned)vsize);
		/* unsigned checks bound it; a signed one leaves it negative: rejected */
		uint8_t jop = how == 9 ? BPF_JSGT : how == 8 ? BPF_JGE : BPF_JGT;
		uint8_t cls = pg_chance(g, 20) ? BPF_JMP32 : BPF_JMP;
		pg_cond_jump_out(g, cls | jop | BPF_K, ti, 0, maxv);
	}
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)tb, BPF_REG_8, 0, 0);
	if (pg_chance(g, 25))
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)tb, 0, 0, (int32_t)pg_rnd(g, 8));
	pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)tb, (uint8_t)ti, 0, 0);
	pg_set_ptr(g, tb);
	int room = vsize - maxv - size - 8;
	int16_t off = room > 0 ? (int16_t)pg_rnd(g, (unsigned)room + 1) : 0;
	if (pg_chance(g, 50)) {
		int v = pg_pick_scalar(g);
		if (v < 0)
			return;
		pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), (uint8_t)tb, (uint8_t)v, off, 0);
	} else {
		pg_load_via(g, tb, size, off);
	}
}

static void op_diamond(struct gen *g, int depth)
{
	if (depth)
		return;
	int r = pg_pick_scalar(g);
	if (r < 0)
		return;
	int j = pg_emit(g, pg_jmp_class(g) | pg_cond_op(g) | BPF_K, (uint8_t)r, 0, 0, pg_interesting(g));
	g->branches++;
	pg_side_ops(g, 1 + (int)pg_rnd(g, 4));
	if (pg_chance(g, 40)) {
		/* if/else: the taken side runs its own operations */
		int ja = pg_emit(g, BPF_JMP | BPF_JA, 0, 0, 0, 0);
		pg_land(g, j, pg_here(g));
		pg_side_ops(g, 1 + (int)pg_rnd(g, 3));
		pg_land(g, ja, pg_here(g));
	} else {
		pg_land(g, j, pg_here(g));
	}
}

/* wD = wS (zero extension) or rD = rS << 32 >> 32 shapes */
static void op_zext(struct gen *g)
{
	int d = pg_pick_dst(g), s = pg_pick_scalar(g);
	if (d < 0 || s < 0)
		return;
	if (pg_chance(g, 50)) {
		pg_emit(g, BPF_ALU | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
	} else {
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, (uint8_t)s, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_LSH | BPF_K, (uint8_t)d, 0, 0, 32);
		pg_emit(g, BPF_ALU64 | (pg_chance(g, 50) ? BPF_RSH : BPF_ARSH) | BPF_K, (uint8_t)d, 0, 0, 32);
	}
	pg_set_scalar(g, d);
}

/* an atomic operation on an aligned stack slot or (families with a map)
 * on the map value in r8: add/or/and/xor with or without fetch, xchg,
 * cmpxchg (r0 the expected value, then the old one) */
static void op_atomic(struct gen *g, int depth)
{
	int s = pg_pick_scalar(g);
	if (s < 0 || depth)
		return;
	int size = pg_chance(g, 50) ? 8 : 4;
	bool map = g->fam->map && pg_chance(g, 40);
	uint8_t base = map ? BPF_REG_8 : BPF_REG_10;
	int16_t off = map ? (int16_t)(size * (int)pg_rnd(g, (unsigned)(56 / size + 1)))
			  : (int16_t)(-size * (1 + (int)pg_rnd(g, (unsigned)(64 / size))));
	if (!map && pg_chance(g, 60)) {
		/* the slot holds something first: a spilled scalar or an immediate */
		if (pg_chance(g, 60))
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), BPF_REG_10, (uint8_t)pg_pick_scalar(g), off, 0);
		else
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), BPF_REG_10, 0, off, pg_interesting(g));
	}
	static const int32_t ops[] = {BPF_ADD, BPF_OR, BPF_AND, BPF_XOR, BPF_ADD | BPF_FETCH, BPF_OR | BPF_FETCH,
				      BPF_AND | BPF_FETCH, BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG};
	int32_t aop = ops[pg_rnd(g, ARRAY_SIZE(ops))];
	if (aop == BPF_CMPXCHG)
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, (uint8_t)pg_pick_scalar(g), 0, 0);
	pg_emit(g, BPF_STX | BPF_ATOMIC | pg_size_code(size), base, (uint8_t)s, off, aop);
	if (aop == BPF_CMPXCHG) {
		int d = pg_pick_dst(g);
		if (d >= 0) {
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, BPF_REG_0, 0, 0);
			pg_set_scalar(g, d);
		}
	}
	if (pg_chance(g, 50) && !map) { /* read the slot back */
		int d = pg_pick_dst(g);
		if (d >= 0) {
			pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(size), (uint8_t)d, BPF_REG_10, off, 0);
			pg_set_scalar(g, d);
		}
	}
}

/* direct packet access (the pkt family: a tc program, r9 its context,
 * r8 the packet start): rA = pkt + constant or + masked scalar, compared
 * with the packet end in any of the forms 6.18 learns a range from
 * (rA > end, end < rA, rA >= end, end <= rA, and the inverted senses with
 * the access on the taken side), then loads or stores below rA */
static void op_pkt(struct gen *g, int depth)
{
	if (depth || g->p->prog_type != BPF_PROG_TYPE_SCHED_CLS)
		return;
	int a = pg_pick_tmp(g, -1), e = pg_pick_tmp(g, a);
	if (a < 0 || e < 0)
		return;
	int span;
	pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)a, BPF_REG_8, 0, 0);
	pg_set_ptr(g, a);
	int s = pg_pick_scalar(g);
	if (s >= 0 && pg_chance(g, 40)) {
		/* a variable offset: the scalar masked, then a constant span */
		int t = pg_pick_tmp(g, a);
		if (t >= 0 && t != e) {
			static const int32_t masks[] = {0x7, 0xf, 0x3f, 0xff, 0x1f};
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)t, (uint8_t)s, 0, 0);
			pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)t, 0, 0, masks[pg_rnd(g, 5)]);
			pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)a, (uint8_t)t, 0, 0);
			pg_set_ptr(g, t);
		}
	}
	span = 1 + (int)pg_rnd(g, 40);
	if (pg_chance(g, 95))
		pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)a, 0, 0, span);
	else
		span = 0; /* no room proven: the access is refused */
	pg_emit(g, BPF_LDX | BPF_MEM | BPF_W, (uint8_t)e, BPF_REG_9, (int16_t)offsetof(struct __sk_buff, data_end), 0);
	pg_set_ptr(g, e);
	unsigned form = pg_rnd(g, 6);
	int j;
	bool access_on_taken = false;
	switch (form) {
	case 0: j = pg_cond_jump_out(g, BPF_JMP | BPF_JGT | BPF_X, a, e, 0); break;
	case 1: j = pg_cond_jump_out(g, BPF_JMP | BPF_JLT | BPF_X, e, a, 0); break;
	case 2: j = pg_cond_jump_out(g, BPF_JMP | BPF_JGE | BPF_X, a, e, 0); break;
	case 3: j = pg_cond_jump_out(g, BPF_JMP | BPF_JLE | BPF_X, e, a, 0); break;
	case 4: /* if a <= end goto access; (fall through: out) */
		j = pg_emit(g, BPF_JMP | BPF_JLE | BPF_X, (uint8_t)a, (uint8_t)e, 0, 0);
		access_on_taken = true;
		break;
	default: /* if end >= a goto access */
		j = pg_emit(g, BPF_JMP | BPF_JGE | BPF_X, (uint8_t)e, (uint8_t)a, 0, 0);
		access_on_taken = true;
		break;
	}
	if (access_on_taken) {
		g->branches++;
		int o = pg_emit(g, BPF_JMP | BPF_JA, 0, 0, 0, 0);
		pg_jump_out(g, o);
		pg_land(g, j, pg_here(g));
	}
	/* an access below a (it proves [pkt, a) when the packet start is r8
	 * itself, i.e. without a variable part, else from a's own base) */
	int size = pg_rand_size(g);
	while (size > 1 && size > span && pg_chance(g, 90))
		size /= 2;
	int below = span >= size ? size + (int)pg_rnd(g, (unsigned)(span - size + 1)) : size;
	if (pg_chance(g, 4))
		below = size - 1 - (int)pg_rnd(g, 2); /* past the end: refused */
	int16_t off = (int16_t)-below;
	if (pg_chance(g, 70)) {
		int d = pg_pick_from(g, (0x3fe & ~g->reserved) & ~(1u << a));
		if (d >= 0) {
			pg_emit(g, BPF_LDX | BPF_MEM | pg_size_code(size), (uint8_t)d, (uint8_t)a, off, 0);
			pg_set_scalar(g, d);
		}
	} else {
		int v = pg_pick_scalar(g);
		if (v >= 0 && v != a)
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(size), (uint8_t)a, (uint8_t)v, off, 0);
		else
			pg_emit(g, BPF_ST | BPF_MEM | pg_size_code(size), (uint8_t)a, 0, off, pg_interesting(g));
	}
}

/* a call to a static sub-program (emitted after the main program) with
 * scalars in r1..rN, or r1 a pointer to one of the caller's stack slots;
 * afterwards r0 is its scalar result and r1..r5 are gone */
static void op_call(struct gen *g, int depth)
{
	if (depth || g->ncalls >= MAX_CALLS)
		return;
	/* a call inside a sub-program (a second frame level): only with room
	 * left for every body still to emit, this one's included */
	if (g->in_sub && RB_PROGEN_MAX_INSNS - pg_here(g) <= SUB_ROOM * (g->ncalls + 1 - g->sub_idx) + 16)
		return;
	struct call_site *c = &g->calls[g->ncalls];
	c->nargs = 1 + (int)pg_rnd(g, 4);
	c->ptr_arg = pg_chance(g, 35);
	c->slot = 1 + (int)pg_rnd(g, 8);
	for (int a = 1; a <= c->nargs; a++) {
		if (a == 1 && c->ptr_arg) {
			int v = pg_pick_scalar(g);
			if (v >= 0 && pg_chance(g, 70))
				pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, (uint8_t)v, (int16_t)(-8 * c->slot), 0);
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0);
			pg_emit(g, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, -8 * c->slot);
			continue;
		}
		int v = pg_pick_scalar(g);
		if (v < 0 || pg_chance(g, 10))
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)a, 0, 0, pg_interesting(g));
		else if (v != a)
			pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)a, (uint8_t)v, 0, 0);
	}
	c->insn = pg_emit(g, BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0);
	g->ncalls++;
	g->scalars &= (uint16_t)~0x3e; /* r1..r5 clobbered (a sub-program's pointer argument too) */
	g->reserved &= (uint16_t)~0x3e;
	int d = pg_pick_from(g, 0x3c0 & ~g->reserved);
	if (d >= 0) {
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)d, BPF_REG_0, 0, 0);
		pg_set_scalar(g, d);
	}
	if (c->ptr_arg && pg_chance(g, 50)) { /* what the callee left in the slot */
		int r = pg_pick_from(g, 0x3c0 & ~g->reserved);
		if (r >= 0) {
			pg_emit(g, BPF_LDX | BPF_MEM | BPF_DW, (uint8_t)r, BPF_REG_10, (int16_t)(-8 * c->slot), 0);
			pg_set_scalar(g, r);
		}
	}
}

/* the body of sub-program c: a few operations on its arguments, early
 * returns through its own exit block, "r0 = scalar; exit" */
static void emit_sub(struct gen *g, struct call_site *c)
{
	int start = pg_here(g);
	g->p->insns[c->insn].imm = start - c->insn - 1;
	g->in_sub = true;
	g->scalars = 0;
	g->reserved = 0;
	g->nout = 0;
	g->branches = 0;
	for (int a = 1; a <= c->nargs; a++)
		pg_set_scalar(g, a);
	if (c->ptr_arg) {
		g->scalars &= (uint16_t)~2u;
		g->reserved |= 2u;
		int v = pg_pick_scalar(g);
		if (v >= 0 && pg_chance(g, 50)) {
			pg_emit(g, BPF_STX | BPF_MEM | pg_size_code(8), BPF_REG_1, (uint8_t)v, 0, 0);
		} else {
			pg_emit(g, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_1, 0, 0);
			pg_set_scalar(g, BPF_REG_2);
		}
	}
	int end = start + SUB_ROOM - 8;
	int nops = 1 + (int)pg_rnd(g, 5);
	static const enum op_kind kinds[] = {OP_RANGE_JMP, OP_ALU_K, OP_ALU_X, OP_MOV, OP_SPILL, OP_FILL, OP_CALL};
	for (int i = 0; i < nops && pg_here(g) < end - 20 && !g->full; i++)
		pg_op(g, kinds[pg_rnd(g, ARRAY_SIZE(kinds))], 0);
	if (c->ptr_arg && (g->reserved & 2u) && pg_chance(g, 50)) {
		int v = pg_pick_scalar(g);
		if (v >= 0)
			pg_emit(g, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_1, (uint8_t)v, 0, 0);
	}
	int r = pg_pick_scalar(g);
	if (r >= 0)
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, (uint8_t)r, 0, 0);
	else
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, (int32_t)pg_rnd(g, 100));
	pg_emit(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	if (g->nout) {
		int outb = pg_here(g);
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1);
		pg_emit(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		for (int i = 0; i < g->nout; i++)
			pg_land(g, g->out[i], outb);
	}
	g->nout = 0;
}

void pg_op(struct gen *g, enum op_kind k, int depth)
{
	/* (a sub-program body bounds itself: emit_sub) */
	if (g->full || (!g->in_sub && pg_here(g) > RB_PROGEN_MAX_INSNS - ROOM - SUB_ROOM * g->ncalls))
		return;
	/* bound the number of paths */
	if (g->branches > 10 && (k == OP_RANGE_JMP || k == OP_REGJMP || k == OP_JSET || k == OP_DIAMOND ||
				 k == OP_LOOP || k == OP_LINKED_ADD))
		k = OP_ALU_K;
	switch (k) {
	case OP_RANGE_JMP: op_range_jmp(g); break;
	case OP_ALU_K: op_alu_k(g); break;
	case OP_ALU_X: op_alu_x(g); break;
	case OP_MOV: op_mov(g); break;
	case OP_LINKED_ADD: op_linked_add(g); break;
	case OP_MULDIV: op_muldiv(g); break;
	case OP_NEG: op_neg(g); break;
	case OP_BSWAP: op_bswap(g); break;
	case OP_MOVSX: op_movsx(g); break;
	case OP_LDSX: op_ldsx(g); break;
	case OP_REGJMP: op_regjmp(g); break;
	case OP_JSET: op_jset(g); break;
	case OP_LOOP: op_loop(g, depth); break;
	case OP_SPILL: op_spill(g); break;
	case OP_FILL: op_fill(g); break;
	case OP_PTR_STACK: op_ptr_stack(g, depth); break;
	case OP_PTR_MAP: op_ptr_map(g, depth); break;
	case OP_DIAMOND: op_diamond(g, depth); break;
	case OP_ZEXT: op_zext(g); break;
	case OP_ATOMIC: op_atomic(g, depth); break;
	case OP_CALL: op_call(g, depth); break;
	case OP_PKT: op_pkt(g, depth); break;
	case OP_STACKVAR: pg_op_stackvar(g, depth); break;
	case OP_PTRSPILL: pg_op_ptrspill(g, depth); break;
	case OP_NARROW: pg_op_narrow(g); break;
	case OP_LDSX_MEM: pg_op_ldsx_mem(g, depth); break;
	case OP_SDIV_EDGE: pg_op_sdiv_edge(g); break;
	case OP_LINK32: pg_op_link32(g, depth); break;
	case OP_MAYGOTO: pg_op_maygoto(g, depth); break;
	case OP_GOTOL: pg_op_gotol(g, depth); break;
	case OP_RINGBUF: pg_op_ringbuf(g, depth); break;
	case OP_DYNPTR: pg_op_dynptr(g, depth); break;
	case OP_KIND_CNT: break;
	}
}

static enum op_kind pick_kind(struct gen *g)
{
	unsigned total = 0;
	for (int k = 0; k < OP_KIND_CNT; k++)
		total += g->fam->weight[k];
	unsigned r = pg_rnd(g, total);
	for (int k = 0; k < OP_KIND_CNT; k++) {
		if (r < g->fam->weight[k])
			return (enum op_kind)k;
		r -= g->fam->weight[k];
	}
	return OP_ALU_K;
}

/* one unknown scalar in r */
static void unknown(struct gen *g, int r)
{
	pg_emit(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
	unsigned shape = pg_rnd(g, 10);
	switch (shape) {
	case 0: /* 64-bit: hi << 32 | lo */
	case 1:
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)r, BPF_REG_0, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_LSH | BPF_K, (uint8_t)r, 0, 0, 32);
		pg_emit(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
		pg_emit(g, BPF_ALU64 | BPF_OR | BPF_X, (uint8_t)r, BPF_REG_0, 0, 0);
		break;
	case 2: /* sign-extended from 32 bits */
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)r, BPF_REG_0, 32, 0);
		break;
	case 3: /* masked */
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)r, BPF_REG_0, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_AND | BPF_K, (uint8_t)r, 0, 0, pg_interesting(g));
		break;
	case 4: /* a signed 16-bit quantity */
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)r, BPF_REG_0, 16, 0);
		break;
	case 5: /* bounded below and above */
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)r, BPF_REG_0, 0, 0);
		pg_emit(g, BPF_ALU64 | BPF_SUB | BPF_K, (uint8_t)r, 0, 0, (int32_t)pg_rnd(g, 1000));
		break;
	default:
		pg_emit(g, BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)r, BPF_REG_0, 0, 0);
		break;
	}
	pg_set_scalar(g, r);
}

int rb_progen_generate(int family, uint64_t seed, uint64_t index, struct rb_progen_prog *out)
{
	if (family < 0 || family >= NFAM)
		return -1;
	memset(out, 0, sizeof(*out));
	out->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	out->family = family;
	out->seed = seed;
	out->index = index;
	struct gen g = {.p = out, .fam = &families[family]};
	/* the stream: seed, family and index mixed; the first draws discarded */
	g.s = seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)family << 56) ^ index * 0xd1b54a32d192ed03ULL;
	pg_next(&g);
	pg_next(&g);

	bool pkt = !strcmp(g.fam->name, "pkt");
	if (g.fam->ctx) {
		/* the context kept in r9 */
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_1, 0, 0);
		g.reserved |= 1u << BPF_REG_9;
	}
	if (pkt) {
		/* a tc program: keep the context in r9, the packet start in r8 */
		out->prog_type = BPF_PROG_TYPE_SCHED_CLS;
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_1, 0, 0);
		g.reserved |= 1u << BPF_REG_9 | 1u << BPF_REG_8;
	}
	int nunk = 2 + (int)pg_rnd(&g, 3); /* r6.. */
	if (g.fam->map && nunk > 2)
		nunk = 2;
	for (int i = 0; i < nunk; i++)
		unknown(&g, 6 + i);
	if (pkt) {
		pg_emit(&g, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_8, BPF_REG_9, (int16_t)offsetof(struct __sk_buff, data), 0);
	} else if (g.fam->map) {
		int arr = 0;
		if (g.fam->ringbuf) {
			out->maps[0] = (struct rb_progen_map){.name = "rb", .type = BPF_MAP_TYPE_RINGBUF,
							      .max_entries = 4096};
			arr = 1;
		}
		out->map_cnt = (size_t)arr + 1;
		out->maps[arr] = (struct rb_progen_map){.name = "vals", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
							.value_size = 64, .max_entries = 4};
		pg_emit(&g, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, (int32_t)pg_rnd(&g, 4));
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
		pg_emit(&g, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
		pg_emit_ld64(&g, BPF_REG_1, (uint64_t)arr, BPF_PSEUDO_MAP_IDX);
		pg_emit(&g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
		pg_cond_jump_out(&g, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0);
		g.branches--;
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_0, 0, 0);
		g.reserved |= 1u << BPF_REG_8;
		if (!g.fam->ctx && pg_chance(&g, 50)) {
			/* a 64-bit unknown from the map value */
			pg_emit(&g, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_9, BPF_REG_8, (int16_t)(8 * pg_rnd(&g, 8)), 0);
			pg_set_scalar(&g, BPF_REG_9);
		}
	}
	int nops = 3 + (int)pg_rnd(&g, 18);
	for (int i = 0; i < nops && !g.full; i++)
		pg_op(&g, pick_kind(&g), 0);

	/* epilogue: return a scalar; then the exit block if anything jumps there */
	int r = pg_pick_scalar(&g);
	if (r >= 0 && pg_chance(&g, 70))
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, (uint8_t)r, 0, 0);
	else
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	pg_emit(&g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	if (g.nout) {
		int outb = pg_here(&g);
		pg_emit(&g, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
		pg_emit(&g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		for (int i = 0; i < g.nout; i++)
			pg_land(&g, g.out[i], outb);
	}
	/* sub-programs after the main program, each with its own exit block */
	for (int i = 0; i < g.ncalls; i++) { /* (a body may add calls: emitted in turn) */
		g.sub_idx = i;
		emit_sub(&g, &g.calls[i]);
	}
	return 0;
}

void rb_progen_object(const struct rb_progen_prog *p, struct rb_progen_object *h)
{
	memset(h, 0, sizeof(*h));
	const char *fam = rb_progen_family_name(p->family);
	snprintf(h->obj.path, sizeof(h->obj.path), "progen:%s:%llu:%llu", fam ? fam : "?",
		 (unsigned long long)p->seed, (unsigned long long)p->index);
	snprintf(h->prog.name, sizeof(h->prog.name), "%s_%llu", fam ? fam : "prog", (unsigned long long)p->index);
	snprintf(h->prog.section, sizeof(h->prog.section), "%s",
		 p->prog_type == BPF_PROG_TYPE_SCHED_CLS ? "tc" : "socket");
	snprintf(h->prog.license, sizeof(h->prog.license), "GPL");
	h->prog.prog_type = p->prog_type;
	h->prog.autoload = true;
	h->prog.type_known = true;
	h->prog.insns = (struct bpf_insn *)p->insns;
	h->prog.insn_cnt = p->insn_cnt;
	for (size_t i = 0; i < p->map_cnt && i < RB_PROGEN_MAX_MAPS; i++) {
		struct rb_map *m = &h->maps[i];
		snprintf(m->name, sizeof(m->name), "%s", p->maps[i].name);
		m->type = p->maps[i].type;
		m->key_size = p->maps[i].key_size;
		m->value_size = p->maps[i].value_size;
		m->max_entries = p->maps[i].max_entries;
		m->inner_map_idx = -1;
	}
	h->obj.maps = p->map_cnt ? h->maps : NULL;
	h->obj.map_cnt = p->map_cnt;
	h->obj.progs = &h->prog;
	h->obj.prog_cnt = 1;
}
