/* classify.c — one line naming why two trackers' value sets of one
 * location differ right after one instruction. The classes look at the
 * more precise side's set (the one the other side failed to keep):
 *   sign extension                 MOVSX or a sign-extending load
 *   collapse to a constant         one side knows the exact value
 *   wrap across 2^63 / 2^31        (arithmetic) a set whose unsigned range is tight
 *                                  but crosses the signed boundary
 *   wrap across 2^64 / 2^32        (arithmetic) a set whose signed range is tight but
 *                                  wraps the unsigned one (holds -1 and 0)
 *   two-run set lost by one arc    the precise side's set is two runs
 *                                  (its unsigned and signed ranges cut
 *                                  each other into two pieces), the other
 *                                  side holds one run around both
 *   32-bit subregister bounds      only the 32-bit bounds differ
 *   known bits (tnum)              only var_off differs
 *   then by instruction:           "refinement precision (jlt)",
 *                                  "transfer precision (add)", "load",
 *                                  "call result", "pointer arithmetic" */
#include <stdio.h>
#include <string.h>

#include "explain/internal.h"

#define S63 0x8000000000000000ull

/* number of values the bounds admit, as a rough size (saturating) */
static uint64_t span(const struct rb_bounds *b)
{
	uint64_t u = b->umax - b->umin, s = (uint64_t)b->smax - (uint64_t)b->smin;
	return u < s ? u : s;
}

static uint64_t span32(const struct rb_bounds *b)
{
	uint64_t u = b->u32_max - b->u32_min, s = (uint64_t)(b->s32_max - b->s32_min);
	return u < s ? u : s;
}

/* how many runs {x : umin <= x <= umax, smin <= (s64)x <= smax} has on
 * the circle of 2^64 values (one arc, even one wrapping past 0, is one
 * run): the signed range is one or two unsigned runs, each cut by
 * [umin, umax]; a piece ending at U64_MAX joins one starting at 0 */
static int runs64(const struct rb_bounds *b)
{
	uint64_t lo[2], hi[2];
	int k = 0, n = 0;
	bool at0 = false, atmax = false;
	if (b->smin < 0 && b->smax >= 0) {
		lo[k] = 0, hi[k++] = (uint64_t)b->smax;
		lo[k] = (uint64_t)b->smin, hi[k++] = UINT64_MAX;
	} else {
		lo[k] = (uint64_t)b->smin, hi[k++] = (uint64_t)b->smax;
	}
	for (int i = 0; i < k; i++) {
		uint64_t l = lo[i] > b->umin ? lo[i] : b->umin, h = hi[i] < b->umax ? hi[i] : b->umax;
		if (l > h)
			continue;
		n++;
		at0 |= l == 0;
		atmax |= h == UINT64_MAX;
	}
	return n == 2 && at0 && atmax ? 1 : n;
}

static bool wraps63(const struct rb_bounds *b)
{
	return b->umin < S63 && b->umax >= S63 && b->umax - b->umin < UINT64_MAX / 2;
}

static bool wraps64(const struct rb_bounds *b)
{
	return b->smin < 0 && b->smax >= 0 && (uint64_t)b->smax - (uint64_t)b->smin < UINT64_MAX / 2 &&
	       b->umin == 0 && b->umax == UINT64_MAX;
}

static bool wraps31(const struct rb_bounds *b)
{
	return b->u32_min < 0x80000000u && b->u32_max >= 0x80000000u && b->u32_max - b->u32_min < 0x7fffffffu;
}

static bool wraps32(const struct rb_bounds *b)
{
	return b->s32_min < 0 && b->s32_max >= 0 && (uint64_t)(b->s32_max - b->s32_min) < 0x7fffffffu &&
	       b->u32_min == 0 && b->u32_max == UINT32_MAX;
}

static bool same64(const struct rb_bounds *a, const struct rb_bounds *b)
{
	return a->umin == b->umin && a->umax == b->umax && a->smin == b->smin && a->smax == b->smax;
}

static bool same32(const struct rb_bounds *a, const struct rb_bounds *b)
{
	return a->u32_min == b->u32_min && a->u32_max == b->u32_max && a->s32_min == b->s32_min &&
	       a->s32_max == b->s32_max;
}

static void by_insn(const struct bpf_insn *insn, bool ptr, char *cls, size_t len)
{
	uint8_t c = BPF_CLASS(insn->code);
	if (c == BPF_ALU || c == BPF_ALU64) {
		uint8_t op = BPF_OP(insn->code);
		snprintf(cls, len, "%s precision (%s%s)", ptr ? "pointer arithmetic" : "transfer",
			 op == BPF_END ? "end" : rb_alu_name(op), c == BPF_ALU ? "32" : "");
	} else if (c == BPF_JMP || c == BPF_JMP32) {
		uint8_t op = BPF_OP(insn->code);
		if (op == BPF_CALL)
			snprintf(cls, len, "call result");
		else if (op == BPF_EXIT)
			snprintf(cls, len, "subprogram result");
		else
			snprintf(cls, len, "refinement precision (%s%s)", rb_jmp_name(op), c == BPF_JMP32 ? "32" : "");
	} else if (c == BPF_LDX || c == BPF_LD) {
		snprintf(cls, len, "load");
	} else {
		snprintf(cls, len, "store");
	}
}

void ex_classify(const struct bpf_insn *insn, const struct rb_tracker *const t[2], const struct rb_reg *before[2],
		 const struct rb_reg *after[2], char *cls, size_t len)
{
	(void)before;
	uint8_t c = BPF_CLASS(insn->code);
	if (((c == BPF_ALU64 || c == BPF_ALU) && BPF_OP(insn->code) == BPF_MOV && insn->off) ||
	    (c == BPF_LDX && BPF_MODE(insn->code) == BPF_MEMSX)) {
		snprintf(cls, len, "sign extension");
		return;
	}
	if (!after[0] || !after[1]) {
		snprintf(cls, len, "%s", after[0] || after[1] ? "stack slot spilled by one side only" : "unreachable");
		return;
	}
	if (after[0]->type != after[1]->type) {
		snprintf(cls, len, "register type (%s)", after[0]->type == RT_SCALAR || after[1]->type == RT_SCALAR
								 ? "scalar on one side only"
								 : "pointer types");
		return;
	}
	bool ptr = after[0]->type != RT_SCALAR;
	bool k0 = t[0]->is_const(&after[0]->val), k1 = t[1]->is_const(&after[1]->val);
	if (k0 != k1) {
		snprintf(cls, len, "collapse to a constant");
		return;
	}
	struct rb_bounds b[2];
	t[0]->bounds(&after[0]->val, &b[0]);
	t[1]->bounds(&after[1]->val, &b[1]);
	/* the more precise side: the smaller 64-bit span, then the 32-bit one */
	int p = span(&b[1]) < span(&b[0]) || (span(&b[1]) == span(&b[0]) && span32(&b[1]) < span32(&b[0]));
	const struct rb_bounds *bp = &b[p], *bi = &b[!p];
	/* wraps come from arithmetic; a comparison refines within one set */
	bool alu = c == BPF_ALU || c == BPF_ALU64;
	/* a 32-bit operation wraps in the subregister (then zero-extends) */
	if (c == BPF_ALU && !same32(bp, bi)) {
		if (wraps31(bp) && !wraps31(bi)) {
			snprintf(cls, len, "wrap across 2^31");
			return;
		}
		if (wraps32(bp) && !wraps32(bi)) {
			snprintf(cls, len, "wrap across 2^32");
			return;
		}
	}
	if (!same64(bp, bi)) {
		if (alu && wraps63(bp) && !wraps63(bi))
			snprintf(cls, len, "wrap across 2^63");
		else if (alu && wraps64(bp) && !wraps64(bi))
			snprintf(cls, len, "wrap across 2^64");
		else if (runs64(bp) == 2 && runs64(bi) < 2)
			snprintf(cls, len, "two-run set lost by one arc");
		else
			by_insn(insn, ptr, cls, len);
		return;
	}
	if (!same32(bp, bi)) {
		if (alu && wraps31(bp) && !wraps31(bi))
			snprintf(cls, len, "wrap across 2^31");
		else if (alu && wraps32(bp) && !wraps32(bi))
			snprintf(cls, len, "wrap across 2^32");
		else
			snprintf(cls, len, "32-bit subregister bounds");
		return;
	}
	if (bp->var_off.value != bi->var_off.value || bp->var_off.mask != bi->var_off.mask) {
		snprintf(cls, len, "known bits (tnum)");
		return;
	}
	by_insn(insn, ptr, cls, len);
}
