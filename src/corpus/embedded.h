/* embedded.h — find BPF ELF objects embedded in other files.
 *
 * libbpf skeletons (libbpf-tools, xdp-tools, pcp's BPF PMDA modules) carry
 * their BPF object as one byte string inside the executable. A candidate is
 * any "\x7fELF" whose identification says 64-bit little-endian and whose
 * e_machine is 247 (EM_BPF). Its size is not stored anywhere, so it is
 * computed from its headers: the largest of the ELF header, the section
 * header table (e_shoff + e_shnum * 64), the program header table if any,
 * and the end of every section that has contents in the file (not
 * SHT_NOBITS). Everything is checked against the bytes actually present.
 *
 * The scanner works on a caller-supplied buffer, allocates only the result
 * array and never reads outside [buf, buf + len).
 */
#ifndef RB_CORPUS_EMBEDDED_H
#define RB_CORPUS_EMBEDDED_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define RB_EM_BPF 247

/* One embedded object: bytes [offset, offset + size) of the scanned buffer. */
struct rb_embedded {
	size_t offset;
	size_t size;
};

/* One candidate that claimed to be a BPF ELF but is malformed. */
struct rb_embedded_bad {
	size_t offset;
	char reason[160];
};

struct rb_embedded_list {
	struct rb_embedded *objs;
	size_t cnt;
	struct rb_embedded_bad *bad;
	size_t bad_cnt;
};

enum rb_embedded_check {
	RB_EMB_NOT_BPF = 0, /* not a 64-bit little-endian EM_BPF ELF header: ignore */
	RB_EMB_OK = 1,      /* a well-formed object; *size set */
	RB_EMB_BAD = 2,     /* claims to be a BPF ELF but is malformed; reason set */
};

/* Examine the bytes at buf[off..len). reason (may be NULL) receives a
 * one-line explanation for RB_EMB_BAD. */
enum rb_embedded_check rb_embedded_check(const uint8_t *buf, size_t len, size_t off, size_t *size,
					 char *reason, size_t reason_len);

/* Scan a whole buffer. Objects do not overlap: after a well-formed object
 * the scan resumes at its end; after a malformed candidate it resumes one
 * byte later. `name` names the input in error messages. Returns 0, or < 0
 * (allocation failure) with err set. Free with rb_embedded_list_free. */
int rb_embedded_scan(const uint8_t *buf, size_t len, const char *name, struct rb_embedded_list *out,
		     struct rb_err *err);
void rb_embedded_list_free(struct rb_embedded_list *l);

#endif
