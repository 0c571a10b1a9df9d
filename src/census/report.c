/* report.c — precision metrics, tracker comparison and counterexamples. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "census/internal.h"

/* log2 of a set's size; the empty set counts as size 1 (0 bits) */
double census_lg(const bm256 *b)
{
	unsigned n = bm_count(b);
	return n > 1 ? log2((double)n) : 0.0;
}

/* compare n gammas of cand with the same n of base: strictly tighter if
 * every one is a subset and one strictly, looser the other way round */
unsigned census_cmp(const bm256 *cand, const bm256 *base, unsigned n)
{
	bool sub = true, sup = true;
	for (unsigned i = 0; i < n; i++) {
		sub = sub && bm_subset(&cand[i], &base[i]);
		sup = sup && bm_subset(&base[i], &cand[i]);
	}
	if (sub && sup)
		return CMP_EQUAL;
	if (sub)
		return CMP_TIGHTER;
	if (sup)
		return CMP_LOOSER;
	return CMP_INCOMPARABLE;
}

void census_cex(struct census_stats *st, const char *fmt, ...)
{
	if (st->cex)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&st->cex, fmt, ap) < 0)
		st->cex = NULL;
	va_end(ap);
}

void census_loose(struct census_stats *st, bool same, const char *fmt, ...)
{
	if (st->loose && (st->loose_same || !same))
		return;
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	free(st->loose);
	st->loose = s;
	st->loose_same = same;
}

int census_sprint(const struct rb_tracker *t, const rb_val *v, char *buf, size_t len)
{
	char inner[512];
	if (t->print(v, inner, sizeof(inner)) < 0)
		inner[0] = 0;
	return snprintf(buf, len, "scalar(%s)", inner);
}
