/* ktrace.h — where two kernels' verifier logs part, read as the path each
 * explored rather than as text: Linux 6.18 and 7.2 print states in other
 * formats (and 7.2 adds a liveness preamble), so a line-by-line diff parts
 * at once. The trace of a level-2 log is its sequence of instruction lines
 * ("N: (op) insn", the state after ';' dropped), branch switches ("from N
 * to M") and pruning points ("N: safe"), from the program's initial state
 * line ("0: R1=ctx() R10=fp0") on. */
#ifndef RB_ORACLE_KTRACE_H
#define RB_ORACLE_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_ktrace_part {
	long index;        /* trace entry where they part; -1: the same trace */
	size_t n_a, n_b;   /* entries of each trace */
	char a[256], b[256]; /* the entry of each at that index ("(end)" past the end) */
	char common[256];  /* the last entry both share before it ("" at the start) */
};

/* 0, or -1 when out of memory */
int rb_ktrace_part(const char *log_a, const char *log_b, struct rb_ktrace_part *out);

/* The trace of one log as a 64-bit FNV-1a digest of its entries (each
 * followed by a newline) and their number: two logs with the same digest
 * and count have (but for a collision) the same trace, so a guest can send
 * a digest in place of a whole log (progdiff against a kernel image).
 * 0, or -1 when out of memory. */
int rb_ktrace_digest(const char *log, uint64_t *digest, size_t *entries);

/* What the second log's kernel (b, e.g. 7.2) does differently where the
 * two part, read from the entries there; a name of the list below, which
 * a query can group by (db/queries/kernels_attribution.sql):
 *   const_fold    at one instruction b prints a goto where a prints a
 *                 conditional jump: b rewrote a jump its constants decide
 *                 before exploring (7.2 kernel/bpf/const_fold.c,
 *                 bpf_prune_dead_branches)
 *   insn_rewrite  at one instruction the two print other instructions
 *   prune_earlier b finds the state equal to a checkpoint ("safe") where
 *                 a explores on (7.2: stack liveness per half slot and its
 *                 pre-pass, liveness.c; dead slots poisoned, ids cleared in
 *                 states.c)
 *   prune_later   a prunes where b explores on (b keeps a difference a
 *                 dropped: e.g. 7.2 mark_ptr_or_null_reg keeps ids)
 *   branch        after a conditional jump the two go on at other
 *                 instructions: the branch decided differently (value
 *                 tracking or is_branch_taken)
 *   path_ends     one ends the path it explores (exit, or a pop "from N
 *                 to M") where the other goes on
 *   rejects_upfront
 *                 b's log explores nothing where a's does: b refused the
 *                 program before exploring it (7.2's pre-passes check
 *                 registers, opcodes and calls before do_check; 6.18
 *                 finds the same error at the instruction, counting it)
 *   explores_now  a's log explores nothing where b's does: a refused the
 *                 program before exploring it, b explores it
 *   stops_earlier b's log ends where a's goes on: b's verdict (an error)
 *                 or a limit comes earlier on the same path
 *   stops_later   a's log ends where b's goes on
 *   checkpoints   the same path: only the states kept differ
 *                 (where checkpoints are added, is_state_visited)
 *   other         none of these */
const char *rb_ktrace_mechanism(const struct rb_ktrace_part *p);

/* Logs cut at a head (attribute --log-head, run --keep-logs): true when
 * the two agree as far as the cut ones go, so where they part is past
 * the head ('beyond_head'), not where a cut log ends. */
bool rb_ktrace_beyond_head(const struct rb_ktrace_part *p, bool cut_a, bool cut_b);

#endif
