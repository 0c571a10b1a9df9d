/* part.c — where two explorations part, from their event lists (pass 1).
 * Both runs are depth-first and deterministic: equal up to event k-1,
 * they differ at event k in one of a few ways, each pointing back to the
 * event D that decided it:
 *  - same previous visit, one side prunes and the other visits: a prune
 *    by one side only, at D = k;
 *  - same previous visit, different instruction: the branch at D =
 *    previous visit was decided differently;
 *  - different previous visits: a branch pushed by one side only was
 *    popped (LIFO: the later push is the one the other side lacks), D is
 *    that jump; or one side's path ended at k-1 and the other's went on;
 *  - one side has no event k: it stopped (rejected, hit a limit) at its
 *    last event, or it accepted while the other side has a branch left
 *    to pop;
 *  - no difference at all, but verdicts or counts differ at the end. */
#include <stdio.h>
#include <string.h>

#include "engine/log.h"
#include "explain/part.h"

static bool ev_eq(const struct ex_event *a, const struct ex_event *b)
{
	return a->insn == b->insn && a->parent == b->parent && a->kind == b->kind;
}

/* the successors a side's exploration gave event d: the instructions of
 * the visits whose previous visit is d */
static void successors(const struct ex_trace *t, int64_t d, char *buf, size_t len, int fall, int target)
{
	bool f = false, j = false, other = false;
	for (size_t i = (size_t)d + 1; i < t->n; i++)
		if (t->ev[i].parent == d) {
			if (t->ev[i].insn == fall)
				f = true;
			else if (t->ev[i].insn == target)
				j = true;
			else
				other = true;
		}
	snprintf(buf, len, "%s", f && j ? "explores both ways"
				 : j   ? "jumps"
				 : f   ? "falls through"
				 : other ? "goes on"
					 : "ends the path there");
}

static void describe_branch(struct ex_part *p, const struct ex_trace *tr, const char *const *names,
			    const struct bpf_insn *insns)
{
	int insn = tr[0].ev[p->d].insn;
	const struct bpf_insn *in = &insns[insn];
	int fall = insn + 1, target = insn + 1 + in->off;
	char s[2][64];
	for (int i = 0; i < 2; i++)
		successors(&tr[i], p->d, s[i], sizeof(s[i]), fall, target);
	snprintf(p->what, sizeof(p->what), "branch decided differently at insn %d: %s %s, %s %s", insn, names[0], s[0],
		 names[1], s[1]);
}

void ex_find_part(const struct ex_trace *tr, const struct rb_result *res, const char *const *names,
		  const struct bpf_insn *insns, struct ex_part *p)
{
	memset(p, 0, sizeof(*p));
	p->d = -1;
	size_t na = tr[0].n, nb = tr[1].n, k = 0;
	while (k < na && k < nb && ev_eq(&tr[0].ev[k], &tr[1].ev[k]))
		k++;
	p->k = k;
	if (k == na && k == nb) {
		bool changed = res[0].verdict != res[1].verdict || res[0].insns_processed != res[1].insns_processed;
		if (!changed || !na)
			return;
		p->kind = RB_PART_COUNTS;
		p->d = (int64_t)na - 1;
		snprintf(p->what, sizeof(p->what), "the same exploration, then %s %s and %s %s at insn %d", names[0],
			 rb_verdict_name(res[0].verdict), names[1], rb_verdict_name(res[1].verdict),
			 tr[0].ev[p->d].insn);
		return;
	}
	if (k < na && k < nb) {
		const struct ex_event *a = &tr[0].ev[k], *b = &tr[1].ev[k];
		if (a->parent == b->parent && a->insn == b->insn) {
			p->kind = RB_PART_PRUNE;
			p->d = (int64_t)k;
			p->pruned_by = a->kind == EV_PRUNE ? 0 : 1;
			snprintf(p->what, sizeof(p->what), "at insn %d %s prunes the state, %s explores on", a->insn,
				 names[p->pruned_by], names[!p->pruned_by]);
			return;
		}
		p->kind = RB_PART_BRANCH;
		if (a->parent == b->parent)
			p->d = a->parent;
		else if (a->parent == (int32_t)k - 1 || b->parent == (int32_t)k - 1)
			p->d = (int64_t)k - 1;
		else
			p->d = a->parent > b->parent ? a->parent : b->parent;
		if (p->d < 0) {
			p->kind = RB_PART_COUNTS;
			snprintf(p->what, sizeof(p->what), "the explorations start differently");
			return;
		}
		describe_branch(p, tr, names, insns);
		return;
	}
	int x = k == na ? 0 : 1; /* the side that has no event k */
	if (res[x].verdict != RB_ACCEPT && k > 0) {
		p->kind = RB_PART_VERDICT;
		p->d = (int64_t)k - 1;
		snprintf(p->what, sizeof(p->what), "at insn %d %s stops (%s%s%.200s), %s goes on",
			 res[x].err_insn >= 0 ? res[x].err_insn : tr[x].ev[p->d].insn, names[x],
			 rb_verdict_name(res[x].verdict), res[x].msg[0] ? ": " : "", res[x].msg, names[!x]);
		return;
	}
	const struct ex_event *y = &tr[!x].ev[k];
	p->kind = RB_PART_BRANCH;
	p->d = y->parent == (int32_t)k - 1 ? (int64_t)k - 1 : y->parent;
	if (p->d < 0) {
		p->kind = RB_PART_COUNTS;
		snprintf(p->what, sizeof(p->what), "the explorations start differently");
		return;
	}
	describe_branch(p, tr, names, insns);
}
