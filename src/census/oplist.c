/* oplist.c — the census's operation table, built at run time (names are
 * composed here, the table itself is caller-owned). */
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

#include "census/oplist.h"
#include "util/array_size.h"

static struct census_op *add(struct census_op *o, unsigned *n, const char *base, uint8_t kind)
{
	struct census_op *op = &o[(*n)++];
	memset(op, 0, sizeof(*op));
	snprintf(op->base, sizeof(op->base), "%s", base);
	op->kind = kind;
	return op;
}

unsigned census_ops_build(struct census_op *o)
{
	static const struct {
		const char *name;
		uint8_t op;
		int16_t off;
	} alu2[] = {
		{"add", BPF_ADD, 0}, {"sub", BPF_SUB, 0}, {"mul", BPF_MUL, 0},
		{"div", BPF_DIV, 0}, {"mod", BPF_MOD, 0}, {"sdiv", BPF_DIV, 1},
		{"smod", BPF_MOD, 1}, {"or", BPF_OR, 0}, {"and", BPF_AND, 0},
		{"xor", BPF_XOR, 0}, {"lsh", BPF_LSH, 0}, {"rsh", BPF_RSH, 0},
		{"arsh", BPF_ARSH, 0},
	};
	static const uint8_t jops[] = {BPF_JEQ, BPF_JNE, BPF_JSET, BPF_JGT, BPF_JGE, BPF_JLT,
				       BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};
	unsigned n = 0;
	struct census_op *op;

	for (size_t i = 0; i < ARRAY_SIZE(alu2); i++)
		for (int w = 0; w < 2; w++)
			for (int k = 0; k < 2; k++) {
				op = add(o, &n, alu2[i].name, CK_ALU2);
				op->is32 = w;
				op->imm = k;
				op->alu.code = (uint8_t)((w ? BPF_ALU : BPF_ALU64) | alu2[i].op | (k ? BPF_K : BPF_X));
				op->alu.off = alu2[i].off;
				snprintf(op->name, sizeof(op->name), "%s%d%s", alu2[i].name, w ? 32 : 64, k ? "_imm" : "");
			}
	for (int w = 0; w < 2; w++) {
		op = add(o, &n, "neg", CK_ALU1);
		op->is32 = w;
		op->alu.code = (uint8_t)((w ? BPF_ALU : BPF_ALU64) | BPF_NEG | BPF_K);
		snprintf(op->name, sizeof(op->name), "neg%d", w ? 32 : 64);
	}
	for (int w = 0; w < 2; w++)
		for (int k = 0; k < 2; k++) {
			op = add(o, &n, "mov", CK_MOV);
			op->is32 = w;
			op->imm = k;
			op->alu.code = (uint8_t)((w ? BPF_ALU : BPF_ALU64) | BPF_MOV | (k ? BPF_K : BPF_X));
			snprintf(op->name, sizeof(op->name), "mov%d%s", w ? 32 : 64, k ? "_imm" : "");
		}
	/* MOVSX: ALU64 with off 8/16/32, ALU32 with off 8/16 (the kernel
	 * refuses ALU32 MOVSX with off 32) */
	for (int w = 0; w < 2; w++)
		for (int s = 8; s <= 32; s *= 2) {
			if (w && s == 32)
				continue;
			op = add(o, &n, "movsx", CK_MOV);
			op->is32 = w;
			op->alu.code = (uint8_t)((w ? BPF_ALU : BPF_ALU64) | BPF_MOV | BPF_X);
			op->alu.off = (int16_t)s;
			snprintf(op->name, sizeof(op->name), "movsx%d_%d", w ? 32 : 64, s);
		}
	/* END: ALU|END|TO_LE (truncate), ALU|END|TO_BE (swap), ALU64|END (bswap) */
	for (int f = 0; f < 3; f++)
		for (int s = 16; s <= 64; s *= 2) {
			static const char *const names[] = {"le", "be", "bswap"};
			op = add(o, &n, names[f], CK_ALU1);
			op->alu.code = (uint8_t)(f == 2 ? BPF_ALU64 | BPF_END | BPF_TO_LE
						: BPF_ALU | BPF_END | (f ? BPF_TO_BE : BPF_TO_LE));
			op->alu.imm = s;
			snprintf(op->name, sizeof(op->name), "%s%d", names[f], s);
		}
	for (int x = 0; x < 2; x++)
		for (unsigned s = 8; s <= 32; s *= 2) {
			op = add(o, &n, x ? "ldsx" : "ld", CK_TRUNC);
			op->size = s;
			op->sext = x;
			snprintf(op->name, sizeof(op->name), "%s%u", x ? "ldsx" : "ld", s);
		}
	for (size_t i = 0; i < sizeof(jops); i++)
		for (int w = 0; w < 2; w++)
			for (int k = 0; k < 2; k++) {
				op = add(o, &n, rb_jmp_name(jops[i]), CK_JMP);
				op->is32 = w;
				op->imm = k;
				op->jop = jops[i];
				snprintf(op->name, sizeof(op->name), "%s%d%s", rb_jmp_name(jops[i]), w ? 32 : 64,
					 k ? "_imm" : "");
			}
	return n;
}

const char *census_kind_name(unsigned kind)
{
	switch (kind) {
	case CK_ALU2: return "alu";
	case CK_ALU1: return "alu1";
	case CK_MOV: return "mov";
	case CK_TRUNC: return "load";
	case CK_JMP: return "jmp";
	default: return "?";
	}
}

/* h: an immediate's bits (the low bits/2 bits are used) */
uint64_t census_imm_value(const struct census_op *op, unsigned bits, uint64_t h)
{
	unsigned hb = bits / 2;
	uint64_t hm = (UINT64_C(1) << hb) - 1, wm = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	h &= hm;
	if (op->is32)
		return h;
	/* sign-extend the subregister-wide immediate to the register */
	uint64_t sign = UINT64_C(1) << (hb - 1);
	return ((h ^ sign) - sign) & wm;
}

bool census_imm_ok(const struct census_op *op, unsigned bits, uint64_t c)
{
	if (op->kind != CK_ALU2)
		return true;
	unsigned opw = op->is32 ? bits / 2 : bits;
	switch (BPF_OP(op->alu.code)) {
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		return c < opw;
	case BPF_DIV:
	case BPF_MOD:
		return c != 0;
	default:
		return true;
	}
}
