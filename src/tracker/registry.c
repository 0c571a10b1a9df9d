/* registry.c — the trackers and concrete semantics at every width, by name.
 * (Not width-generic: compiled once.) */
#include <linux/bpf.h>
#include <string.h>

#include "tracker/tracker.h"

#define PER_WIDTH(sym) sym##_w64, sym##_w32, sym##_w16, sym##_w8
extern const struct rb_tracker PER_WIDTH(rb_old_tracker);
extern const struct rb_tracker PER_WIDTH(rb_cnum_tracker);
extern const struct rb_concrete PER_WIDTH(rb_concrete);

static const struct rb_tracker *const list64[] = {&rb_old_tracker_w64, &rb_cnum_tracker_w64, NULL};
static const struct rb_tracker *const list32[] = {&rb_old_tracker_w32, &rb_cnum_tracker_w32, NULL};
static const struct rb_tracker *const list16[] = {&rb_old_tracker_w16, &rb_cnum_tracker_w16, NULL};
static const struct rb_tracker *const list8[] = {&rb_old_tracker_w8, &rb_cnum_tracker_w8, NULL};

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
	for (; l && *l; l++)
		if (strcmp((*l)->name, name) == 0)
			return *l;
	return NULL;
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
