/* ktrace.c — the first point where two verifier logs' traces part (see
 * ktrace.h). Formats followed: Linux 6.18.44 and 7.2.13 (Debian sid),
 * kernel/bpf/log.c and verifier.c's do_check(). */
#include "oracle/ktrace.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trace {
	char **e;
	size_t n, cap;
};

/* "N: " at the start of the line: the length of the prefix, or 0 */
static size_t insn_prefix(const char *l)
{
	size_t i = 0;
	while (isdigit((unsigned char)l[i]))
		i++;
	return i && l[i] == ':' && l[i + 1] == ' ' ? i + 2 : 0;
}

static int push(struct trace *t, const char *s, size_t len)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		char **ne = realloc(t->e, cap * sizeof(*ne));
		if (!ne)
			return -1;
		t->e = ne;
		t->cap = cap;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	char *e = strndup(s, len);
	if (!(t->e[t->n] = e))
		return -1;
	/* kernel addresses (a map's, loaded by ld_imm64) differ from boot
	 * to boot: "0x" and 12 or more hex digits become "0xADDR" */
	for (char *h = strstr(e, "0x"); h; h = strstr(h + 2, "0x")) {
		size_t d = strspn(h + 2, "0123456789abcdef");
		if (d >= 12)
			memmove(h + 2 + 4, h + 2 + d, strlen(h + 2 + d) + 1), memcpy(h + 2, "ADDR", 4);
	}
	t->n++;
	return 0;
}

static int trace_of(const char *log, struct trace *t)
{
	bool started = false;
	for (const char *p = log; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *l = p;
		p += len + (eol ? 1 : 0);
		size_t k = insn_prefix(l);
		if (!started) {
			/* the initial state: "0: R1=ctx() R10=fp0" */
			started = k && k < len && l[k] == 'R';
			continue;
		}
		int rc = 0;
		if (k && k < len && l[k] == '(') {
			const char *semi = memchr(l, ';', len);
			rc = push(t, l, semi ? (size_t)(semi - l) : len);
		} else if (k && len - k >= 4 && !strncmp(l + k, "safe", 4)) {
			rc = push(t, l, len);
		} else if (!strncmp(l, "from ", 5)) {
			/* "from N to M: R1=..." (the state dropped) or "from N to
			 * M: safe" (kept: a prune) */
			const char *colon = memchr(l, ':', len);
			bool safe = colon && (size_t)(colon - l) + 6 <= len && !strncmp(colon, ": safe", 6);
			rc = push(t, l, colon && !safe ? (size_t)(colon - l) : len);
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void free_trace(struct trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->e[i]);
	free(t->e);
}

int rb_ktrace_part(const char *log_a, const char *log_b, struct rb_ktrace_part *out)
{
	struct trace a = {0}, b = {0};
	memset(out, 0, sizeof(*out));
	int rc = trace_of(log_a ? log_a : "", &a) < 0 || trace_of(log_b ? log_b : "", &b) < 0 ? -1 : 0;
	out->n_a = a.n;
	out->n_b = b.n;
	out->index = -1;
	for (size_t i = 0; rc == 0 && (i < a.n || i < b.n); i++) {
		if (i < a.n && i < b.n && !strcmp(a.e[i], b.e[i]))
			continue;
		out->index = (long)i;
		snprintf(out->common, sizeof(out->common), "%s", i ? a.e[i - 1] : "");
		snprintf(out->a, sizeof(out->a), "%s", i < a.n ? a.e[i] : "(end)");
		snprintf(out->b, sizeof(out->b), "%s", i < b.n ? b.e[i] : "(end)");
		break;
	}
	free_trace(&a);
	free_trace(&b);
	return rc;
}

int rb_ktrace_digest(const char *log, uint64_t *digest, size_t *entries)
{
	struct trace t = {0};
	int rc = trace_of(log ? log : "", &t);
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; rc == 0 && i < t.n; i++)
		for (const unsigned char *c = (const unsigned char *)t.e[i];; c++) {
			h = (h ^ (*c ? *c : '\n')) * 0x100000001b3ull;
			if (!*c)
				break;
		}
	*digest = h;
	*entries = t.n;
	free_trace(&t);
	return rc;
}

/* the instruction index of an entry "N: ...", or -1 */
static long entry_insn(const char *e)
{
	size_t k = insn_prefix(e);
	return k ? strtol(e, NULL, 10) : -1;
}

static bool is_safe(const char *e)
{
	size_t l = strlen(e);
	return l >= 4 && !strcmp(e + l - 4, "safe");
}

/* "N: (op) ..." with a conditional jump's opcode: class JMP or JMP32
 * (low three bits 5 or 6), operation neither JA (0x0), CALL (0x8) nor
 * EXIT (0x9) */
static bool is_cond_jump(const char *e)
{
	size_t k = insn_prefix(e);
	if (!k || e[k] != '(')
		return false;
	unsigned op = (unsigned)strtoul(e + k + 1, NULL, 16);
	unsigned cls = op & 7, code = op >> 4;
	return (cls == 5 || cls == 6) && code != 0 && code != 8 && code != 9;
}

const char *rb_ktrace_mechanism(const struct rb_ktrace_part *p)
{
	if (p->index < 0)
		return "checkpoints";
	if (!strcmp(p->b, "(end)"))
		return p->index == 0 ? "rejects_upfront" : "stops_earlier";
	if (!strcmp(p->a, "(end)"))
		return p->index == 0 ? "explores_now" : "stops_later";
	bool sa = is_safe(p->a), sb = is_safe(p->b);
	if (sb && !sa)
		return "prune_earlier";
	if (sa && !sb)
		return "prune_later";
	long ia = entry_insn(p->a), ib = entry_insn(p->b);
	if (ia >= 0 && ia == ib) {
		size_t k = insn_prefix(p->b);
		return is_cond_jump(p->a) && !strncmp(p->b + k, "(05)", 4) ? "const_fold" : "insn_rewrite";
	}
	if (!strncmp(p->a, "from ", 5) || !strncmp(p->b, "from ", 5))
		return "path_ends";
	if (ia >= 0 && ib >= 0 && is_cond_jump(p->common))
		return "branch";
	return "other";
}

bool rb_ktrace_beyond_head(const struct rb_ktrace_part *p, bool cut_a, bool cut_b)
{
	if (p->index < 0)
		return cut_a || cut_b;
	return (cut_a && !strcmp(p->a, "(end)")) || (cut_b && !strcmp(p->b, "(end)"));
}
