/* record.c — the engine recorder behind rb_xtree (see record.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/state.h"
#include "exec/record.h"

static int32_t new_node(struct rb_xtree *tr, int kind, int idx, const struct rb_vstate *st)
{
	if (tr->n >= tr->max_nodes) {
		tr->overflow = 1;
		return -1;
	}
	/* both arrays start small and double: explorations record a few dozen
	 * nodes (execcheck --gen 300: median 38, 90% at most 139; over
	 * build/test/objects: median 11), and 1024 nodes' registers (1 MB)
	 * were a fresh mmap per program under the sanitizers (ASan's
	 * large-chunk allocator: a mapping, its shadow, and a TLB shootdown
	 * when it is unmapped) */
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 64;
		struct rb_xnode *v = realloc(tr->nodes, sizeof(*v) * cap);
		if (!v)
			return -1;
		tr->nodes = v;
		tr->cap = cap;
	}
	if (tr->nregs + RB_EXEC_NREGS > tr->cap_regs) {
		size_t cap = tr->cap_regs ? tr->cap_regs * 2 : 64 * RB_EXEC_NREGS;
		struct rb_xreg *v = realloc(tr->regs, sizeof(*v) * cap);
		if (!v)
			return -1;
		tr->regs = v;
		tr->cap_regs = cap;
	}
	int32_t id = (int32_t)tr->n++;
	struct rb_xnode *n = &tr->nodes[id];
	memset(n, 0, sizeof(*n));
	n->insn = idx;
	n->kind = (uint8_t)kind;
	n->parent = st->rec_node ? (int32_t)st->rec_node - 1 : -1;
	n->first_child = n->next_sibling = n->link = -1;
	n->frame = st->curframe;
	n->regs = tr->nregs;
	const struct rb_func *f = st->frame[st->curframe];
	for (int i = 0; i < RB_EXEC_NREGS; i++) {
		const struct rb_reg *r = &f->regs[i];
		struct rb_xreg *x = &tr->regs[tr->nregs + (size_t)i];
		x->type = r->type;
		x->flags = r->flags;
		x->frameno = r->frameno;
		x->off = r->off;
		x->range = r->range;
		x->map_idx = r->map_idx;
		x->id = r->type == RT_SCALAR ? (r->id & RB_ID_MASK) : 0;
		x->val = r->val;
	}
	tr->nregs += RB_EXEC_NREGS;
	if (n->parent >= 0) {
		struct rb_xnode *p = &tr->nodes[n->parent];
		n->next_sibling = p->first_child;
		p->first_child = id;
	}
	return id;
}

/* new_node with its failures told apart: 0 (*id set), 1 the tree is full
 * (recording stops, exploration goes on), -1 out of memory */
static int add_node(struct rb_xtree *tr, int kind, int idx, struct rb_vstate *st, int32_t *id)
{
	if (tr->overflow)
		return 1;
	*id = new_node(tr, kind, idx, st);
	if (*id >= 0)
		return 0;
	if (tr->overflow)
		return 1;
	tr->nomem = 1;
	return -1;
}

static int on_insn(void *ctx, int idx, struct rb_vstate *st, struct rb_vstate *ckpt)
{
	struct rb_xtree *tr = ctx;
	int32_t id;
	int rc = add_node(tr, RB_XNODE_INSN, idx, st, &id);
	if (rc)
		return rc < 0 ? -1 : 0;
	st->rec_node = (uint32_t)id + 1;
	if (ckpt)
		ckpt->rec_node = (uint32_t)id + 1; /* prunes against ckpt continue from here */
	return 0;
}

static int on_prune(void *ctx, int idx, struct rb_vstate *st, const struct rb_vstate *old, uint16_t live)
{
	struct rb_xtree *tr = ctx;
	int32_t id;
	int rc = add_node(tr, RB_XNODE_PRUNE, idx, st, &id);
	if (rc)
		return rc < 0 ? -1 : 0;
	struct rb_xnode *n = &tr->nodes[id];
	n->link = old && old->rec_node ? (int32_t)old->rec_node - 1 : -1;
	n->old = old;
	n->live = live;
	return 0;
}

/* the stored states' final precision marks decide which registers a prune
 * really compared (6.18 regsafe: an imprecise scalar matches anything) */
static void on_done(void *ctx)
{
	struct rb_xtree *tr = ctx;
	for (size_t i = 0; i < tr->n; i++) {
		struct rb_xnode *n = &tr->nodes[i];
		if (n->kind != RB_XNODE_PRUNE || !n->old)
			continue;
		const struct rb_vstate *old = n->old;
		const struct rb_func *f = old->frame[old->curframe];
		uint16_t keep = 0;
		for (int r = 0; r < RB_EXEC_NREGS; r++) {
			const struct rb_reg *reg = &f->regs[r];
			if (!(n->live & (1u << r)) || reg->type == RT_NOT_INIT)
				continue;
			if (reg->type == RT_SCALAR && !reg->precise)
				continue;
			keep |= (uint16_t)(1u << r);
		}
		n->keep = keep;
		n->old = NULL;
	}
}

void rb_xtree_init(struct rb_xtree *tr, const struct rb_tracker *t, size_t max_nodes)
{
	memset(tr, 0, sizeof(*tr));
	tr->t = t;
	tr->max_nodes = max_nodes ? max_nodes : 200000;
	tr->rec.ctx = tr;
	tr->rec.insn = on_insn;
	tr->rec.prune = on_prune;
	tr->rec.done = on_done;
}

void rb_xtree_free(struct rb_xtree *tr)
{
	free(tr->nodes);
	free(tr->regs);
	memset(tr, 0, sizeof(*tr));
}

int32_t rb_xtree_root(const struct rb_xtree *tr)
{
	for (size_t i = 0; i < tr->n; i++)
		if (tr->nodes[i].parent < 0 && tr->nodes[i].insn == 0)
			return (int32_t)i;
	return -1;
}
