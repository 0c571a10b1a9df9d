/* rowtext.c — guest result lines (see rowtext.h). */
#include "guest/rowtext.h"
#include "util/array_size.h"

#include <stdlib.h>
#include <string.h>

void rb_rowtext_put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': fputs("\\\\", f); break;
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		default: fputc(*s, f);
		}
	}
}

void rb_rowtext_unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*o++ = *s;
			continue;
		}
		s++;
		*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
	}
	*o = 0;
}

void rb_rowtext_put_row(FILE *f, unsigned idx, const char *sha256, const char *section, const char *name,
			unsigned prog_type, unsigned long long insn_cnt, const struct rb_result *r)
{
	fprintf(f, "RBR\t%u\t%s\t", idx, sha256);
	rb_rowtext_put_escaped(f, section);
	fputc('\t', f);
	rb_rowtext_put_escaped(f, name);
	fprintf(f, "\t%u\t%llu\t%s\t%d\t%d\t%llu\t%llu\t%llu\t%llu\t%llu\t%.3f\t%llu\t%llu\t%llu\t", prog_type,
		insn_cnt, rb_verdict_name(r->verdict), r->err_insn, r->sys_errno,
		(unsigned long long)r->insns_processed, (unsigned long long)r->total_states,
		(unsigned long long)r->peak_states, (unsigned long long)r->max_states_per_insn,
		(unsigned long long)r->mark_read, r->verify_us, (unsigned long long)r->reg_state_bytes,
		(unsigned long long)r->state_bytes, (unsigned long long)r->peak_state_mem);
	rb_rowtext_put_escaped(f, r->msg);
	fputc('\n', f);
}

#define NFIELDS 20

static int u64(const char *s, uint64_t *out)
{
	char *end;
	if (!*s)
		return -1;
	*out = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

int rb_rowtext_parse_row(char *line, unsigned *idx, struct rb_result_row *row)
{
	char *f[NFIELDS];
	int n = 0;
	for (char *p = line; n < NFIELDS; n++) {
		f[n] = p;
		char *tab = strchr(p, '\t');
		if (!tab) {
			n++;
			break;
		}
		*tab = 0;
		p = tab + 1;
	}
	if (n != NFIELDS || strcmp(f[0], "RBR") || strchr(f[NFIELDS - 1], '\t'))
		return -1;
	uint64_t v[NFIELDS];
	static const int nums[] = {1, 5, 6, 10, 11, 12, 13, 14, 16, 17, 18};
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		if (u64(f[nums[i]], &v[nums[i]]) < 0)
			return -1;
	int verdict = rb_verdict_parse(f[7]);
	char *end;
	long err_insn = strtol(f[8], &end, 10);
	if (verdict < 0 || *end || strlen(f[2]) != 64)
		return -1;
	long err_no = strtol(f[9], &end, 10);
	if (*end)
		return -1;
	double us = strtod(f[15], &end);
	if (*end)
		return -1;
	memset(&row->prog, 0, sizeof(row->prog));
	memset(&row->res, 0, sizeof(row->res));
	*idx = (unsigned)v[1];
	snprintf(row->prog.obj_sha256, sizeof(row->prog.obj_sha256), "%s", f[2]);
	rb_rowtext_unescape(f[3]);
	rb_rowtext_unescape(f[4]);
	rb_rowtext_unescape(f[19]);
	snprintf(row->prog.section, sizeof(row->prog.section), "%s", f[3]);
	snprintf(row->prog.name, sizeof(row->prog.name), "%s", f[4]);
	row->prog.prog_type = (uint32_t)v[5];
	row->prog.insn_cnt = v[6];
	struct rb_result *r = &row->res;
	r->verdict = (enum rb_verdict)verdict;
	r->err_insn = (int)err_insn;
	r->sys_errno = (int)err_no;
	r->insns_processed = v[10];
	r->total_states = v[11];
	r->peak_states = v[12];
	r->max_states_per_insn = v[13];
	r->mark_read = v[14];
	r->verify_us = us;
	r->reg_state_bytes = v[16];
	r->state_bytes = v[17];
	r->peak_state_mem = v[18];
	snprintf(r->msg, sizeof(r->msg), "%s", f[19]);
	return 0;
}
