/* opgen.h — random short BPF programs for opdiff, in the style of the
 * kernel's own selftest tools/testing/selftests/bpf/prog_tests/reg_bounds.c:
 * two unknown scalars from helper calls (64-bit, 32-bit, or sign-extended
 * from 8/16/32 bits) in r6 and r7, range-setting conditional branches
 * against constants around the interesting values (0, 1, 0x7fffffff,
 * 0x80000000, 0xffffffff, 2^63, -1, ...) that leave to an exit block, then
 * ONE operation between r6 and r7 (an ALU/ALU64 operation, or a
 * conditional jump with both outcomes ending in exit), and exit.
 *
 * Layout (every generated program):
 *   0: goto +2          ; skip the exit block
 *   1: r0 = 0           ; "out": where range checks go when they fail
 *   2: exit
 *   3: call helper; r6 = r0 (or w6 = w0, r6 = (s32)r0, ...)
 *   5: call helper; r7 = r0 (...)
 *   ...  range-setting branches "if r6 < A goto out" ...
 *   T: the tested operation
 *   T+1: exit   (for a jump: T+1 exit on fall-through, T+2 exit when taken)
 * A jump's fall-through is always the next instruction and is reached from
 * nowhere else (opdiff relies on this). Each case is determined by
 * (seed, index) alone. */
#ifndef RB_ORACLE_OPGEN_H
#define RB_ORACLE_OPGEN_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#define RB_OPGEN_MAX_INSNS 96
#define RB_OPGEN_OUT 1 /* index of the exit block */

struct rb_opgen_case {
	struct bpf_insn insns[RB_OPGEN_MAX_INSNS];
	unsigned insn_cnt;
	unsigned op_insn;  /* index of the tested operation */
	bool op_is_jmp;
	char what[48];     /* the tested operation, e.g. "alu64 sdiv X", "jmp32 jsgt K" */
};

void rb_opgen_case(uint64_t seed, uint64_t index, struct rb_opgen_case *c);

/* name of an operation as opdiff reports it (insn at `i`), e.g. "alu32 arsh K",
 * "alu64 movsx16", "alu64 bswap32", "jmp jset X" */
void rb_opgen_describe(const struct bpf_insn *insn, char *buf, unsigned len);

#endif
