/* vmlinux.c — one parse of the running kernel's BTF per handle (see
 * vmlinux.h). */
#include "engine/vmlinux.h"

#include <bpf/btf.h>
#include <pthread.h>
#include <stdlib.h>

struct rb_vmlinux {
	pthread_mutex_t lock;
	bool tried;
	unsigned loads;
	struct btf *btf;
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

const struct btf *rb_vmlinux_get(struct rb_vmlinux *v)
{
	if (!v)
		return NULL;
	pthread_mutex_lock(&v->lock);
	if (!v->tried) {
		v->tried = true;
		v->btf = btf__load_vmlinux_btf(); /* libbpf 1.x: NULL on error */
		v->loads++;
	}
	const struct btf *b = v->btf;
	pthread_mutex_unlock(&v->lock);
	return b;
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
	pthread_mutex_destroy(&v->lock);
	free(v);
}
