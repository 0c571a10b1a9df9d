/* scc.h — loop (SCC) visits (see scc.c). */
#ifndef RB_ENGINE_SCC_H
#define RB_ENGINE_SCC_H

#include <stdbool.h>

#include "engine/state.h"

/* is st inside an SCC visit with recorded backedges (precision marks not
 * yet propagated around the loop)? */
bool rb_scc_incomplete_marks(struct rb_env *env, const struct rb_vstate *st);
/* a new checkpoint st: the first one inside an SCC starts its visit */
int rb_scc_maybe_enter(struct rb_env *env, struct rb_vstate *st);
/* st is complete: if it entered an SCC visit, propagate the backedges' precision and end the visit */
int rb_scc_maybe_exit(struct rb_env *env, struct rb_vstate *st);
/* cur matched the looping checkpoint old at insn_idx: keep a copy as a backedge */
int rb_scc_add_backedge(struct rb_env *env, struct rb_vstate *old, struct rb_vstate *cur, int insn_idx);
void rb_scc_free_visits(struct rb_env *env);

#endif
