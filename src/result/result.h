/* result.h — what verifying one program yields, whichever verifier did it:
 * the userspace engine with the old or cnum tracker, or the running
 * kernel. The driver stores these rows; `verify` prints them veristat-style. */
#ifndef RB_RESULT_RESULT_H
#define RB_RESULT_RESULT_H

#include <stdint.h>

enum rb_verdict {
	RB_ACCEPT,      /* verified */
	RB_REJECT,      /* rejected by verification (error + insn index) */
	RB_UNSUPPORTED, /* engine: a feature not modelled yet (named in msg) */
	RB_REFUSED,     /* kernel: refused for reasons outside verification (EPERM under lockdown, missing attach target, map creation) */
	RB_UNAVAILABLE, /* kernel: bpf() not permitted on this machine */
	RB_LIMIT,       /* budget exhausted (insns, states, time) */
	RB_LOAD_ERROR,  /* the object/program could not be prepared */
};

struct rb_result {
	enum rb_verdict verdict;
	int err_insn;          /* instruction index of the error, or -1 */
	int sys_errno;         /* kernel: errno of BPF_PROG_LOAD, else 0 */
	char msg[256];         /* error message, unsupported feature, refusal reason */
	uint64_t insns_processed;
	uint64_t total_states, peak_states, max_states_per_insn;
	uint64_t mark_read;
	double verify_us;         /* verification time in microseconds */
	uint64_t reg_state_bytes;  /* sizeof one register state */
	uint64_t state_bytes;      /* sizeof one stored verifier state (one frame) */
	uint64_t peak_state_mem;   /* peak bytes of verifier states alive at once, as allocated */
	uint64_t peak_rss_kib;     /* the process's peak RSS during the verification (0: not measured) */
};

/* "success", "failure", "unsupported", "refused", "unavailable", "limit",
 * "load_error": one spelling on screen, in the database and in SQL */
const char *rb_verdict_name(enum rb_verdict v);
/* and back; -1 if unknown */
int rb_verdict_parse(const char *s);

#endif
