/* gen.c — see gen.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/gen.h"

const char *const rb_exec_gen_families[] = {"alu", "link", "mem", "all", NULL};

#define MAXI 256

struct gb {
	struct bpf_insn in[MAXI];
	int n;
	uint64_t rng;
	int fam; /* index in rb_exec_gen_families */
};

static uint64_t rnd(struct gb *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned pick(struct gb *g, unsigned n)
{
	return (unsigned)(rnd(g) % n);
}

static void emit(struct gb *g, uint8_t code, int dst, int src, int off, int32_t imm)
{
	if (g->n >= MAXI)
		return;
	g->in[g->n++] = (struct bpf_insn){.code = code, .dst_reg = (uint8_t)dst, .src_reg = (uint8_t)src,
					  .off = (int16_t)off, .imm = imm};
}

/* the scalar registers the body works on (r9 holds the map value, r6 the ctx) */
static const int SREGS[] = {2, 3, 4, 5, 7, 8};

static int sreg(struct gb *g)
{
	return SREGS[pick(g, 6)];
}

static int32_t rand_imm(struct gb *g)
{
	switch (pick(g, 6)) {
	case 0: return (int32_t)pick(g, 8);
	case 1: return (int32_t)pick(g, 256);
	case 2: return -(int32_t)pick(g, 256);
	case 3: return (int32_t)rnd(g);
	case 4: return (int32_t)(1u << pick(g, 32));
	default: return (int32_t)pick(g, 65536);
	}
}

static void gen_alu(struct gb *g)
{
	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,  BPF_AND, BPF_LSH,
				      BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH, BPF_END};
	uint8_t op = ops[pick(g, sizeof(ops))];
	bool is64 = pick(g, 3) != 0;
	uint8_t cls = is64 ? BPF_ALU64 : BPF_ALU;
	int d = sreg(g);
	if (op == BPF_NEG) {
		emit(g, cls | BPF_NEG | BPF_K, d, 0, 0, 0);
		return;
	}
	if (op == BPF_END) {
		static const int sz[] = {16, 32, 64};
		int imm = sz[pick(g, 3)];
		if (is64)
			emit(g, BPF_ALU64 | BPF_END | BPF_TO_LE, d, 0, 0, imm);
		else
			emit(g, BPF_ALU | BPF_END | (pick(g, 2) ? BPF_TO_BE : BPF_TO_LE), d, 0, 0, imm);
		return;
	}
	int off = 0;
	if ((op == BPF_DIV || op == BPF_MOD) && pick(g, 2))
		off = 1; /* sdiv / smod */
	if (pick(g, 2)) { /* register source */
		int s = sreg(g);
		if (op == BPF_MOV && pick(g, 3) == 0) {
			static const int sx64[] = {8, 16, 32}, sx32[] = {8, 16};
			off = is64 ? sx64[pick(g, 3)] : sx32[pick(g, 2)];
		}
		emit(g, cls | op | BPF_X, d, s, off, 0);
		return;
	}
	int32_t imm = rand_imm(g);
	if (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH)
		imm = (int32_t)pick(g, is64 ? 64 : 32);
	if ((op == BPF_DIV || op == BPF_MOD) && imm == 0)
		imm = 3;
	emit(g, cls | op | BPF_K, d, 0, off, imm);
}

/* a forward conditional jump over at most `room` insns */
static void gen_jmp(struct gb *g, int room)
{
	static const uint8_t ops[] = {BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				      BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET};
	uint8_t op = ops[pick(g, sizeof(ops))];
	uint8_t cls = (pick(g, 2) || g->fam == 1) ? BPF_JMP32 : BPF_JMP;
	if (g->fam != 1 && pick(g, 2))
		cls = BPF_JMP;
	int off = 1 + (int)pick(g, (unsigned)(room < 4 ? room : 4));
	if (pick(g, 4) == 0)
		emit(g, cls | op | BPF_X, sreg(g), sreg(g), off, 0);
	else
		emit(g, cls | op | BPF_K, sreg(g), 0, off, pick(g, 2) ? (int32_t)pick(g, 16) : rand_imm(g));
}

static void gen_link(struct gb *g)
{
	int a = sreg(g), b = sreg(g);
	if (a == b)
		return;
	switch (pick(g, 4)) {
	case 0: /* upper-half bits on b first */
		emit(g, BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1 + (int32_t)pick(g, 3));
		emit(g, BPF_ALU64 | BPF_LSH | BPF_K, 1, 0, 0, 32);
		emit(g, BPF_ALU64 | BPF_OR | BPF_X, b, 1, 0, 0);
		break;
	case 1:
		emit(g, BPF_ALU | BPF_MOV | BPF_X, b, b, 0, 0); /* w = w: upper half known zero */
		break;
	default:
		break;
	}
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, a, b, 0, 0);
	int32_t k = pick(g, 2) ? (int32_t)pick(g, 8) : -(int32_t)pick(g, 8);
	uint8_t op = pick(g, 3) ? BPF_ADD : BPF_SUB;
	emit(g, (pick(g, 3) ? BPF_ALU : BPF_ALU64) | op | BPF_K, a, 0, 0, k);
}

static void gen_spill_fill(struct gb *g)
{
	int slot = 2 + (int)pick(g, 4); /* fp-16 .. fp-40 */
	emit(g, BPF_STX | BPF_MEM | BPF_DW, 10, sreg(g), -8 * slot, 0);
	static const uint8_t sz[] = {BPF_B, BPF_H, BPF_W, BPF_DW};
	uint8_t s = sz[pick(g, 4)];
	int off = -8 * slot;
	uint8_t mode = (s != BPF_DW && pick(g, 3) == 0) ? 0x80 /* BPF_MEMSX */ : BPF_MEM;
	emit(g, BPF_LDX | mode | s, sreg(g), 10, off, 0);
}

static void gen_access(struct gb *g)
{
	int a = sreg(g), d = sreg(g);
	bool stack = pick(g, 2);
	if (pick(g, 2))
		emit(g, BPF_ALU64 | BPF_AND | BPF_K, a, 0, 0, stack ? 31 : 63);
	if (stack) {
		emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0);
		emit(g, BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -32);
	} else {
		emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 1, 9, 0, 0);
	}
	emit(g, BPF_ALU64 | BPF_ADD | BPF_X, 1, a, 0, 0);
	if (pick(g, 3) == 0)
		emit(g, BPF_STX | BPF_MEM | BPF_B, 1, d, 0, 0);
	else
		emit(g, BPF_LDX | BPF_MEM | BPF_B, d, 1, 0, 0);
}

static void gen_body(struct gb *g, int len)
{
	int start = g->n;
	while (g->n - start < len && g->n < MAXI - 16) {
		int room = len - (g->n - start);
		unsigned w = pick(g, 100);
		switch (g->fam) {
		case 0: /* alu */
			if (w < 60) gen_alu(g); else gen_jmp(g, room);
			break;
		case 1: /* link */
			if (w < 30) gen_link(g);
			else if (w < 55) gen_jmp(g, room);
			else if (w < 80) gen_alu(g);
			else if (w < 90) emit(g, BPF_ALU64 | BPF_RSH | BPF_K, sreg(g), 0, 0, 32);
			else gen_access(g);
			break;
		case 2: /* mem */
			if (w < 30) gen_spill_fill(g);
			else if (w < 55) gen_access(g);
			else if (w < 80) gen_jmp(g, room);
			else gen_alu(g);
			break;
		default:
			if (w < 35) gen_alu(g);
			else if (w < 60) gen_jmp(g, room);
			else if (w < 75) gen_link(g);
			else if (w < 88) gen_spill_fill(g);
			else gen_access(g);
		}
	}
}

int rb_exec_gen(const char *family, uint64_t seed, struct rb_object **out, struct rb_err *err)
{
	int fam = -1;
	for (int i = 0; rb_exec_gen_families[i]; i++)
		if (!strcmp(family, rb_exec_gen_families[i]))
			fam = i;
	if (fam < 0)
		return rb_errf(err, "unknown program family '%s' (alu, link, mem, all)", family);
	struct gb *g = calloc(1, sizeof(*g));
	if (!g)
		return rb_errf(err, "out of memory");
	g->rng = seed * 0x2545f4914f6cdd1dull + (uint64_t)fam;
	g->fam = fam;
	/* inputs: two helper results, a map value pointer and two loads from it */
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	emit(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
	emit(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 8, 0, 0, 0);
	emit(g, BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, (int32_t)pick(g, 4));
	emit(g, BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_IDX, 0, 0);
	emit(g, 0, 0, 0, 0, 0);
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	emit(g, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	emit(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	int nullchk = g->n;
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0, 0);
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 9, 0, 0, 0);
	emit(g, BPF_LDX | BPF_MEM | BPF_DW, 2, 9, 0, 0);
	emit(g, BPF_LDX | BPF_MEM | BPF_W, 3, 9, 8, 0);
	emit(g, BPF_ALU64 | BPF_MOV | BPF_K, 4, 0, 0, rand_imm(g));
	emit(g, BPF_ALU64 | BPF_MOV | BPF_X, 5, 7, 0, 0);
	if (pick(g, 2))
		emit(g, BPF_ALU64 | BPF_LSH | BPF_K, 8, 0, 0, 32);
	gen_body(g, 8 + (int)pick(g, 40));
	int end = g->n;
	/* the body's jumps all land at or before `end` */
	for (int i = nullchk + 1; i < end; i++) {
		struct bpf_insn *in = &g->in[i];
		uint8_t cls = BPF_CLASS(in->code);
		if ((cls == BPF_JMP || cls == BPF_JMP32) && BPF_OP(in->code) != BPF_CALL && i + 1 + in->off > end)
			in->off = (int16_t)(end - i - 1);
	}
	g->in[nullchk].off = (int16_t)(end - nullchk - 1);
	emit(g, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	emit(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	struct rb_object *obj = calloc(1, sizeof(*obj));
	if (obj) {
		obj->maps = calloc(1, sizeof(struct rb_map));
		obj->progs = calloc(1, sizeof(struct rb_prog));
	}
	if (!obj || !obj->maps || !obj->progs || !(obj->progs[0].insns = malloc(sizeof(struct bpf_insn) * (size_t)g->n))) {
		rb_object_free(obj);
		free(g);
		return rb_errf(err, "out of memory");
	}
	snprintf(obj->path, sizeof(obj->path), "gen:%s:%llu", family, (unsigned long long)seed);
	obj->map_cnt = 1;
	struct rb_map *m = &obj->maps[0];
	snprintf(m->name, sizeof(m->name), "values");
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = 4;
	m->value_size = 64;
	m->max_entries = 4;
	m->inner_map_idx = -1;
	obj->prog_cnt = 1;
	struct rb_prog *p = &obj->progs[0];
	snprintf(p->name, sizeof(p->name), "%s_%llu", family, (unsigned long long)seed);
	snprintf(p->section, sizeof(p->section), "socket");
	snprintf(p->license, sizeof(p->license), "GPL");
	p->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	p->autoload = p->type_known = true;
	memcpy(p->insns, g->in, sizeof(struct bpf_insn) * (size_t)g->n);
	p->insn_cnt = (size_t)g->n;
	free(g);
	*out = obj;
	return 0;
}
