/* vmlinux.c — one parse of the running kernel's BTF per handle, and its
 * name lookups remembered (see vmlinux.h). */
#include "engine/vmlinux.h"

#include <bpf/btf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a name lookup's answer (btf__find_by_name_kind's return) */
struct found {
	char *name; /* NULL: a free slot */
	int kind;
	int32_t id;
};

struct rb_vmlinux {
	pthread_mutex_t lock;
	bool tried;
	unsigned loads;
	struct btf *btf;
	char *path; /* NULL: the running kernel's */
	struct found *found; /* open addressing by name and kind, under lock */
	uint32_t nfound, cap;  /* cap: 0 or a power of 2 above twice nfound */
};

struct rb_vmlinux *rb_vmlinux_new(void)
{
	struct rb_vmlinux *v = calloc(1, sizeof(*v));
	if (v && pthread_mutex_init(&v->lock, NULL)) {
		free(v);
		return NULL;
	}
	return v;
}

struct rb_vmlinux *rb_vmlinux_new_file(const char *path)
{
	struct rb_vmlinux *v = rb_vmlinux_new();
	if (v && path && !(v->path = strdup(path))) {
		rb_vmlinux_free(v);
		return NULL;
	}
	return v;
}

const struct btf *rb_vmlinux_get(struct rb_vmlinux *v)
{
	if (!v)
		return NULL;
	pthread_mutex_lock(&v->lock);
	if (!v->tried) {
		v->tried = true;
		/* libbpf 1.x: NULL on error */
		v->btf = v->path ? btf__parse(v->path, NULL) : btf__load_vmlinux_btf();
		v->loads++;
	}
	const struct btf *b = v->btf;
	pthread_mutex_unlock(&v->lock);
	return b;
}

static uint32_t found_hash(const char *name, int kind)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind; /* FNV-1a */
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 16777619u;
	return h;
}

/* the slot of (name, kind): its entry, or the free slot it would take; v->cap > 0 */
static struct found *found_slot(struct rb_vmlinux *v, const char *name, int kind, uint32_t h)
{
	uint32_t i = h & (v->cap - 1);
	while (v->found[i].name && (v->found[i].kind != kind || strcmp(v->found[i].name, name)))
		i = (i + 1) & (v->cap - 1);
	return &v->found[i];
}

/* remembers an answer; out of memory: not remembered (looked up again next time) */
static void found_add(struct rb_vmlinux *v, const char *name, int kind, uint32_t h, int32_t id)
{
	if (2 * (v->nfound + 1) >= v->cap) {
		uint32_t cap = v->cap ? 2 * v->cap : 64;
		struct found *n = calloc(cap, sizeof(*n));
		if (!n)
			return;
		struct found *old = v->found;
		uint32_t ocap = v->cap;
		v->found = n;
		v->cap = cap;
		for (uint32_t i = 0; i < ocap; i++)
			if (old[i].name)
				*found_slot(v, old[i].name, old[i].kind, found_hash(old[i].name, old[i].kind)) = old[i];
		free(old);
	}
	struct found *f = found_slot(v, name, kind, h);
	if (f->name || !(f->name = strdup(name)))
		return; /* another thread's answer is there (the same) */
	f->kind = kind;
	f->id = id;
	v->nfound++;
}

int32_t rb_vmlinux_find(struct rb_vmlinux *v, const char *name, int kind)
{
	const struct btf *b = rb_vmlinux_get(v);
	if (!b)
		return -1;
	uint32_t h = found_hash(name, kind);
	pthread_mutex_lock(&v->lock);
	struct found *f = v->cap ? found_slot(v, name, kind, h) : NULL;
	bool known = f && f->name;
	int32_t id = known ? f->id : 0;
	pthread_mutex_unlock(&v->lock);
	if (known)
		return id;
	/* the search itself outside the lock: the parsed BTF is only read */
	id = btf__find_by_name_kind(b, name, (uint32_t)kind);
	pthread_mutex_lock(&v->lock);
	found_add(v, name, kind, h, id);
	pthread_mutex_unlock(&v->lock);
	return id;
}

static const struct btf *lend_get(void *v)
{
	return rb_vmlinux_get(v);
}

struct rb_btf_lend rb_vmlinux_lend(struct rb_vmlinux *v)
{
	return (struct rb_btf_lend){.path = v ? v->path : NULL, .get = lend_get, .ctx = v};
}

unsigned rb_vmlinux_loads(const struct rb_vmlinux *v)
{
	return v ? v->loads : 0;
}

void rb_vmlinux_free(struct rb_vmlinux *v)
{
	if (!v)
		return;
	btf__free(v->btf);
	for (uint32_t i = 0; i < v->cap; i++)
		free(v->found[i].name);
	free(v->found);
	free(v->path);
	pthread_mutex_destroy(&v->lock);
	free(v);
}
