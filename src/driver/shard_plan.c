/* shard_plan.c — shards balanced by cost (see shard_plan.h). */
#include "driver/shard_plan.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/costs.h"
#include "util/sort.h"

struct entry {
	uint64_t h;    /* rb_shard_identity_hash */
	char *key;     /* sha256 \x1f section \x1f name: ties of h */
	uint64_t cost;
	unsigned shard;
};

struct rb_shard_plan {
	unsigned n;
	struct entry *e;
	size_t ne, cap;
	uint64_t *load; /* [n]: expected work per shard */
	bool oom;
};

uint64_t rb_shard_identity_hash(const char *sha256, const char *section, const char *name)
{
	/* FNV-1a over the three strings, each ended by a 0 byte */
	uint64_t h = 0xcbf29ce484222325ULL;
	const char *parts[3] = {sha256, section, name};
	for (int i = 0; i < 3; i++) {
		for (const unsigned char *c = (const unsigned char *)parts[i]; *c; c++)
			h = (h ^ *c) * 0x100000001b3ULL;
		h = (h ^ 0) * 0x100000001b3ULL;
	}
	return h;
}

static char *join_key(const char *sha, const char *sec, const char *name)
{
	size_t a = strlen(sha), b = strlen(sec), c = strlen(name);
	char *k = malloc(a + b + c + 3);
	if (!k)
		return NULL;
	memcpy(k, sha, a);
	k[a] = '\x1f';
	memcpy(k + a + 1, sec, b);
	k[a + 1 + b] = '\x1f';
	memcpy(k + a + b + 2, name, c + 1);
	return k;
}

static int add_cost(void *ctx, const char *sha, const char *sec, const char *name, uint64_t cost)
{
	struct rb_shard_plan *p = ctx;
	if (p->ne == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 1024;
		struct entry *e = realloc(p->e, cap * sizeof(*e));
		if (!e) {
			p->oom = true;
			return 1;
		}
		p->e = e;
		p->cap = cap;
	}
	struct entry *e = &p->e[p->ne];
	e->key = join_key(sha, sec, name);
	if (!e->key) {
		p->oom = true;
		return 1;
	}
	e->h = rb_shard_identity_hash(sha, sec, name);
	e->cost = cost;
	e->shard = 0;
	p->ne++;
	return 0;
}

static int by_identity(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* largest first; equal costs in identity order, so the deal is the same everywhere */
static int by_cost(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return by_identity(a, b);
}

void rb_shard_plan_free(struct rb_shard_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ne; i++)
		free(p->e[i].key);
	free(p->e);
	free(p->load);
	free(p);
}

int rb_shard_plan_load(const char *path, unsigned n, struct rb_shard_plan **out, struct rb_err *err)
{
	*out = NULL;
	struct rb_shard_plan *p = calloc(1, sizeof(*p));
	if (!p || !(p->load = calloc(n ? n : 1, sizeof(*p->load)))) {
		free(p);
		rb_errf(err, "%s: out of memory", path);
		return -1;
	}
	p->n = n ? n : 1;
	if (rb_store_program_costs(path, add_cost, p, err) < 0 || p->oom) {
		if (p->oom)
			rb_errf(err, "%s: out of memory reading program costs", path);
		rb_shard_plan_free(p);
		return -1;
	}
	rb_sort(p->e, p->ne, sizeof(*p->e), by_cost);
	for (size_t i = 0; i < p->ne; i++) {
		unsigned best = 0;
		for (unsigned k = 1; k < p->n; k++)
			if (p->load[k] < p->load[best])
				best = k;
		p->e[i].shard = best + 1;
		p->load[best] += p->e[i].cost;
	}
	rb_sort(p->e, p->ne, sizeof(*p->e), by_identity);
	*out = p;
	return 0;
}

unsigned rb_shard_plan_of(const struct rb_shard_plan *p, const char *sha, const char *sec, const char *name)
{
	char *k = join_key(sha, sec, name);
	if (!k)
		return 0;
	struct entry key = {.h = rb_shard_identity_hash(sha, sec, name), .key = k};
	const struct entry *e = bsearch(&key, p->e, p->ne, sizeof(*p->e), by_identity);
	free(k);
	return e ? e->shard : 0;
}

uint64_t rb_shard_plan_programs(const struct rb_shard_plan *p)
{
	return p->ne;
}

uint64_t rb_shard_plan_cost(const struct rb_shard_plan *p, unsigned k)
{
	return k >= 1 && k <= p->n ? p->load[k - 1] : 0;
}
