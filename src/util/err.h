/* err.h — how library code reports errors: it returns a negative value and
 * fills an rb_err with one line naming the input and the reason. Library
 * code never prints on its own and never exits. */
#ifndef RB_UTIL_ERR_H
#define RB_UTIL_ERR_H

#include <stdarg.h>
#include <stdio.h>

#include "util/printable.h"

struct rb_err {
	char msg[512];
};

__attribute__((format(printf, 2, 3))) static inline int rb_errf(struct rb_err *e, const char *fmt, ...)
{
	if (e) {
		/* names in it come from untrusted objects: control characters
		 * and escape sequences are escaped (util/printable.h), so the
		 * message stays one harmless line on any terminal */
		char raw[sizeof(e->msg)];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(raw, sizeof(raw), fmt, ap);
		va_end(ap);
		rb_printable(e->msg, sizeof(e->msg), raw);
	}
	return -1;
}

#endif
