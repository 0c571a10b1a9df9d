/* printable.h — text from untrusted input (object, section and program
 * names, paths, messages) made safe for a terminal: no byte of it can
 * start an escape sequence, move the cursor or split a line. */
#ifndef RB_UTIL_PRINTABLE_H
#define RB_UTIL_PRINTABLE_H

#include <stddef.h>

/* in, escaped into out (cap bytes, always NUL-terminated when cap > 0):
 * \n, \r and \t as such, every other C0 control, DEL, a UTF-8 C1 control
 * (U+0080..U+009F) and every byte of malformed UTF-8 as \xNN; valid UTF-8
 * is kept. Returns the length of the whole escaped text (as snprintf). */
size_t rb_printable(char *out, size_t cap, const char *in);

/* the escaped text in a new string (NULL: out of memory) */
char *rb_printable_dup(const char *in);

/* 1 when in needs no escaping */
int rb_is_printable(const char *in);

#endif
