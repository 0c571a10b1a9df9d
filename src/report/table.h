/* table.h — a table of text cells printed aligned (numbers right-aligned)
 * or as CSV (RFC 4180 quoting). Used by verify, compare and query. */
#ifndef RB_REPORT_TABLE_H
#define RB_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rb_table {
	size_t ncols, nrows, cap;
	char **hdr;
	char **cells; /* nrows * ncols, owned */
};

int rb_table_init(struct rb_table *t, size_t ncols, const char *const *hdr);
/* append a row of ncols cells (copied; NULL prints as "") */
int rb_table_add(struct rb_table *t, const char *const *cells);
void rb_table_print(const struct rb_table *t, FILE *f, bool csv);
void rb_table_free(struct rb_table *t);

#endif
