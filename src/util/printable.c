/* printable.c — terminal-safe text (see printable.h). */
#include "util/printable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the length of the valid, non-C1 UTF-8 sequence at p (1..4), 0 if the
 * byte at p must be escaped */
static size_t utf8_ok(const unsigned char *p)
{
	unsigned char c = p[0];
	if (c >= 0x20 && c < 0x7f)
		return 1;
	size_t n;
	unsigned min;
	unsigned cp;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, min = 0xa0, cp = c & 0x1f; /* U+0080..U+009F are C1 controls */
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, min = 0x800, cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, min = 0x10000, cp = c & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

size_t rb_printable(char *out, size_t cap, const char *in)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)(in ? in : "");
	while (*p) {
		char esc[8];
		const char *add;
		size_t n = utf8_ok(p), len;
		if (n) {
			add = (const char *)p;
			len = n;
		} else {
			if (*p == '\n')
				snprintf(esc, sizeof(esc), "\\n");
			else if (*p == '\r')
				snprintf(esc, sizeof(esc), "\\r");
			else if (*p == '\t')
				snprintf(esc, sizeof(esc), "\\t");
			else
				snprintf(esc, sizeof(esc), "\\x%02x", *p);
			add = esc;
			len = strlen(esc);
			n = 1;
		}
		/* never cut an escape or a character in two */
		if (cap && o + len < cap)
			memcpy(out + o, add, len);
		else if (cap && o < cap)
			cap = o + 1;
		o += len;
		p += n;
	}
	if (cap)
		out[o < cap ? o : cap - 1] = 0;
	return o;
}

char *rb_printable_dup(const char *in)
{
	size_t n = rb_printable(NULL, 0, in);
	char *out = malloc(n + 1);
	if (out)
		rb_printable(out, n + 1, in);
	return out;
}

int rb_is_printable(const char *in)
{
	for (const unsigned char *p = (const unsigned char *)in; p && *p;) {
		size_t n = utf8_ok(p);
		if (!n)
			return 0;
		p += n;
	}
	return 1;
}
