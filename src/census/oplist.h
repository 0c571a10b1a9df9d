/* oplist.h — the operations the census exercises. */
#ifndef RB_CENSUS_OPLIST_H
#define RB_CENSUS_OPLIST_H

#include <stdbool.h>
#include <stdint.h>

#include "tracker/tracker.h"

enum census_kind {
	CK_ALU2,  /* dst op= src: binary ALU, register or immediate source */
	CK_ALU1,  /* dst = op(dst): NEG, END/BSWAP */
	CK_MOV,   /* dst = src (MOV, MOVSX): unary on the source */
	CK_TRUNC, /* N-byte load zero-extended / LDSX sign-extended */
	CK_JMP,   /* conditional jump */
};

struct census_op {
	char name[24];
	char base[12];    /* name without width/form: "add", "jsgt", "movsx" */
	uint8_t kind;     /* enum census_kind */
	bool imm;         /* source is an instruction immediate (constant) */
	bool is32;        /* ALU32 / JMP32 */
	struct rb_alu alu;  /* CK_ALU2, CK_ALU1, CK_MOV */
	uint8_t jop;        /* CK_JMP: BPF_JEQ... */
	unsigned size;      /* CK_TRUNC: BPF bits */
	bool sext;          /* CK_TRUNC */
};

#define CENSUS_MAX_OPS 160

/* every op in table order; returns the count (<= CENSUS_MAX_OPS) */
unsigned census_ops_build(struct census_op *out);
const char *census_kind_name(unsigned kind);

/* Immediate sources. The BPF 32-bit immediate scales to the subregister
 * width (bits/2): census_imm_value() turns immediate bits h into the
 * source constant, sign-extended for 64-bit forms and zero-extended for
 * 32-bit forms (as the kernel builds its constant source register).
 * census_imm_ok() says whether the kernel accepts that immediate: shifts
 * need imm < operand width, DIV/MOD (signed too) need imm != 0. */
bool census_imm_ok(const struct census_op *op, unsigned bits, uint64_t c);
uint64_t census_imm_value(const struct census_op *op, unsigned bits, uint64_t h);

#endif
