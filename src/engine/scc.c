/* scc.c — loops: visits of strongly connected components of the CFG
 * along a call chain (Linux 6.17+ bpf_scc_visit, maybe_enter_scc,
 * maybe_exit_scc, add_scc_backedge, incomplete_read_marks): states that
 * matched a looping state are kept as backedges and their precision is
 * propagated around the loop once its entry state is complete. */
#include <stdlib.h>
#include <string.h>

#include "engine/backtrack.h"
#include "engine/scc.h"
#include "engine/states.h"
#include "util/grow.h"

struct callchain {
	int callsites[RB_MAX_FRAMES];
	int depth, scc;
};

static bool compute_callchain(struct rb_env *env, const struct rb_vstate *st, struct callchain *cc)
{
	memset(cc, 0, sizeof(*cc));
	for (int i = 0; i <= st->curframe; i++) {
		int insn = rb_frame_insn_idx(st, i);
		int scc = env->aux[insn].scc;
		if (scc) {
			cc->scc = scc;
			cc->depth = i;
			return true;
		}
		if (i < st->curframe)
			cc->callsites[i] = insn;
		else
			return false;
	}
	return false;
}

static struct rb_scc_visit *visit_lookup(struct rb_env *env, const struct callchain *cc, bool alloc)
{
	for (int i = 0; i < env->nvisits; i++) {
		struct rb_scc_visit *v = &env->visits[i];
		if (v->scc == cc->scc && v->depth == cc->depth &&
		    !memcmp(v->callsites, cc->callsites, sizeof(int) * (size_t)cc->depth))
			return v;
	}
	if (!alloc)
		return NULL;
	if (RB_GROW(env->visits, env->nvisits + 1, &env->cap_visits, 8) < 0)
		return NULL;
	struct rb_scc_visit *v = &env->visits[env->nvisits++];
	memset(v, 0, sizeof(*v));
	memcpy(v->callsites, cc->callsites, sizeof(v->callsites));
	v->depth = cc->depth;
	v->scc = cc->scc;
	return v;
}

static void log_callchain(struct rb_env *env, const char *what, const struct callchain *cc)
{
	if (!env->log)
		return;
	rb_log(env, "SCC %s (", what);
	for (int i = 0; i < cc->depth; i++)
		rb_log(env, "%d,", cc->callsites[i]);
	rb_log(env, "%d)\n", cc->scc);
}

/* is st inside an SCC visit with recorded backedges (read/precision marks
 * not yet propagated around the loop)? */
bool rb_scc_incomplete_marks(struct rb_env *env, const struct rb_vstate *st)
{
	struct callchain cc;
	if (!compute_callchain(env, st, &cc))
		return false;
	struct rb_scc_visit *v = visit_lookup(env, &cc, false);
	/* only iterator, may_goto and callback loops record backedges */
	return v && v->nbackedges > 0;
}

int rb_scc_maybe_enter(struct rb_env *env, struct rb_vstate *st)
{
	struct callchain cc;
	if (!compute_callchain(env, st, &cc))
		return 0;
	struct rb_scc_visit *v = visit_lookup(env, &cc, true);
	if (!v)
		return RB_E_NOMEM;
	if (!v->entry_state) {
		v->entry_state = st;
		log_callchain(env, "enter", &cc);
	}
	return 0;
}

static void free_backedges(struct rb_scc_visit *v)
{
	for (int i = 0; i < v->nbackedges; i++)
		rb_state_free(v->backedges[i]);
	free(v->backedges);
	v->backedges = NULL;
	v->nbackedges = v->cap = 0;
}

void rb_scc_free_visits(struct rb_env *env)
{
	for (int i = 0; i < env->nvisits; i++)
		free_backedges(&env->visits[i]);
	free(env->visits);
	env->visits = NULL;
	env->nvisits = 0;
}

/* the SCC's entry state is complete: push the precision found along the
 * recorded backedges into the states they matched, until nothing changes */
int rb_scc_maybe_exit(struct rb_env *env, struct rb_vstate *st)
{
	struct callchain cc;
	if (!compute_callchain(env, st, &cc))
		return 0;
	struct rb_scc_visit *v = visit_lookup(env, &cc, false);
	if (!v || v->entry_state != st)
		return 0;
	log_callchain(env, "exit", &cc);
	v->entry_state = NULL;
	env->num_backedges -= (uint64_t)v->nbackedges;
	rb_update_peak(env);
	/* 6.18 propagate_backedges: newest backedge first (the kernel
	 * prepends them), until nothing changes; after 64 rounds every scalar
	 * of every backedge's path is made precise instead */
	bool changed;
	int iters = 0;
	do {
		if (iters++ > 64) {
			rb_log(env, "propagate_backedges: too many iterations\n");
			for (int i = v->nbackedges - 1; i >= 0; i--)
				rb_mark_all_scalars_precise(env, v->backedges[i]);
			break;
		}
		changed = false;
		for (int i = v->nbackedges - 1; i >= 0; i--) {
			env->bt_changed = false;
			int err = rb_propagate_precision(env, v->backedges[i]->equal_state, v->backedges[i]);
			if (err)
				return err;
			changed |= env->bt_changed;
		}
	} while (changed);
	free_backedges(v);
	return 0;
}

int rb_scc_add_backedge(struct rb_env *env, struct rb_vstate *old, struct rb_vstate *cur, int insn_idx)
{
	struct callchain cc;
	if (!compute_callchain(env, old, &cc))
		return 0;
	struct rb_scc_visit *v = visit_lookup(env, &cc, false);
	if (!v)
		return 0;
	struct rb_vstate *copy = rb_state_copy(env->pool, cur);
	if (!copy)
		return RB_E_NOMEM;
	copy->equal_state = old;
	copy->insn_idx = insn_idx;
	if (RB_GROW(v->backedges, v->nbackedges + 1, &v->cap, 8) < 0) {
		rb_state_free(copy);
		return RB_E_NOMEM;
	}
	v->backedges[v->nbackedges++] = copy;
	if (env->log) {
		rb_log(env, "SCC backedge (");
		for (int i = 0; i < cc.depth; i++)
			rb_log(env, "%d,", cc.callsites[i]);
		rb_log(env, "%d)\n", cc.scc);
	}
	env->num_backedges++;
	rb_update_peak(env); /* add_scc_backedge: backedges count in peak_states */
	return 0;
}
