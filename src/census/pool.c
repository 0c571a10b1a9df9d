/* pool.c — the width-8 input pool (distinct concrete sets with each
 * tracker's abstraction and exact gamma) and the tabulated concrete
 * semantics of every selected op. */
#include <linux/bpf.h>
#include <pthread.h>
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

/* the abstraction and gamma of every pool set for every tracker, in
 * chunks of POOL_CHUNK sets shared out among threads (each entry depends
 * on its set alone, so the pool is the same for any thread count) */
#define POOL_CHUNK 1024u
struct pool_work {
	const struct census_run *run;
	struct census_pool *p;
	size_t chunks_per_tracker;
	atomic_size_t next;
};

static void *abstract_chunks(void *arg)
{
	struct pool_work *w = arg;
	struct census_pool *p = w->p;
	for (;;) {
		size_t c = atomic_fetch_add(&w->next, 1);
		if (c >= w->chunks_per_tracker * w->run->ntr)
			break;
		unsigned t = (unsigned)(c / w->chunks_per_tracker);
		size_t lo = (c % w->chunks_per_tracker) * POOL_CHUNK;
		size_t hi = lo + POOL_CHUNK < p->n ? lo + POOL_CHUNK : p->n;
		for (size_t i = lo; i < hi; i++) {
			abstract_of(w->run->tr[t], &p->set[i], &p->abs[t][i]);
			census_gamma8(w->run->tr[t], &p->abs[t][i], &p->gam[t][i]);
		}
	}
	return NULL;
}

struct census_pool *census_pool_build(const struct census_run *run, unsigned threads, struct rb_err *err)
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
		if (!p->abs[t] || !p->gam[t])
			goto oom;
	}
	struct pool_work w = {.run = run, .p = p, .chunks_per_tracker = (p->n + POOL_CHUNK - 1) / POOL_CHUNK};
	atomic_init(&w.next, 0);
	pthread_t th[64];
	unsigned started = 0;
	for (; started + 1 < threads && started < 64; started++)
		if (pthread_create(&th[started], NULL, abstract_chunks, &w))
			break;
	abstract_chunks(&w); /* the calling thread works too */
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
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
