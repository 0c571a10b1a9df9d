/* compare_csv.c — rb_compare_load_csv() (compare_csv.h): two CSV files of
 * `verify --csv`, `verify --veristat` or veristat itself, joined by
 * (file_name, prog_name) as veristat -C joins them. */
#include "report/compare_csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/array_size.h"
#include "util/sort.h"

/* one CSV file's rows */
struct csv_rows {
	struct csv_row {
		char file[256], prog[128];
		struct rb_cmp_side side;
	} *r;
	size_t n, cap;
};

/* split a line into at most max fields (double quotes as rb_table writes
 * them); the number of fields, -1 on an unclosed quote */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return n;
		char *out = p;
		f[n++] = p;
		if (*p == '"') {
			char *q = p + 1;
			for (;;) {
				if (!*q)
					return -1;
				if (*q == '"' && q[1] == '"') {
					*out++ = '"';
					q += 2;
				} else if (*q == '"') {
					q++;
					break;
				} else {
					*out++ = *q++;
				}
			}
			p = q;
			*out = 0;
			if (*p == ',')
				p++;
			else if (*p)
				return -1;
			else
				return n;
			continue;
		}
		char *c = strchr(p, ',');
		if (!c)
			return n;
		*c = 0;
		p = c + 1;
	}
}

enum { COL_IGNORE = -1, COL_FILE = -2, COL_PROG = -3, COL_VERDICT = -4, COL_ERR_INSN = -5, COL_ERROR = -6 };

/* what a header names: a metric (>= 0: its stat), or one of COL_* */
static int column_of(const char *h)
{
	static const struct {
		const char *name;
		int col;
	} fixed[] = {{"file_name", COL_FILE}, {"filename", COL_FILE}, {"file", COL_FILE},
		     {"prog_name", COL_PROG}, {"progname", COL_PROG}, {"prog", COL_PROG},
		     {"verdict", COL_VERDICT},  {"err_insn", COL_ERR_INSN}, {"error", COL_ERROR},
		     {"dur", RB_STAT_TIME}, {"max_mark_read_len", RB_STAT_MARK_READ}};
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (!strcmp(h, fixed[i].name))
			return fixed[i].col;
	for (int m = 0; m < RB_METRIC_COUNT; m++)
		if (!strcmp(h, rb_metrics[m].name) || !strcmp(h, rb_metrics[m].column) ||
		    (rb_metrics[m].vcsv && !strcmp(h, rb_metrics[m].vcsv)))
			return m + 1;
	return COL_IGNORE;
}

#define MAX_COLS 64
#define MAX_LINE 65536

static int read_csv(const char *path, struct csv_rows *out, struct rb_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return rb_errf(err, "%s: cannot open: %s", path, strerror(errno));
	char *line = malloc(MAX_LINE);
	int cols[MAX_COLS], ncols = 0, rc = 0;
	long lineno = 0;
	while (rc == 0 && line && fgets(line, MAX_LINE, f)) {
		lineno++;
		size_t len = strlen(line);
		if (len == MAX_LINE - 1 && line[len - 1] != '\n') {
			rc = rb_errf(err, "%s:%ld: line longer than %d bytes", path, lineno, MAX_LINE - 1);
			break;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len)
			continue;
		char *fld[MAX_COLS];
		int nf = split(line, fld, MAX_COLS);
		if (nf < 0) {
			rc = rb_errf(err, "%s:%ld: unclosed quote", path, lineno);
			break;
		}
		if (!ncols) {
			bool file = false, prog = false;
			for (int i = 0; i < nf; i++) {
				cols[i] = column_of(fld[i]);
				file |= cols[i] == COL_FILE;
				prog |= cols[i] == COL_PROG;
			}
			ncols = nf;
			if (!file || !prog)
				rc = rb_errf(err, "%s:1: not a verify/veristat CSV: no file_name and prog_name columns", path);
			continue;
		}
		if (nf != ncols) {
			rc = rb_errf(err, "%s:%ld: %d fields, the header has %d", path, lineno, nf, ncols);
			break;
		}
		if (RB_GROW(out->r, out->n + 1, &out->cap, 256) < 0) {
			rc = rb_errf(err, "%s: out of memory", path);
			break;
		}
		struct csv_row *r = &out->r[out->n++];
		memset(r, 0, sizeof(*r));
		r->side.present = true;
		snprintf(r->side.verdict, sizeof(r->side.verdict), "success");
		int err_insn = -1;
		for (int i = 0; i < nf; i++) {
			const char *v = fld[i];
			switch (cols[i]) {
			case COL_FILE: snprintf(r->file, sizeof(r->file), "%s", v); break;
			case COL_PROG: snprintf(r->prog, sizeof(r->prog), "%s", v); break;
			case COL_VERDICT: snprintf(r->side.verdict, sizeof(r->side.verdict), "%s", v); break;
			case COL_ERR_INSN: err_insn = atoi(v); break;
			case COL_ERROR: snprintf(r->side.error, sizeof(r->side.error), "%s", v); break;
			case COL_IGNORE: break;
			default: r->side.v[cols[i]] = strtod(v, NULL); break;
			}
		}
		if (err_insn >= 0 && r->side.error[0]) {
			char e[sizeof(r->side.error)];
			snprintf(e, sizeof(e), "insn %d: %.180s", err_insn, r->side.error);
			memcpy(r->side.error, e, sizeof(e));
		}
		if (rb_verdict_parse(r->side.verdict) < 0)
			rc = rb_errf(err, "%s:%ld: unknown verdict '%s'", path, lineno, r->side.verdict);
	}
	if (!line)
		rc = rb_errf(err, "%s: out of memory", path);
	else if (rc == 0 && !ncols)
		rc = rb_errf(err, "%s: empty (no header line)", path);
	free(line);
	fclose(f);
	return rc;
}

static int cmp_key(const void *a, const void *b)
{
	const struct csv_row *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : strcmp(x->prog, y->prog);
}

int rb_compare_load_csv(const char *path_a, const char *path_b, struct rb_compare *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	struct csv_rows s[2] = {{0}, {0}};
	int rc = read_csv(path_a, &s[0], err);
	if (rc == 0)
		rc = read_csv(path_b, &s[1], err);
	for (int k = 0; k < 2 && rc == 0; k++)
		rb_sort(s[k].r, s[k].n, sizeof(s[k].r[0]), cmp_key);
	size_t i = 0, j = 0, cap = 0;
	/* a merge of the two sorted lists: every key of either side */
	while (rc == 0 && (i < s[0].n || j < s[1].n)) {
		int c = i == s[0].n ? 1 : j == s[1].n ? -1 : cmp_key(&s[0].r[i], &s[1].r[j]);
		if (RB_GROW(out->rows, out->n + 1, &cap, 256) < 0) {
			rc = rb_errf(err, "compare: out of memory");
			break;
		}
		struct rb_cmp_row *r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		const struct csv_row *from = c <= 0 ? &s[0].r[i] : &s[1].r[j];
		snprintf(r->object, sizeof(r->object), "%s", from->file);
		snprintf(r->shown, sizeof(r->shown), "%s", from->file);
		snprintf(r->program, sizeof(r->program), "%s", from->prog);
		if (c <= 0)
			r->a = s[0].r[i++].side;
		if (c >= 0)
			r->b = s[1].r[j++].side;
	}
	free(s[0].r);
	free(s[1].r);
	if (rc < 0)
		rb_compare_free(out);
	return rc;
}
