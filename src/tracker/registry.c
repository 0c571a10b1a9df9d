/* registry.c — the trackers and concrete semantics at every width, by name.
 * (Not width-generic: compiled once.) */
#include <linux/bpf.h>
#include <string.h>

#include "kernels/kernels.h"
#include "tracker/tracker.h"

#include <stdio.h>

/* The tracker registry: one line per tracker, in the order every table,
 * census, benchmark and chart shows them. A line names the width-generic
 * vtable symbol (defined once per width as <sym>_w64, _w32, _w16, _w8).
 * Name, what it follows, representation size and build flags are fields
 * of the vtable itself (`rangebench trackers` prints them). A new tracker:
 * one folder under src/tracker/ defining its vtable, one line here, its
 * tests. */
#define RB_TRACKER_REGISTRY(X)                                          \
	X(rb_old_tracker)     /* Linux 6.18.44 bounds (old/)          */ \
	X(rb_cnum_tracker)    /* cnum repr., 6.18 algorithms (cnum/)  */ \
	X(rb_cnum_tracker_ml) /* cnum as merged in mainline (cnum/ built again) */ \
	X(rb_arc2_tracker)    /* two arcs per width (arc2/)           */

#define DECLARE(sym) extern const struct rb_tracker sym##_w64, sym##_w32, sym##_w16, sym##_w8;
RB_TRACKER_REGISTRY(DECLARE)
extern const struct rb_concrete rb_concrete_w64, rb_concrete_w32, rb_concrete_w16, rb_concrete_w8;

#define AT64(sym) &sym##_w64,
#define AT32(sym) &sym##_w32,
#define AT16(sym) &sym##_w16,
#define AT8(sym) &sym##_w8,
static const struct rb_tracker *const list64[] = {RB_TRACKER_REGISTRY(AT64) NULL};
static const struct rb_tracker *const list32[] = {RB_TRACKER_REGISTRY(AT32) NULL};
static const struct rb_tracker *const list16[] = {RB_TRACKER_REGISTRY(AT16) NULL};
static const struct rb_tracker *const list8[] = {RB_TRACKER_REGISTRY(AT8) NULL};

const struct rb_tracker *const *rb_trackers(unsigned bits)
{
	switch (bits) {
	case 64: return list64;
	case 32: return list32;
	case 16: return list16;
	case 8: return list8;
	default: return NULL;
	}
}

const struct rb_tracker *rb_tracker_get(const char *name, unsigned bits)
{
	const struct rb_tracker *const *l = rb_trackers(bits);
	for (; name && l && *l; l++)
		if (strcmp((*l)->name, name) == 0)
			return *l;
	return NULL;
}

bool rb_tracker_known(const char *name, bool with_kernel)
{
	return rb_tracker_get(name, 64) || (with_kernel && rb_kernel_known(name));
}

int rb_tracker_names(char *buf, size_t len, const char *sep, bool with_kernel)
{
	int n = 0;
	const char *s = "";
	for (const struct rb_tracker *const *l = list64; *l; l++, s = sep) {
		int k = snprintf(len > (size_t)n ? buf + n : NULL, len > (size_t)n ? len - (size_t)n : 0, "%s%s", s, (*l)->name);
		n += k > 0 ? k : 0;
	}
	if (with_kernel) {
		int k = snprintf(len > (size_t)n ? buf + n : NULL, len > (size_t)n ? len - (size_t)n : 0, "%s%s", sep, RB_KERNEL_RUNNING);
		n += k > 0 ? k : 0;
	}
	return n;
}

const struct rb_concrete *rb_concrete_get(unsigned bits)
{
	switch (bits) {
	case 64: return &rb_concrete_w64;
	case 32: return &rb_concrete_w32;
	case 16: return &rb_concrete_w16;
	case 8: return &rb_concrete_w8;
	default: return NULL;
	}
}

uint8_t rb_jmp_negate(uint8_t jop)
{
	switch (BPF_OP(jop)) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JGT: return BPF_JLE;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLT: return BPF_JGE;
	case BPF_JLE: return BPF_JGT;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSLT: return BPF_JSGE;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSET: return RB_JSET_FALSE;
	case RB_JSET_FALSE: return BPF_JSET;
	default: return 0xff;
	}
}

uint8_t rb_jmp_swap(uint8_t jop)
{
	switch (BPF_OP(jop)) {
	case BPF_JGT: return BPF_JLT;
	case BPF_JGE: return BPF_JLE;
	case BPF_JLT: return BPF_JGT;
	case BPF_JLE: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLT;
	case BPF_JSGE: return BPF_JSLE;
	case BPF_JSLT: return BPF_JSGT;
	case BPF_JSLE: return BPF_JSGE;
	default: return BPF_OP(jop); /* JEQ, JNE, JSET are symmetric */
	}
}

bool rb_jmp_to_lower(uint8_t *jop)
{
	switch (*jop) {
	case BPF_JGE:
	case BPF_JGT:
	case BPF_JSGE:
	case BPF_JSGT:
		*jop = rb_jmp_swap(*jop);
		return true;
	default:
		return false;
	}
}

const char *rb_alu_name(uint8_t op)
{
	switch (BPF_OP(op)) {
	case BPF_ADD: return "add";
	case BPF_SUB: return "sub";
	case BPF_MUL: return "mul";
	case BPF_DIV: return "div";
	case BPF_OR: return "or";
	case BPF_AND: return "and";
	case BPF_LSH: return "lsh";
	case BPF_RSH: return "rsh";
	case BPF_NEG: return "neg";
	case BPF_MOD: return "mod";
	case BPF_XOR: return "xor";
	case BPF_MOV: return "mov";
	case BPF_ARSH: return "arsh";
	case BPF_END: return "end";
	default: return NULL;
	}
}

const char *rb_jmp_name(uint8_t jop)
{
	switch (BPF_OP(jop)) {
	case BPF_JEQ: return "jeq";
	case BPF_JNE: return "jne";
	case BPF_JSET: return "jset";
	case BPF_JGT: return "jgt";
	case BPF_JGE: return "jge";
	case BPF_JLT: return "jlt";
	case BPF_JLE: return "jle";
	case BPF_JSGT: return "jsgt";
	case BPF_JSGE: return "jsge";
	case BPF_JSLT: return "jslt";
	case BPF_JSLE: return "jsle";
	case RB_JSET_FALSE: return "jnset";
	default: return NULL;
	}
}
