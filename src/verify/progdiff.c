/* progdiff.c — random programs through the kernel and the engine (see
 * progdiff.h). Both logs go through kdiff's normalisation; lines are then
 * compared at the same index, so one extra or missing line (a fork or a
 * pruning the other side did not do) shifts everything after it and shows
 * up as a state difference as well as an instruction-count difference. */
#include "verify/row.h"
#include "verify/progdiff.h"
#include "verify/progdiff_impl.h"
#include "tracker/tracker.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/profile.h"
#include "kernels/kernels.h"
#include "oracle/kdiff.h"
#include "oracle/ktrace.h"
#include "oracle/vlog.h"
#include "oracle/bpf_sys.h"
#include "progen/progen.h"
#include "verify/verify.h"

bool rb_progdiff_differs(const struct rb_progdiff_counts *c)
{
	return c->verdict_diffs || c->message_diffs || c->insn_diffs || c->log_diffs || c->trace_diffs ||
	       c->engine_other || c->no_reference || c->states != c->states_same;
}

const char *rb_progdiff_default_tracker(const char *reference, char *buf, size_t len)
{
	const struct rb_profile *p;
	if (reference && !rb_kernel_is_running(reference) && rb_kernel_known(reference) &&
	    !strncmp(reference, "kernel-", 7) && (p = rb_profile_get(reference + 7)) && p != rb_profile_default()) {
		snprintf(buf, len, "cnum-mainline@%s", p->name);
		return buf;
	}
	return "old";
}

int rb_progdiff_summarise(const char *log, struct rb_progdiff_sum *s)
{
	memset(s, 0, sizeof(*s));
	if (rb_ktrace_digest(log, &s->trace, &s->ntrace) < 0)
		return -1;
	struct rb_kdiff_lines l;
	if (rb_kdiff_lines(log ? log : "", &l) < 0)
		return -1;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < l.n; i++) {
		if (!rb_progdiff_state_line(l.line[i]))
			continue;
		s->nstates++;
		for (const unsigned char *c = (const unsigned char *)l.line[i];; c++) {
			h = (h ^ (*c ? *c : '\n')) * 0x100000001b3ull;
			if (!*c)
				break;
		}
	}
	s->states = h;
	rb_kdiff_lines_free(&l);
	return 0;
}

void rb_progdiff_sum_format(const struct rb_progdiff_sum *s, char *out, size_t len)
{
	snprintf(out, len, "progdiff-sum trace %016" PRIx64 " %zu states %016" PRIx64 " %zu\n", s->trace, s->ntrace,
		 s->states, s->nstates);
}

int rb_progdiff_sum_parse(const char *text, struct rb_progdiff_sum *s)
{
	memset(s, 0, sizeof(*s));
	return text && sscanf(text, "progdiff-sum trace %" SCNx64 " %zu states %" SCNx64 " %zu", &s->trace, &s->ntrace,
			      &s->states, &s->nstates) == 4
		       ? 0
		       : -1;
}

/* a line carrying register/stack state: "N: (op) ... ; R1=...", "N: R1=...",
 * "from J to T: R1=..." */
bool rb_progdiff_state_line(const char *l)
{
	if (strstr(l, " ; ") || strstr(l, " ;R") || strstr(l, " ;fp"))
		return true;
	const char *p = l;
	if (!strncmp(p, "from ", 5))
		return strstr(p, ": R") != NULL || strstr(p, ": fp") != NULL;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !strncmp(p, ": R", 3) || !strncmp(p, ": fp", 4);
}

static int run_one(const struct rb_object *obj, const char *tracker, char **text, struct rb_result *res,
		   struct rb_err *err)
{
	size_t len = 0;
	*text = NULL;
	FILE *m = open_memstream(text, &len);
	if (!m)
		return rb_errf(err, "progdiff: out of memory");
	struct rb_verify_opts vo = {.tracker = tracker, .log = m};
	int rc = rb_verify(obj, 0, &vo, res, err);
	fclose(m);
	return rc;
}

void rb_progdiff_show(FILE *f, const struct rb_progen_prog *p, const char *ref, const char *tracker, const char *why,
		 const struct rb_kdiff_lines *ka, const struct rb_kdiff_lines *ea, long d, const char *ktext,
		 const struct rb_result *kr, const struct rb_result *er, bool logs)
{
	const char *fam = rb_progen_family_name(p->family);
	fprintf(f, "program %s %llu (seed %llu): %s\n", fam, (unsigned long long)p->index,
		(unsigned long long)p->seed, why);
	fprintf(f, "  reproduce: rangebench progdiff --family %s --seed %llu --first %llu --cases 1 --tracker %s%s%s\n",
		fam, (unsigned long long)p->seed, (unsigned long long)p->index, tracker,
		!rb_kernel_is_running(ref) ? " --reference " : "", !rb_kernel_is_running(ref) ? ref : "");
	fprintf(f, "  verdict %s %s / %s %s; insns %s %llu / %s %llu\n", ref, rb_verdict_name(kr->verdict),
		tracker, rb_verdict_name(er->verdict), ref, (unsigned long long)kr->insns_processed, tracker,
		(unsigned long long)er->insns_processed);
	if (kr->verdict != RB_ACCEPT || er->verdict != RB_ACCEPT)
		fprintf(f, "  message %s [insn %d] %s / %s [insn %d] %s\n", ref, kr->err_insn, kr->msg, tracker,
			er->err_insn, er->msg);
	if (d >= 0) {
		fprintf(f, "  first log difference at line %ld:\n", d);
		long from = d - 3 > 0 ? d - 3 : 0;
		for (long i = from; i < d && i < (long)ka->n; i++)
			fprintf(f, "    = %s\n", ka->line[i]);
		fprintf(f, "    %-6s: %s\n", ref, d < (long)ka->n ? ka->line[d] : "(end of log)");
		fprintf(f, "    %-6s: %s\n", tracker, d < (long)ea->n ? ea->line[d] : "(end of log)");
	}
	fprintf(f, "  program:\n");
	rb_vlog_print_listing(f, ktext, true);
	if (logs) {
		fprintf(f, "  %s log (normalised):\n", ref);
		for (size_t i = 0; i < ka->n; i++)
			fprintf(f, "    %s\n", ka->line[i]);
		fprintf(f, "  %s log (normalised):\n", tracker);
		for (size_t i = 0; i < ea->n; i++)
			fprintf(f, "    %s\n", ea->line[i]);
	}
}

void rb_progdiff_add(struct rb_progdiff_counts *t, const struct rb_progdiff_counts *c)
{
	t->trace_diffs += c->trace_diffs;
	t->no_reference += c->no_reference;
	t->programs += c->programs;
	t->kernel_accepts += c->kernel_accepts;
	t->verdict_diffs += c->verdict_diffs;
	t->message_diffs += c->message_diffs;
	t->insn_diffs += c->insn_diffs;
	t->log_diffs += c->log_diffs;
	t->states += c->states;
	t->states_same += c->states_same;
	t->engine_other += c->engine_other;
	t->ref_only += c->ref_only;
	t->tracker_only += c->tracker_only;
}

const char *rb_progdiff_classify(struct rb_progdiff_counts *c, const struct rb_result *kr,
				 const struct rb_result *er)
{
	c->programs++;
	if (kr->verdict == RB_ACCEPT)
		c->kernel_accepts++;
	const char *diff = NULL;
	/* both at the instruction limit: the same verdict (the message
	 * names no instruction of its own: not compared) */
	bool both_limit = kr->verdict == RB_LIMIT && er->verdict == RB_LIMIT;
	if (!both_limit && er->verdict != RB_ACCEPT && er->verdict != RB_REJECT) {
		c->engine_other++;
		diff = "the engine gave no verdict";
	} else if (kr->verdict != er->verdict) {
		c->verdict_diffs++;
		c->ref_only += kr->verdict == RB_ACCEPT;
		c->tracker_only += er->verdict == RB_ACCEPT;
		diff = "verdicts differ";
	} else if (kr->verdict == RB_REJECT && (kr->err_insn != er->err_insn || strcmp(kr->msg, er->msg))) {
		c->message_diffs++;
		diff = "messages differ";
	}
	if (kr->insns_processed != er->insns_processed) {
		c->insn_diffs++;
		if (!diff)
			diff = "processed instructions differ";
	}
	return diff;
}

int rb_progdiff_run(const struct rb_progdiff_opts *o, struct rb_progdiff_stats *st, struct rb_err *err)
{
	memset(st, 0, sizeof(*st));
	const char *ref = o->reference ? o->reference : RB_KERNEL_RUNNING;
	const char *tracker =
		o->tracker ? o->tracker : rb_progdiff_default_tracker(ref, st->tracker, sizeof(st->tracker));
	if (tracker != st->tracker)
		snprintf(st->tracker, sizeof(st->tracker), "%s", tracker);
	char names[384];
	rb_row_names(names, sizeof(names), ", ", false);
	if (!rb_row_known(tracker, false))
		return rb_errf(err, "progdiff: unknown tracker '%s' (%s)", tracker, names);
	if (!rb_row_known(ref, true))
		return rb_errf(err, "progdiff: unknown reference '%s' (kernel, %s)", ref, names);
	int nf = rb_progen_family_count();
	if (o->family >= nf)
		return rb_errf(err, "progdiff: no family %d", o->family);
	if (!rb_kernel_is_running(ref) && rb_kernel_known(ref))
		return rb_progdiff_guest(o, st->tracker, ref, st, err);
	if (o->no_logs)
		return rb_errf(err, "progdiff: --no-logs is for a kernel image reference (%s is not one)", ref);
	st->logs_compared = true;
	const char *why = NULL;
	if (rb_kernel_is_running(ref) && !rb_bpf_available(&why)) {
		st->skipped = true;
		snprintf(st->skip_reason, sizeof(st->skip_reason), "%s", why ? why : "bpf() unavailable");
		return 0;
	}
	struct rb_progen_prog *p = malloc(sizeof(*p));
	struct rb_progen_object *h = malloc(sizeof(*h));
	if (!p || !h) {
		free(p);
		free(h);
		return rb_errf(err, "progdiff: out of memory");
	}
	int rc = 0;
	unsigned shown = 0;
	for (int f = o->family < 0 ? 0 : o->family; f < (o->family < 0 ? nf : o->family + 1); f++) {
		if (st->nfam >= RB_PROGDIFF_MAX_FAMILIES)
			break;
		int fi = st->nfam++;
		st->fam_id[fi] = f;
		struct rb_progdiff_counts *c = &st->fam[fi];
		for (uint64_t i = o->first; i < o->first + o->cases; i++) {
			rb_progen_generate(f, o->seed, i, p);
			rb_progen_object(p, h);
			char *kt = NULL, *et = NULL;
			struct rb_result kr, er;
			if (run_one(&h->obj, ref, &kt, &kr, err) < 0 || run_one(&h->obj, tracker, &et, &er, err) < 0) {
				free(kt);
				free(et);
				rc = -1;
				goto out;
			}
			if (kr.verdict == RB_UNAVAILABLE) {
				free(kt);
				free(et);
				st->skipped = true;
				snprintf(st->skip_reason, sizeof(st->skip_reason), "%.90s", kr.msg);
				goto out;
			}
			const char *diff = rb_progdiff_classify(c, &kr, &er);
			struct rb_kdiff_lines ka, ea;
			if (rb_kdiff_lines(kt ? kt : "", &ka) < 0 || rb_kdiff_lines(et ? et : "", &ea) < 0) {
				rb_kdiff_lines_free(&ka);
				free(kt);
				free(et);
				rc = rb_errf(err, "progdiff: out of memory");
				goto out;
			}
			for (size_t k = 0; k < ka.n; k++) {
				if (!rb_progdiff_state_line(ka.line[k]))
					continue;
				c->states++;
				if (k < ea.n && !strcmp(ka.line[k], ea.line[k]))
					c->states_same++;
			}
			struct rb_progdiff_sum ks, es;
			if (rb_progdiff_summarise(kt, &ks) == 0 && rb_progdiff_summarise(et, &es) == 0 &&
			    (ks.trace != es.trace || ks.ntrace != es.ntrace)) {
				c->trace_diffs++;
				if (!diff)
					diff = "traces differ";
			}
			long d = rb_kdiff_first(&ka, &ea);
			if (d >= 0) {
				c->log_diffs++;
				if (!diff)
					diff = "logs differ";
			}
			if (diff && o->out && shown < o->show) {
				shown++;
				rb_progdiff_show(o->out, p, ref, tracker, diff, &ka, &ea, d, kt ? kt : "", &kr, &er, o->logs);
			}
			rb_kdiff_lines_free(&ka);
			rb_kdiff_lines_free(&ea);
			free(kt);
			free(et);
		}
		rb_progdiff_add(&st->total, c);
	}
out:
	free(p);
	free(h);
	return rc;
}
