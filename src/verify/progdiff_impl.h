/* progdiff_impl.h — the parts progdiff.c (the running kernel, an engine
 * reference) and progdiff_guest.c (a kernel image's guest) share.
 * Internal to src/verify/. */
#ifndef RB_VERIFY_PROGDIFF_IMPL_H
#define RB_VERIFY_PROGDIFF_IMPL_H

#include "oracle/kdiff.h"
#include "progen/progen.h"
#include "result/result.h"
#include "verify/progdiff.h"

/* a log line carrying register or stack state */
bool rb_progdiff_state_line(const char *l);
/* count one program's reference row kr against the tracker's er in c:
 * what differs first ("verdicts differ", ...), or NULL */
const char *rb_progdiff_classify(struct rb_progdiff_counts *c, const struct rb_result *kr,
				 const struct rb_result *er);
void rb_progdiff_add(struct rb_progdiff_counts *t, const struct rb_progdiff_counts *c);
/* print one differing program (d: the first differing normalised line, or -1) */
void rb_progdiff_show(FILE *f, const struct rb_progen_prog *p, const char *ref, const char *tracker,
		      const char *why, const struct rb_kdiff_lines *ka, const struct rb_kdiff_lines *ea, long d,
		      const char *ktext, const struct rb_result *kr, const struct rb_result *er, bool logs);
/* progdiff against a kernel image (progdiff_guest.c) */
int rb_progdiff_guest(const struct rb_progdiff_opts *o, const char *tracker, const char *ref,
		      struct rb_progdiff_stats *st, struct rb_err *err);

#endif
