/* opt_num.h — strict parsing of numeric option values: digits only (0x
 * hex where allowed), no sign, no trailing text, within a range; the
 * caller names the option in its error. */
#ifndef RB_CLI_OPT_NUM_H
#define RB_CLI_OPT_NUM_H

#include <stdbool.h>

/* s as an unsigned number in [min, max] (base 10, or 16 with 0x when hex);
 * 0 and *out set, or -1 */
int rb_opt_uint(const char *s, unsigned long long min, unsigned long long max, bool hex, unsigned long long *out);

#endif
