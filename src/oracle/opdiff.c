/* opdiff.c — the userspace tracker against the running kernel on random
 * short programs (see opdiff.h). The kernel is Linux 6.18 here; the
 * tracker under test is expected to follow it exactly. */
#include "oracle/opdiff.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/bpf_sys.h"
#include "oracle/kload.h"
#include "oracle/opgen.h"
#include "oracle/replay.h"
#include "oracle/vlog.h"
#include "tracker/tracker.h"
#include "util/array_size.h"

/* the tracker's text in the kernel's normal form: without "scalar(...)" */
static void tracker_text(const struct rb_tracker *t, const rb_val *v, char *buf, size_t len)
{
	char tmp[400];
	tmp[0] = 0;
	t->print(v, tmp, sizeof(tmp));
	const char *s = tmp;
	size_t n = strlen(s);
	if (n && s[0] == 'P')
		s++, n--;
	if (n >= 8 && !strncmp(s, "scalar(", 7) && s[n - 1] == ')')
		s += 7, n -= 8;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}

/* names of the bounds fields that differ, "" if none */
static void bounds_diff(const struct rb_bounds *k, const struct rb_bounds *t, char *buf, size_t len)
{
	buf[0] = 0;
	size_t o = 0;
#define F(cond, name)                                                                      \
	if (cond)                                                                          \
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "," : "", name)
	F(k->smin != t->smin, "smin");
	F(k->smax != t->smax, "smax");
	F(k->umin != t->umin, "umin");
	F(k->umax != t->umax, "umax");
	F((int32_t)k->s32_min != (int32_t)t->s32_min, "smin32");
	F((int32_t)k->s32_max != (int32_t)t->s32_max, "smax32");
	F((uint32_t)k->u32_min != (uint32_t)t->u32_min, "umin32");
	F((uint32_t)k->u32_max != (uint32_t)t->u32_max, "umax32");
	F(k->var_off.value != t->var_off.value || k->var_off.mask != t->var_off.mask, "var_off");
#undef F
}

static void add_cat(struct rb_opdiff_stats *st, const char *key, uint64_t case_idx)
{
	for (unsigned i = 0; i < st->ncats; i++)
		if (!strcmp(st->cats[i].key, key)) {
			st->cats[i].count++;
			return;
		}
	if (st->ncats >= RB_OPDIFF_MAX_CATS) {
		st->uncategorised++;
		return;
	}
	struct rb_opdiff_cat *c = &st->cats[st->ncats++];
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->count = 1;
	c->first_case = case_idx;
}

struct case_ctx {
	const struct rb_opdiff_opts *o;
	struct rb_opdiff_stats *st;
	const struct rb_tracker *t;
	const struct rb_opgen_case *c;
	uint64_t idx;
	unsigned found; /* mismatches in this case */
	/* each mismatch's position (insn; the jump for a taken state) and
	 * category, so that only the earliest ones count as root causes */
	struct {
		int pos;
		char key[256];
	} recs[32];
	unsigned nrecs;
	char details[4096];
	size_t dlen;
};

__attribute__((format(printf, 2, 3))) static void detail(struct case_ctx *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (x->dlen < sizeof(x->details)) {
		int n = vsnprintf(x->details + x->dlen, sizeof(x->details) - x->dlen, fmt, ap);
		if (n > 0)
			x->dlen += (size_t)n;
	}
	va_end(ap);
}

static void record(struct case_ctx *x, int pos, const char *key)
{
	x->found++;
	x->st->mismatches++;
	if (x->nrecs < ARRAY_SIZE(x->recs)) {
		x->recs[x->nrecs].pos = pos;
		snprintf(x->recs[x->nrecs].key, sizeof(x->recs[0].key), "%s", key);
		x->nrecs++;
	}
}

/* categories from the mismatches at the earliest position of a case; the
 * later ones usually follow from it */
static void categorise(struct case_ctx *x)
{
	int min = -1;
	for (unsigned i = 0; i < x->nrecs; i++)
		if (min < 0 || x->recs[i].pos < min)
			min = x->recs[i].pos;
	for (unsigned i = 0; i < x->nrecs; i++) {
		if (x->recs[i].pos == min)
			add_cat(x->st, x->recs[i].key, x->idx);
		else
			x->st->downstream++;
	}
	x->st->downstream += x->found - x->nrecs;
}

static const char *where(const struct case_ctx *x, int insn)
{
	return (unsigned)insn == x->c->op_insn ? "op" : "setup";
}

static void compare_reg(struct case_ctx *x, const struct rb_vlog_state *ks,
			const struct rb_replay_event *re, unsigned regno)
{
	const struct rb_vlog_reg *kr = rb_vlog_state_reg(ks, regno);
	if (!kr || !kr->scalar)
		return;
	struct rb_opdiff_stats *st = x->st;
	int at = ks->kind == RB_VLOG_BRANCH ? ks->from : ks->insn;
	char opname[48], key[256], ttext[320] = "", diff[96] = "";
	rb_opgen_describe(&x->c->insns[at], opname, sizeof(opname));
	const struct bpf_insn *ai = &x->c->insns[at];
	bool cond = (BPF_CLASS(ai->code) == BPF_JMP || BPF_CLASS(ai->code) == BPF_JMP32) &&
		    BPF_OP(ai->code) != BPF_CALL && BPF_OP(ai->code) != BPF_JA && BPF_OP(ai->code) != BPF_EXIT;
	const char *side = ks->kind == RB_VLOG_BRANCH ? " taken" : cond ? " fall-through" : "";
	st->regs++;
	if (!(re->scalar & (1u << regno))) {
		snprintf(diff, sizeof(diff), "no tracker value");
	} else {
		struct rb_bounds tb;
		x->t->bounds(&re->regs[regno], &tb);
		tracker_text(x->t, &re->regs[regno], ttext, sizeof(ttext));
		if (kr->is_const) {
			/* The kernel prints a scalar whose var_off is constant as that
			 * constant, whatever its ranges say (they can be unbounded
			 * after a REG INVARIANTS VIOLATION reset): only var_off and
			 * the text can be compared. */
			if (kr->b.var_off.value != tb.var_off.value || kr->b.var_off.mask != tb.var_off.mask)
				snprintf(diff, sizeof(diff), "var_off");
		} else {
			bounds_diff(&kr->b, &tb, diff, sizeof(diff));
		}
		if (!diff[0]) {
			if (!strcmp(ttext, kr->text))
				return;
			snprintf(diff, sizeof(diff), "print only");
			st->print_only++;
		}
	}
	snprintf(key, sizeof(key), "%s %s%s: %s", where(x, at), opname, side, diff);
	record(x, at, key);
	detail(x, "  insn %d%s (%s %s) R%u differs in %s\n      kernel: %s\n      %-6s: %s\n", at, side,
	       where(x, at), opname, regno, diff, kr->text, x->t->name, ttext);
}

static const char *br_name(int b)
{
	return b == RB_BR_ALWAYS ? "always" : b == RB_BR_NEVER ? "never" : "both";
}

static void compare_case(struct case_ctx *x, const struct rb_vlog *kv, const struct rb_replay *rp)
{
	struct rb_opdiff_stats *st = x->st;
	/* register states */
	for (size_t i = 0; i < kv->nstates; i++) {
		const struct rb_vlog_state *ks = &kv->states[i];
		if (ks->kind == RB_VLOG_ENTRY || ks->safe)
			continue;
		if (ks->kind == RB_VLOG_AFTER && ((size_t)ks->insn >= kv->nvisits || kv->visits[ks->insn] != 1))
			continue; /* the shared exit block: ambiguous, and touches r0 only */
		if (ks->kind == RB_VLOG_AFTER && (unsigned)ks->insn < RB_OPGEN_MAX_INSNS &&
		    BPF_CLASS(x->c->insns[ks->insn].code) == BPF_JMP &&
		    BPF_OP(x->c->insns[ks->insn].code) == BPF_CALL)
			continue;
		const struct rb_replay_event *re = rb_replay_find(rp, ks->kind, ks->insn, ks->from);
		if (!re)
			continue; /* not reached by the tracker: reported as a jump outcome */
		st->states++;
		compare_reg(x, ks, re, 6);
		compare_reg(x, ks, re, 7);
	}
	/* jump outcomes */
	for (unsigned j = 0; j < x->c->insn_cnt; j++) {
		const struct bpf_insn *in = &x->c->insns[j];
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
		if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_JA || op == BPF_CALL || op == BPF_EXIT)
			continue;
		bool kvis = j < kv->nvisits && kv->visits[j] > 0;
		const struct rb_replay_jump *rj = rb_replay_jump_at(rp, (int)j);
		char opname[48], key[256];
		rb_opgen_describe(in, opname, sizeof(opname));
		if (!kvis && !rj)
			continue;
		st->branches++;
		if (kvis != (rj != NULL)) {
			snprintf(key, sizeof(key), "%s %s reached by %s only", where(x, (int)j), opname,
				 kvis ? "the kernel" : x->t->name);
			record(x, (int)j, key);
			detail(x, "  insn %u (%s %s) reached by %s only\n", j, where(x, (int)j), opname,
			       kvis ? "the kernel" : x->t->name);
			break; /* what follows differs as a consequence */
		}
		bool ft = j + 1 < kv->nvisits && kv->visits[j + 1] > 0;
		bool tk = false;
		for (size_t i = 0; i < kv->nstates; i++)
			if (kv->states[i].kind == RB_VLOG_BRANCH && kv->states[i].from == (int)j)
				tk = true;
		int kb = !ft ? RB_BR_ALWAYS : tk ? RB_BR_UNKNOWN : RB_BR_NEVER;
		int tb = rj->taken;
		if (tb == RB_BR_UNKNOWN && rj->true_impossible && !rj->false_impossible)
			tb = RB_BR_NEVER;
		else if (tb == RB_BR_UNKNOWN && rj->false_impossible && !rj->true_impossible)
			tb = RB_BR_ALWAYS;
		if (kb == tb)
			continue;
		snprintf(key, sizeof(key), "%s %s outcome: kernel %s, %s %s%s", where(x, (int)j), opname,
			 br_name(kb), x->t->name, br_name(tb),
			 rj->taken == RB_BR_UNKNOWN && tb != RB_BR_UNKNOWN ? " (refine found one side empty)" : "");
		record(x, (int)j, key);
		detail(x, "  insn %u (%s %s) outcomes: kernel explores %s, %s %s\n", j, where(x, (int)j), opname,
		       br_name(kb), x->t->name, br_name(tb));
	}
}

int rb_opdiff_run(const struct rb_opdiff_opts *o, struct rb_opdiff_stats *st, struct rb_err *err)
{
	memset(st, 0, sizeof(*st));
	const struct rb_tracker *t = o->impl ? o->impl : rb_tracker_get(o->tracker ? o->tracker : "old", 64);
	if (!t)
		return rb_errf(err, "opdiff: no tracker named '%s'", o->tracker ? o->tracker : "old");
	const char *why = NULL;
	if (!rb_bpf_available(&why)) {
		st->skipped = true;
		snprintf(st->skip_reason, sizeof(st->skip_reason), "%s", why ? why : "bpf() unavailable");
		return 0;
	}
	struct rb_opgen_case *c = malloc(sizeof(*c));
	struct rb_replay *rp = malloc(sizeof(*rp));
	struct case_ctx *x = malloc(sizeof(*x));
	struct rb_klog log = {0};
	int rc = 0;
	if (!c || !rp || !x) {
		rc = rb_errf(err, "opdiff: out of memory");
		goto out;
	}
	unsigned shown = 0;
	for (uint64_t k = o->first; k < o->first + o->cases; k++) {
		rb_opgen_case(o->seed, k, c);
		st->cases++;
		struct rb_kload_args a = {
			.prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
			.insns = c->insns,
			.insn_cnt = c->insn_cnt,
			.prog_btf_fd = -1,
			.log_level = RB_LOG_LEVEL2 | RB_LOG_STATS,
		};
		int serr = 0;
		int fd = rb_kload_raw(&a, &log, &serr);
		const char *ktext = log.buf ? log.buf : "";
		if (strstr(ktext, "INVARIANTS VIOLATION"))
			st->invariant_violations++;
		if (fd < 0) {
			st->rejected++;
			if (o->out && (o->verbose || st->rejected <= 3)) {
				struct rb_vlog v;
				const char *msg = "";
				bool ok = rb_vlog_parse(ktext, &v, NULL) == 0;
				if (ok)
					msg = v.last_msg;
				fprintf(o->out, "case %llu (%s): the kernel rejected it (%s): %s\n", (unsigned long long)k,
					c->what, strerror(serr), msg);
				if (ok)
					rb_vlog_free(&v);
				rb_vlog_print_listing(o->out, ktext, false);
			}
			continue;
		}
		close(fd);
		struct rb_vlog kv;
		if (rb_vlog_parse(ktext, &kv, err) < 0) {
			rc = -1;
			goto out;
		}
		struct rb_err rerr;
		if (rb_replay_run(t, c->insns, c->insn_cnt, rp, &rerr) < 0) {
			st->unreplayable++;
			if (o->out && (o->verbose || st->unreplayable <= 3))
				fprintf(o->out, "case %llu (%s): cannot replay: %s\n", (unsigned long long)k, c->what, rerr.msg);
			rb_vlog_free(&kv);
			continue;
		}
		memset(x, 0, sizeof(*x));
		x->o = o;
		x->st = st;
		x->t = t;
		x->c = c;
		x->idx = k;
		compare_case(x, &kv, rp);
		categorise(x);
		rb_vlog_free(&kv);
		if (x->found)
			st->cases_mismatching++;
		if (o->out && ((x->found && shown < o->show) || o->verbose)) {
			if (x->found)
				shown++;
			fprintf(o->out, "case %llu (seed %llu, %s): %u difference%s\n", (unsigned long long)k,
				(unsigned long long)o->seed, c->what, x->found, x->found == 1 ? "" : "s");
			{
				rb_vlog_print_listing(o->out, ktext, false);
				fputs(x->details, o->out);
				if (o->print_log)
					fprintf(o->out, "  kernel log:\n%s\n", ktext);
			}
		}
	}
out:
	rb_klog_free(&log);
	free(c);
	free(rp);
	free(x);
	return rc;
}
