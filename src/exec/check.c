/* check.c — execcheck's comparison of concrete runs with the exploration
 * tree (see exec.h for what is checked and why). */
#include <stdio.h>
#include <string.h>

#include "engine/log.h"
#include "engine/state.h"
#include "exec/exec.h"
#include "exec/machine.h"

static void describe(const struct rb_xtree *tr, const struct rb_xreg *a, char *buf, size_t len)
{
	char v[200];
	tr->t->print(&a->val, v, sizeof(v));
	struct rb_reg r = {0};
	r.type = a->type;
	r.flags = a->flags;
	char tn[64];
	rb_rtype_name(&r, tn, sizeof(tn));
	if (a->type == RT_SCALAR)
		snprintf(buf, len, "scalar(%.200s)", v);
	else
		snprintf(buf, len, "%.40s(off=%d,%.180s)", tn, a->off, v);
}

static void count_abort(struct rb_exec_stats *st, const char *why);

struct ctx {
	const struct rb_object *obj;
	const struct rb_prog *prog;
	const struct rb_xtree *tr;
	const struct rb_exec_opts *opts;
	struct rb_exec_stats *stats;
	struct xm *m;
	uint64_t seed;
	int frame_base; /* inside a global function: the run's frame of the callee's frame 0 */
};

static void report(struct ctx *c, int insn, int reg, uint64_t value, const char *what, const char *state)
{
	struct rb_exec_violation v;
	memset(&v, 0, sizeof(v));
	snprintf(v.prog, sizeof(v.prog), "%.120s:%.70s", c->obj->path, c->prog->name);
	v.insn = insn;
	v.reg = reg;
	v.value = value;
	v.seed = c->seed;
	snprintf(v.what, sizeof(v.what), "%s", what);
	snprintf(v.state, sizeof(v.state), "%s", state ? state : "");
	c->stats->violations++;
	if (c->opts->report)
		c->opts->report(c->opts->report_ctx, &v);
}

/* pointer types the machine has regions for */
static bool modelled(uint8_t type)
{
	switch (type) {
	case RT_STACK:
	case RT_CTX:
	case RT_PKT:
	case RT_PKT_META:
	case RT_PKT_END:
	case RT_MAP_VALUE:
	case RT_MAP_PTR:
	case RT_MEM: return true;
	default: return false;
	}
}

/* does concrete register c lie in abstract register a? (why: the reason if not) */
static bool reg_ok(struct ctx *c, const struct rb_xreg *a, const struct cval *v, uint64_t *shown, const char **why)
{
	const struct rb_tracker *t = c->tr->t;
	const struct xm *m = c->m;
	*shown = v->v;
	if (a->type == RT_SCALAR) {
		*why = "value outside the abstract scalar";
		return t->contains(&a->val, v->v);
	}
	if (!modelled(a->type))
		return true; /* sockets, BTF pointers...: no region, nothing claimed */
	if (v->rg < 0) {
		*why = "a scalar where the engine has a pointer";
		return (a->flags & RF_MAYBE_NULL) && v->v == 0;
	}
	const struct xregion *r = &m->rg[v->rg];
	int64_t o = (int64_t)(v->v - r->base);
	*shown = (uint64_t)o;
	int want;
	switch (a->type) {
	case RT_STACK: want = XR_STACK; break;
	case RT_CTX: want = XR_CTX; break;
	case RT_PKT:
	case RT_PKT_META:
	case RT_PKT_END: want = XR_PKT; break;
	case RT_MAP_VALUE: want = XR_MAPVAL; break;
	case RT_MAP_PTR: want = XR_MAPPTR; break;
	case RT_MEM:
		/* a global function's memory argument may point anywhere */
		if (r->kind != XR_MEM)
			return true;
		want = XR_MEM;
		break;
	default: return true; /* sockets, BTF pointers...: not modelled, nothing claimed */
	}
	*why = "a pointer into another region than the engine's";
	if (r->kind != want)
		return false;
	if ((want == XR_STACK && r->idx != a->frameno + c->frame_base) ||
	    ((want == XR_MAPVAL || want == XR_MAPPTR) && r->idx != a->map_idx))
		return false;
	if (a->type == RT_MAP_PTR)
		return true;
	if (a->type == RT_PKT_END) {
		*why = "packet end pointer not at the packet's end";
		return o == m->pkt_len;
	}
	*why = "pointer offset outside the abstract offset";
	return t->contains(&a->val, (uint64_t)(o - a->off));
}

/* compare the current frame with node n; 0 if every register fits.
 * only: registers to compare (PRUNE links: the ones the prune kept) */
static int check_node(struct ctx *c, int32_t id, bool count, bool do_report, uint16_t only)
{
	const struct rb_xtree *tr = c->tr;
	const struct rb_xnode *n = &tr->nodes[id];
	struct xm *m = c->m;
	if (n->frame + c->frame_base != m->cur) {
		if (do_report)
			report(c, n->insn, -1, (uint64_t)m->cur, "call depth differs from the engine's", "");
		return 1;
	}
	for (int r = 0; r < RB_EXEC_NREGS; r++) {
		const struct rb_xreg *a = &tr->regs[n->regs + (size_t)r];
		const struct cval *v = &m->fr[m->cur].regs[r];
		if (!(only & (1u << r)) || a->type == RT_NOT_INIT || v->taint)
			continue;
		if (count)
			c->stats->regs_checked++;
		uint64_t shown;
		const char *why = "";
		if (reg_ok(c, a, v, &shown, &why))
			continue;
		if (do_report) {
			char st[256];
			describe(tr, a, st, sizeof(st));
			report(c, n->insn, r, shown, why, st);
		}
		return 1;
	}
	return 0;
}

/* after a prune, what the stored state does not constrain is exempt */
static void taint_after_prune(struct xm *m, uint16_t keep)
{
	for (int f = 0; f <= m->cur; f++)
		for (int r = 0; r < 11; r++)
			if (f < m->cur || !(keep & (1u << r)))
				m->fr[f].regs[r].taint = 1;
	for (int i = 0; i < m->nrg; i++)
		if (m->rg[i].kind == XR_STACK)
			memset(m->rg[i].taint, 1, (size_t)(m->rg[i].hi - m->rg[i].lo));
}

/* a branch on an exempt value: what the engine refines on either side
 * (the other operand, the registers linked to either) is no claim about
 * this run either */
static void taint_after_branch(struct xm *m, const struct rb_xtree *tr, const struct rb_xnode *n,
			       const struct bpf_insn *in)
{
	struct cval *regs = m->fr[m->cur].regs;
	const struct rb_xreg *a = &tr->regs[n->regs];
	uint32_t ids[2] = {a[in->dst_reg].id, BPF_SRC(in->code) == BPF_X ? a[in->src_reg].id : 0};
	regs[in->dst_reg].taint = 1;
	if (BPF_SRC(in->code) == BPF_X)
		regs[in->src_reg].taint = 1;
	for (int r = 0; r < RB_EXEC_NREGS; r++)
		if (a[r].id && (a[r].id == ids[0] || a[r].id == ids[1]))
			regs[r].taint = 1;
}

/* the child of `from` at insn pc the run fits (prunes: with the stored
 * state's kept registers too); -1 if none fits, *first the first child at pc */
static int32_t find_child(struct ctx *c, int32_t from, int pc, int32_t *first)
{
	const struct rb_xtree *tr = c->tr;
	*first = -1;
	/* the children of a child re-executing this very insn count too: 6.18's
	 * maybe_fork_scalars pushes a state that runs the AND/OR again
	 * ("from N to N") */
	int32_t fork = -1;
	for (int32_t k = tr->nodes[from].first_child; k >= 0; k = tr->nodes[k].next_sibling)
		if (tr->nodes[k].kind == RB_XNODE_INSN && tr->nodes[k].insn == tr->nodes[from].insn &&
		    tr->nodes[k].first_child >= 0)
			fork = k;
	for (int32_t k = tr->nodes[from].first_child; k >= 0;
	     k = tr->nodes[k].next_sibling >= 0 ? tr->nodes[k].next_sibling
		 : (fork >= 0 && tr->nodes[k].parent != fork) ? tr->nodes[fork].first_child : -1) {
		const struct rb_xnode *ch = &tr->nodes[k];
		if (ch->insn != pc)
			continue;
		if (*first < 0)
			*first = k;
		bool ok = !check_node(c, k, false, false, 0xffff);
		if (ok && ch->kind == RB_XNODE_PRUNE && ch->link >= 0)
			ok = !check_node(c, ch->link, false, false, ch->keep);
		if (ok)
			return k;
	}
	return -1;
}

/* a global function is verified on its own: its exploration starts at a
 * root of its own */
static int32_t root_at(const struct rb_xtree *tr, int insn)
{
	for (size_t i = 0; i < tr->n; i++)
		if (tr->nodes[i].parent < 0 && tr->nodes[i].insn == insn && tr->nodes[i].kind == RB_XNODE_INSN)
			return (int32_t)i;
	return -1;
}

int rb_exec_run(const struct rb_object *obj, size_t prog_idx, const struct rb_xtree *tr, uint64_t seed,
		const struct rb_exec_opts *opts, struct rb_exec_stats *stats)
{
	struct xm m;
	struct ctx c = {obj, &obj->progs[prog_idx], tr, opts, stats, &m, seed, 0};
	int32_t node = rb_xtree_root(tr);
	if (node < 0)
		return 0;
	int irc = xm_init(&m, obj, prog_idx, seed);
	if (irc == -2) {
		/* beyond the machine's model: this program's runs abort */
		count_abort(stats, m.why);
		xm_free(&m);
		return 0;
	}
	if (irc) {
		xm_free(&m);
		return -1;
	}
	uint64_t max_steps = opts->max_steps ? opts->max_steps : 1000000;
	/* global functions being run: the caller's call node and frame base */
	struct {
		int32_t call;
		int base;
	} globals[XM_FRAMES];
	int nglobals = 0;
	for (uint64_t steps = 0;; steps++) {
		const struct rb_xnode *n = &tr->nodes[node];
		if (n->insn != m.pc) {
			report(&c, m.pc, -1, (uint64_t)n->insn, "internal: run and tree disagree on the insn", "");
			break;
		}
		stats->insns_checked++;
		if (check_node(&c, node, true, true, 0xffff))
			break;
		int at = m.pc;
		const struct bpf_insn *in = &m.insns[at];
		m.base_unmodelled = false;
		uint8_t cls = BPF_CLASS(in->code);
		if (cls == BPF_LDX || cls == BPF_STX || cls == BPF_ST) {
			int base = cls == BPF_LDX ? in->src_reg : in->dst_reg;
			uint8_t ty = tr->regs[n->regs + (size_t)base].type;
			m.base_unmodelled = ty != RT_NOT_INIT && ty != RT_SCALAR && !modelled(ty);
		}
		int rc = xm_step(&m);
		if (rc == XS_EXIT) {
			stats->executions++;
			break;
		}
		if (rc == XS_FAULT) {
			stats->executions++;
			report(&c, at, -1, 0, m.why, "the engine accepted this access");
			break;
		}
		if (rc == XS_ABORT || steps >= max_steps) {
			count_abort(stats, rc == XS_ABORT ? m.why : "step budget");
			break;
		}
		bool branch_on_taint = m.jmp_tainted;
		if (branch_on_taint)
			taint_after_branch(&m, tr, n, in);
		/* the tree's next node on this run's path */
		int32_t first, pick = find_child(&c, node, m.pc, &first);
		if (first < 0 && in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) {
			/* the engine did not follow this call: a global function */
			int32_t root = root_at(tr, m.pc);
			if (root >= 0 && nglobals < XM_FRAMES) {
				globals[nglobals].call = node;
				globals[nglobals++].base = c.frame_base;
				c.frame_base = m.cur;
				node = root;
				continue;
			}
		}
		if (first < 0 && in->code == (BPF_JMP | BPF_EXIT) && nglobals > 0 && m.cur < c.frame_base) {
			/* back from a global function: on in the caller's tree after the call */
			nglobals--;
			c.frame_base = globals[nglobals].base;
			pick = find_child(&c, globals[nglobals].call, m.pc, &first);
		}
		if (first < 0) {
			if (branch_on_taint) {
				stats->diverged++;
				stats->executions++;
			} else if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) {
				count_abort(stats, "call to a global function");
			} else {
				stats->executions++;
				report(&c, at, -1, (uint64_t)m.pc, "the run goes to an insn the engine never reached from here",
				       "");
			}
			break;
		}
		if (pick < 0) {
			/* report against the first candidate */
			stats->executions++;
			const struct rb_xnode *ch = &tr->nodes[first];
			if (check_node(&c, first, false, true, 0xffff) == 0 && ch->kind == RB_XNODE_PRUNE)
				check_node(&c, ch->link, false, true, ch->keep);
			break;
		}
		const struct rb_xnode *ch = &tr->nodes[pick];
		if (ch->kind == RB_XNODE_PRUNE) {
			if (ch->link < 0) {
				count_abort(stats, "prune without a recorded state");
				break;
			}
			stats->insns_checked++; /* the arriving state at the prune point */
			taint_after_prune(&m, ch->keep);
			node = ch->link;
		} else {
			node = pick;
		}
	}
	xm_free(&m);
	return 0;
}

static void count_abort(struct rb_exec_stats *st, const char *why)
{
	st->aborted++;
	/* helper numbers and map types name the kind; offsets do not */
	for (int i = 0; i < st->naborts; i++) {
		if (!strcmp(st->aborts[i].why, why)) {
			st->aborts[i].n++;
			return;
		}
	}
	if (st->naborts == RB_EXEC_ABORT_KINDS)
		return;
	snprintf(st->aborts[st->naborts].why, sizeof(st->aborts[0].why), "%s", why);
	st->aborts[st->naborts++].n = 1;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2));
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int rb_exec_check_prog(const struct rb_object *obj, size_t prog_idx, const struct rb_tracker *t,
		       const struct rb_exec_opts *opts, struct rb_exec_stats *stats, struct rb_err *err)
{
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu", obj->path, prog_idx);
	const struct rb_prog *p = &obj->progs[prog_idx];
	if (!p->insns || !rb_exec_prog_type_ok(p->prog_type)) {
		stats->skipped++;
		stats->skipped_type++;
		return 0;
	}
	struct rb_xtree tr;
	rb_xtree_init(&tr, t, opts->max_nodes);
	struct rb_engine_opts eo = {.insn_limit = opts->insn_limit, .rec = &tr.rec, .log = opts->log};
	struct rb_result res;
	int rc = rb_engine_verify(obj, prog_idx, t, &eo, &res, err);
	if (rc) {
		rb_xtree_free(&tr);
		return rc;
	}
	if (res.verdict != RB_ACCEPT || tr.overflow || tr.nomem) {
		stats->skipped++;
		if (res.verdict != RB_ACCEPT)
			stats->skipped_verdict++;
		else
			stats->skipped_tree++;
		rb_xtree_free(&tr);
		return 0;
	}
	stats->programs++;
	uint64_t h = opts->seed;
	for (const char *s = p->name; *s; s++)
		h = mix(h, (uint8_t)*s);
	h = mix(h, prog_idx);
	for (unsigned i = 0; i < opts->runs; i++) {
		if (rb_exec_run(obj, prog_idx, &tr, mix(h, i), opts, stats)) {
			rb_xtree_free(&tr);
			return rb_errf(err, "%s: out of memory running %s", obj->path, p->name);
		}
	}
	rb_xtree_free(&tr);
	return 0;
}
