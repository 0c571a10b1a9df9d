/* opgen.c — opdiff's program generator (see opgen.h). */
#include "oracle/opgen.h"

#include <stdio.h>
#include <string.h>

#include "tracker/tracker.h"
#include "util/array_size.h"

/* splitmix64: a small deterministic generator; the state lives in the caller */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}
static unsigned below(uint64_t *s, unsigned n) { return (unsigned)(next(s) % n); }
static bool chance(uint64_t *s, unsigned percent) { return below(s, 100) < percent; }

/* the values the selftest builds its ranges from: upper and lower halves
 * around the signed/unsigned boundaries */
static const uint32_t upper_seeds[] = {0, 1, 0xffffffff, 0xfffffffe, 0x7fffffff, 0x80000000};
static const uint32_t lower_seeds[] = {0,          1,          2,          0xfffffffe, 255,
				       0xffffff01, 0xffffffff, 0xfffffffe, 0x7fffffff, 0x80000000,
				       0x7ffffffe, 0x80000001, 16,         0xfffffff0};

#define N(a) (ARRAY_SIZE(a))

static uint32_t val32(uint64_t *s)
{
	uint32_t v = lower_seeds[below(s, N(lower_seeds))];
	switch (below(s, 8)) {
	case 0: v += below(s, 5); break;
	case 1: v -= below(s, 5); break;
	case 2: v = (uint32_t)below(s, 1000); break;
	default: break;
	}
	return v;
}

static uint64_t val64(uint64_t *s)
{
	uint64_t v = ((uint64_t)upper_seeds[below(s, N(upper_seeds))] << 32) | val32(s);
	if (chance(s, 5))
		v = next(s);
	return v;
}

enum dom { U64, S64, U32, S32 };

static bool lt_dom(enum dom d, uint64_t a, uint64_t b)
{
	switch (d) {
	case U64: return a < b;
	case S64: return (int64_t)a < (int64_t)b;
	case U32: return (uint32_t)a < (uint32_t)b;
	default: return (int32_t)(uint32_t)a < (int32_t)(uint32_t)b;
	}
}

struct gen {
	struct rb_opgen_case *c;
	uint64_t *rng;
};

static void emit(struct gen *g, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (g->c->insn_cnt >= RB_OPGEN_MAX_INSNS)
		return; /* the generator never gets near this; keep the program valid */
	struct bpf_insn *i = &g->c->insns[g->c->insn_cnt++];
	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = dst & 0xf;
	i->src_reg = src & 0xf;
	i->off = off;
	i->imm = imm;
}

static void emit_ld64(struct gen *g, uint8_t dst, uint64_t v)
{
	emit(g, BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, (int32_t)(uint32_t)v);
	emit(g, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

/* "if reg jop v goto out" with the constant as an immediate when it fits,
 * else in r1/r2 */
static void emit_check(struct gen *g, uint8_t reg, uint8_t jop, bool is32, uint64_t v, uint8_t tmp)
{
	uint8_t cls = is32 ? BPF_JMP32 : BPF_JMP;
	bool fits = is32 || (uint64_t)(int64_t)(int32_t)(uint32_t)v == v;
	if (fits && chance(g->rng, 70)) {
		int16_t off = (int16_t)(RB_OPGEN_OUT - (int)g->c->insn_cnt - 1);
		emit(g, cls | jop | BPF_K, reg, 0, off, (int32_t)(uint32_t)v);
		return;
	}
	if (is32 && chance(g->rng, 30))
		v |= next(g->rng) & UINT64_C(0xffffffff00000000); /* upper half ignored by jmp32 */
	if (is32 && chance(g->rng, 30))
		emit(g, BPF_ALU | BPF_MOV | BPF_K, tmp, 0, 0, (int32_t)(uint32_t)v);
	else
		emit_ld64(g, tmp, v);
	int16_t off = (int16_t)(RB_OPGEN_OUT - (int)g->c->insn_cnt - 1);
	emit(g, cls | jop | BPF_X, reg, tmp, off, 0);
}

/* the unknown value in `reg`: call a helper, move r0 in one of several ways */
static void emit_unknown(struct gen *g, uint8_t reg)
{
	emit(g, BPF_JMP | BPF_CALL, 0, 0, 0,
	     chance(g->rng, 50) ? BPF_FUNC_ktime_get_ns : BPF_FUNC_get_prandom_u32);
	unsigned k = below(g->rng, 100);
	if (k < 45)
		emit(g, BPF_ALU64 | BPF_MOV | BPF_X, reg, 0, 0, 0);
	else if (k < 80)
		emit(g, BPF_ALU | BPF_MOV | BPF_X, reg, 0, 0, 0);
	else if (k < 93) {
		static const int16_t w64[] = {8, 16, 32};
		emit(g, BPF_ALU64 | BPF_MOV | BPF_X, reg, 0, w64[below(g->rng, 3)], 0);
	} else
		emit(g, BPF_ALU | BPF_MOV | BPF_X, reg, 0, chance(g->rng, 50) ? 8 : 16, 0);
	if (chance(g->rng, 8)) {
		static const uint32_t masks[] = {0xff, 0xffff, 0xf0, 0x7fffffff, 0x80000001, 0xfffffff0, 0x3c};
		uint32_t m = chance(g->rng, 30) ? (uint32_t)next(g->rng) : masks[below(g->rng, N(masks))];
		emit(g, (chance(g->rng, 50) ? BPF_ALU64 : BPF_ALU) | BPF_AND | BPF_K, reg, 0, 0, (int32_t)m);
	}
}

/* range-setting checks on `reg`: keep it inside [lo, hi] of one domain, or
 * an equality / bit test now and then */
static void emit_range(struct gen *g, uint8_t reg)
{
	enum dom d = (enum dom)below(g->rng, 4);
	bool is32 = d == U32 || d == S32;
	bool sgn = d == S64 || d == S32;
	unsigned form = below(g->rng, 100);
	if (form < 8) {
		/* "if reg == v goto out" / "!=" / "&" */
		static const uint8_t ops[] = {BPF_JEQ, BPF_JNE, BPF_JSET};
		uint64_t v = is32 ? val32(g->rng) : val64(g->rng);
		uint8_t op = ops[below(g->rng, 3)];
		if (op == BPF_JSET && chance(g->rng, 60))
			v = (uint64_t)1 << below(g->rng, is32 ? 32 : 64);
		emit_check(g, reg, op, is32, v, 1);
		return;
	}
	uint64_t a = is32 ? val32(g->rng) : val64(g->rng);
	uint64_t b = is32 ? val32(g->rng) : val64(g->rng);
	if (lt_dom(d, b, a)) {
		uint64_t t = a;
		a = b;
		b = t;
	}
	unsigned which = below(g->rng, 4); /* 0,1: both; 2: low only; 3: high only */
	if (which != 3) {
		/* keep reg >= a: "if reg < a goto out" or "if reg <= a-1" */
		if (chance(g->rng, 25) && a != (is32 ? (sgn ? 0x80000000u : 0) : (sgn ? (uint64_t)INT64_MIN : 0)))
			emit_check(g, reg, sgn ? BPF_JSLE : BPF_JLE, is32, a - 1, 1);
		else
			emit_check(g, reg, sgn ? BPF_JSLT : BPF_JLT, is32, a, 1);
	}
	if (which != 2) {
		/* keep reg <= b */
		if (chance(g->rng, 25) && b != (is32 ? (sgn ? 0x7fffffffu : 0xffffffffu) : (sgn ? (uint64_t)INT64_MAX : UINT64_MAX)))
			emit_check(g, reg, sgn ? BPF_JSGE : BPF_JGE, is32, b + 1, 2);
		else
			emit_check(g, reg, sgn ? BPF_JSGT : BPF_JGT, is32, b, 2);
	}
}

static int32_t alu_imm(uint64_t *rng, uint8_t op, bool is64)
{
	unsigned bits = is64 ? 64 : 32;
	if (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) {
		static const int32_t sh[] = {0, 1, 31, 32, 63, 8, 16};
		int32_t v = chance(rng, 50) ? sh[below(rng, N(sh))] : (int32_t)below(rng, bits);
		return v % (int32_t)bits;
	}
	static const int32_t imms[] = {0, 1, 2, -1, -2, 3, 7, 8, 255, 256, 0x7fffffff, INT32_MIN, 0xffff, -256, 1000};
	int32_t v = chance(rng, 70) ? imms[below(rng, N(imms))] : (int32_t)(uint32_t)next(rng);
	if ((op == BPF_DIV || op == BPF_MOD) && v == 0)
		v = 3; /* the kernel refuses division by an immediate zero */
	return v;
}

static void emit_alu_op(struct gen *g)
{
	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_DIV, BPF_MOD, BPF_MOD,
				      BPF_OR,  BPF_AND, BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_NEG,
				      BPF_MOV, BPF_MOV, BPF_END, BPF_END};
	bool is64 = chance(g->rng, 60);
	uint8_t cls = is64 ? BPF_ALU64 : BPF_ALU;
	unsigned k = below(g->rng, N(ops));
	uint8_t op = ops[k];
	/* the second DIV/MOD/MOV/END entries are the signed / sign-extending / other-order forms */
	bool variant = k > 0 && ops[k - 1] == op;
	uint8_t src = chance(g->rng, 3) ? 6 : 7;
	if (op == BPF_NEG) {
		emit(g, cls | BPF_NEG, 6, 0, 0, 0);
		return;
	}
	if (op == BPF_END) {
		static const int32_t sz[] = {16, 32, 64};
		int32_t imm = sz[below(g->rng, 3)];
		if (variant) /* ALU64 bswap (encoded with BPF_TO_LE) */
			emit(g, BPF_ALU64 | BPF_END | BPF_TO_LE, 6, 0, 0, imm);
		else /* ALU le/be: truncation / byte swap to big endian */
			emit(g, BPF_ALU | BPF_END | (chance(g->rng, 50) ? BPF_TO_LE : BPF_TO_BE), 6, 0, 0, imm);
		return;
	}
	if (op == BPF_MOV && variant) {
		/* MOVSX: 64-bit from 8/16/32 bits, 32-bit from 8/16 bits */
		static const int16_t w[] = {8, 16, 32};
		int16_t off = w[below(g->rng, is64 ? 3 : 2)];
		emit(g, cls | BPF_MOV | BPF_X, 6, src, off, 0);
		return;
	}
	int16_t off = ((op == BPF_DIV || op == BPF_MOD) && variant) ? 1 : 0;
	if (chance(g->rng, 60))
		emit(g, cls | op | BPF_X, 6, src, off, 0);
	else
		emit(g, cls | op | BPF_K, 6, 0, off, alu_imm(g->rng, op, is64));
}

static void emit_jmp_op(struct gen *g)
{
	static const uint8_t ops[] = {BPF_JEQ, BPF_JNE, BPF_JSET, BPF_JGT, BPF_JGE, BPF_JLT,
				      BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};
	uint8_t cls = chance(g->rng, 55) ? BPF_JMP : BPF_JMP32;
	uint8_t op = ops[below(g->rng, N(ops))];
	if (chance(g->rng, 65))
		emit(g, cls | op | BPF_X, 6, chance(g->rng, 3) ? 6 : 7, 1, 0);
	else {
		int32_t imm = cls == BPF_JMP ? (int32_t)(uint32_t)val64(g->rng) : (int32_t)val32(g->rng);
		if (chance(g->rng, 30))
			imm = (int32_t)below(g->rng, 20) - 10;
		emit(g, cls | op | BPF_K, 6, 0, 1, imm);
	}
	emit(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

void rb_opgen_case(uint64_t seed, uint64_t index, struct rb_opgen_case *c)
{
	uint64_t st = seed * UINT64_C(0x9e3779b97f4a7c15) ^ (index + 1) * UINT64_C(0xd1b54a32d192ed03);
	next(&st);
	memset(c, 0, sizeof(*c));
	struct gen g = {c, &st};
	emit(&g, BPF_JMP | BPF_JA, 0, 0, 2, 0);
	emit(&g, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	emit(&g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	emit_unknown(&g, 6);
	emit_unknown(&g, 7);
	unsigned n6 = below(&st, 4), n7 = below(&st, 4);
	if (n6 + n7 == 0) /* the exit block must be reachable (the kernel refuses dead code) */
		n7 = 1;
	for (unsigned i = 0; i < n6 || i < n7; i++) {
		if (i < n6)
			emit_range(&g, 6);
		if (i < n7)
			emit_range(&g, 7);
	}
	c->op_insn = c->insn_cnt;
	c->op_is_jmp = chance(&st, 50);
	if (c->op_is_jmp)
		emit_jmp_op(&g);
	else
		emit_alu_op(&g);
	emit(&g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	rb_opgen_describe(&c->insns[c->op_insn], c->what, sizeof(c->what));
}

void rb_opgen_describe(const struct bpf_insn *i, char *buf, unsigned len)
{
	uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
	const char *src = BPF_SRC(i->code) == BPF_X ? "X" : "K";
	if (cls == BPF_JMP || cls == BPF_JMP32) {
		snprintf(buf, len, "%s %s %s", cls == BPF_JMP ? "jmp" : "jmp32", rb_jmp_name(op), src);
		return;
	}
	if (cls == BPF_LD) {
		snprintf(buf, len, "ld_imm64");
		return;
	}
	const char *c = cls == BPF_ALU64 ? "alu64" : "alu32";
	if (op == BPF_END) {
		if (cls == BPF_ALU64)
			snprintf(buf, len, "alu64 bswap%d", i->imm);
		else
			snprintf(buf, len, "alu32 %s%d", BPF_SRC(i->code) == BPF_TO_BE ? "be" : "le", i->imm);
	} else if (op == BPF_NEG)
		snprintf(buf, len, "%s neg", c);
	else if (op == BPF_MOV && i->off)
		snprintf(buf, len, "%s movsx%d", c, i->off);
	else if ((op == BPF_DIV || op == BPF_MOD) && i->off == 1)
		snprintf(buf, len, "%s s%s %s", c, rb_alu_name(op), src);
	else
		snprintf(buf, len, "%s %s %s", c, rb_alu_name(op), src);
}
