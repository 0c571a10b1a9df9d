/* insn_macros.h — BPF instructions written inline in unit tests:
 * I(code, dst, src, off, imm) and the common shapes built from it. */
#ifndef RB_TEST_INSN_MACROS_H
#define RB_TEST_INSN_MACROS_H

#include <linux/bpf.h>

#define I(c, d, s, o, i) ((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})
#define MOV_K(d, i) I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV_X(d, s) I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ALU_K(op, d, i) I(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU_X(op, d, s) I(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define LDX(sz, d, s, o) I(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) I(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i) I(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define JMP_K(op, d, i, o) I(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define JMP_X(op, d, s, o) I(BPF_JMP | (op) | BPF_X, d, s, o, 0)
#define CALL(f) I(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* two instruction slots: a map reference by index into the object's maps */
#define LD_MAP(d, idx) I(BPF_LD | BPF_IMM | BPF_DW, d, BPF_PSEUDO_MAP_IDX, 0, idx), I(0, 0, 0, 0, 0)

#endif
