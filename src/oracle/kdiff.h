/* kdiff.h — line-level comparison of level-2 verifier logs (kernel vs
 * engine), used by `rangebench kdiff`. */
#ifndef RB_ORACLE_KDIFF_H
#define RB_ORACLE_KDIFF_H

#include <stddef.h>

struct rb_kdiff_lines {
	char **line;
	size_t n, cap;
};

/* split and normalise a log; < 0 on allocation failure */
int rb_kdiff_lines(const char *text, struct rb_kdiff_lines *out);
void rb_kdiff_lines_free(struct rb_kdiff_lines *l);
/* index of the first differing line, or -1 if identical */
long rb_kdiff_first(const struct rb_kdiff_lines *a, const struct rb_kdiff_lines *b);

#endif
