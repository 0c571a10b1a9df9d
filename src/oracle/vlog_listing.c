/* vlog_listing.c — the instruction listing of a kernel verifier log (the
 * "Live regs before insn:" block of Linux 6.18's level-2 log), for the
 * mismatch reports of opdiff and progdiff. */
#include <string.h>

#include "oracle/vlog.h"

void rb_vlog_print_listing(FILE *f, const char *log, bool liveness)
{
	const char *p = log;
	bool in = false;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!strncmp(p, "Live regs before insn:", 22)) {
			in = true;
		} else if (in && len && p[0] == ' ') {
			const char *s = p;
			while (*s == ' ')
				s++;
			/* "N: <liveness> (op) text": the liveness column is dropped
			 * unless asked for */
			const char *colon = memchr(s, ':', len - (size_t)(s - p));
			const char *paren = memchr(s, '(', len - (size_t)(s - p));
			if (liveness)
				fprintf(f, "    %.*s\n", (int)len, p);
			else if (colon && paren && colon < paren)
				fprintf(f, "    %4.*s %.*s\n", (int)(colon - s + 1), s, (int)(len - (size_t)(paren - p)),
					paren);
		} else if (in) {
			break; /* the block ends: the log has one */
		}
		p += len + (nl ? 1 : 0);
	}
}
