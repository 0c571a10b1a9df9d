/* pool.c — the width-8 input pool (distinct concrete sets with each
 * tracker's abstraction and exact gamma, made on first use) and the
 * tabulated concrete semantics of every selected op. */
#include <linux/bpf.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "census/internal.h"

void census_gamma8(const struct rb_tracker *t, const rb_val *v, bm256 *out)
{
	bm_clear(out);
	for (unsigned x = 0; x < 256; x++)
		if (t->contains(v, x))
			bm_set(out, x);
}

void census_pool_free(struct census_pool *p)
{
	if (!p)
		return;
	free(p->set);
	free(p->fam);
	for (unsigned f = 0; f < FAM_COUNT; f++)
		free(p->fidx[f]);
	for (unsigned t = 0; t < CENSUS_MAX_TRACKERS; t++) {
		free(p->abs[t]);
		free(p->gam[t]);
		free(p->state[t]);
	}
	free(p);
}

static void abstract_of(const struct rb_tracker *t, const bm256 *s, rb_val *v)
{
	uint64_t vals[256];
	unsigned n = bm_list(s, vals);
	*v = (rb_val){0};
	t->from_set(v, vals, n);
}

void census_pool_get(const struct census_run *run, unsigned ti, uint32_t i, struct census_room *own,
		     const rb_val **abs, const bm256 **gam)
{
	struct census_pool *p = run->pool;
	unsigned char st = atomic_load_explicit(&p->state[ti][i], memory_order_acquire);
	if (st != POOL_READY) {
		unsigned char absent = POOL_ABSENT;
		bool mine = st == POOL_ABSENT && atomic_compare_exchange_strong_explicit(
			&p->state[ti][i], &absent, POOL_MAKING, memory_order_acquire, memory_order_acquire);
		if (!mine && absent != POOL_READY) {
			/* another thread is making it */
			abstract_of(run->tr[ti], &p->set[i], &own->abs);
			census_gamma8(run->tr[ti], &own->abs, &own->gam);
			*abs = &own->abs;
			*gam = &own->gam;
			return;
		}
		if (mine) {
			abstract_of(run->tr[ti], &p->set[i], &p->abs[ti][i]);
			census_gamma8(run->tr[ti], &p->abs[ti][i], &p->gam[ti][i]);
			atomic_store_explicit(&p->state[ti][i], POOL_READY, memory_order_release);
		}
	}
	*abs = &p->abs[ti][i];
	*gam = &p->gam[ti][i];
}

struct census_pool *census_pool_build(const struct census_run *run, struct rb_err *err)
{
	size_t nsets = 0;
	struct census_set *sets = census_sets8(run->seed, &nsets);
	struct census_pool *p = calloc(1, sizeof(*p));
	size_t hcap = 1u << 18;
	uint32_t *hash = calloc(hcap, sizeof(*hash)); /* pool index + 1 */
	if (!sets || !p || !hash)
		goto oom;
	p->set = malloc(nsets * sizeof(*p->set));
	p->fam = malloc(nsets);
	if (!p->set || !p->fam)
		goto oom;
	/* distinct sets, first family wins */
	for (size_t i = 0; i < nsets; i++) {
		bm256 b;
		census_set_bitmap8(&sets[i], &b);
		size_t h = bm_hash(&b) & (hcap - 1);
		for (; hash[h]; h = (h + 1) & (hcap - 1))
			if (bm_eq(&p->set[hash[h] - 1], &b))
				break;
		if (hash[h])
			continue;
		p->set[p->n] = b;
		p->fam[p->n] = sets[i].family;
		hash[h] = (uint32_t)++p->n;
	}
	for (size_t i = 0; i < p->n; i++)
		p->fcount[p->fam[i]]++;
	for (unsigned f = 0; f < FAM_COUNT; f++) {
		p->fidx[f] = malloc((p->fcount[f] + 1) * sizeof(uint32_t));
		if (!p->fidx[f])
			goto oom;
		p->fcount[f] = 0;
	}
	for (size_t i = 0; i < p->n; i++)
		p->fidx[p->fam[i]][p->fcount[p->fam[i]]++] = (uint32_t)i;
	for (unsigned t = 0; t < run->ntr; t++) {
		p->abs[t] = malloc(p->n * sizeof(rb_val));
		p->gam[t] = malloc(p->n * sizeof(bm256));
		p->state[t] = malloc(p->n * sizeof(atomic_uchar));
		if (!p->abs[t] || !p->gam[t] || !p->state[t])
			goto oom;
		for (size_t i = 0; i < p->n; i++)
			atomic_init(&p->state[t][i], POOL_ABSENT);
	}
	for (unsigned t = 0; t < run->ntr; t++) {
		const struct rb_tracker *tr = run->tr[t];
		for (unsigned c = 0; c < 256; c++) {
			p->cabs[t][c] = (rb_val){0};
			tr->constant(&p->cabs[t][c], c);
			census_gamma8(tr, &p->cabs[t][c], &p->cgam[t][c]);
		}
	}
	free(sets);
	free(hash);
	return p;
oom:
	free(sets);
	free(hash);
	census_pool_free(p);
	rb_errf(err, "census: out of memory building the width-8 input pool");
	return NULL;
}

void census_tables_free(struct census_run *run)
{
	if (!run->tab)
		return;
	for (unsigned i = 0; i < run->nops; i++) {
		free(run->tab[i].alu);
		free(run->tab[i].row);
		free(run->tab[i].col);
	}
	free(run->tab);
	run->tab = NULL;
}

int census_tables_build(struct census_run *run, const bool *selected, struct rb_err *err)
{
	const struct rb_concrete *c = run->conc;
	run->tab = calloc(run->nops, sizeof(*run->tab));
	if (!run->tab)
		goto oom;
	for (unsigned i = 0; i < run->nops; i++) {
		const struct census_op *op = &run->ops[i];
		struct census_table *t = &run->tab[i];
		if (!selected[i])
			continue;
		switch (op->kind) {
		case CK_TRUNC:
			if (!(t->alu = malloc(256)))
				goto oom;
			for (unsigned x = 0; x < 256; x++)
				t->alu[x] = (uint8_t)c->truncate(x, op->size, op->sext);
			break;
		case CK_JMP:
			t->row = calloc(256, sizeof(bm256));
			t->col = calloc(256, sizeof(bm256));
			if (!t->row || !t->col)
				goto oom;
			for (unsigned a = 0; a < 256; a++)
				for (unsigned b = 0; b < 256; b++)
					if (c->jmp(a, b, op->jop, op->is32)) {
						bm_set(&t->row[a], b);
						bm_set(&t->col[b], a);
					}
			break;
		default:
			if (!(t->alu = malloc(65536)))
				goto oom;
			for (unsigned a = 0; a < 256; a++)
				for (unsigned b = 0; b < 256; b++)
					t->alu[a * 256 + b] = (uint8_t)c->alu(a, b, &op->alu);
			break;
		}
	}
	return 0;
oom:
	census_tables_free(run);
	return rb_errf(err, "census: out of memory tabulating the concrete semantics");
}
