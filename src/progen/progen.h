/* progen.h — seeded, reproducible random BPF programs for program-level
 * differentials (`rangebench progdiff`) and concrete-execution checks.
 *
 * A program is determined by (family, seed, index) alone. Every family
 * starts from unknown scalars (bpf_get_prandom_u32 results, 32-bit,
 * 64-bit composed, sign-extended or masked), then emits a random body of
 * the family's operations over the callee-saved registers r6..r9 and
 * temporaries r1..r5, and ends with "r0 = <scalar>; exit". Range checks
 * that fail jump forward to a shared exit block ("out: r0 = 0; exit").
 * Programs are socket filters (pkt: tc programs) (privileged loader semantics: bounded loops,
 * uninitialised stack reads, 64-bit pointer arithmetic allowed) and use at
 * most RB_PROGEN_MAX_MAPS maps, referenced as the loader does: an
 * ld_imm64 with src_reg BPF_PSEUDO_MAP_IDX and imm = index into maps[].
 * Most programs verify; a few are rejected on purpose (unbounded or out of
 * range pointer offsets), so that messages are compared too.
 *
 * Families (rb_progen_family_name):
 *   range   range-setting jumps and ALU on unknown scalars, linked copies
 *   alu32   32-bit ALU mixed with 64-bit, zero extension, jmp32
 *   muldiv  mul, div, mod, sdiv, smod (32 and 64 bit, K and X)
 *   neg     negation among ALU and range checks
 *   bswap   le16/32/64, be16/32/64, bswap16/32/64
 *   movsx   sign-extending moves (movsx) and loads (ldsx from spills)
 *   regjmp  register-register conditional jumps (jmp and jmp32)
 *   jset    jset with constants and registers
 *   loop    bounded loops (constant trip counts, range-bounded counters)
 *   spill   scalar spills and fills of every size, stores of immediates
 *   ptr     pointer arithmetic into the stack and into map values
 *   mixed   all of the above (but atomics and calls)
 *   atomic  atomic operations (add/or/and/xor, fetch, xchg, cmpxchg) on
 *           stack slots and map values
 *   pkt     direct packet access in a tc program (SCHED_CLS): packet
 *           pointers plus constants and masked scalars checked against the
 *           packet end in every comparison form, loads and stores below
 *   call    calls of static sub-programs (and from them, two frame levels)
 *           with scalar arguments or a pointer
 *           to a caller stack slot
 */
#ifndef RB_PROGEN_PROGEN_H
#define RB_PROGEN_PROGEN_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"

#define RB_PROGEN_MAX_INSNS 384
#define RB_PROGEN_MAX_MAPS 2

struct rb_progen_map {
	char name[16];
	uint32_t type, key_size, value_size, max_entries;
};

struct rb_progen_prog {
	uint32_t prog_type; /* enum bpf_prog_type */
	size_t insn_cnt;
	struct bpf_insn insns[RB_PROGEN_MAX_INSNS];
	size_t map_cnt;
	struct rb_progen_map maps[RB_PROGEN_MAX_MAPS];
	int family;
	uint64_t seed, index;
};

/* number of families, a family's name, and the family with this name (-1: none) */
int rb_progen_family_count(void);
const char *rb_progen_family_name(int family);
int rb_progen_family_find(const char *name);

/* Program `index` of `family` for `seed`. Returns 0, or -1 for an unknown
 * family. Deterministic: the same arguments give the same program. */
int rb_progen_generate(int family, uint64_t seed, uint64_t index, struct rb_progen_prog *out);

/* The program as a one-program object for the engine and the kernel oracle
 * (loader/object.h); `holder` owns everything the object points to and
 * must outlive it. */
struct rb_progen_object {
	struct rb_object obj;
	struct rb_prog prog;
	struct rb_map maps[RB_PROGEN_MAX_MAPS];
};
void rb_progen_object(const struct rb_progen_prog *p, struct rb_progen_object *holder);

#endif
