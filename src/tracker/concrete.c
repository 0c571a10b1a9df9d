/* concrete.c — the concrete BPF semantics of every operation the trackers
 * abstract, at one register width: the specification the census checks
 * abstract results against.
 *
 * Follows the runtime behaviour of Linux 6.18 (the interpreter and the
 * verifier's instruction rewrites): shift amounts are masked to the
 * operand width; unsigned and signed division by zero give 0; modulo by
 * zero leaves the dividend (zero-extended for 32-bit operations);
 * signed division of the minimum by -1 gives the minimum and the
 * corresponding modulo gives 0. Sizes are BPF sizes scaled to the width
 * (see W_SCALE in width.h).
 */
#include <linux/bpf.h>

#include "tracker/concrete_jmp.h"
#include "tracker/tracker.h"
#include "tracker/width.h"

static uint64_t concrete_truncate(uint64_t x, unsigned size_bits, bool sext)
{
	unsigned n = W_SCALE(size_bits);
	if (n >= W_BITS)
		return wtrunc(x);
	if (sext)
		return wbits(sext_bits(x, n));
	return x & ((UINT64_C(1) << n) - 1);
}

/* one operation on operands of `bits` bits (W_BITS or H_BITS); the result
 * is truncated to `bits` (so 32-bit operations come out zero-extended) */
static uint64_t alu_at(uint64_t d, uint64_t s, const struct rb_alu *op, unsigned bits)
{
	const uint64_t m = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	const int64_t sd = sext_bits(d, bits), ss = sext_bits(s, bits);

	d &= m;
	s &= m;
	switch (BPF_OP(op->code)) {
	case BPF_ADD: return (d + s) & m;
	case BPF_SUB: return (d - s) & m;
	case BPF_MUL: return (d * s) & m;
	case BPF_OR: return d | s;
	case BPF_AND: return d & s;
	case BPF_XOR: return d ^ s;
	case BPF_LSH: return (d << (s & (bits - 1))) & m;
	case BPF_RSH: return d >> (s & (bits - 1));
	case BPF_ARSH: return (uint64_t)(sd >> (s & (bits - 1))) & m;
	case BPF_NEG: return (0 - d) & m;
	case BPF_DIV:
		if (op->off == 1) {
			if (ss == 0)
				return 0;
			if (ss == -1)
				return (0 - d) & m; /* also MIN / -1 == MIN */
			return (uint64_t)(sd / ss) & m;
		}
		return s ? d / s : 0;
	case BPF_MOD:
		if (op->off == 1) {
			if (ss == 0)
				return d;
			if (ss == -1)
				return 0;
			return (uint64_t)(sd % ss) & m;
		}
		return s ? d % s : d;
	case BPF_MOV:
		if (op->off == 8 || op->off == 16 || op->off == 32)
			return (uint64_t)sext_bits(s, W_SCALE((unsigned)op->off)) & m;
		return s;
	case BPF_END: {
		unsigned n = W_SCALE((unsigned)op->imm);
		uint64_t lo = n >= 64 ? d : d & ((UINT64_C(1) << n) - 1);
		/* ALU64|END is an unconditional swap; ALU|END swaps for TO_BE
		 * (this is a little-endian machine) */
		bool swap = BPF_CLASS(op->code) == BPF_ALU64 || BPF_SRC(op->code) == BPF_TO_BE;
		return swap ? w_bswap(lo, (unsigned)op->imm / 8) : lo;
	}
	default: return 0;
	}

}

static uint64_t concrete_alu(uint64_t dst, uint64_t src, const struct rb_alu *op)
{
	bool is64 = BPF_CLASS(op->code) == BPF_ALU64;
	if (BPF_OP(op->code) == BPF_END)
		return wtrunc(alu_at(dst, src, op, W_BITS));
	return alu_at(dst, src, op, is64 ? W_BITS : H_BITS);
}

static bool concrete_jmp(uint64_t a, uint64_t b, uint8_t jop, bool is32)
{
	return rb_jmp_holds(a, b, jop, is32);
}

const struct rb_concrete RB_SYM(rb_concrete) = {
	.bits = W_BITS,
	.subbits = H_BITS,
	.alu = concrete_alu,
	.jmp = concrete_jmp,
	.truncate = concrete_truncate,
};
