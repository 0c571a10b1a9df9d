/* sampled.c — the census at widths 16/32/64, where gamma cannot be
 * enumerated: inputs are abstractions (from_set) of sampled members of a
 * random input set, and the concrete values checked are sampled from each
 * abstract input's gamma (its bounds, tnum ends, the set's own members and
 * random members, each confirmed by contains()). Soundness only. */
#include <linux/bpf.h>
#include <stdlib.h>

#include "census/internal.h"

static uint64_t wmask(unsigned bits) { return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1; }

static uint64_t span_rand(struct rng *r, uint64_t lo, uint64_t hi, uint64_t m)
{
	uint64_t n = (hi - lo) & m;
	return (lo + (n == m ? rng_next(r) : rng_below(r, n + 1))) & m;
}

/* concrete members of gamma(v): up to max distinct values */
static unsigned gamma_sample(const struct rb_tracker *t, const rb_val *v, unsigned bits, const uint64_t *seedv,
			     unsigned nseed, struct rng *r, uint64_t *out, unsigned max)
{
	const uint64_t m = wmask(bits), hm = wmask(bits / 2);
	struct rb_bounds b;
	t->bounds(v, &b);
	uint64_t cand[24 + 64];
	unsigned nc = 0;
	cand[nc++] = b.umin;
	cand[nc++] = b.umax;
	cand[nc++] = (uint64_t)b.smin & m;
	cand[nc++] = (uint64_t)b.smax & m;
	cand[nc++] = b.var_off.value;
	cand[nc++] = (b.var_off.value | b.var_off.mask) & m;
	cand[nc++] = (b.umin & ~hm) | (b.u32_min & hm);
	cand[nc++] = (b.umax & ~hm) | (b.u32_max & hm);
	cand[nc++] = (b.umin & ~hm) | ((uint64_t)b.s32_min & hm);
	cand[nc++] = (b.umax & ~hm) | ((uint64_t)b.s32_max & hm);
	cand[nc++] = (b.umin & ~hm) | (b.u32_max & hm);
	cand[nc++] = (b.umax & ~hm) | (b.u32_min & hm);
	for (unsigned i = 0; i < nseed && i < 8; i++)
		cand[nc++] = seedv[i];
	unsigned n = 0;
	for (unsigned round = 0; n < max && round < 6 * max; round++) {
		uint64_t x;
		if (round < nc) {
			x = cand[round];
		} else {
			switch (rng_below(r, 5)) {
			case 0: x = span_rand(r, b.umin, b.umax, m); break;
			case 1: x = span_rand(r, (uint64_t)b.smin, (uint64_t)b.smax, m); break;
			case 2: x = b.var_off.value | (rng_next(r) & b.var_off.mask); break;
			case 3: x = (span_rand(r, b.umin, b.umax, m) & ~hm) | span_rand(r, b.u32_min, b.u32_max, hm); break;
			default: x = nseed ? seedv[rng_below(r, nseed)] : span_rand(r, b.umin, b.umax, m); break;
			}
		}
		x &= m;
		if (!t->contains(v, x))
			continue;
		bool dup = false;
		for (unsigned i = 0; i < n && !dup; i++)
			dup = out[i] == x;
		if (!dup)
			out[n++] = x;
	}
	return n;
}

struct sinput {
	rb_val v;
	uint64_t xs[CENSUS_SAMPLES];
	unsigned n;
};

static void sample_input(const struct rb_tracker *t, unsigned bits, const struct census_set *s, struct rng *r,
			 struct sinput *in)
{
	uint64_t mem[32];
	unsigned nm = census_set_sample(s, bits, r, mem, 32);
	in->v = (rb_val){0};
	t->from_set(&in->v, mem, nm);
	in->n = gamma_sample(t, &in->v, bits, mem, nm, r, in->xs, CENSUS_SAMPLES);
}

static void constant_input(const struct rb_tracker *t, uint64_t c, struct sinput *in)
{
	in->v = (rb_val){0};
	t->constant(&in->v, c);
	in->xs[0] = c;
	in->n = 1;
}

static uint64_t pick_imm(const struct census_op *op, unsigned bits, struct rng *r)
{
	for (;;) {
		uint64_t h = rng_below(r, 2) ? census_value(r, bits / 2) : rng_below(r, 2 * bits);
		uint64_t c = census_imm_value(op, bits, h);
		if (census_imm_ok(op, bits, c))
			return c;
	}
}

static void alu_sampled(const struct census_run *run, struct census_item *it, const struct census_op *op,
			unsigned ti, struct sinput *d, struct sinput *s)
{
	const struct rb_tracker *t = run->tr[ti];
	const struct rb_concrete *c = run->conc;
	struct census_stats *st = &it->st[ti];
	rb_val r = d->v;
	if (op->kind == CK_TRUNC)
		t->truncate(&r, op->size, op->sext);
	else
		t->alu(&r, &s->v, &op->alu);
	st->cases++;
	for (unsigned i = 0; i < d->n; i++)
		for (unsigned j = 0; j < (op->kind == CK_TRUNC ? 1 : s->n); j++) {
			uint64_t x = d->xs[i], y = op->kind == CK_TRUNC ? 0 : s->xs[j];
			uint64_t z = op->kind == CK_TRUNC ? c->truncate(x, op->size, op->sext) : c->alu(x, y, &op->alu);
			if (t->contains(&r, z))
				continue;
			st->unsound++;
			char sd[400], ss[400], sr[400];
			census_sprint(t, &d->v, sd, sizeof(sd));
			census_sprint(t, &s->v, ss, sizeof(ss));
			census_sprint(t, &r, sr, sizeof(sr));
			census_cex(st, "%s (%s, %u bits): unsound\n  dst    = %s\n  src    = %s\n"
				   "  dst=0x%llx src=0x%llx -> 0x%llx, not in\n  result = %s\n",
				   op->name, t->name, run->bits, sd, op->kind == CK_TRUNC ? "-" : ss,
				   (unsigned long long)x, (unsigned long long)y, (unsigned long long)z, sr);
			return;
		}
}

static void jmp_sampled(const struct census_run *run, struct census_item *it, const struct census_op *op,
			unsigned ti, struct sinput *a, struct sinput *b)
{
	const struct rb_tracker *t = run->tr[ti];
	const struct rb_concrete *c = run->conc;
	struct census_stats *st = &it->st[ti];
	int bt = t->branch_taken(&a->v, &b->v, op->jop, op->is32);
	rb_val ref[2][2];
	bool ok[2];
	for (int o = 0; o < 2; o++) {
		ref[o][0] = a->v;
		ref[o][1] = b->v;
		ok[o] = bt != (o ? RB_BR_NEVER : RB_BR_ALWAYS) &&
			t->branch_refine(&ref[o][0], &ref[o][1], o ? op->jop : rb_jmp_negate(op->jop), op->is32);
	}
	st->cases++;
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned j = 0; j < b->n; j++) {
			uint64_t x = a->xs[i], y = b->xs[j];
			int o = c->jmp(x, y, op->jop, op->is32);
			const char *why = NULL;
			if (bt == (o ? RB_BR_NEVER : RB_BR_ALWAYS))
				why = "branch_taken excludes the outcome this pair takes";
			else if (!ok[o])
				why = "branch_refine says the outcome this pair takes is impossible";
			else if (!t->contains(&ref[o][0], x) || !t->contains(&ref[o][1], y))
				why = "the refined state lost a value that takes the outcome";
			if (!why)
				continue;
			st->unsound++;
			char sa[400], sb[400], ra[400], rb[400];
			census_sprint(t, &a->v, sa, sizeof(sa));
			census_sprint(t, &b->v, sb, sizeof(sb));
			census_sprint(t, &ref[o][0], ra, sizeof(ra));
			census_sprint(t, &ref[o][1], rb, sizeof(rb));
			census_cex(st, "%s (%s, %u bits): unsound: %s\n  a = %s\n  b = %s\n"
				   "  a=0x%llx b=0x%llx %s; branch_taken = %d\n  refined a = %s\n  refined b = %s\n",
				   op->name, t->name, run->bits, why, sa, sb, (unsigned long long)x,
				   (unsigned long long)y, o ? "takes the branch" : "falls through", bt, ra, rb);
			return;
		}
}

void census_item_sampled(const struct census_run *run, struct census_item *it)
{
	const struct census_op *op = &run->ops[it->op];
	const unsigned bits = run->bits;
	struct rng r = rng_seed(run->seed, it->op, it->chunk);
	for (uint64_t k = it->lo; k < it->hi; k++) {
		struct census_set sd, ss;
		uint64_t imm = 0;
		census_set_gen(&r, census_family_pick(&r), bits, &sd);
		census_set_gen(&r, census_family_pick(&r), bits, &ss);
		if (op->imm)
			imm = op->kind == CK_MOV ? census_imm_value(op, bits, census_value(&r, bits / 2))
						 : pick_imm(op, bits, &r);
		uint64_t case_seed = rng_next(&r);
		for (unsigned ti = 0; ti < run->ntr; ti++) {
			const struct rb_tracker *t = run->tr[ti];
			struct rng rr = {case_seed};
			struct sinput d, s;
			switch (op->kind) {
			case CK_MOV:
				d.v = (rb_val){0};
				t->unknown(&d.v);
				d.xs[0] = 0;
				d.n = 1;
				if (op->imm)
					constant_input(t, imm, &s);
				else
					sample_input(t, bits, &ss, &rr, &s);
				break;
			case CK_ALU1:
			case CK_TRUNC:
				sample_input(t, bits, &sd, &rr, &d);
				constant_input(t, 0, &s);
				break;
			default:
				sample_input(t, bits, &sd, &rr, &d);
				if (op->imm)
					constant_input(t, imm, &s);
				else
					sample_input(t, bits, &ss, &rr, &s);
				break;
			}
			if (op->kind == CK_JMP)
				jmp_sampled(run, it, op, ti, &d, &s);
			else
				alu_sampled(run, it, op, ti, &d, &s);
		}
	}
}
