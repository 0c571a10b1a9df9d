/* switches.c — rb_explain_switches(): a profile step's change attributed
 * to the profile switches that make it (see switches.h). */
#include "explain/switches.h"

#include <string.h>

#include "engine/profile.h"
#include "verify/verify.h"

#define MAX_SWITCHES 64

struct sw_ctx {
	const struct rb_object *obj;
	size_t idx;
	const struct rb_explain_opts *o;
	char tracker[64];
	const struct rb_profile *p[2];
	struct rb_switch_cause *out;
	size_t diff[MAX_SWITCHES]; /* the switches that differ */
	int ndiff;
};

bool rb_switch_cause_ok(const struct rb_switch_cause *c)
{
	return c->profile_step && c->nswitch > 0 && c->sufficient && c->necessary;
}

static bool same_figures(const struct rb_result *a, const struct rb_result *b)
{
	return a->verdict == b->verdict && a->insns_processed == b->insns_processed &&
	       a->total_states == b->total_states;
}

/* the engine with the context's tracker under profile p */
static int run(struct sw_ctx *c, const struct rb_profile *p, struct rb_result *res, struct rb_err *err)
{
	struct rb_verify_opts vo = {.tracker = c->tracker,
				    .insn_limit = c->o->insn_limit,
				    .time_limit_s = c->o->time_limit_s,
				    .vmlinux = c->o->vmlinux,
				    .helpers = c->o->helpers,
				    .profile = p};
	c->out->runs++;
	return rb_verify(c->obj, c->idx, &vo, res, err);
}

/* profile `from` with the switches of set (indexes into c->diff, one flag
 * each) taken from profile `to` */
static void build(const struct sw_ctx *c, int from, const bool *set, struct rb_profile *p)
{
	*p = *c->p[from];
	for (int i = 0; i < c->ndiff; i++)
		if (set[i])
			rb_profile_switch_copy(p, c->p[!from], c->diff[i]);
}

/* profile `from` with set turned as in the other profile gives the other
 * side's figures (into res) */
static int gives_other(struct sw_ctx *c, int from, const bool *set, struct rb_result *res, bool *yes,
		       struct rb_err *err)
{
	struct rb_profile p;
	build(c, from, set, &p);
	if (run(c, &p, res, err) < 0)
		return -1;
	*yes = same_figures(res, &c->out->res[!from]);
	return 0;
}

static void name_set(struct sw_ctx *c, const bool *set)
{
	struct rb_switch_cause *out = c->out;
	size_t n = 0;
	out->names[0] = 0;
	out->nswitch = 0;
	for (int i = 0; i < c->ndiff; i++) {
		if (!set[i])
			continue;
		int k = snprintf(out->names + n, sizeof(out->names) - n, "%s%s", out->nswitch ? "+" : "",
				 rb_profile_switch_name(c->diff[i]));
		n += k > 0 && (size_t)k < sizeof(out->names) - n ? (size_t)k : 0;
		out->nswitch++;
	}
}

/* one switch both sufficient and necessary; true when found */
static int singles(struct sw_ctx *c, bool *found, struct rb_err *err)
{
	bool set[MAX_SWITCHES] = {0};
	for (int i = 0; i < c->ndiff && !*found; i++) {
		set[i] = true;
		bool suff = false, nec = false;
		if (gives_other(c, 0, set, &c->out->with, &suff, err) < 0)
			return -1;
		if (suff && gives_other(c, 1, set, &c->out->without, &nec, err) < 0)
			return -1;
		if (suff && nec) {
			*found = true;
			c->out->sufficient = c->out->necessary = true;
			name_set(c, set);
		}
		set[i] = false;
	}
	return 0;
}

/* the smallest set found by dropping switches one at a time from all of
 * them while profile `from` with the rest still gives the other side's
 * figures; false in *found when all of them together do not (the
 * profiles then differ in something no switch names) */
static int minimal(struct sw_ctx *c, int from, bool *set, bool *found, struct rb_err *err)
{
	struct rb_result r;
	for (int i = 0; i < c->ndiff; i++)
		set[i] = true;
	if (gives_other(c, from, set, &r, found, err) < 0 || !*found)
		return 0;
	for (int i = 0; i < c->ndiff; i++) {
		set[i] = false;
		bool still = false;
		if (gives_other(c, from, set, &r, &still, err) < 0)
			return -1;
		set[i] = !still;
	}
	return 0;
}

/* the last resort when the sets above fail (two sets of switches each
 * enough on its own, so turning one back leaves the change): from all the
 * switches that differ, drop one at a time while the rest are still both
 * sufficient (A with them gives B's figures) and necessary (B without
 * them gives A's); nothing named when all of them together are not */
static int both(struct sw_ctx *c, struct rb_err *err)
{
	bool set[MAX_SWITCHES];
	struct rb_result with, without;
	bool s = false, n = false;
	for (int i = 0; i < c->ndiff; i++)
		set[i] = true;
	if (gives_other(c, 0, set, &with, &s, err) < 0 || gives_other(c, 1, set, &without, &n, err) < 0)
		return -1;
	if (!s || !n)
		return 0;
	for (int i = 0; i < c->ndiff; i++) {
		set[i] = false;
		struct rb_result w, wo;
		bool s2 = false, n2 = false;
		if (gives_other(c, 0, set, &w, &s2, err) < 0 || (s2 && gives_other(c, 1, set, &wo, &n2, err) < 0))
			return -1;
		if (s2 && n2) {
			with = w;
			without = wo;
		} else {
			set[i] = true;
		}
	}
	name_set(c, set);
	c->out->with = with;
	c->out->without = without;
	c->out->sufficient = c->out->necessary = true;
	return 0;
}

/* no single switch: the smallest set that makes A into B, and when
 * turning it back in B does not give A's figures (switches that act only
 * together: a frame limit that matters only once recursion is explored),
 * its union with the smallest set that makes B into A */
static int switch_set(struct sw_ctx *c, struct rb_err *err)
{
	struct rb_switch_cause *out = c->out;
	bool suff[MAX_SWITCHES], nec[MAX_SWITCHES], found = false;
	if (minimal(c, 0, suff, &found, err) < 0 || !found)
		return 0;
	out->sufficient = true;
	name_set(c, suff);
	if (gives_other(c, 0, suff, &out->with, &found, err) < 0 ||
	    gives_other(c, 1, suff, &out->without, &out->necessary, err) < 0 || out->necessary)
		return 0;
	if (minimal(c, 1, nec, &found, err) < 0 || !found)
		return 0;
	for (int i = 0; i < c->ndiff; i++)
		nec[i] = nec[i] || suff[i];
	bool s = false, n = false;
	struct rb_result with, without;
	if (gives_other(c, 0, nec, &with, &s, err) < 0 || gives_other(c, 1, nec, &without, &n, err) < 0)
		return -1;
	if (s && n) {
		name_set(c, nec);
		out->with = with;
		out->without = without;
		out->necessary = true;
		return 0;
	}
	return both(c, err);
}

int rb_explain_switches(const struct rb_object *obj, size_t idx, const struct rb_explain_opts *o, const char *a,
			const char *b, struct rb_switch_cause *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	struct sw_ctx c = {.obj = obj, .idx = idx, .o = o, .out = out};
	char other[64];
	c.p[0] = rb_profile_split(a, c.tracker, sizeof(c.tracker));
	c.p[1] = rb_profile_split(b, other, sizeof(other));
	if (!c.p[0] || !c.p[1] || c.p[0] == c.p[1] || strcmp(c.tracker, other))
		return 0;
	for (size_t i = 0; i < rb_profile_switch_count() && c.ndiff < MAX_SWITCHES; i++)
		if (rb_profile_switch_differs(c.p[0], c.p[1], i))
			c.diff[c.ndiff++] = i;
	out->profile_step = true;
	out->ndiffer = c.ndiff;
	for (int s = 0; s < 2; s++)
		if (run(&c, c.p[s], &out->res[s], err) < 0)
			return -1;
	if (same_figures(&out->res[0], &out->res[1]))
		return 0; /* nothing to attribute */
	bool found = false;
	if (singles(&c, &found, err) < 0)
		return -1;
	return found ? 0 : switch_set(&c, err);
}

static void fig(const struct rb_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %llu/%llu", rb_verdict_name(r->verdict), (unsigned long long)r->insns_processed,
		 (unsigned long long)r->total_states);
}

void rb_switch_cause_print(FILE *f, const struct rb_switch_cause *c, const char *a, const char *b)
{
	if (!c->profile_step)
		return;
	char fa[64], fb[64], fw[64], fo[64];
	fig(&c->res[0], fa, sizeof(fa));
	fig(&c->res[1], fb, sizeof(fb));
	if (!c->nswitch) {
		fprintf(f, "switches:     none of the %d that differ makes %s's %s from %s's %s (%d runs)\n", c->ndiffer,
			b, fb, a, fa, c->runs);
		return;
	}
	fig(&c->with, fw, sizeof(fw));
	fig(&c->without, fo, sizeof(fo));
	fprintf(f, "switches:     %s (of %d that differ; %d runs)\n", c->names, c->ndiffer, c->runs);
	fprintf(f, "  %s with %s: %s (%s: %s)\n", a, c->names, fw, b, c->sufficient ? "the same" : fb);
	fprintf(f, "  counterfactual: %s without %s: %s -> %s\n", b, c->names, fo,
		c->necessary ? "vanished" : "remains");
}
