/* exact8.c — the exhaustive census at width 8: every concrete value of
 * every abstract input is enumerated, so soundness is checked exactly and
 * precision is measured against the best abstraction of the true result. */
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "census/internal.h"

/* gamma(from_set(s)) for tracker ti, through the scratch cache */
static const bm256 *best_of(const struct census_run *run, struct census_scratch *sc, unsigned ti,
			    const bm256 *s)
{
	struct census_best_entry *e = &sc->best[ti][bm_hash(s) & (CENSUS_BEST_CACHE - 1)];
	if (e->valid && bm_eq(&e->key, s))
		return &e->val;
	uint64_t vals[256];
	unsigned n = bm_list(s, vals);
	rb_val v = {0};
	e->key = *s;
	e->valid = 1;
	if (n == 0) {
		bm_clear(&e->val);
		return &e->val;
	}
	run->tr[ti]->from_set(&v, vals, n);
	census_gamma8(run->tr[ti], &v, &e->val);
	return &e->val;
}

uint64_t census_unary_cases8(const struct census_run *run, const struct census_op *op)
{
	if (op->kind == CK_MOV && op->imm)
		return 256; /* filtered to the kernel's immediates below */
	if (run->sets && run->sets < run->pool->n)
		return run->sets;
	return run->pool->n;
}

/* the pool index of a random set from the family mix */
static uint32_t pick(const struct census_pool *p, struct rng *r)
{
	for (;;) {
		unsigned f = census_family_pick(r);
		if (p->fcount[f])
			return p->fidx[f][rng_below(r, p->fcount[f])];
	}
}

/* a random immediate the kernel accepts for this op */
static unsigned pick_imm(const struct census_op *op, struct rng *r)
{
	for (;;) {
		uint64_t c = census_imm_value(op, 8, rng_next(r));
		if (census_imm_ok(op, 8, c))
			return (unsigned)c;
	}
}

/* the true results of op over gamma(dst) x gamma(src); the rows of the
 * members of gamma(dst) left once every value is a result add nothing */
static void conc_alu(const uint8_t *tab, const bm256 *gd, const bm256 *gs, bm256 *out)
{
	uint8_t sv[256];
	unsigned ns = 0;
	for (unsigned i = 0; i < 4; i++)
		for (uint64_t w = gs->w[i]; w; w &= w - 1)
			sv[ns++] = (uint8_t)(i * 64 + (unsigned)__builtin_ctzll(w));
	uint64_t o0 = 0, o1 = 0, o2 = 0, o3 = 0; /* the words of out */
	for (unsigned i = 0; i < 4; i++)
		for (uint64_t w = gd->w[i]; w; w &= w - 1) {
			const uint8_t *row = tab + (i * 64 + (unsigned)__builtin_ctzll(w)) * 256;
			for (unsigned j = 0; j < ns; j++) {
				unsigned v = row[sv[j]];
				uint64_t bit = UINT64_C(1) << (v & 63);
				o0 |= v < 64 ? bit : 0;
				o1 |= v - 64 < 64 ? bit : 0;
				o2 |= v - 128 < 64 ? bit : 0;
				o3 |= v >= 192 ? bit : 0;
			}
			if (!~(o0 & o1 & o2 & o3))
				break;
		}
	*out = (bm256){{o0, o1, o2, o3}};
}

struct alu_in {
	const rb_val *dst, *src; /* src NULL: CK_TRUNC */
	const bm256 *gd, *gs;    /* the gammas the concrete op ranges over */
	bool dst_is_input, src_is_input;
};

/* tracker c vs the baseline over one case: tally, and keep an example
 * when looser */
static void compare(const struct census_run *run, struct census_item *it, int c_i, const bm256 *cn,
		    const bm256 *ol, unsigned n, bool same, bool cnum_optimal, const char *op,
		    const rb_val *const *vals, const char *const *labels, unsigned nvals)
{
	const int o_i = run->base_i;
	struct census_stats *st = &it->st[c_i];
	unsigned c = census_cmp(cn, ol, n);
	st->cmp[c]++;
	if (same)
		st->same[c]++;
	if (c != CMP_LOOSER && c != CMP_INCOMPARABLE)
		return;
	/* already at its own best: the loss is the domain's */
	if (same && cnum_optimal)
		st->same_domain++;
	if (st->loose && (st->loose_same || !same))
		return;
	/* vals[2*i] = the baseline's, vals[2*i+1] = tracker c's value of label i */
	char buf[8192];
	size_t len = 0;
	const char *cname = run->tr[c_i]->name, *oname = run->tr[o_i]->name;
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s: %s %s %s%s\n", op, cname,
				c == CMP_LOOSER ? "looser than" : "incomparable with", oname,
				same ? " (inputs of equal gamma)" : "");
	for (unsigned i = 0; i < nvals && len < sizeof(buf) - 1; i++) {
		char so[400] = "(unreachable)", sn[400] = "(unreachable)";
		bm256 go = {{0}}, gn = {{0}};
		if (vals[2 * i]) {
			census_sprint(run->tr[o_i], vals[2 * i], so, sizeof(so));
			census_gamma8(run->tr[o_i], vals[2 * i], &go);
		}
		if (vals[2 * i + 1]) {
			census_sprint(run->tr[c_i], vals[2 * i + 1], sn, sizeof(sn));
			census_gamma8(run->tr[c_i], vals[2 * i + 1], &gn);
		}
		/* gamma as 256-bit masks (bit x = value x), so a case can be replayed */
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"  %-10s %-13s %s |%u| %016llx%016llx%016llx%016llx\n"
					"  %-10s %-13s %s |%u| %016llx%016llx%016llx%016llx\n",
					labels[i], oname, so, bm_count(&go), (unsigned long long)go.w[3],
					(unsigned long long)go.w[2], (unsigned long long)go.w[1], (unsigned long long)go.w[0],
					"", cname, sn, bm_count(&gn), (unsigned long long)gn.w[3], (unsigned long long)gn.w[2],
					(unsigned long long)gn.w[1], (unsigned long long)gn.w[0]);
	}
	census_loose(st, same, "%s", buf);
}

static void alu_case(const struct census_run *run, struct census_scratch *sc, struct census_item *it,
		     const struct census_op *op, const struct census_table *tab, struct alu_in *in,
		     bm256 *res_gamma)
{
	static const bm256 unit0 = {{1, 0, 0, 0}}; /* {0} */
	rb_val rv[CENSUS_MAX_TRACKERS];
	bool opt[CENSUS_MAX_TRACKERS];
	for (unsigned ti = 0; ti < run->ntr; ti++) {
		const struct rb_tracker *t = run->tr[ti];
		struct census_stats *st = &it->st[ti];
		bm256 R, gr;
		rv[ti] = *in[ti].dst;
		rb_val *r = &rv[ti];
		const bm256 *gd = in[ti].gd, *gs = in[ti].gs;

		if (op->kind == CK_TRUNC) {
			bm_clear(&R);
			for (unsigned x = 0; x < 256; x++)
				if (bm_has(gd, x))
					bm_set(&R, tab->alu[x]);
			t->truncate(r, op->size, op->sext);
		} else {
			if (ti > 0 && bm_eq(gd, in[0].gd) && gs && in[0].gs && bm_eq(gs, in[0].gs))
				R = res_gamma[run->ntr]; /* same concrete inputs as tracker 0 */
			else
				conc_alu(tab->alu, gd, gs ? gs : &unit0, &R);
			if (ti == 0)
				res_gamma[run->ntr] = R;
			t->alu(r, in[ti].src, &op->alu);
		}
		census_gamma8(t, r, &gr);
		res_gamma[ti] = gr;
		st->cases++;
		if (!bm_subset(&R, &gr)) {
			st->unsound++;
			if (!st->cex) {
				unsigned bad = (unsigned)bm_first_not_in(&R, &gr), x, y = 0;
				const bm256 *gsrc = gs ? gs : &unit0;
				for (x = 0; x < 256; x++) {
					if (!bm_has(gd, x))
						continue;
					if (op->kind == CK_TRUNC) {
						if (tab->alu[x] == bad)
							goto found;
						continue;
					}
					for (y = 0; y < 256; y++)
						if (bm_has(gsrc, y) && tab->alu[x * 256 + y] == bad)
							goto found;
				}
found:;
				char sd[400], ss[400], sr[400];
				census_sprint(t, in[ti].dst, sd, sizeof(sd));
				if (in[ti].src)
					census_sprint(t, in[ti].src, ss, sizeof(ss));
				else
					ss[0] = 0;
				census_sprint(t, r, sr, sizeof(sr));
				if (op->kind == CK_TRUNC)
					census_cex(st, "%s (%s): unsound\n  input  = %s\n  0x%02x -> 0x%02x, not in\n  result = %s\n",
						   op->name, t->name, sd, x, bad, sr);
				else
					census_cex(st, "%s (%s): unsound\n  dst    = %s\n  src    = %s\n  dst=0x%02x src=0x%02x -> 0x%02x, not in\n  result = %s\n",
						   op->name, t->name, sd, in[ti].src ? ss : "-", x, y, bad, sr);
			}
		}
		const bm256 *gb = best_of(run, sc, ti, &R);
		opt[ti] = bm_eq(&gr, gb);
		st->optimal += opt[ti];
		st->extra += census_lg(&gr) - census_lg(gb);
	}
	for (int c = 0; run->base_i >= 0 && c < (int)run->ntr; c++) {
		const int o = run->base_i;
		if (c == o)
			continue;
		bool same = bm_eq(in[o].gd, in[c].gd) && (!in[o].gs || bm_eq(in[o].gs, in[c].gs));
		bool unary = op->kind != CK_ALU2;
		const rb_val *vals[6] = {in[o].dst, in[c].dst, in[o].src, in[c].src, &rv[o], &rv[c]};
		const char *labels[3] = {"dst", "src", "result"};
		if (op->kind == CK_MOV)
			vals[0] = in[o].src, vals[1] = in[c].src, labels[0] = "src";
		if (unary) {
			vals[2] = vals[4], vals[3] = vals[5], labels[1] = "result";
			if (op->kind != CK_MOV)
				labels[0] = "input";
		}
		compare(run, it, c, &res_gamma[c], &res_gamma[o], 1, same, opt[c], op->name, vals, labels, unary ? 2 : 3);
	}
}

struct jmp_in {
	const rb_val *a, *b;
	const bm256 *ga, *gb;
};

/* the first member of `in` whose pairing with the row's value has outcome o */
static unsigned partner(const bm256 *row, const bm256 *in, int o)
{
	bm256 m;
	for (int i = 0; i < 4; i++)
		m.w[i] = (o ? row->w[i] : ~row->w[i]) & in->w[i];
	return (unsigned)bm_first_not_in(&m, &(bm256){{0}});
}

static const char *br_name(int bt)
{
	return bt == RB_BR_NEVER ? "never" : bt == RB_BR_ALWAYS ? "always" : "unknown";
}

/* the members v of own whose line (the table's row or column of v, the
 * partners v jumps with) meets other: they take the jump with some member
 * of other (R[1]); those whose line misses some member of other fall
 * through with it (R[0]) */
static void side_refinements(const bm256 *line, const bm256 *own, const bm256 *other, bm256 R[2])
{
	bm_clear(&R[0]);
	bm_clear(&R[1]);
	for (unsigned v = 0; v < 256; v++) {
		if (!bm_has(own, v))
			continue;
		if (bm_intersects(&line[v], other))
			bm_set(&R[1], v);
		if (bm_intersects_not(other, &line[v]))
			bm_set(&R[0], v);
	}
}

/* the members of ga (X) and of gb (Y) that take the jump ([1]) with some
 * member of the other, and that fall through ([0]) */
static void true_refinements(const struct census_table *tab, const bm256 *ga, const bm256 *gb, bm256 X[2],
			     bm256 Y[2])
{
	side_refinements(tab->row, ga, gb, X);
	side_refinements(tab->col, gb, ga, Y);
}

static void jmp_case(const struct census_run *run, struct census_scratch *sc, struct census_item *it,
		     const struct census_op *op, const struct census_table *tab, struct jmp_in *in)
{
	bm256 comp[CENSUS_MAX_TRACKERS][4];
	rb_val refs[CENSUS_MAX_TRACKERS][2][2];
	bool live[CENSUS_MAX_TRACKERS][2];
	const rb_val *kept[CENSUS_MAX_TRACKERS][2][2]; /* the state each outcome continues with */
	bool opt[CENSUS_MAX_TRACKERS];
	bm256 xy[CENSUS_MAX_TRACKERS][4]; /* the true refinements: X[2], then Y[2] */
	const unsigned ncomp = op->imm ? 2 : 4; /* refined a (and b) per outcome */
	for (unsigned ti = 0; ti < run->ntr; ti++) {
		const struct rb_tracker *t = run->tr[ti];
		struct census_stats *st = &it->st[ti];
		const bm256 *ga = in[ti].ga, *gb = in[ti].gb;
		bm256 *X = xy[ti], *Y = xy[ti] + 2; /* [1] = taken, [0] = not taken */
		unsigned tj = 0; /* an earlier tracker's of the same gammas */
		while (tj < ti && !(bm_eq(in[tj].ga, ga) && bm_eq(in[tj].gb, gb)))
			tj++;
		if (tj < ti)
			memcpy(xy[ti], xy[tj], sizeof(xy[ti]));
		else
			true_refinements(tab, ga, gb, X, Y);
		int bt = t->branch_taken(in[ti].a, in[ti].b, op->jop, op->is32);
		bool bad = false;
		char why[200] = "";
		if ((bt == RB_BR_NEVER && !bm_empty(&X[1])) || (bt == RB_BR_ALWAYS && !bm_empty(&X[0]))) {
			bad = true;
			unsigned x = (unsigned)bm_first_not_in(bt == RB_BR_NEVER ? &X[1] : &X[0], &(bm256){{0}});
			bm256 ys = tab->row[x];
			if (bt == RB_BR_ALWAYS)
				for (int i = 0; i < 4; i++)
					ys.w[i] = ~ys.w[i];
			for (int i = 0; i < 4; i++)
				ys.w[i] &= gb->w[i];
			snprintf(why, sizeof(why), "branch_taken says %s but a=0x%02x b=0x%02x %s", br_name(bt), x,
				 (unsigned)bm_first_not_in(&ys, &(bm256){{0}}), bt == RB_BR_NEVER ? "takes it" : "falls through");
		}
		double extra = 0;
		bool optimal = true;
		rb_val (*ref)[2] = refs[ti];
		for (int o = 1; o >= 0; o--) {
			uint8_t jo = o ? op->jop : rb_jmp_negate(op->jop);
			bm256 *ra = &comp[ti][(1 - o) * (ncomp / 2)], *rb = ra + 1;
			bool alive = !(bt == (o ? RB_BR_NEVER : RB_BR_ALWAYS));
			ref[o][0] = *in[ti].a;
			ref[o][1] = *in[ti].b;
			if (alive && !t->branch_refine(&ref[o][0], &ref[o][1], jo, op->is32)) {
				alive = false;
				if (!bm_empty(&X[o]) && !bad) {
					bad = true;
					unsigned x = (unsigned)bm_first_not_in(&X[o], &(bm256){{0}});
					snprintf(why, sizeof(why), "branch_refine(%s) says impossible but a=0x%02x b=0x%02x %s",
						 rb_jmp_name(jo), x, partner(&tab->row[x], gb, o),
						 o ? "takes the branch" : "falls through");
				}
			}
			bm256 gra, grb;
			if (alive) {
				census_gamma8(t, &ref[o][0], &gra);
				census_gamma8(t, &ref[o][1], &grb);
				if (!bad && (!bm_subset(&X[o], &gra) || !bm_subset(&Y[o], &grb))) {
					bad = true;
					bool ina = !bm_subset(&X[o], &gra);
					unsigned x, y;
					if (ina) {
						x = (unsigned)bm_first_not_in(&X[o], &gra);
						y = partner(&tab->row[x], gb, o);
					} else {
						y = (unsigned)bm_first_not_in(&Y[o], &grb);
						x = partner(&tab->col[y], ga, o);
					}
					snprintf(why, sizeof(why), "a=0x%02x b=0x%02x %s, but the refined %s lost 0x%02x", x, y,
						 o ? "takes the branch" : "falls through", ina ? "a" : "b", ina ? x : y);
				}
			} else {
				bm_clear(&gra);
				bm_clear(&grb);
			}
			live[ti][o] = alive;
			if (bt == (o ? RB_BR_ALWAYS : RB_BR_NEVER)) {
				/* a decided branch is followed without refinement (6.18
				 * check_cond_jmp_op); the refinement was still checked
				 * for soundness above, precision uses the kept state */
				gra = *ga;
				grb = *gb;
				kept[ti][o][0] = in[ti].a;
				kept[ti][o][1] = in[ti].b;
			} else {
				kept[ti][o][0] = alive ? &ref[o][0] : NULL;
				kept[ti][o][1] = alive ? &ref[o][1] : NULL;
			}
			const bm256 *ba = best_of(run, sc, ti, &X[o]);
			optimal = optimal && bm_eq(&gra, ba);
			extra += census_lg(&gra) - census_lg(ba);
			*ra = gra;
			if (!op->imm) {
				const bm256 *bb = best_of(run, sc, ti, &Y[o]);
				optimal = optimal && bm_eq(&grb, bb);
				extra += census_lg(&grb) - census_lg(bb);
				*rb = grb;
			}
		}
		st->cases++;
		st->optimal += optimal;
		opt[ti] = optimal;
		st->extra += extra;
		if (bad) {
			st->unsound++;
			if (!st->cex) {
				char sa[400], sb[400], r1a[400], r1b[400], r0a[400], r0b[400];
				census_sprint(t, in[ti].a, sa, sizeof(sa));
				census_sprint(t, in[ti].b, sb, sizeof(sb));
				census_sprint(t, &ref[1][0], r1a, sizeof(r1a));
				census_sprint(t, &ref[1][1], r1b, sizeof(r1b));
				census_sprint(t, &ref[0][0], r0a, sizeof(r0a));
				census_sprint(t, &ref[0][1], r0b, sizeof(r0b));
				if (!live[ti][1])
					snprintf(r1a, sizeof(r1a), "(excluded)"), snprintf(r1b, sizeof(r1b), "-");
				if (!live[ti][0])
					snprintf(r0a, sizeof(r0a), "(excluded)"), snprintf(r0b, sizeof(r0b), "-");
				census_cex(st, "%s (%s): unsound: %s\n  a = %s\n  b = %s\n  branch_taken = %s\n"
					   "  taken:     a = %s, b = %s\n  not taken: a = %s, b = %s\n",
					   op->name, t->name, why, sa, sb, br_name(bt), r1a, r1b, r0a, r0b);
			}
		}
	}
	for (int c = 0; run->base_i >= 0 && c < (int)run->ntr; c++) {
		const int o = run->base_i;
		if (c == o)
			continue;
		bool same = bm_eq(in[o].ga, in[c].ga) && bm_eq(in[o].gb, in[c].gb);
#define L(t, oc, r) (kept[t][oc][r])
		const rb_val *vals[12] = {in[o].a, in[c].a, in[o].b, in[c].b,
					  L(o, 1, 0), L(c, 1, 0), L(o, 1, 1), L(c, 1, 1),
					  L(o, 0, 0), L(c, 0, 0), L(o, 0, 1), L(c, 0, 1)};
#undef L
		const char *labels[6] = {"a", "b", "taken a", "taken b", "else a", "else b"};
		compare(run, it, c, comp[c], comp[o], ncomp, same, opt[c], op->name, vals, labels, 6);
	}
}

void census_item_exact8(const struct census_run *run, struct census_scratch *sc, struct census_item *it)
{
	const struct census_op *op = &run->ops[it->op];
	const struct census_table *tab = &run->tab[it->op];
	const struct census_pool *p = run->pool;
	struct rng r = rng_seed(run->seed, it->op, it->chunk);
	bm256 res[CENSUS_MAX_TRACKERS + 1];
	rb_val unknown[CENSUS_MAX_TRACKERS];
	struct census_room room[CENSUS_MAX_TRACKERS][2]; /* census_pool_get's */
	static const bm256 unit0 = {{1, 0, 0, 0}}; /* {0} */
	for (unsigned ti = 0; ti < run->ntr; ti++) {
		unknown[ti] = (rb_val){0};
		run->tr[ti]->unknown(&unknown[ti]);
	}

	const uint64_t nun = census_unary_cases8(run, op);
	for (uint64_t kk = it->lo; kk < it->hi; kk++) {
		/* unary ops: case kk is pool set k (evenly spread when limited) */
		uint64_t k = op->kind == CK_MOV && op->imm ? kk : nun == p->n ? kk : kk * p->n / nun;
		if (op->kind == CK_JMP) {
			struct jmp_in in[CENSUS_MAX_TRACKERS];
			uint32_t i = pick(p, &r), j = 0;
			unsigned c = 0;
			if (op->imm)
				c = (unsigned)census_imm_value(op, 8, rng_next(&r));
			else
				j = pick(p, &r);
			for (unsigned ti = 0; ti < run->ntr; ti++) {
				census_pool_get(run, ti, i, &room[ti][0], &in[ti].a, &in[ti].ga);
				if (op->imm)
					in[ti].b = &p->cabs[ti][c], in[ti].gb = &p->cgam[ti][c];
				else
					census_pool_get(run, ti, j, &room[ti][1], &in[ti].b, &in[ti].gb);
			}
			jmp_case(run, sc, it, op, tab, in);
			continue;
		}
		struct alu_in in[CENSUS_MAX_TRACKERS];
		if (op->kind == CK_ALU2) {
			uint32_t i = pick(p, &r), j = 0;
			unsigned c = 0;
			if (op->imm)
				c = pick_imm(op, &r);
			else
				j = pick(p, &r);
			for (unsigned ti = 0; ti < run->ntr; ti++) {
				census_pool_get(run, ti, i, &room[ti][0], &in[ti].dst, &in[ti].gd);
				if (op->imm)
					in[ti].src = &p->cabs[ti][c], in[ti].gs = &p->cgam[ti][c];
				else
					census_pool_get(run, ti, j, &room[ti][1], &in[ti].src, &in[ti].gs);
			}
		} else if (op->kind == CK_MOV) {
			/* dst := src; the old dst is unknown */
			const rb_val *src[CENSUS_MAX_TRACKERS];
			const bm256 *gs[CENSUS_MAX_TRACKERS];
			if (op->imm) {
				/* every constant an immediate can give */
				bool is_imm = false;
				for (uint64_t h = 0; h < 16; h++)
					is_imm = is_imm || census_imm_value(op, 8, h) == k;
				if (!is_imm)
					continue;
				for (unsigned ti = 0; ti < run->ntr; ti++)
					src[ti] = &p->cabs[ti][k], gs[ti] = &p->cgam[ti][k];
			} else {
				for (unsigned ti = 0; ti < run->ntr; ti++)
					census_pool_get(run, ti, (uint32_t)k, &room[ti][0], &src[ti], &gs[ti]);
			}
			/* the concrete op ignores dst: range over dst = {0} only */
			for (unsigned ti = 0; ti < run->ntr; ti++) {
				in[ti].dst = &unknown[ti];
				in[ti].gd = &unit0;
				in[ti].src = src[ti];
				in[ti].gs = gs[ti];
			}
		} else { /* CK_ALU1, CK_TRUNC: unary on dst */
			for (unsigned ti = 0; ti < run->ntr; ti++) {
				census_pool_get(run, ti, (uint32_t)k, &room[ti][0], &in[ti].dst, &in[ti].gd);
				in[ti].src = op->kind == CK_TRUNC ? NULL : &p->cabs[ti][0];
				in[ti].gs = op->kind == CK_TRUNC ? NULL : &p->cgam[ti][0];
			}
		}
		alu_case(run, sc, it, op, tab, in, res);
	}
}
