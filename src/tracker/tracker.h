/* tracker.h — the scalar value tracker interface.
 *
 * A tracker abstracts the set of values one BPF scalar register may hold.
 * The implementations are listed in one table, src/tracker/registry.c
 * (name, what it follows, representation size, build flags): "old" (the
 * Linux 6.18 bounds), "cnum" (mainline's wrapped ranges with 6.18's
 * algorithms), "cnum-mainline" (the same folder built with mainline's
 * algorithms) and "arc2" (two wrapped arcs per width). Everything else
 * iterates over that table and compares trackers by role: a baseline
 * (default "old") and a candidate (default "cnum").
 * The engine, the census, the tests and the benchmarks see trackers only
 * through this header. Each tracker exists at four register widths
 * (64/32 production, 32/16, 16/8 and 8/4 for exhaustive tests).
 *
 * Operations follow BPF semantics: `struct rb_alu` carries a BPF opcode
 * (class BPF_ALU or BPF_ALU64, operation, BPF_X/BPF_K), the insn's `off`
 * (1 for SDIV/SMOD; 8/16/32 for MOVSX) and `imm` (16/32/64 for BPF_END).
 * The source operand is always an abstract value: for BPF_K the caller
 * builds a constant (sign-extended imm for ALU64/JMP, the 32-bit imm for
 * ALU/JMP32). Sizes are given in BPF bits (8/16/32/64) and scaled to the
 * tracker's width (a 64-bit quantity is always the full register).
 * Values in and out are truncated to the tracker's width; signed values
 * are sign-extended into int64_t.
 */
#ifndef RB_TRACKER_H
#define RB_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opaque storage for one abstract scalar. Each tracker keeps its own
 * representation inside; `rb_tracker.val_size` says how many bytes of it
 * the representation really uses, and a tracker reads and writes only
 * those bytes: the engine is also built with smaller slots
 * (-DRB_VAL_WORDS=5, see Makefile ENGINE_SLOTS) so that stored verifier
 * states hold a 40-byte tracker's values at their true size. */
#ifndef RB_VAL_WORDS
#define RB_VAL_WORDS 8
#endif
typedef union rb_val {
	uint64_t w[RB_VAL_WORDS];
} rb_val;

struct rb_tnum {
	uint64_t value, mask;
};

/* The kernel's view of a scalar: the eight bounds plus var_off. */
struct rb_bounds {
	uint64_t umin, umax;
	int64_t smin, smax;
	uint64_t u32_min, u32_max; /* subregister bounds */
	int64_t s32_min, s32_max;
	struct rb_tnum var_off;
};

/* the bounds of a scalar nothing is known about */
static inline void rb_bounds_unbounded(struct rb_bounds *b)
{
	/* every field named, in order: the header is also compiled as C++ by
	 * the benchmark shim, where -Wmissing-field-initializers applies */
	*b = (struct rb_bounds){.umin = 0, .umax = UINT64_MAX, .smin = INT64_MIN, .smax = INT64_MAX,
				.u32_min = 0, .u32_max = UINT32_MAX, .s32_min = INT32_MIN,
				.s32_max = INT32_MAX, .var_off = {0, UINT64_MAX}};
}

struct rb_alu {
	uint8_t code; /* BPF_ALU/BPF_ALU64 | op | BPF_X/BPF_K */
	int16_t off;
	int32_t imm;
};

/* "!(a & b)": the false outcome of BPF_JSET, which has no opcode of its
 * own (the kernel 6.18 encodes it as BPF_JSET|BPF_X inside its refinement;
 * we use the otherwise unused operation code 0xf0). */
#define RB_JSET_FALSE 0xf0

/* room for one REG INVARIANTS VIOLATION description (branch_refine_report) */
#define RB_VIOLATION_LEN 256

/* branch_taken() answers */
enum { RB_BR_NEVER = 0, RB_BR_ALWAYS = 1, RB_BR_UNKNOWN = -1 };

/* Concrete BPF semantics at one width: the specification every abstract
 * operation is checked against. */
struct rb_concrete {
	unsigned bits, subbits;
	uint64_t (*alu)(uint64_t dst, uint64_t src, const struct rb_alu *op);
	/* does "a jop b" hold (jop: BPF_JEQ..BPF_JSLE, is32: JMP32)? */
	bool (*jmp)(uint64_t a, uint64_t b, uint8_t jop, bool is32);
	/* a value loaded/narrowed to size_bits (BPF bits), zero- or sign-extended */
	uint64_t (*truncate)(uint64_t x, unsigned size_bits, bool sext);
};

struct rb_tracker {
	const char *name;    /* registry name: "old", "cnum", ... */
	const char *follows; /* which kernel's semantics it reproduces */
	const char *build_flags; /* extra compiler flags of its build ("" if none) */
	unsigned bits, subbits;
	size_t val_size; /* bytes of the representation (value tracking only) */
	const struct rb_concrete *concrete;

	/* construction */
	void (*unknown)(rb_val *v);
	void (*constant)(rb_val *v, uint64_t c);
	/* unknown value refined by the given bounds and tnum, then synced
	 * (the kernel's "set fields, reg_bounds_sync()") */
	void (*from_bounds)(rb_val *v, const struct rb_bounds *b);
	/* optional: exactly these bounds and tnum, not synced (the kernel
	 * setting fields without reg_bounds_sync(), as __mark_reg32_known()
	 * does); NULL: from_bounds serves */
	void (*from_fields)(rb_val *v, const struct rb_bounds *b);
	/* the most precise value of this domain containing every vals[i]
	 * (from_set_best: it is the smallest such value; false when the
	 * domain has no unique smallest one and from_set only picks a small
	 * one, so a transfer function may beat it) */
	void (*from_set)(rb_val *v, const uint64_t *vals, size_t n);
	bool from_set_best;

	/* queries */
	void (*bounds)(const rb_val *v, struct rb_bounds *out);
	bool (*contains)(const rb_val *v, uint64_t x);
	bool (*is_const)(const rb_val *v);
	bool (*is_empty)(const rb_val *v);
	bool (*equal)(const rb_val *a, const rb_val *b);
	/* state pruning: may `cur` be pruned against already-verified `old`? */
	bool (*is_subset)(const rb_val *old, const rb_val *cur);
	/* the kernel's field list, e.g. "smin=0,smax=umax=0xff,var_off=(0x0; 0xff)";
	 * snprintf conventions */
	int (*print)(const rb_val *v, char *buf, size_t len);
	/* optional: the value in the representation's own terms (cnum: the
	 * tnum and each width's arc as base and size, not the bounds derived
	 * from them); NULL when print already is (old) */
	int (*print_repr)(const rb_val *v, char *buf, size_t len);

	/* transfer functions */
	void (*alu)(rb_val *dst, const rb_val *src, const struct rb_alu *op);
	/* coerce to size_bits (BPF bits), zero- or sign-extending: a load of
	 * that size, a narrowing fill, MOVSX's input side */
	void (*truncate)(rb_val *v, unsigned size_bits, bool sext);
	/* is "a jop b" always / never true? (RB_BR_*) a and b are two
	 * operands, even when they are the same value */
	int (*branch_taken)(const rb_val *a, const rb_val *b, uint8_t jop, bool is32);
	/* optional: is "r jop r" always / never true, one register compared
	 * with itself (BPF_X, src_reg == dst_reg)? Linux 7.2's
	 * is_scalar_branch_taken() answers this itself (reg1 == reg2) and,
	 * when it cannot decide, refines neither outcome; the engine then
	 * leaves the register as it is on both paths. NULL: the register is
	 * passed as both operands of branch_taken and branch_refine, as
	 * Linux 6.18 does */
	int (*branch_taken_same)(const rb_val *a, uint8_t jop, bool is32);
	/* refine a and b assuming "a jop b" holds; false if that is impossible.
	 * a and b may be the same value ("if r1 < r1": the kernel refines the
	 * register as both operands, in place) */
	bool (*branch_refine)(rb_val *a, rb_val *b, uint8_t jop, bool is32);
	/* a := a ∩ b (sound over-approximation); false if empty */
	bool (*intersect)(rb_val *a, const rb_val *b);

	/* optional (NULL when the tracker has no such check): branch_refine()
	 * that also describes each operand whose refined bounds broke their
	 * invariants before being reset, in the words of 6.18's
	 * reg_bounds_sanity_check() ("range bounds violation u64=[..] ...");
	 * why[0] for a, why[1] for b, "" where the invariants held */
	bool (*branch_refine_report)(rb_val *a, rb_val *b, uint8_t jop, bool is32,
				     char why[2][RB_VIOLATION_LEN]);
	/* optional: 6.18's reg_bounds_sanity_check() on one value after an
	 * ALU op or a load: false if the invariants hold; else `why` describes
	 * the violation (as above) and the bounds are forgotten (var_off stays) */
	bool (*sanity_report)(rb_val *v, char why[RB_VIOLATION_LEN]);
};

/* Lookup by name and width (64, 32, 16, 8); NULL if none. */
const struct rb_tracker *rb_tracker_get(const char *name, unsigned bits);
/* NULL-terminated list of every registry tracker at one width, in table order */
const struct rb_tracker *const *rb_trackers(unsigned bits);
/* The default roles of comparisons: baseline "old", candidate "cnum". */
#define RB_ROLE_BASELINE "old"
#define RB_ROLE_CANDIDATE "cnum"
/* Is `name` a registry tracker? (or, with_kernel, a kernel row: the
 * running kernel's verifier or a kernel of kernels.conf, src/kernels/) */
bool rb_tracker_known(const char *name, bool with_kernel);
/* "old, cnum, ..." (every registry name, then the running kernel's if
 * with_kernel) into buf, snprintf conventions; the default tracker list
 * of `run`, and for usage and error messages */
int rb_tracker_names(char *buf, size_t len, const char *sep, bool with_kernel);
const struct rb_concrete *rb_concrete_get(unsigned bits);

/* The opposite condition: "!(a op b)" == "a rb_jmp_negate(op) b" */
uint8_t rb_jmp_negate(uint8_t jop);
/* The same condition with operands swapped: "a op b" == "b swap(op) a" */
uint8_t rb_jmp_swap(uint8_t jop);
/* GT/GE/SGT/SGE become LT/LE/SLT/SLE with the operands swapped: rewrites
 * *jop and returns true when the caller must swap its operands. */
bool rb_jmp_to_lower(uint8_t *jop);
/* short names: "add", "jsgt", ... */
const char *rb_alu_name(uint8_t op);
const char *rb_jmp_name(uint8_t jop);

#endif
