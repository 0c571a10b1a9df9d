/* result.h — what verifying one program yields, whichever verifier did it:
 * the userspace engine with a registry tracker, or a kernel (src/kernels/).
 * The driver stores these rows; `verify` prints them veristat-style. */
#ifndef RB_RESULT_RESULT_H
#define RB_RESULT_RESULT_H

#include <stdint.h>

#include "result/metrics.h"

enum rb_verdict {
	RB_ACCEPT,      /* verified */
	RB_REJECT,      /* rejected by verification (error + insn index) */
	RB_UNSUPPORTED, /* engine: a feature not modelled yet (named in msg) */
	RB_REFUSED,     /* kernel: refused for reasons outside verification (EPERM under lockdown, missing attach target, map creation) */
	RB_UNAVAILABLE, /* kernel: bpf() not permitted on this machine */
	RB_LIMIT,       /* budget exhausted (insns, states, time) */
	RB_LOAD_ERROR,  /* the object/program could not be prepared */
	RB_ENGINE_BUG,  /* engine: its own state is inconsistent, as the kernel's verifier_bug()
			 * (kernel/bpf/verifier.c): a bug of rangebench, never a verdict on the
			 * program (the kernel's own "verifier bug" rejections it mimics stay
			 * failures) */
};
#define RB_VERDICT_COUNT (RB_ENGINE_BUG + 1)

struct rb_result {
	enum rb_verdict verdict;
	int err_insn;          /* instruction index of the error, or -1 */
	int sys_errno;         /* kernel: errno of BPF_PROG_LOAD, else 0 */
	char msg[256];         /* error message, unsupported feature, refusal reason */
	/* the figures: one member per row of result/metrics.h */
#define RB_M_FIELD(id, field, type, ...) RB_MTYPE_##type field;
	RB_METRICS(RB_M_FIELD)
#undef RB_M_FIELD
};

/* "success", "failure", "unsupported", "refused", "unavailable", "limit",
 * "load_error", "engine_bug": one spelling on screen, in the database and
 * in SQL */
const char *rb_verdict_name(enum rb_verdict v);
/* and back; -1 if unknown */
int rb_verdict_parse(const char *s);

#endif
