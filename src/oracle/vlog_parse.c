/* vlog_parse.c — parse the running kernel's verifier log (see vlog.h).
 * Follows the log format of Linux 6.18 (kernel/bpf/log.c and the
 * printing calls of kernel/bpf/verifier.c), as measured on this machine. */
#include "oracle/vlog.h"
#include "util/grow.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool has_pfx(const char *s, size_t len, const char *pfx)
{
	size_t n = strlen(pfx);
	return len >= n && memcmp(s, pfx, n) == 0;
}

size_t rb_vlog_glued_len(const char *s, size_t len)
{
	static const char vt[] = "verification time ";
	for (size_t i = 1; i + sizeof(vt) - 1 < len; i++)
		if (s[i] == 'v' && !memcmp(s + i, vt, sizeof(vt) - 1) && isdigit((unsigned char)s[i + sizeof(vt) - 1]))
			return i;
	return len;
}

/* a number as the kernel prints it: decimal (maybe negative) or 0x-hex */
static int parse_num(const char *s, size_t len, uint64_t *out)
{
	char buf[32];
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *end;
	errno = 0;
	if (buf[0] == '-') {
		long long v = strtoll(buf, &end, 0);
		*out = (uint64_t)v;
	} else {
		if (!isdigit((unsigned char)buf[0]))
			return -1;
		unsigned long long v = strtoull(buf, &end, 0);
		*out = (uint64_t)v;
	}
	if (errno || *end)
		return -1;
	return 0;
}

static void bounds_const(struct rb_bounds *b, uint64_t v)
{
	b->umin = b->umax = v;
	b->smin = b->smax = (int64_t)v;
	b->u32_min = b->u32_max = (uint32_t)v;
	b->s32_min = b->s32_max = (int32_t)(uint32_t)v;
	b->var_off.value = v;
	b->var_off.mask = 0;
}

/* end of the item starting at s: the first `sep` outside parentheses */
static size_t item_end(const char *s, size_t len, char sep)
{
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')')
			depth--;
		else if (s[i] == sep && depth <= 0)
			return i;
	}
	return len;
}

static int set_field(struct rb_bounds *b, const char *name, size_t nlen, uint64_t v)
{
#define IS(n) (nlen == strlen(n) && memcmp(name, n, nlen) == 0)
	if (IS("smin"))
		b->smin = (int64_t)v;
	else if (IS("smax"))
		b->smax = (int64_t)v;
	else if (IS("umin"))
		b->umin = v;
	else if (IS("umax"))
		b->umax = v;
	else if (IS("smin32"))
		b->s32_min = (int32_t)(uint32_t)v;
	else if (IS("smax32"))
		b->s32_max = (int32_t)(uint32_t)v;
	else if (IS("umin32"))
		b->u32_min = (uint32_t)v;
	else if (IS("umax32"))
		b->u32_max = (uint32_t)v;
	else
		return -1;
	return 0;
#undef IS
}

/* one "a=b=c=value" or "var_off=(v; m)" item */
static int parse_item(const char *s, size_t len, struct rb_bounds *b)
{
	if (has_pfx(s, len, "var_off=(")) {
		unsigned long long v, m;
		char buf[64];
		if (len >= sizeof(buf))
			return -1;
		memcpy(buf, s, len);
		buf[len] = 0;
		if (sscanf(buf, "var_off=(%llx; %llx)", &v, &m) != 2)
			return -1;
		b->var_off.value = v;
		b->var_off.mask = m;
		return 0;
	}
	/* the value follows the last '=' */
	size_t last = len;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '=')
			last = i;
	if (last == len)
		return -1;
	uint64_t v;
	if (parse_num(s + last + 1, len - last - 1, &v))
		return -1;
	size_t p = 0;
	while (p < last) {
		size_t q = p;
		while (q < last && s[q] != '=')
			q++;
		if (set_field(b, s + p, q - p, v))
			return -1;
		p = q + 1;
	}
	return 0;
}

int rb_vlog_parse_scalar(const char *f, size_t len, struct rb_bounds *b)
{
	rb_bounds_unbounded(b);
	size_t p = 0;
	while (p < len) {
		size_t e = p + item_end(f + p, len - p, ',');
		if (e == p)
			return -1;
		if (!has_pfx(f + p, e - p, "id=") && parse_item(f + p, e - p, b))
			return -1;
		p = e + 1;
	}
	return 0;
}

int rb_vlog_parse_reg(const char *s, size_t len, struct rb_vlog_reg *r)
{
	memset(r, 0, sizeof(*r));
	if (len < 3 || s[0] != 'R' || !isdigit((unsigned char)s[1]))
		return -1;
	size_t i = 1;
	unsigned regno = 0;
	while (i < len && isdigit((unsigned char)s[i]))
		regno = regno * 10 + (unsigned)(s[i++] - '0');
	if (regno >= RB_VLOG_MAX_REGS)
		return -1;
	/* liveness suffix of older kernels: R6_rw= */
	while (i < len && s[i] != '=')
		if (!strchr("_rwD", s[i++]))
			return -1;
	if (i >= len)
		return -1;
	i++; /* '=' */
	r->regno = (uint8_t)regno;
	const char *v = s + i;
	size_t vlen = len - i;
	if (vlen > 0 && v[0] == 'P' && vlen > 1 &&
	    (isdigit((unsigned char)v[1]) || v[1] == '-' || has_pfx(v + 1, vlen - 1, "scalar("))) {
		r->precise = true;
		v++;
		vlen--;
	}
	if (has_pfx(v, vlen, "scalar(")) {
		if (v[vlen - 1] != ')')
			return -1;
		const char *f = v + 7;
		size_t flen = vlen - 8;
		r->scalar = true;
		if (rb_vlog_parse_scalar(f, flen, &r->b))
			return -1;
		/* normalized text: the items other than id= */
		size_t p = 0, o = 0;
		while (p < flen) {
			size_t e = p + item_end(f + p, flen - p, ',');
			if (has_pfx(f + p, e - p, "id=")) {
				size_t n = e - p - 3 < sizeof(r->id) - 1 ? e - p - 3 : sizeof(r->id) - 1;
				memcpy(r->id, f + p + 3, n);
				r->id[n] = 0;
			} else {
				size_t n = e - p;
				if (o + n + 2 > sizeof(r->text))
					return -1;
				if (o)
					r->text[o++] = ',';
				memcpy(r->text + o, f + p, n);
				o += n;
			}
			p = e + 1;
		}
		r->text[o] = 0;
		return 0;
	}
	if (vlen > 0 && (isdigit((unsigned char)v[0]) || v[0] == '-')) {
		uint64_t c;
		if (parse_num(v, vlen, &c))
			return -1;
		r->scalar = r->is_const = true;
		bounds_const(&r->b, c);
	}
	if (vlen >= sizeof(r->text))
		vlen = sizeof(r->text) - 1;
	memcpy(r->text, v, vlen);
	r->text[vlen] = 0;
	return 0;
}

static int push_state(struct rb_vlog *v, struct rb_err *err)
{
	if (RB_GROW(v->states, v->nstates + 1, &v->cap, 32) < 0)
		return rb_errf(err, "verifier log: out of memory");
	memset(&v->states[v->nstates], 0, sizeof(v->states[0]));
	v->states[v->nstates].from = -1;
	v->nstates++;
	return 0;
}

/* the register list of a state: tokens separated by spaces outside parens */
static int parse_regs(const char *s, size_t len, struct rb_vlog_state *st, struct rb_err *err)
{
	size_t p = 0;
	st->nregs = 0;
	while (p < len) {
		while (p < len && s[p] == ' ')
			p++;
		if (p >= len)
			break;
		size_t e = p + item_end(s + p, len - p, ' ');
		const char *t = s + p;
		size_t tl = e - p;
		if (has_pfx(t, tl, "frame") && t[tl - 1] == ':') {
			st->nregs = 0; /* keep the innermost (last printed) frame */
		} else if (tl > 1 && t[0] == 'R' && isdigit((unsigned char)t[1])) {
			if (st->nregs >= RB_VLOG_MAX_REGS)
				return rb_errf(err, "verifier log: too many registers in '%.*s'", (int)len, s);
			if (rb_vlog_parse_reg(t, tl, &st->regs[st->nregs]))
				return rb_errf(err, "verifier log: cannot parse register '%.*s'", (int)tl, t);
			st->nregs++;
		}
		/* stack slots (fp-8=...), refs=..., cb: ignored */
		p = e;
	}
	return 0;
}

static int note_visit(struct rb_vlog *v, long insn, struct rb_err *err)
{
	if (insn < 0 || insn > 10000000)
		return 0;
	if ((size_t)insn >= v->nvisits) {
		size_t n = v->nvisits ? v->nvisits : 64;
		while (n <= (size_t)insn)
			n *= 2;
		unsigned *nv = realloc(v->visits, n * sizeof(*nv));
		if (!nv)
			return rb_errf(err, "verifier log: out of memory");
		memset(nv + v->nvisits, 0, (n - v->nvisits) * sizeof(*nv));
		v->visits = nv;
		v->nvisits = n;
	}
	v->visits[insn]++;
	return 0;
}

/* the statistics lines; true if the line was one */
static bool parse_stats_line(const char *s, size_t len, struct rb_vlog_stats *st)
{
	char buf[256];
	size_t glued = rb_vlog_glued_len(s, len);
	if (glued < len) {
		/* a message without its newline: the statistics are its tail */
		parse_stats_line(s + glued, len - glued, st);
		return false;
	}
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	unsigned long long a, b, c, d, e, f;
	if (has_pfx(s, len, "processed ")) {
		int n = sscanf(buf, "processed %llu insns (limit %llu) max_states_per_insn %llu total_states %llu peak_states %llu mark_read %llu",
			       &a, &b, &c, &d, &e, &f);
		if (n >= 1) {
			st->have_processed = true;
			st->insns_processed = a;
			st->insn_limit = n >= 2 ? b : 0;
			st->max_states_per_insn = n >= 3 ? c : 0;
			st->total_states = n >= 4 ? d : 0;
			st->peak_states = n >= 5 ? e : 0;
			st->mark_read = n >= 6 ? f : 0;
			return true;
		}
	}
	if (has_pfx(s, len, "verification time ") && sscanf(buf, "verification time %llu usec", &a) == 1) {
		st->have_time = true;
		st->verify_us = a;
		return true;
	}
	/* Linux 7.2 print_verification_stats(): "insns processed N[+M...]"
	 * (instructions per global subprogram) after the stack depth */
	return has_pfx(s, len, "stack depth ") || has_pfx(s, len, "insns processed ");
}

bool rb_vlog_parse_stats(const char *log, struct rb_vlog_stats *st)
{
	memset(st, 0, sizeof(*st));
	const char *p = log;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		parse_stats_line(p, len, st);
		p += len + (nl ? 1 : 0);
	}
	return st->have_processed;
}

/* "N:" at the start of a line: returns the length of the prefix incl. ':' or 0 */
static size_t insn_prefix(const char *s, size_t len, long *n)
{
	size_t i = 0;
	long v = 0;
	while (i < len && isdigit((unsigned char)s[i]) && i < 9)
		v = v * 10 + (s[i++] - '0');
	if (i == 0 || i >= len || s[i] != ':')
		return 0;
	*n = v;
	return i + 1;
}

bool rb_vlog_is_stats_line(const char *s, size_t len)
{
	struct rb_vlog_stats st;
	memset(&st, 0, sizeof(st));
	return parse_stats_line(s, len, &st);
}

void rb_vlog_last_message(const char *log, bool partial_first, char *msg, size_t len, int *insn)
{
	long last_insn = -1;
	if (len)
		msg[0] = 0;
	*insn = -1;
	const char *p = log;
	if (partial_first) {
		/* a rotated (truncated) log starts in the middle of a line */
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	struct rb_vlog_stats st;
	memset(&st, 0, sizeof(st));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		const char *s = p;
		p += l + (nl ? 1 : 0);
		if (l == 0 || s[0] == ' ' || s[0] == '\t' || s[0] == ';' || has_pfx(s, l, "mark_precise:") ||
		    has_pfx(s, l, "Live regs before insn:") || has_pfx(s, l, "func#") || has_pfx(s, l, "from ") ||
		    /* the two states printed after "infinite loop detected" */
		    has_pfx(s, l, "cur state:") || has_pfx(s, l, "old state:") || parse_stats_line(s, l, &st))
			continue;
		long n;
		size_t pl = insn_prefix(s, l, &n);
		if (pl) {
			const char *r = s + pl;
			size_t rl = l - pl;
			while (rl && *r == ' ')
				r++, rl--;
			if (rl && r[0] == '(') {
				last_insn = n;
				continue;
			}
			if (rl == 0 || r[0] == 'R' || has_pfx(r, rl, "frame") || has_pfx(r, rl, "safe"))
				continue;
		}
		l = rb_vlog_glued_len(s, l);
		size_t ml = l < len - 1 ? l : len - 1;
		memcpy(msg, s, ml);
		msg[ml] = 0;
		*insn = (int)last_insn;
	}
}

int rb_vlog_parse(const char *log, struct rb_vlog *v, struct rb_err *err)
{
	memset(v, 0, sizeof(*v));
	v->last_msg_insn = -1;
	long last_insn = -1;      /* the last "N: (op)" line */
	bool last_insn_stated = false;
	const char *p = log;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *s = p;
		p += len + (nl ? 1 : 0);
		if (len == 0 || s[0] == ' ' || s[0] == '\t' || s[0] == ';' ||
		    has_pfx(s, len, "mark_precise:") || has_pfx(s, len, "Live regs before insn:") ||
		    has_pfx(s, len, "func#"))
			continue;
		if (parse_stats_line(s, len, &v->stats))
			continue;
		long n;
		size_t pl;
		if (has_pfx(s, len, "from ")) {
			long j = -1, t = -1;
			char buf[64];
			size_t cl = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
			memcpy(buf, s, cl);
			buf[cl] = 0;
			const char *colon = memchr(s, ':', len);
			if (colon && sscanf(buf, "from %ld to %ld", &j, &t) == 2) {
				if (push_state(v, err))
					goto fail;
				struct rb_vlog_state *st = &v->states[v->nstates - 1];
				st->kind = RB_VLOG_BRANCH;
				st->insn = (int)t;
				st->from = (int)j;
				const char *r = colon + 1;
				size_t rl = len - (size_t)(r - s);
				while (rl && *r == ' ')
					r++, rl--;
				if (has_pfx(r, rl, "safe"))
					st->safe = true;
				else if (parse_regs(r, rl, st, err))
					goto fail;
				last_insn = -1; /* a new path starts */
				continue;
			}
		}
		if ((pl = insn_prefix(s, len, &n))) {
			const char *r = s + pl;
			size_t rl = len - pl;
			while (rl && *r == ' ')
				r++, rl--;
			if (rl && r[0] == '(') {
				/* instruction line, maybe with the state after it */
				if (note_visit(v, n, err))
					goto fail;
				last_insn = n;
				last_insn_stated = false;
				const char *semi = NULL;
				for (size_t i = 0; i + 2 < rl; i++)
					if (r[i] == ' ' && r[i + 1] == ';' && r[i + 2] == ' ') {
						semi = r + i + 3;
						break;
					}
				if (semi) {
					if (push_state(v, err))
						goto fail;
					struct rb_vlog_state *st = &v->states[v->nstates - 1];
					st->kind = RB_VLOG_AFTER;
					st->insn = (int)n;
					if (parse_regs(semi, rl - (size_t)(semi - r), st, err))
						goto fail;
					last_insn_stated = true;
				}
				continue;
			}
			if (has_pfx(r, rl, "safe")) {
				if (push_state(v, err))
					goto fail;
				struct rb_vlog_state *st = &v->states[v->nstates - 1];
				st->kind = RB_VLOG_ENTRY;
				st->insn = (int)n;
				st->safe = true;
				last_insn = -1;
				continue;
			}
			if (rl == 0 || r[0] == 'R' || has_pfx(r, rl, "frame")) {
				if (push_state(v, err))
					goto fail;
				struct rb_vlog_state *st = &v->states[v->nstates - 1];
				if (n == last_insn && !last_insn_stated) {
					st->kind = RB_VLOG_AFTER;
					last_insn_stated = true;
				} else {
					st->kind = RB_VLOG_ENTRY;
				}
				st->insn = (int)n;
				if (parse_regs(r, rl, st, err))
					goto fail;
				continue;
			}
		}
		/* anything else is a message */
		len = rb_vlog_glued_len(s, len);
		size_t ml = len < sizeof(v->last_msg) - 1 ? len : sizeof(v->last_msg) - 1;
		memcpy(v->last_msg, s, ml);
		v->last_msg[ml] = 0;
		v->last_msg_insn = (int)last_insn;
	}
	return 0;
fail:
	rb_vlog_free(v);
	return -1;
}

void rb_vlog_free(struct rb_vlog *v)
{
	free(v->states);
	free(v->visits);
	v->states = NULL;
	v->visits = NULL;
	v->nstates = v->cap = v->nvisits = 0;
}

const struct rb_vlog_state *rb_vlog_find(const struct rb_vlog *v, enum rb_vlog_kind kind, int insn,
					 int from)
{
	for (size_t i = 0; i < v->nstates; i++) {
		const struct rb_vlog_state *s = &v->states[i];
		if (s->kind == kind && s->insn == insn && (kind != RB_VLOG_BRANCH || s->from == from))
			return s;
	}
	return NULL;
}

const struct rb_vlog_reg *rb_vlog_state_reg(const struct rb_vlog_state *s, unsigned regno)
{
	for (unsigned i = 0; i < s->nregs; i++)
		if (s->regs[i].regno == regno)
			return &s->regs[i];
	return NULL;
}
