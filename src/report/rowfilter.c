/* rowfilter.c — veristat's filters and sort specs on the metric registry
 * (rowfilter.h). The operators, the '!' deny prefix, the |KEY| absolute
 * value, the _a/_b/_diff/_pct variants (bare = _b) and the '^'/'v' sort
 * orders follow veristat.c of Linux 7.2 (append_filter, parse_stat,
 * is_join_stat_filter_matched), reimplemented. */
#include "report/rowfilter.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"
#include "util/filter.h"
#include "util/array_size.h"

static const struct {
	const char *s;
	enum rb_rf_op op;
} ops[] = {{"==", RB_RF_EQ}, {"!=", RB_RF_NE}, {"<>", RB_RF_NE}, {"<=", RB_RF_LE},
	   {"<", RB_RF_LT},  {">=", RB_RF_GE}, {">", RB_RF_GT},  {"=", RB_RF_EQ}};

static const struct {
	const char *name;
	enum rb_rf_key key;
} str_keys[] = {{"verdict", RB_RF_VERDICT}, {"source", RB_RF_SOURCE}, {"file", RB_RF_FILE},
		{"file_name", RB_RF_FILE},  {"prog", RB_RF_PROG},     {"prog_name", RB_RF_PROG},
		{"error", RB_RF_ERROR},     {"name", RB_RF_NAME}};

/* a metric by CLI name, results column or veristat column name */
static int metric_lookup(const char *name)
{
	int m = rb_metric_parse(name);
	for (int i = 0; m < 0 && i < RB_METRIC_COUNT; i++)
		if (!strcmp(name, rb_metrics[i].column) || (rb_metrics[i].vcsv && !strcmp(name, rb_metrics[i].vcsv)))
			m = i;
	return m;
}

/* KEY (with |..| and a variant suffix) into t; false when unknown */
static bool parse_key(const char *name, size_t len, bool two_sides, bool sort, struct rb_rf_term *t)
{
	char buf[96];
	if (len >= sizeof(buf) || !len)
		return false;
	memcpy(buf, name, len);
	buf[len] = 0;
	char *k = buf;
	if (len > 2 && k[0] == '|' && k[len - 1] == '|') {
		t->abs = true;
		k[len - 1] = 0;
		k++;
	}
	static const char *const sfx[] = {"_a", "_b", "_diff", "_pct"};
	int var = -1;
	int m = metric_lookup(k);
	bool str = false;
	for (size_t i = 0; m < 0 && i < ARRAY_SIZE(str_keys); i++)
		if (!strcmp(k, str_keys[i].name)) {
			t->key = str_keys[i].key;
			str = true;
		}
	if (m < 0 && !str) {
		char *us = strrchr(k, '_');
		for (int i = 0; us && i < 4 && var < 0; i++)
			if (!strcmp(us, sfx[i]))
				var = i;
		if (var < 0)
			return false;
		*us = 0;
		m = metric_lookup(k);
		for (size_t i = 0; m < 0 && i < ARRAY_SIZE(str_keys); i++)
			if (!strcmp(k, str_keys[i].name) && (str_keys[i].key == RB_RF_VERDICT || str_keys[i].key == RB_RF_ERROR) &&
			    var <= RB_RF_B) {
				t->key = str_keys[i].key;
				str = true;
			}
		if ((m < 0 && !str) || !two_sides)
			return false;
	}
	if (!str) {
		t->key = RB_RF_METRIC;
		t->metric = m;
	}
	/* bare: the candidate (veristat), sorted by the difference */
	t->var = var >= 0 ? (enum rb_rf_var)var : !two_sides ? RB_RF_A : sort && !str ? RB_RF_DIFF : RB_RF_B;
	return true;
}

int rb_rowfilter_add(struct rb_rowfilter *f, const char *expr, bool two_sides, struct rb_err *err)
{
	if (f->n == RB_RF_MAX)
		return rb_errf(err, "at most %d filters", RB_RF_MAX);
	struct rb_rf_term *t = &f->t[f->n];
	memset(t, 0, sizeof(*t));
	const char *e = expr;
	if (*e == '!') {
		t->deny = true;
		e++;
	}
	const char *at = strpbrk(e, "=!<>");
	if (!at) {
		if (!*e)
			return rb_errf(err, "filter '%s': empty", expr);
		t->key = RB_RF_GLOB;
		snprintf(t->str, sizeof(t->str), "%s", e);
		f->n++;
		return 0;
	}
	size_t i = 0;
	while (i < ARRAY_SIZE(ops) && strncmp(at, ops[i].s, strlen(ops[i].s)))
		i++;
	if (i == ARRAY_SIZE(ops))
		return rb_errf(err, "filter '%s': no operator at '%s' (=, ==, !=, <>, <, <=, >, >=)", expr, at);
	const char *val = at + strlen(ops[i].s);
	size_t klen = (size_t)(at - e);
	while (klen && e[klen - 1] == ' ')
		klen--;
	while (*val == ' ')
		val++;
	if (!klen || !*val)
		return rb_errf(err, "filter '%s': KEY OP VALUE wants a key and a value", expr);
	t->op = ops[i].op;
	if (!parse_key(e, klen, two_sides, false, t))
		return rb_errf(err, "filter '%s': unknown key '%.*s' (a metric%s, or verdict, source, file, prog, error)",
			       expr, (int)klen, e, two_sides ? " with _a, _b, _diff or _pct" : "");
	if (t->key == RB_RF_METRIC) {
		char *end;
		t->num = strtod(val, &end);
		if (end == val || *end)
			return rb_errf(err, "filter '%s': '%s' is not a number", expr, val);
	} else {
		if (t->op != RB_RF_EQ && t->op != RB_RF_NE)
			return rb_errf(err, "filter '%s': %.*s takes = or != (a glob), not '%s'", expr, (int)klen, e, ops[i].s);
		if (t->key == RB_RF_VERDICT && !strpbrk(val, "*?[") && rb_verdict_parse(val) < 0)
			return rb_errf(err, "filter '%s': unknown verdict '%s' (success, failure, unsupported, refused, "
					    "unavailable, limit, load_error, engine_bug)", expr, val);
		snprintf(t->str, sizeof(t->str), "%s", val);
	}
	f->n++;
	return 0;
}

double rb_rf_pct(double a, double b)
{
	if (a == b)
		return 0;
	if (a == 0)
		return b > 0 ? INFINITY : -INFINITY;
	return 100.0 * (b - a) / a;
}

/* t's number in r; false when a side it needs is missing */
static bool num_of(const struct rb_rf_term *t, const struct rb_rf_row *r, double *out)
{
	int m = t->metric;
	if (r->nsides == 1 || t->var == RB_RF_A || t->var == RB_RF_B) {
		int s = r->nsides == 1 ? 0 : (int)t->var;
		if (!r->present[s])
			return false;
		*out = r->v[s][m];
	} else {
		if (!r->present[0] || !r->present[1])
			return false;
		*out = t->var == RB_RF_DIFF ? r->v[1][m] - r->v[0][m] : rb_rf_pct(r->v[0][m], r->v[1][m]);
	}
	if (t->abs)
		*out = fabs(*out);
	return true;
}

/* t's text in r (NULL: missing side) */
static const char *str_of(const struct rb_rf_term *t, const struct rb_rf_row *r)
{
	int s = r->nsides == 1 || t->var == RB_RF_A ? 0 : 1;
	switch (t->key) {
	case RB_RF_VERDICT: return r->present[s] ? r->verdict[s] : NULL;
	case RB_RF_ERROR: return r->present[s] ? (r->error[s] ? r->error[s] : "") : NULL;
	case RB_RF_SOURCE: return r->source ? r->source : "";
	case RB_RF_FILE: return r->file;
	default: return r->prog;
	}
}

static bool term_match(const struct rb_rf_term *t, const struct rb_rf_row *r)
{
	if (t->key == RB_RF_GLOB)
		return rb_filter_match(t->str, r->file, r->prog);
	if (t->key != RB_RF_METRIC) {
		const char *s = str_of(t, r);
		bool eq = s && fnmatch(t->str, s, 0) == 0;
		return t->op == RB_RF_EQ ? eq : s && !eq;
	}
	static const double eps = 1e-9;
	double v, x = t->num;
	if (!num_of(t, r, &v))
		return false;
	switch (t->op) {
	case RB_RF_EQ: return v > x - eps && v < x + eps;
	case RB_RF_NE: return v < x - eps || v > x + eps;
	case RB_RF_LT: return v < x - eps;
	case RB_RF_LE: return v <= x + eps;
	case RB_RF_GT: return v > x + eps;
	default: return v >= x - eps;
	}
}

bool rb_rowfilter_match(const struct rb_rowfilter *f, const struct rb_rf_row *r)
{
	bool any[2] = {false, false}, hit[2] = {false, false};
	for (int i = 0; i < f->n; i++) {
		const struct rb_rf_term *t = &f->t[i];
		bool m = term_match(t, r);
		if (t->deny) {
			if (m)
				return false;
			continue;
		}
		int kind = t->key != RB_RF_GLOB;
		any[kind] = true;
		hit[kind] |= m;
	}
	return (!any[0] || hit[0]) && (!any[1] || hit[1]);
}

int rb_sortspec_parse(struct rb_sortspec *s, const char *spec, bool two_sides, struct rb_err *err)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", spec);
	s->n = 0;
	char *save = NULL;
	for (char *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		if (s->n == (int)(ARRAY_SIZE(s->k)))
			return rb_errf(err, "sort '%s': at most %zu keys", spec, ARRAY_SIZE(s->k));
		struct rb_rf_term *t = &s->k[s->n];
		memset(t, 0, sizeof(*t));
		size_t len = strlen(k);
		int order = 0; /* 1 ascending, -1 descending, 0 the key's default */
		if (len > 1 && (k[len - 1] == '^' || strchr("vV.!_", k[len - 1]))) {
			order = k[len - 1] == '^' ? 1 : -1;
			len--;
		}
		if (!parse_key(k, len, two_sides, true, t) || t->key == RB_RF_ERROR)
			return rb_errf(err, "sort '%s': unknown key '%.*s' (name, source, verdict, or a metric%s)", spec,
				       (int)len, k, two_sides ? " with _a, _b, _diff or _pct" : "");
		/* compare's differences sort by magnitude */
		if (t->key == RB_RF_METRIC && two_sides && (t->var == RB_RF_DIFF || t->var == RB_RF_PCT))
			t->abs = true;
		bool num = t->key == RB_RF_METRIC || (t->key == RB_RF_VERDICT && two_sides && !strchr(k, '_'));
		t->op = order > 0 || (!order && !num) ? RB_RF_LT : RB_RF_GT;
		/* verdict without a variant in compare: changed verdicts first */
		if (t->key == RB_RF_VERDICT && num)
			t->var = RB_RF_DIFF;
		s->n++;
	}
	if (!s->n)
		return rb_errf(err, "sort: no key");
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int rb_sortspec_cmp(const struct rb_sortspec *s, const struct rb_rf_row *x, const struct rb_rf_row *y)
{
	for (int i = 0; i < s->n; i++) {
		const struct rb_rf_term *t = &s->k[i];
		int c = 0, dir = t->op == RB_RF_LT ? 1 : -1;
		if (t->key == RB_RF_NAME) {
			c = cmp_str(x->file, y->file);
			c = c ? c : cmp_str(x->prog, y->prog);
		} else if (t->key == RB_RF_VERDICT && t->var == RB_RF_DIFF) {
			bool cx = x->present[0] && x->present[1] && cmp_str(x->verdict[0], x->verdict[1]);
			bool cy = y->present[0] && y->present[1] && cmp_str(y->verdict[0], y->verdict[1]);
			c = cx == cy ? 0 : cx ? 1 : -1;
		} else if (t->key != RB_RF_METRIC) {
			c = cmp_str(str_of(t, x), str_of(t, y));
		} else {
			double a, b;
			bool ha = num_of(t, x, &a), hb = num_of(t, y, &b);
			if (ha != hb)
				return ha ? -1 : 1; /* a missing side last, in either order */
			c = !ha || a == b ? 0 : a < b ? -1 : 1;
		}
		if (c)
			return c * dir;
	}
	int c = cmp_str(x->file, y->file);
	return c ? c : cmp_str(x->prog, y->prog);
}
