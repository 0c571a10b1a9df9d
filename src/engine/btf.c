/* btf.c — BTF-typed pointers for tracing programs (tp_btf, fentry, fexit,
 * fmod_ret), following Linux 6.18's btf_ctx_access (arguments read from
 * the ctx array) and btf_struct_walk / check_ptr_to_btf_access (loads
 * through a PTR_TO_BTF_ID: a field that is a pointer to a struct gives a
 * new BTF pointer, anything else a scalar; reads only). */
#include <bpf/btf.h>
#include <string.h>
#include <time.h>

#include "engine/btf.h"
#include "engine/vmlinux.h"

static const struct btf_type *skip_mods(const struct btf *b, uint32_t id, uint32_t *out_id, bool *rcu)
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

int32_t rb_btf_struct_id(struct rb_env *env, const char *name)
{
	if (!rb_need_vmlinux(env))
		return -1;
	return btf__find_by_name_kind(env->vmlinux, name, BTF_KIND_STRUCT);
}

const char *rb_btf_name(struct rb_env *env, uint32_t id)
{
	if (!env->vmlinux)
		return "?";
	const struct btf_type *t = btf__type_by_id(env->vmlinux, id);
	return t ? btf__name_by_offset(env->vmlinux, t->name_off) : "?";
}

int rb_btf_init(struct rb_env *env)
{
	const struct rb_prog *p = env->prog;
	uint32_t at = p->expected_attach_type;
	if (at != BPF_TRACE_RAW_TP && at != BPF_TRACE_FENTRY && at != BPF_TRACE_FEXIT && at != BPF_MODIFY_RETURN &&
	    at != BPF_TRACE_ITER)
		return rb_unsupported(env, "tracing attach type %u", at);
	if (!p->attach_btf_id)
		return rb_unsupported(env, "tracing program without attach target");
	if (!rb_need_vmlinux(env))
		return rb_unsupported(env, "vmlinux BTF not readable");
	const struct btf_type *t = btf__type_by_id(env->vmlinux, p->attach_btf_id);
	if (!t)
		return rb_unsupported(env, "attach target BTF id %u", p->attach_btf_id);
	int skip = 0;
	if (at == BPF_TRACE_RAW_TP) {
		/* typedef btf_trace_<tp> -> pointer -> func_proto(void *__data, args...) */
		if (!btf_is_typedef(t))
			return rb_unsupported(env, "tp_btf target is not a btf_trace typedef");
		t = btf__type_by_id(env->vmlinux, t->type);
		if (!t || !btf_is_ptr(t))
			return rb_unsupported(env, "tp_btf target shape");
		t = btf__type_by_id(env->vmlinux, t->type);
		skip = 1;
	} else {
		if (!btf_is_func(t))
			return rb_unsupported(env, "fentry target is not a function");
		snprintf(env->func_name, sizeof(env->func_name), "%s", btf__name_by_offset(env->vmlinux, t->name_off));
		t = btf__type_by_id(env->vmlinux, t->type);
	}
	if (!t || !btf_is_func_proto(t))
		return rb_unsupported(env, "attach target has no prototype");
	const struct btf_param *pa = btf_params(t);
	int n = btf_vlen(t) - skip;
	if (n < 0 || n > 12)
		return rb_unsupported(env, "attach target with %d arguments", n);
	for (int i = 0; i < n; i++)
		env->arg_type[i] = pa[i + skip].type;
	env->nargs = n;
	if (at == BPF_TRACE_FEXIT || at == BPF_MODIFY_RETURN)
		env->arg_type[env->nargs++] = t->type;
	return 0;
}

/* a scalar, or a pointer to a struct: what a value of type `id` becomes in a register */
static void typed_value(struct rb_env *env, uint32_t id, uint8_t flags, struct rb_reg *out)
{
	bool rcu = false;
	uint32_t sid;
	const struct btf_type *t = skip_mods(env->vmlinux, id, NULL, NULL);
	if (t && btf_is_ptr(t)) {
		const struct btf_type *pt = skip_mods(env->vmlinux, t->type, &sid, &rcu);
		if (pt && btf_is_composite(pt)) {
			rb_reg_ptr(env, out, RT_BTF_ID);
			out->map_idx = (int32_t)sid;
			out->flags = flags;
			if (out->flags & RF_MAYBE_NULL)
				out->id = ++env->id_gen;
			return;
		}
	}
	rb_reg_unknown(env, out);
}

/* The iterator targets whose object argument is PTR_TO_BTF_ID_OR_NULL |
 * PTR_TRUSTED in their bpf_iter_reg.ctx_arg_info (Linux 6.18: task_iter.c,
 * map_iter.c, cgroup_iter.c, kmem_cache_iter.c, tcp_ipv4.c, udp.c); every
 * other target's (task_file, task_vma, bpf_link, bpf_prog, ipv6_route,
 * netlink, unix, ksym, dmabuf, ...) is PTR_TO_BTF_ID_OR_NULL alone. Measured
 * on 6.18.44 with the selftests' bpf_iter_* objects (log: trusted_ptr_or_null_
 * vs ptr_or_null_). `func` is the attach target, bpf_iter_<target>. */
static bool iter_arg_trusted(const char *func)
{
	static const char *const trusted[] = {"task", "bpf_map", "cgroup", "kmem_cache", "tcp", "udp"};
	const char *prefix = "bpf_iter_";
	if (strncmp(func, prefix, strlen(prefix)) != 0)
		return false;
	for (size_t i = 0; i < sizeof(trusted) / sizeof(trusted[0]); i++)
		if (strcmp(func + strlen(prefix), trusted[i]) == 0)
			return true;
	return false;
}

int rb_btf_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_reg *out)
{
	if (write)
		return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
	if (off < 0 || off % 8)
		return rb_reject(env, "func offset %d is not multiple of 8", off);
	int arg = off / 8;
	if (arg >= env->nargs)
		return rb_reject(env, "func doesn't have %d-th argument", arg);
	const struct btf_type *t = skip_mods(env->vmlinux, env->arg_type[arg], NULL, NULL);
	if (!t)
		return rb_unsupported(env, "ctx argument type");
	if (btf_is_ptr(t)) {
		if (size != 8)
			return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
		/* arguments of tracing programs are trusted pointers; an iterator's
		 * object (every argument after the meta) may be NULL and is trusted
		 * only where its target's ctx_arg_info says so */
		if (env->prog->expected_attach_type == BPF_TRACE_ITER && arg > 0) {
			uint8_t trust = iter_arg_trusted(env->func_name) ? RF_TRUSTED : 0;
			typed_value(env, env->arg_type[arg], trust | RF_MAYBE_NULL, out);
			if (out->type != RT_BTF_ID)
				return rb_unsupported(env, "iterator buffer argument %d", arg);
			return 0;
		}
		typed_value(env, env->arg_type[arg], RF_TRUSTED, out);
		if (out->type == RT_BTF_ID) {
			const struct btf_type *st = btf__type_by_id(env->vmlinux, (uint32_t)out->map_idx);
			rb_log(env, "func '%s' arg%d has btf_id %d type %s '%s'\n",
			       env->func_name[0] ? env->func_name : env->prog->attach_name, arg,
			       out->map_idx, btf_is_union(st) ? "UNION" : "STRUCT", rb_btf_name(env, (uint32_t)out->map_idx));
		}
		return 0;
	}
	if (btf_is_int(t) || btf_is_any_enum(t) || !env->arg_type[arg]) {
		rb_reg_unknown(env, out);
		return 0;
	}
	return rb_unsupported(env, "ctx argument of kind %u", btf_kind(t));
}

/* Find the field under [off, off+size) of struct `id`; *ptr_type gets the
 * member type when the access is exactly a pointer member. */
static int walk(struct rb_env *env, uint32_t id, int off, int size, uint32_t *ptr_type, int depth,
		const char **field, bool top)
{
	const struct btf *b = env->vmlinux;
	const struct btf_type *t = skip_mods(b, id, &id, NULL);
	*ptr_type = 0;
	if (!t || depth > 32)
		return 0;
	if (!btf_is_composite(t)) {
		if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);
			int64_t es = btf__resolve_size(b, a->type);
			if (es <= 0)
				return 0;
			return walk(env, a->type, (int)(off % es), size, ptr_type, depth + 1, field, false);
		}
		if (btf_is_ptr(t) && off == 0 && size == 8)
			*ptr_type = id;
		return 0;
	}
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bo = btf_member_bit_offset(t, (uint32_t)i);
		if (btf_member_bitfield_size(t, (uint32_t)i))
			continue;
		int moff = (int)(bo / 8);
		int64_t ms = btf__resolve_size(b, m->type);
		if (ms <= 0)
			continue;
		if (off >= moff && off + size <= moff + ms) {
			/* members of anonymous unions/structs count as the outer struct's */
			const char *mn = btf__name_by_offset(b, m->name_off);
			if (top && mn && mn[0])
				*field = mn;
			return walk(env, m->type, off - moff, size, ptr_type, depth + 1, field,
				    top && !(mn && mn[0]));
		}
	}
	return 0;
}

/* 1 trusted, 2 trusted or NULL, 3 RCU (6.18 BTF_TYPE_SAFE_* lists, partial) */
static int safe_field(const char *type, const char *field)
{
	static const struct {
		const char *type, *field;
		int kind;
	} tab[] = {
		{"bpf_iter_meta", "seq", 1},   {"bpf_iter__task", "task", 1},  {"linux_binprm", "file", 1},
		{"file", "f_inode", 1},        {"dentry", "d_inode", 1},       {"socket", "sk", 2},
		{"task_struct", "cpus_ptr", 3}, {"task_struct", "cgroups", 3}, {"task_struct", "real_parent", 3},
		{"task_struct", "group_leader", 3}, {"css_set", "dfl_cgrp", 3}, {"cgroup", "kn", 3},
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(tab[i].type, type) && !strcmp(tab[i].field, field))
			return tab[i].kind;
	return 0;
}

int rb_btf_load(struct rb_env *env, const struct rb_reg *reg, int regno, int off, int size, bool write,
		struct rb_reg *out)
{
	const struct btf *b = env->vmlinux;
	uint32_t sid = (uint32_t)reg->map_idx;
	const struct btf_type *t = b ? skip_mods(b, sid, &sid, NULL) : NULL;
	if (!t)
		return rb_unsupported(env, "BTF pointer without vmlinux BTF");
	const char *tname = btf__name_by_offset(b, t->name_off);
	if (write)
		return rb_reject(env, "only read is supported");
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d is ptr_%s invalid variable offset: off=%d", regno, tname, off);
	off += (int)rb_reg_const_val(env, reg);
	if (off < 0)
		return rb_reject(env, "R%d is ptr_%s invalid negative access: off=%d", regno, tname, off);
	if ((uint64_t)off + (uint64_t)size > t->size) {
		/* 6.18 btf_struct_walk: beyond the struct is allowed only inside a
		 * flexible array at its end: an int element reads a scalar, a struct
		 * element is walked at the offset modulo its size */
		const struct btf_type *et = NULL;
		uint32_t eid = 0;
		int moff = 0;
		if (btf_is_composite(t) && btf_vlen(t)) {
			const struct btf_member *last = btf_members(t) + btf_vlen(t) - 1;
			const struct btf_type *lt = skip_mods(b, last->type, NULL, NULL);
			moff = (int)(btf_member_bit_offset(t, (uint32_t)(btf_vlen(t) - 1)) / 8);
			if (lt && btf_is_array(lt) && btf_array(lt)->nelems == 0 && off >= moff)
				et = skip_mods(b, btf_array(lt)->type, &eid, NULL);
		}
		if (et && btf_is_int(et)) {
			rb_reg_unknown(env, out);
			return 0;
		}
		if (!et || !btf_is_composite(et) || !et->size)
			return rb_reject(env, "access beyond struct %s at off %d size %d", tname, off, size);
		off = (off - moff) % (int)et->size;
		sid = eid;
		t = et;
		tname = btf__name_by_offset(b, t->name_off);
		if ((uint64_t)off + (uint64_t)size > t->size)
			return rb_reject(env, "access beyond struct %s at off %d size %d", tname, off, size);
	}
	uint32_t ptype = 0;
	const char *field = "";
	walk(env, sid, off, size, &ptype, 0, &field, true);
	if (ptype) {
		bool rcu = false;
		uint32_t pid;
		const struct btf_type *pt = btf__type_by_id(b, ptype);
		const struct btf_type *target = skip_mods(b, pt->type, &pid, &rcu);
		if (target && btf_is_composite(target)) {
			/* 6.18: walked pointers are untrusted, except the fields the kernel
			 * lists as trusted (BTF_TYPE_SAFE_TRUSTED) or RCU-protected
			 * (BTF_TYPE_SAFE_RCU, __rcu tags) when the parent is trusted */
			uint8_t flags = RF_UNTRUSTED;
			int kind = (reg->flags & (RF_TRUSTED | RF_RCU)) ? safe_field(tname, field) : 0;
			if (kind == 1)
				flags = RF_TRUSTED;
			else if (kind == 2)
				flags = RF_TRUSTED | RF_MAYBE_NULL;
			else if (kind == 3)
				flags = RF_RCU;
			else if (rcu)
				flags = RF_RCU | RF_MAYBE_NULL;
			rb_reg_ptr(env, out, RT_BTF_ID);
			out->map_idx = (int32_t)pid;
			out->flags = flags;
			if (flags & RF_MAYBE_NULL)
				out->id = ++env->id_gen;
			return 0;
		}
	}
	rb_reg_unknown(env, out);
	return 0;
}
