/* gen.h — the generator's internals shared by the files of src/progen/:
 * the emitter state, the operation kinds and families, the helpers the
 * operations are built from (progen.c) and the operations of the later
 * families (ops_*.c). Not a public interface: progen.h is. */
#ifndef RB_PROGEN_GEN_H
#define RB_PROGEN_GEN_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "progen/progen.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

enum op_kind {
	OP_RANGE_JMP,
	OP_ALU_K,
	OP_ALU_X,
	OP_MOV,
	OP_LINKED_ADD,
	OP_MULDIV,
	OP_NEG,
	OP_BSWAP,
	OP_MOVSX,
	OP_LDSX,
	OP_REGJMP,
	OP_JSET,
	OP_LOOP,
	OP_SPILL,
	OP_FILL,
	OP_PTR_STACK,
	OP_PTR_MAP,
	OP_DIAMOND,
	OP_ZEXT,
	OP_ATOMIC,
	OP_CALL,
	OP_PKT,
	OP_STACKVAR,  /* ops_stack.c */
	OP_PTRSPILL,
	OP_NARROW,
	OP_LDSX_MEM,  /* ops_memsx.c */
	OP_SDIV_EDGE,
	OP_LINK32,    /* ops_link.c */
	OP_MAYGOTO,   /* ops_ctrl.c */
	OP_GOTOL,
	OP_RINGBUF,   /* ops_ringbuf.c */
	OP_DYNPTR,
	OP_KIND_CNT
};

struct family {
	const char *name;
	bool alu32_bias; /* half of the ALU and jumps 32-bit */
	bool map;        /* a map value pointer in r8 (pkt: the packet start) */
	bool ctx;        /* the context kept in r9 */
	bool ringbuf;    /* maps[0] a ring buffer (the array of `map` then maps[1]) */
	uint8_t weight[OP_KIND_CNT];
};

#define MAX_OUT 96
#define ROOM 120 /* instructions kept free for the largest operation and the epilogue */
#define MAX_CALLS 3
#define SUB_ROOM 48 /* instructions kept free for each sub-program still to emit */

struct call_site {
	int insn;      /* the call instruction, patched when its body is emitted */
	int nargs;     /* r1..r(nargs) hold scalars */
	bool ptr_arg;  /* r1 points to the caller's stack slot at -8 * slot */
	int slot;
};

struct gen {
	struct rb_progen_prog *p;
	const struct family *fam;
	uint64_t s;
	uint16_t scalars;  /* registers holding a scalar */
	uint16_t reserved; /* not to be overwritten (map pointer, loop counter) */
	int out[MAX_OUT];  /* jumps to patch to the exit block */
	int nout;
	int branches;      /* conditional jumps emitted (bounds path explosion) */
	bool full;
	struct call_site calls[MAX_CALLS]; /* sub-programs to emit after the main one */
	int ncalls;
	bool in_sub;       /* emitting a sub-program body */
	int sub_idx;       /* which (calls[sub_idx]) */
};

uint64_t pg_next(struct gen *g);
unsigned pg_rnd(struct gen *g, unsigned n);
bool pg_chance(struct gen *g, unsigned pct);
int pg_emit(struct gen *g, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm);
void pg_emit_ld64(struct gen *g, uint8_t dst, uint64_t v, uint8_t src);
int pg_here(const struct gen *g);
void pg_land(struct gen *g, int j, int to);
void pg_jump_out(struct gen *g, int j);
int pg_pick_from(struct gen *g, uint16_t mask);
int pg_pick_scalar(struct gen *g);
int pg_pick_dst(struct gen *g);
int pg_pick_tmp(struct gen *g, int avoid);
int32_t pg_interesting(struct gen *g);
uint64_t pg_interesting64(struct gen *g);
uint8_t pg_alu_class(struct gen *g);
uint8_t pg_jmp_class(struct gen *g);
uint8_t pg_cond_op(struct gen *g);
void pg_set_scalar(struct gen *g, int r);
void pg_set_ptr(struct gen *g, int r);
int pg_cond_jump_out(struct gen *g, uint8_t code, int dst, int src, int32_t imm);
void pg_op(struct gen *g, enum op_kind k, int depth);
enum op_kind pg_simple_kind(struct gen *g);
void pg_side_ops(struct gen *g, int n);
void pg_skip_over(struct gen *g, uint8_t code, int dst, int src, int32_t k, int n);
uint8_t pg_size_code(int size);
int pg_rand_size(struct gen *g);
int16_t pg_stack_off(struct gen *g, int size, bool slot_start);
void pg_load_via(struct gen *g, int tb, int size, int16_t off);
bool pg_ptr_regs(struct gen *g, int *ti, int *tb);

/* operations of the later families (each returns with nothing emitted
 * when its registers are not free, or inside a loop body or diamond
 * where depth > 0 forbids branches of its own) */
void pg_op_stackvar(struct gen *g, int depth);
void pg_op_ptrspill(struct gen *g, int depth);
void pg_op_narrow(struct gen *g);
void pg_op_ldsx_mem(struct gen *g, int depth);
void pg_op_sdiv_edge(struct gen *g);
void pg_op_link32(struct gen *g, int depth);
void pg_op_maygoto(struct gen *g, int depth);
void pg_op_gotol(struct gen *g, int depth);
void pg_op_ringbuf(struct gen *g, int depth);
void pg_op_dynptr(struct gen *g, int depth);

#endif
