/* table.c — aligned text and CSV output of a table. */
#include "report/table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/printable.h"

static char *dup0(const char *s) { return strdup(s ? s : ""); }

int rb_table_init(struct rb_table *t, size_t ncols, const char *const *hdr)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->hdr = calloc(ncols, sizeof(*t->hdr));
	if (!t->hdr)
		return -1;
	for (size_t i = 0; i < ncols; i++)
		if (!(t->hdr[i] = dup0(hdr[i])))
			return -1;
	return 0;
}

int rb_table_add(struct rb_table *t, const char *const *cells)
{
	/* rows of ncols cells */
	if (rb_grow(&t->cells, t->ncols * sizeof(*t->cells), t->nrows + 1, &t->cap, 64) < 0)
		return -1;
	for (size_t i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = dup0(cells[i]);
	t->nrows++;
	return 0;
}

/* a number, possibly signed, with a decimal point, '%' or " (+1.2%)" */
static bool numeric(const char *s)
{
	if (!*s)
		return true;
	if (*s == '+' || *s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && !strchr(".%+-() eE", *s))
			return false;
	return true;
}

static void csv_cell(FILE *f, const char *s)
{
	/* a text cell a spreadsheet would take for a formula (=, +, -, @,
	 * tab or CR first) gets a leading ' (OWASP's CSV injection advice);
	 * numbers such as -3 or +1.5% stay numbers */
	bool formula = *s && strchr("=+-@\t\r", *s) && !numeric(s);
	if (!formula && !strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void rb_table_print(const struct rb_table *t, FILE *f, bool csv)
{
	if (csv) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			csv_cell(f, t->hdr[c]);
		}
		fputc('\n', f);
		for (size_t r = 0; r < t->nrows; r++) {
			for (size_t c = 0; c < t->ncols; c++) {
				if (c)
					fputc(',', f);
				csv_cell(f, t->cells[r * t->ncols + c]);
			}
			fputc('\n', f);
		}
		return;
	}
	/* on a terminal: names escaped (util/printable.h) */
	size_t n = (t->nrows + 1) * t->ncols;
	char **esc = calloc(n ? n : 1, sizeof(*esc));
	size_t *w = calloc(t->ncols, sizeof(*w));
	bool *right = calloc(t->ncols, sizeof(*right));
	bool oom = !esc || !w || !right;
	for (size_t i = 0; !oom && i < n; i++)
		oom = !(esc[i] = rb_printable_dup(i < t->ncols ? t->hdr[i] : t->cells[i - t->ncols]));
	if (oom) {
		for (size_t i = 0; esc && i < n; i++)
			free(esc[i]);
		free(esc);
		free(w);
		free(right);
		fprintf(f, "(out of memory)\n");
		return;
	}
	char **hdr = esc, **cells = esc + t->ncols;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = strlen(hdr[c]);
		/* right-aligned: some number and nothing but numbers (or blanks) */
		bool any = false, all = true;
		for (size_t r = 0; r < t->nrows; r++) {
			const char *s = cells[r * t->ncols + c];
			size_t l = strlen(s);
			if (l > w[c])
				w[c] = l;
			any |= l > 0;
			all &= numeric(s);
		}
		right[c] = any && all;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		if (c + 1 == t->ncols && !right[c])
			fprintf(f, "%s%s\n", c ? "  " : "", hdr[c]);
		else
			fprintf(f, "%s%*s%s", c ? "  " : "", right[c] ? (int)w[c] : -(int)w[c], hdr[c],
				c + 1 == t->ncols ? "\n" : "");
	}
	for (size_t c = 0; c < t->ncols; c++) {
		fprintf(f, "%s", c ? "  " : "");
		for (size_t i = 0; i < w[c]; i++)
			fputc('-', f);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cells[r * t->ncols + c];
			bool last = c + 1 == t->ncols;
			/* no trailing blanks after a left-aligned last column */
			if (last && !right[c])
				fprintf(f, "%s%s\n", c ? "  " : "", s);
			else
				fprintf(f, "%s%*s%s", c ? "  " : "", right[c] ? (int)w[c] : -(int)w[c], s,
					last ? "\n" : "");
		}
	for (size_t i = 0; i < n; i++)
		free(esc[i]);
	free(esc);
	free(w);
	free(right);
}

void rb_table_free(struct rb_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	for (size_t i = 0; t->hdr && i < t->ncols; i++)
		free(t->hdr[i]);
	free(t->hdr);
	memset(t, 0, sizeof(*t));
}
