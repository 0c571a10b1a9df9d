/* vmlinux.c — one parse of the running kernel's BTF per handle (see
 * vmlinux.h). */
#include "engine/vmlinux.h"

#include <bpf/btf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct rb_vmlinux {
	pthread_mutex_t lock;
	bool tried;
	unsigned loads;
	struct btf *btf;
	char *path; /* NULL: the running kernel's */
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
	free(v->path);
	pthread_mutex_destroy(&v->lock);
	free(v);
}
