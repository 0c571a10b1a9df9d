/* kdiff.c — compare two level-2 verifier logs (the kernel's and the
 * engine's) line by line after normalisation, and find the first line
 * where they differ. The kernel's "Live regs before insn" block, source
 * line annotations, "mark_precise:" traces and "func#" lines are dropped;
 * kernel map addresses in ld_imm64 lines are masked. */
#include "oracle/kdiff.h"
#include "oracle/vlog.h"
#include "util/grow.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool keep_line(const char *l, bool *in_live)
{
	if (!strncmp(l, "Live regs before insn:", 22)) {
		*in_live = true;
		return false;
	}
	if (*in_live) {
		if (l[0] == ' ' || l[0] == '\t')
			return false;
		*in_live = false;
	}
	if (l[0] == 0 || l[0] == ';')
		return false;
	/* 6.18 liveness.c traces: "(0) frame 0 insn 82 +live -8" */
	if (l[0] == '(' && isdigit((unsigned char)l[1]))
		return false;
	/* 6.18 checks static calls against BTF too and only logs the result */
	if (l[0] == 'R' && strstr(l, " is not a scalar") && !strchr(l, ':'))
		return false;
	if (!strncmp(l, "mark_precise:", 13) || !strncmp(l, "frame ", 6) || !strncmp(l, "SCC ", 4) || !strncmp(l, "arg#", 4) || !strncmp(l, "func#", 5) || !strncmp(l, "verification time", 17) ||
	    !strncmp(l, "stack depth", 11) || !strncmp(l, "processed ", 10) || !strncmp(l, "insn ", 5))
		return false;
	return true;
}

/* mask long hex numbers that follow "= " in an instruction (map addresses) */
static void normalise(char *l)
{
	l[rb_vlog_glued_len(l, strlen(l))] = 0;
	/* the alignment before ";" depends on the printed instruction length */
	char *semi = strstr(l, " ; ");
	if (!semi)
		semi = strstr(l, " ;");
	if (semi) {
		char *sp = semi;
		while (sp > l && sp[-1] == ' ')
			sp--;
		if (sp < semi) {
			memmove(sp, semi, strlen(semi) + 1);
		}
	}
	char *p = strstr(l, ") r");
	if (!p || !strstr(l, "(18) "))
		return;
	char *eq = strstr(p, " = 0x");
	if (!eq)
		return;
	char *h = eq + 5;
	char *e = h;
	while (isxdigit((unsigned char)*e))
		e++;
	if (e - h >= 12) {
		memmove(h + 4, e, strlen(e) + 1);
		memcpy(h, "ADDR", 4);
	}
	(void)eq;
}

int rb_kdiff_lines(const char *text, struct rb_kdiff_lines *out)
{
	memset(out, 0, sizeof(*out));
	bool in_live = false;
	const char *s = text;
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *l = malloc(len + 1);
		if (!l)
			return -1;
		memcpy(l, s, len);
		l[len] = 0;
		/* trailing spaces */
		while (len && (l[len - 1] == ' ' || l[len - 1] == '\r'))
			l[--len] = 0;
		if (keep_line(l, &in_live)) {
			normalise(l);
			if (RB_GROW(out->line, out->n + 1, &out->cap, 256) < 0) {
				free(l);
				return -1;
			}
			out->line[out->n++] = l;
		} else {
			free(l);
		}
		s = nl ? nl + 1 : NULL;
	}
	return 0;
}

void rb_kdiff_lines_free(struct rb_kdiff_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

long rb_kdiff_first(const struct rb_kdiff_lines *a, const struct rb_kdiff_lines *b)
{
	size_t n = a->n < b->n ? a->n : b->n;
	for (size_t i = 0; i < n; i++)
		if (strcmp(a->line[i], b->line[i]))
			return (long)i;
	if (a->n != b->n)
		return (long)n;
	return -1;
}
