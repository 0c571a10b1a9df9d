/* rowtext.h — the lines a guest writes to its serial ports, and their
 * parsing on the host. Every line starts with a tag; anything else on a
 * port (a stray message) is ignored. Fields are tab-separated, text fields
 * escaped (\\ \t \n \r).
 *
 *   RBG uname RELEASE            the guest kernel's uname -r
 *   RBG alive IDX                object IDX is still being verified (every
 *                                30 s: the host's idle timeout sees output)
 *   RBO IDX begin|end            object IDX of the batch starts / is done
 *   RBO IDX exit CODE            the process that verified it exited
 *   RBE IDX MESSAGE              object IDX could not be opened
 *   RBR IDX SHA256 SECTION NAME PROG_TYPE INSN_CNT VERDICT ERR_INSN ERRNO
 *       INSNS TOTAL_STATES PEAK_STATES MAX_STATES_PER_INSN MARK_READ
 *       VERIFY_US REG_STATE_BYTES STATE_BYTES PEAK_STATE_MEM MSG
 *                                one program verified by the guest kernel
 *   RBZ IDX NAME BASE64          a piece of that program's verifier log,
 *                                gzip-compressed (RBZ lines precede its RBR)
 *   RBF NAME begin|end, then base64 lines between: a file of the guest
 *       (gzip-compressed) copied to the host
 */
#ifndef RB_GUEST_ROWTEXT_H
#define RB_GUEST_ROWTEXT_H

#include <stdio.h>

#include "result/result.h"
#include "store/store.h"

/* write s escaped */
void rb_rowtext_put_escaped(FILE *f, const char *s);
/* unescape in place */
void rb_rowtext_unescape(char *s);
/* one RBR line (with its newline) */
void rb_rowtext_put_row(FILE *f, unsigned idx, const char *sha256, const char *section, const char *name,
			unsigned prog_type, unsigned long long insn_cnt, const struct rb_result *r);
/* Parse an RBR line (tag included, no newline; modified in place) into
 * *idx and row->prog (sha256, section, name, prog_type, insn_cnt) and
 * row->res: 0, or -1 if malformed. */
int rb_rowtext_parse_row(char *line, unsigned *idx, struct rb_result_row *row);

#endif
