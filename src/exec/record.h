/* record.h — the exploration tree of one verification, as execcheck needs
 * it: every (path, instruction) the engine processed with the registers of
 * the current frame, and every prune with the stored state it matched.
 *
 * The engine explores a tree of paths (forks at branches, pruned leaves
 * jump to the stored state that made them safe). A concrete run follows
 * exactly one path of that tree, so the states to check it against are
 * known exactly: the node of the current path at each instruction. */
#ifndef RB_EXEC_RECORD_H
#define RB_EXEC_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "tracker/tracker.h"

#define RB_EXEC_NREGS 11

/* one register as the engine saw it (the parts execcheck compares) */
struct rb_xreg {
	uint8_t type, flags, frameno;
	int32_t off, range, map_idx;
	uint32_t id;
	rb_val val;
};

enum { RB_XNODE_INSN = 0, RB_XNODE_PRUNE };

struct rb_xnode {
	int32_t insn;
	int32_t parent, first_child, next_sibling; /* -1: none */
	int32_t link;        /* PRUNE: the node of the stored state it matched */
	int32_t frame;       /* curframe */
	uint8_t kind;        /* RB_XNODE_* */
	uint16_t keep;       /* PRUNE: current-frame registers still compared after the prune
			      * (live at insn and, for scalars, precise in the stored state) */
	uint16_t live;
	const void *old;     /* PRUNE: the stored state (valid until done) */
	size_t regs;         /* index of RB_EXEC_NREGS registers in the pool */
};

struct rb_xtree {
	const struct rb_tracker *t;
	struct rb_xnode *nodes;
	size_t n, cap;
	struct rb_xreg *regs;
	size_t nregs, cap_regs;
	size_t max_nodes;  /* budget; exceeding it sets overflow */
	int overflow, nomem;
	struct rb_engine_recorder rec; /* hand &rec to the engine (opts.rec) */
};

/* ready to record; max_nodes 0 = 200,000 */
void rb_xtree_init(struct rb_xtree *tr, const struct rb_tracker *t, size_t max_nodes);
void rb_xtree_free(struct rb_xtree *tr);
/* the first node of the main program's exploration, or -1 */
int32_t rb_xtree_root(const struct rb_xtree *tr);

#endif
