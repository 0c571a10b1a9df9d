/* concrete_jmp.h — whether a conditional jump is taken for two concrete
 * values, at the build's register width (width.h): the specification
 * concrete.c's jmp() gives the census, inline for the trackers that test
 * concrete witnesses on a hot path (cnum-mainline's branch_taken).
 * Linux 6.18 semantics: a 32-bit jump compares the low H_BITS.
 */
#ifndef RB_TRACKER_CONCRETE_JMP_H
#define RB_TRACKER_CONCRETE_JMP_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracker/tracker.h"
#include "tracker/width.h"

static inline bool rb_jmp_holds(uint64_t a, uint64_t b, uint8_t jop, bool is32)
{
	unsigned bits = is32 ? H_BITS : W_BITS;
	uint64_t m = is32 ? H_MASK : W_MASK;
	uint64_t ua = a & m, ub = b & m;
	int64_t sa = sext_bits(ua, bits), sb = sext_bits(ub, bits);
	switch (BPF_OP(jop)) {
	case BPF_JEQ: return ua == ub;
	case BPF_JNE: return ua != ub;
	case BPF_JSET: return (ua & ub) != 0;
	case RB_JSET_FALSE: return (ua & ub) == 0;
	case BPF_JGT: return ua > ub;
	case BPF_JGE: return ua >= ub;
	case BPF_JLT: return ua < ub;
	case BPF_JLE: return ua <= ub;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	default: return false;
	}
}

#endif
