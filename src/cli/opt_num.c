/* opt_num.c — strict numeric option values (see opt_num.h). */
#include "cli/opt_num.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int rb_opt_uint(const char *s, unsigned long long min, unsigned long long max, bool hex, unsigned long long *out)
{
	if (!s || !isdigit((unsigned char)s[0]))
		return -1; /* "", "-5", "+5", " 5" */
	bool is_hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (is_hex && (!hex || !isxdigit((unsigned char)s[2])))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, is_hex ? 16 : 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
