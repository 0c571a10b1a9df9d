/* ops.c — the benchmark bodies: every tracker operation over a pool of
 * realistic abstract values (see bench.h). */
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tracker/tracker.h"
#include "util/array_size.h"

enum kind { K_ALU, K_REFINE, K_TAKEN, K_SYNC, K_SUBSET, K_PRINT, K_TRUNC, K_INTERSECT };

struct op_def {
	const char *name;
	enum kind kind;
	struct rb_alu alu; /* K_ALU */
	uint8_t jop;       /* K_REFINE */
	bool is32;
	bool shift;        /* source is a shift amount */
	unsigned size;     /* K_TRUNC: load size in bits; sign-extending when is32 */
};

#define A64(n, op) {"alu64_" n, K_ALU, {BPF_ALU64 | (op) | BPF_X, 0, 0}, 0, false, false, 0}
#define A32(n, op) {"alu32_" n, K_ALU, {BPF_ALU | (op) | BPF_X, 0, 0}, 0, true, false, 0}
#define S64(n, op) {"alu64_" n, K_ALU, {BPF_ALU64 | (op) | BPF_X, 0, 0}, 0, false, true, 0}
#define S32(n, op) {"alu32_" n, K_ALU, {BPF_ALU | (op) | BPF_X, 0, 0}, 0, true, true, 0}
#define R64(n, j) {"refine64_" n, K_REFINE, {0, 0, 0}, (j), false, false, 0}
#define R32(n, j) {"refine32_" n, K_REFINE, {0, 0, 0}, (j), true, false, 0}

static const struct op_def ops[] = {
	A64("add", BPF_ADD), A64("sub", BPF_SUB), A64("mul", BPF_MUL), A64("div", BPF_DIV),
	A64("mod", BPF_MOD),
	{"alu64_sdiv", K_ALU, {BPF_ALU64 | BPF_DIV | BPF_X, 1, 0}, 0, false, false, 0},
	{"alu64_smod", K_ALU, {BPF_ALU64 | BPF_MOD | BPF_X, 1, 0}, 0, false, false, 0},
	A64("or", BPF_OR), A64("and", BPF_AND), A64("xor", BPF_XOR), S64("lsh", BPF_LSH),
	S64("rsh", BPF_RSH), S64("arsh", BPF_ARSH), A64("neg", BPF_NEG), A64("mov", BPF_MOV),
	{"alu64_movsx8", K_ALU, {BPF_ALU64 | BPF_MOV | BPF_X, 8, 0}, 0, false, false, 0},
	{"alu64_movsx16", K_ALU, {BPF_ALU64 | BPF_MOV | BPF_X, 16, 0}, 0, false, false, 0},
	{"alu64_movsx32", K_ALU, {BPF_ALU64 | BPF_MOV | BPF_X, 32, 0}, 0, false, false, 0},
	{"alu64_bswap16", K_ALU, {BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 16}, 0, false, false, 0},
	{"alu64_bswap32", K_ALU, {BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 32}, 0, false, false, 0},
	{"alu64_bswap64", K_ALU, {BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 64}, 0, false, false, 0},
	A32("add", BPF_ADD), A32("sub", BPF_SUB), A32("mul", BPF_MUL), A32("div", BPF_DIV),
	A32("mod", BPF_MOD),
	{"alu32_sdiv", K_ALU, {BPF_ALU | BPF_DIV | BPF_X, 1, 0}, 0, true, false, 0},
	{"alu32_smod", K_ALU, {BPF_ALU | BPF_MOD | BPF_X, 1, 0}, 0, true, false, 0},
	A32("or", BPF_OR), A32("and", BPF_AND), A32("xor", BPF_XOR), S32("lsh", BPF_LSH),
	S32("rsh", BPF_RSH), S32("arsh", BPF_ARSH), A32("neg", BPF_NEG), A32("mov", BPF_MOV),
	{"alu32_movsx8", K_ALU, {BPF_ALU | BPF_MOV | BPF_X, 8, 0}, 0, true, false, 0},
	{"alu32_movsx16", K_ALU, {BPF_ALU | BPF_MOV | BPF_X, 16, 0}, 0, true, false, 0},
	{"alu32_le16", K_ALU, {BPF_ALU | BPF_END | BPF_TO_LE, 0, 16}, 0, true, false, 0},
	{"alu32_be16", K_ALU, {BPF_ALU | BPF_END | BPF_TO_BE, 0, 16}, 0, true, false, 0},
	{"alu32_be32", K_ALU, {BPF_ALU | BPF_END | BPF_TO_BE, 0, 32}, 0, true, false, 0},
	R64("jeq", BPF_JEQ), R64("jne", BPF_JNE), R64("jset", BPF_JSET), R64("jgt", BPF_JGT),
	R64("jge", BPF_JGE), R64("jlt", BPF_JLT), R64("jle", BPF_JLE), R64("jsgt", BPF_JSGT),
	R64("jsge", BPF_JSGE), R64("jslt", BPF_JSLT), R64("jsle", BPF_JSLE),
	R32("jeq", BPF_JEQ), R32("jne", BPF_JNE), R32("jset", BPF_JSET), R32("jgt", BPF_JGT),
	R32("jge", BPF_JGE), R32("jlt", BPF_JLT), R32("jle", BPF_JLE), R32("jsgt", BPF_JSGT),
	R32("jsge", BPF_JSGE), R32("jslt", BPF_JSLT), R32("jsle", BPF_JSLE),
	{"branch_taken", K_TAKEN, {0, 0, 0}, 0, false, false, 0},
	{"sync", K_SYNC, {0, 0, 0}, 0, false, false, 0},
	{"is_subset", K_SUBSET, {0, 0, 0}, 0, false, false, 0},
	{"print", K_PRINT, {0, 0, 0}, 0, false, false, 0},
	{"intersect", K_INTERSECT, {0, 0, 0}, 0, false, false, 0},
	/* the value a load of N bytes gives (zero-extended; "sx": sign-extended) */
	{"load8", K_TRUNC, {0, 0, 0}, 0, false, false, 8},
	{"load16", K_TRUNC, {0, 0, 0}, 0, false, false, 16},
	{"load32", K_TRUNC, {0, 0, 0}, 0, false, false, 32},
	{"loadsx8", K_TRUNC, {0, 0, 0}, 0, true, false, 8},
	{"loadsx16", K_TRUNC, {0, 0, 0}, 0, true, false, 16},
	{"loadsx32", K_TRUNC, {0, 0, 0}, 0, true, false, 32},
};

#define NOPS (ARRAY_SIZE(ops))
#define POOL 64 /* power of two */
#define PAIRS 256 /* power of two */

struct rb_bench_ctx {
	const struct op_def *def;
	const struct rb_tracker *t;
	rb_val pool[POOL];
	rb_val src[POOL]; /* second operands (shift amounts for shifts) */
	struct rb_bounds bounds[POOL];
	/* K_REFINE: pool indices of pairs whose outcome the baseline's
	 * branch_taken leaves open */
	uint8_t pa[PAIRS], pb[PAIRS];
	uint64_t sink;
	uint64_t next; /* the iteration rb_bench_body() continues from */
};

unsigned rb_bench_count(void) { return NOPS; }
const char *rb_bench_op(unsigned i) { return i < NOPS ? ops[i].name : NULL; }

static uint64_t next(uint64_t *s)
{
	/* splitmix64: a fixed, seedable sequence */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* the k-th value of the pool: the shapes a verifier meets most */
static void make_value(const struct rb_tracker *t, unsigned k, uint64_t *seed, rb_val *v)
{
	uint64_t r = next(seed), r2 = next(seed);
	struct rb_bounds b;
	rb_bounds_unbounded(&b);
	switch (k % 8) {
	case 0: /* a constant: small or any */
		t->constant(v, k & 8 ? r : r % 4096);
		return;
	case 1: /* a small unsigned range, e.g. a packet length */
		b.umin = r % 1500;
		b.umax = b.umin + 1 + r2 % 1500;
		break;
	case 2: /* a signed range crossing zero */
		b.smin = -(int64_t)(r % 100000) - 1;
		b.smax = (int64_t)(r2 % 100000);
		break;
	case 3: { /* tnum-shaped: a few known bits */
		uint64_t vals[4] = {r & 0xf0f0, (r & 0xf0f0) | 0x3, (r & 0xf0f0) | 0x100, (r & 0xf0f0) | 0x103};
		t->from_set(v, vals, 4);
		return;
	}
	case 4: /* unknown */
		t->unknown(v);
		return;
	case 5: /* only the 32-bit subregister bounded (an ALU32 result) */
		b.u32_min = (uint32_t)r % 65536;
		b.u32_max = b.u32_min + (uint32_t)r2 % 65536;
		break;
	case 6: /* a loaded byte */
		b.umax = 255;
		b.var_off.mask = 0xff;
		break;
	default: /* the top of the unsigned range: negative as signed */
		b.umin = UINT64_MAX - r % 1000 - 1000;
		b.umax = UINT64_MAX - r2 % 1000;
		break;
	}
	t->from_bounds(v, &b);
}

/* The refinements measured are those the engine performs: it calls
 * branch_refine only when branch_taken cannot decide the jump (jmp.c,
 * as 6.18's check_cond_jmp_op), so the pairs are the pool's undecided
 * ones, the same for every tracker (decided by the baseline, on its own
 * copy of the pool). Random pairs would mostly be decided ones, which the
 * old tracker answers from its own branch_taken before refining and cnum
 * refines in full: a mix the engine never asks for. */
static void refine_pairs(struct rb_bench_ctx *c)
{
	const struct rb_tracker *base = rb_tracker_get(RB_ROLE_BASELINE, 64);
	rb_val pool[POOL];
	uint64_t seed = 42;
	unsigned n = 0;
	for (unsigned k = 0; k < POOL; k++)
		make_value(base, k, &seed, &pool[k]);
	for (unsigned k = 0; k < POOL * POOL && n < PAIRS; k++) {
		unsigned a = k & (POOL - 1), b = (k / POOL * 7 + k * 5 + 1) & (POOL - 1);
		if (base->branch_taken(&pool[a], &pool[b], c->def->jop, c->def->is32) == RB_BR_UNKNOWN) {
			c->pa[n] = (uint8_t)a;
			c->pb[n++] = (uint8_t)b;
		}
	}
	for (unsigned k = n; k < PAIRS; k++) { /* repeated if fewer */
		c->pa[k] = n ? c->pa[k % n] : 0;
		c->pb[k] = n ? c->pb[k % n] : 0;
	}
}

struct rb_bench_ctx *rb_bench_setup(unsigned i, const char *tracker)
{
	const struct rb_tracker *t = rb_tracker_get(tracker, 64);
	if (i >= NOPS || !t)
		return NULL;
	struct rb_bench_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->def = &ops[i];
	c->t = t;
	uint64_t seed = 42; /* the same inputs for every tracker and run */
	for (unsigned k = 0; k < POOL; k++)
		make_value(t, k, &seed, &c->pool[k]);
	for (unsigned k = 0; k < POOL; k++) {
		if (c->def->shift) {
			/* shift amounts: constants, and a small range */
			unsigned lim = c->def->is32 ? 32 : 64;
			if (k % 4 == 3) {
				struct rb_bounds b;
				rb_bounds_unbounded(&b);
				b.umax = lim / 4 - 1;
				t->from_bounds(&c->src[k], &b);
			} else {
				t->constant(&c->src[k], next(&seed) % lim);
			}
		} else {
			c->src[k] = c->pool[(k * 7 + 3) % POOL];
		}
		t->bounds(&c->pool[k], &c->bounds[k]);
	}
	if (c->def->kind == K_REFINE)
		refine_pairs(c);
	return c;
}

static const uint8_t all_jops[] = {BPF_JEQ, BPF_JNE, BPF_JSET, BPF_JGT, BPF_JGE, BPF_JLT,
				   BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};

void rb_bench_body(struct rb_bench_ctx *c, uint64_t n)
{
	const struct rb_tracker *t = c->t;
	const struct op_def *d = c->def;
	uint64_t sink = 0;
	char buf[256];
	/* one sequence of iterations over all calls: the timed benchmark
	 * calls this in batches of 64 (shim.cc), and a count restarting at 0
	 * in each batch would never reach the pairs from i = 64 on (is_subset's
	 * comparisons of a value with itself, the refinements' pairs past
	 * the 64th), which bench/insns.sh's single call of N counts */
	const uint64_t first = c->next;
	c->next += n;
	for (uint64_t i = first; i < first + n; i++) {
		unsigned a = (unsigned)i & (POOL - 1), b = (unsigned)(i * 5 + 1) & (POOL - 1);
		switch (d->kind) {
		case K_ALU: {
			rb_val dst = c->pool[a];
			t->alu(&dst, &c->src[b], &d->alu);
			sink += dst.w[0];
			break;
		}
		case K_REFINE: {
			unsigned p = (unsigned)i & (PAIRS - 1);
			rb_val x = c->pool[c->pa[p]], y = c->pool[c->pb[p]];
			sink += t->branch_refine(&x, &y, d->jop, d->is32);
			break;
		}
		case K_TAKEN:
			sink += (uint64_t)t->branch_taken(&c->pool[a], &c->pool[b], all_jops[i % 11], i & 16);
			break;
		case K_SYNC: {
			rb_val v;
			t->from_bounds(&v, &c->bounds[a]);
			sink += v.w[0];
			break;
		}
		case K_SUBSET:
			/* half the pairs compare a value with itself: the full test */
			sink += t->is_subset(&c->pool[a], &c->pool[i & 64 ? a : b]);
			break;
		case K_PRINT:
			sink += (uint64_t)t->print(&c->pool[a], buf, sizeof(buf));
			break;
		case K_TRUNC: {
			rb_val v = c->pool[a];
			t->truncate(&v, d->size, d->is32);
			sink += v.w[0];
			break;
		}
		case K_INTERSECT: {
			rb_val v = c->pool[a];
			sink += t->intersect(&v, &c->pool[b]);
			break;
		}
		}
	}
	c->sink += sink;
}

void rb_bench_teardown(struct rb_bench_ctx *c) { free(c); }
