/* ktrace.h — where two kernels' verifier logs part, read as the path each
 * explored rather than as text: Linux 6.18 and 7.2 print states in other
 * formats (and 7.2 adds a liveness preamble), so a line-by-line diff parts
 * at once. The trace of a level-2 log is its sequence of instruction lines
 * ("N: (op) insn", the state after ';' dropped), branch switches ("from N
 * to M") and pruning points ("N: safe"), from the program's initial state
 * line ("0: R1=ctx() R10=fp0") on. */
#ifndef RB_ORACLE_KTRACE_H
#define RB_ORACLE_KTRACE_H

#include <stddef.h>

struct rb_ktrace_part {
	long index;        /* trace entry where they part; -1: the same trace */
	size_t n_a, n_b;   /* entries of each trace */
	char a[256], b[256]; /* the entry of each at that index ("(end)" past the end) */
};

/* 0, or -1 when out of memory */
int rb_ktrace_part(const char *log_a, const char *log_b, struct rb_ktrace_part *out);

#endif
