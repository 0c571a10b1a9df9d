/* btf_names.c — the two BTFs a program is checked against and the names
 * of their types: the running (or the row's) kernel's vmlinux BTF, parsed
 * on first use, and the object's own BTF (map values, allocated objects).
 * A leaf of the engine: the log, the access rules (btf.c, alloc_obj.c,
 * locks.c, graph.c) and the kfunc and struct_ops checks all look types up
 * here, so none of them needs another's rules to print or find a name.
 * The lookups follow Linux 6.18 and 7.2.13 alike (btf_type_by_id,
 * btf_find_by_name_kind, btf_type_skip_modifiers). */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <string.h>
#include <time.h>

#include "engine/btf_names.h"
#include "engine/vmlinux.h"

const struct btf_type *rb_btf_skip_mods(const struct btf *b, uint32_t id, uint32_t *out_id, bool *rcu)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		if (rcu && btf_is_type_tag(t) && !strcmp(btf__name_by_offset(b, t->name_off), "rcu"))
			*rcu = true;
		id = t->type;
		t = btf__type_by_id(b, id);
	}
	if (out_id)
		*out_id = id;
	return t;
}

/* the shared vmlinux BTF, parsed on first use (engine/vmlinux.h) */
const struct btf *rb_need_vmlinux(struct rb_env *env)
{
	if (!env->vmlinux) {
		/* a first parse is not verification work (the kernel parses its
		 * BTF at boot): its time is left out of verify_us */
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		env->vmlinux = rb_vmlinux_get(env->vmlinux_src);
		clock_gettime(CLOCK_MONOTONIC, &b);
		env->t_start += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	}
	return env->vmlinux;
}

int32_t rb_btf_find(struct rb_env *env, const char *name, int kind)
{
	if (!rb_need_vmlinux(env))
		return -1;
	return rb_vmlinux_find(env->vmlinux_src, name, kind);
}

int32_t rb_btf_struct_id(struct rb_env *env, const char *name)
{
	return rb_btf_find(env, name, BTF_KIND_STRUCT);
}

const char *rb_btf_name(struct rb_env *env, uint32_t id)
{
	if (!env->vmlinux)
		return "?";
	const struct btf_type *t = btf__type_by_id(env->vmlinux, id);
	return t ? btf__name_by_offset(env->vmlinux, t->name_off) : "?";
}

const struct btf *rb_obj_btf(struct rb_env *env)
{
	if (!env->obj_btf_tried) {
		env->obj_btf_tried = true;
		if (env->obj->btf && env->obj->btf_size) {
			struct btf *b = btf__new(env->obj->btf, (uint32_t)env->obj->btf_size);
			env->obj_btf = (b && !libbpf_get_error(b)) ? b : NULL;
		}
	}
	return env->obj_btf;
}

const char *rb_alloc_type_name(struct rb_env *env, uint32_t id)
{
	const struct btf *b = rb_obj_btf(env);
	const struct btf_type *t = b ? btf__type_by_id(b, id) : NULL;
	const char *n = t ? btf__name_by_offset(b, t->name_off) : NULL;
	return n ? n : "?";
}
