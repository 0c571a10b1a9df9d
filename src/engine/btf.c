/* btf.c — BTF-typed pointers for tracing programs (tp_btf, fentry, fexit,
 * fmod_ret), following Linux 6.18's btf_ctx_access (arguments read from
 * the ctx array) and btf_struct_walk / check_ptr_to_btf_access (loads
 * through a PTR_TO_BTF_ID: a field that is a pointer to a struct gives a
 * new BTF pointer, anything else a scalar; reads only). */
#include <bpf/btf.h>
#include <string.h>
#include <time.h>

#include "engine/alloc_obj.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/helper_gpl.h"
#include "engine/locks.h"
#include "engine/profile.h"
#include "engine/lsm.h"
#include "engine/raw_tp_args.h"
#include "engine/struct_ops.h"
#include "engine/vmlinux.h"
#include "engine/rcu.h"
#include "util/array_size.h"

int rb_btf_init(struct rb_env *env)
{
	const struct rb_prog *p = env->prog;
	uint32_t at = p->expected_attach_type;
	bool lsm = p->prog_type == BPF_PROG_TYPE_LSM;
	if (lsm ? at != BPF_LSM_MAC && at != BPF_LSM_CGROUP
		: at != BPF_TRACE_RAW_TP && at != BPF_TRACE_FENTRY && at != BPF_TRACE_FEXIT &&
			  at != BPF_MODIFY_RETURN && at != BPF_TRACE_ITER)
		return rb_unsupported(env, "%s attach type %u", lsm ? "lsm" : "tracing", at);
	/* (no attach_btf_id: refused before, engine.c check_prog_kind) */
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
	/* fexit, fmod_ret and lsm read the return value after the arguments
	 * (btf_ctx_access); lsm's range and void hooks: lsm.c */
	if (at == BPF_TRACE_FEXIT || at == BPF_MODIFY_RETURN || lsm)
		env->arg_type[env->nargs++] = t->type;
	return lsm ? rb_lsm_init(env, t) : 0;
}

/* a scalar, or a pointer to a struct: what a value of type `id` becomes in a register */
static void typed_value(struct rb_env *env, uint32_t id, uint8_t flags, struct rb_reg *out)
{
	bool rcu = false;
	uint32_t sid;
	const struct btf_type *t = rb_btf_skip_mods(env->vmlinux, id, NULL, NULL);
	if (t && btf_is_ptr(t)) {
		const struct btf_type *pt = rb_btf_skip_mods(env->vmlinux, t->type, &sid, &rcu);
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
	for (size_t i = 0; i < ARRAY_SIZE(trusted); i++)
		if (strcmp(func + strlen(prefix), trusted[i]) == 0)
			return true;
	return false;
}

/* The iterator arguments that are not the target's object pointer:
 * bpf_iter_reg.ctx_arg_info's PTR_TO_BUF entries (map_iter.c
 * bpf_map_elem: the key read-only, the value read-write; sock_map.c
 * sockmap: the key read-only; bpf_sk_storage.c bpf_sk_storage_map: the
 * value read-write; each PTR_MAYBE_NULL), and the map argument of those
 * three targets, which no ctx_arg_info entry names, so btf_ctx_access
 * gives it the default: PTR_TO_BTF_ID, trusted (prog_args_trusted), not
 * NULL, logged. The same in Linux 6.18 and 7.2.13. Every other pointer
 * argument of an iterator is its ctx_arg_info object (IA_OBJECT). */
enum { IA_OBJECT, IA_PLAIN, IA_BUF_RO, IA_BUF_RW };
static int iter_arg_kind(const char *func, int arg)
{
	static const struct {
		const char *target;
		uint8_t kind[4]; /* per argument; [0] is the meta */
	} rows[] = {
		{"bpf_map_elem", {IA_PLAIN, IA_PLAIN, IA_BUF_RO, IA_BUF_RW}},
		{"sockmap", {IA_PLAIN, IA_PLAIN, IA_BUF_RO, IA_OBJECT}},
		{"bpf_sk_storage_map", {IA_PLAIN, IA_PLAIN, IA_OBJECT, IA_BUF_RW}},
	};
	const char *prefix = "bpf_iter_";
	if (strncmp(func, prefix, strlen(prefix)) != 0 || arg < 0 || arg > 3)
		return IA_OBJECT;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (strcmp(func + strlen(prefix), rows[i].target) == 0)
			return rows[i].kind[arg];
	return IA_OBJECT;
}

/* prog_args_trusted (kernel/bpf/btf.c, the same in 6.18 and 7.2.13): the
 * pointer arguments of raw tracepoints (tp_btf), iterators, struct_ops
 * and LSM hooks are trusted, except the LSM hooks that free or allocate
 * their object (bpf_lsm_is_trusted: untrusted_lsm_hooks); those of
 * fentry, fexit and fmod_ret programs are not ("ptr_"). */
static bool args_trusted(const struct rb_env *env, const char *func)
{
	static const char *const untrusted_lsm[] = {
		"bpf_lsm_bpf_map_free",        "bpf_lsm_bpf_prog_free",     "bpf_lsm_file_alloc_security",
		"bpf_lsm_file_free_security",  "bpf_lsm_sk_alloc_security", "bpf_lsm_sk_free_security",
		"bpf_lsm_task_free",           "bpf_lsm_bdev_alloc_security", "bpf_lsm_bdev_free_security",
	};
	uint32_t at = env->prog->expected_attach_type;
	switch (env->prog->prog_type) {
	case BPF_PROG_TYPE_TRACING:
		return at == BPF_TRACE_RAW_TP || at == BPF_TRACE_ITER;
	case BPF_PROG_TYPE_LSM:
		for (size_t i = 0; func && i < ARRAY_SIZE(untrusted_lsm); i++)
			if (!strcmp(func, untrusted_lsm[i]))
				return false;
		return true;
	case BPF_PROG_TYPE_STRUCT_OPS:
		return true;
	default:
		return false;
	}
}

int rb_btf_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_reg *out)
{
	/* 6.18 bpf_tracing_ctx_access, then btf_ctx_access (its reasons are
	 * logged; check_ctx_access words the rejection) */
	const char *tname = env->func_name[0] ? env->func_name : env->prog->attach_name;
	if (write || off < 0 || off >= 8 * 12 || off % size)
		return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
	if (off % 8) {
		rb_log(env, "func '%s' offset %d is not multiple of 8\n", tname, off);
		return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
	}
	int arg = off / 8;
	if (arg >= env->nargs) {
		rb_log(env, "func '%s' doesn't have %d-th argument\n", tname, arg + 1);
		return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
	}
	const struct btf_type *t = rb_btf_skip_mods(env->vmlinux, env->arg_type[arg], NULL, NULL);
	if (!t)
		return rb_unsupported(env, "ctx argument type");
	if (btf_is_ptr(t)) {
		if (size != 8)
			return rb_reject(env, "invalid bpf_context access off=%d size=%d", off, size);
		/* an iterator's object (every argument after the meta) may be
		 * NULL and is trusted only where its target's ctx_arg_info says
		 * so; its map key and value are buffers that may be NULL (their
		 * size is checked against the map's when the program is
		 * attached, not here: bpf_iter_attach_map, max_rdonly_access) */
		int ia = IA_PLAIN;
		if (env->prog->prog_type == BPF_PROG_TYPE_TRACING && env->prog->expected_attach_type == BPF_TRACE_ITER &&
		    arg > 0)
			ia = iter_arg_kind(env->func_name, arg);
		if (ia == IA_BUF_RO || ia == IA_BUF_RW) {
			rb_reg_ptr(env, out, RT_BUF);
			out->flags = RF_MAYBE_NULL | (ia == IA_BUF_RO ? RF_RDONLY : 0);
			out->id = ++env->id_gen;
			return 0;
		}
		if (ia == IA_OBJECT) {
			uint8_t trust = iter_arg_trusted(env->func_name) ? RF_TRUSTED : 0;
			typed_value(env, env->arg_type[arg], trust | RF_MAYBE_NULL, out);
			if (out->type != RT_BTF_ID)
				return rb_unsupported(env, "iterator argument %d of no struct type", arg);
			return 0;
		}
		/* struct_ops: a "__nullable" argument comes from ctx_arg_info, which
		 * 6.18's btf_ctx_access returns without its log line */
		if (rb_struct_ops_arg_nullable(env, arg)) {
			typed_value(env, env->arg_type[arg], RF_TRUSTED | RF_MAYBE_NULL, out);
			rb_struct_ops_promote(env, out);
			return 0;
		}
		/* tp_btf: raw_tp_null_args says which arguments may be NULL, and
		 * which may encode an error (those become scalars once the type
		 * has been checked and logged) */
		unsigned rtp = 0;
		if (env->prog->prog_type == BPF_PROG_TYPE_TRACING && env->prog->expected_attach_type == BPF_TRACE_RAW_TP)
			rtp = rb_raw_tp_arg_flags(tname, arg);
		bool maybe_null = (rtp & RB_RAW_TP_MAYBE_NULL) && !(rtp & RB_RAW_TP_MAYBE_ERR);
		typed_value(env, env->arg_type[arg],
			    (args_trusted(env, tname) ? RF_TRUSTED : 0) | (maybe_null ? RF_MAYBE_NULL : 0), out);
		if (out->type == RT_BTF_ID) {
			const struct btf_type *st = btf__type_by_id(env->vmlinux, (uint32_t)out->map_idx);
			rb_log(env, "func '%s' arg%d has btf_id %d type %s '%s'\n", tname, arg, out->map_idx,
			       btf_is_union(st) ? "UNION" : "STRUCT", rb_btf_name(env, (uint32_t)out->map_idx));
			if (rtp & RB_RAW_TP_MAYBE_ERR) {
				/* 6.18 logs this without a newline */
				rb_log(env, "marking pointer arg%d as scalar as it may encode error", arg);
				rb_reg_unknown(env, out);
				return 0;
			}
		}
		rb_struct_ops_promote(env, out);
		return 0;
	}
	if (btf_is_int(t) || btf_is_any_enum(t) || !env->arg_type[arg]) {
		rb_reg_unknown(env, out);
		/* lsm: the return value so far has the hook's range (6.18
		 * check_ctx_access on is_retval: __mark_reg_s32_range) */
		if (env->prog->prog_type == BPF_PROG_TYPE_LSM && env->prog->expected_attach_type == BPF_LSM_MAC &&
		    arg == env->nargs - 1 && env->ret_set)
			rb_lsm_retval(env, out);
		return 0;
	}
	return rb_unsupported(env, "ctx argument of kind %u", btf_kind(t));
}

enum { WALK_ERR = -1, WALK_SCALAR, WALK_PTR, WALK_PTR_UNTRUSTED, WALK_STRUCT };

/* One pass of 6.18 btf_struct_walk over [off, off+size) of struct *id:
 * WALK_SCALAR, WALK_PTR (*id the pointee struct, *field the pointer
 * member), WALK_PTR_UNTRUSTED (a pointer to a non-struct), WALK_STRUCT (the access starts a nested struct *id: the caller
 * dives in at offset 0), or WALK_ERR with the kernel's reason logged. */
static int walk_step(const struct btf *b, uint32_t *id, int off, int size, const char **field, bool *untrusted,
		     char *why, size_t wsz)
{
	uint32_t tid = *id;
	for (int depth = 0; depth < 64; depth++) {
		const struct btf_type *t = rb_btf_skip_mods(b, tid, &tid, NULL);
		const char *tname = t ? btf__name_by_offset(b, t->name_off) : "?";
		if (!tname || !tname[0])
			tname = "(anon)";
		if (!t || !btf_is_composite(t)) {
			snprintf(why, wsz, "Type '%s' is not a struct", tname);
			return WALK_ERR;
		}
		int vlen = btf_vlen(t);
		/* walking a union of more than one member makes the result untrusted */
		if (btf_is_union(t) && vlen != 1)
			*untrusted = true;
		if ((int64_t)off + size > (int64_t)t->size) {
			/* a flexible array at the end may be read beyond the struct */
			const struct btf_member *last = vlen ? btf_members(t) + vlen - 1 : NULL;
			const struct btf_type *lt = last ? rb_btf_skip_mods(b, last->type, NULL, NULL) : NULL;
			int lmoff = last ? (int)(btf_member_bit_offset(t, (uint32_t)(vlen - 1)) / 8) : 0;
			if (!lt || !btf_is_array(lt) || btf_array(lt)->nelems || off < lmoff) {
				snprintf(why, wsz, "access beyond struct %s at off %u size %u", tname, (unsigned)off,
				       (unsigned)size);
				return WALK_ERR;
			}
			/* an int element reads a scalar; other than a struct: beyond */
			uint32_t eid;
			const struct btf_type *et = rb_btf_skip_mods(b, btf_array(lt)->type, &eid, NULL);
			if (et && btf_is_int(et))
				return WALK_SCALAR;
			if (!et || !btf_is_composite(et) || !et->size) {
				snprintf(why, wsz, "access beyond struct %s at off %u size %u", tname, (unsigned)off,
					 (unsigned)size);
				return WALK_ERR;
			}
			off = (off - lmoff) % (int)et->size;
			tid = eid;
			continue;
		}
		const struct btf_member *m = btf_members(t);
		bool dive = false;
		for (int i = 0; i < vlen && !dive; i++, m++) {
			uint32_t bitoff = btf_member_bit_offset(t, (uint32_t)i);
			int moff = (int)(bitoff / 8);
			if (off + size <= moff)
				break; /* the fields from here on are too far */
			uint32_t bsz = btf_member_bitfield_size(t, (uint32_t)i);
			if (bsz) {
				if (off <= moff && (int)((bitoff + bsz + 7) / 8) <= off + size)
					return WALK_SCALAR;
				continue;
			}
			if (off < moff)
				break; /* a hole */
			const char *mname = btf__name_by_offset(b, m->name_off);
			uint32_t mid;
			const struct btf_type *mt = rb_btf_skip_mods(b, m->type, &mid, NULL);
			int64_t msize = btf__resolve_size(b, m->type);
			if (!mt || msize < 0) {
				snprintf(why, wsz, "field %s doesn't have size", mname);
				return WALK_ERR;
			}
			int mtrue_end = moff + (int)msize;
			if (off >= mtrue_end)
				continue;
			if (btf_is_array(mt)) {
				/* arrays (multi-dimensional ones linearised) as runs of elements */
				uint32_t eid = mid;
				const struct btf_type *et = mt;
				while (et && btf_is_array(et))
					et = rb_btf_skip_mods(b, btf_array(et)->type, &eid, NULL);
				int64_t esize = et ? btf__resolve_size(b, eid) : -1;
				if (esize <= 0)
					continue;
				moff += (int)((off - moff) / esize * esize);
				msize = esize;
				mt = et;
				mid = eid;
			}
			if (btf_is_composite(mt)) {
				if (off == moff) {
					*id = mid;
					return WALK_STRUCT;
				}
				off -= moff;
				tid = mid;
				dive = true;
				break;
			}
			if (btf_is_ptr(mt)) {
				if (msize != size || off != moff) {
					snprintf(why, wsz, "cannot access ptr member %s with moff %u in struct %s with off %u size %u",
					       mname, (unsigned)moff, tname, (unsigned)off, (unsigned)size);
					return WALK_ERR;
				}
				uint32_t pid;
				const struct btf_type *pt = rb_btf_skip_mods(b, mt->type, &pid, NULL);
				if (pt && btf_is_composite(pt)) {
					*id = mid;
					*field = mname;
					return WALK_PTR;
				}
				/* 6.17+: a pointer to anything but a struct is
				 * read-only untrusted memory of size 0 */
				return WALK_PTR_UNTRUSTED;
			}
			if (off + size > mtrue_end && !*untrusted) {
				snprintf(why, wsz, "access beyond the end of member %s (mend:%u) in struct %s with off %u size %u",
				       mname, (unsigned)mtrue_end, tname, (unsigned)off, (unsigned)size);
				return WALK_ERR;
			}
			return WALK_SCALAR;
		}
		if (dive)
			continue;
		snprintf(why, wsz, "struct %s doesn't have field at offset %d", tname, off);
		return WALK_ERR;
	}
	return WALK_ERR;
}

/* btf_struct_access: walk, diving into nested structs at offset 0;
 * WALK_SCALAR, WALK_PTR (*ptr_type: the pointer member's type) or WALK_ERR */
static int walk(const struct btf *b, uint32_t id, int off, int size, uint32_t *ptr_type, const char **field,
		bool *untrusted, char *why, size_t wsz)
{
	for (int depth = 0; depth < 64; depth++) {
		uint32_t cur = id;
		int r = walk_step(b, &cur, off, size, field, untrusted, why, wsz);
		if (r == WALK_PTR)
			*ptr_type = cur;
		if (r != WALK_STRUCT)
			return r;
		id = cur;
		off = 0;
	}
	return WALK_ERR;
}

/* 1 trusted, 2 trusted or NULL, 3 RCU, 4 RCU or NULL (the BTF_TYPE_SAFE_*
 * lists of 6.18's verifier.c; dentry, mm_struct and sk_buff measured on
 * 6.18.44 with tp_btf programs: d_inode trusted_ptr_or_null_, exe_file and
 * sk rcu_ptr_or_null_). 7.2.13 adds (profile.h safe_fields_72)
 * vm_area_struct's vm_mm and vm_file, trusted or NULL (6.18.44: untrusted),
 * and cgroup_subsys_state's cgroup, RCU. */
static int safe_field(const struct rb_env *env, const char *type, const char *field)
{
	static const struct {
		const char *type, *field;
		int kind;
		bool only72;
	} tab[] = {
		{"bpf_iter_meta", "seq", 1, false},         {"bpf_iter__task", "task", 1, false},
		{"linux_binprm", "file", 1, false},         {"file", "f_inode", 1, false},
		{"dentry", "d_inode", 2, false},            {"socket", "sk", 2, false},
		{"task_struct", "cpus_ptr", 3, false},      {"task_struct", "cgroups", 3, false},
		{"task_struct", "real_parent", 3, false},   {"task_struct", "group_leader", 3, false},
		{"css_set", "dfl_cgrp", 3, false},          {"cgroup", "kn", 3, false},
		{"mm_struct", "exe_file", 4, false},        {"mm_struct", "owner", 4, false},
		{"sk_buff", "sk", 4, false},                {"request_sock", "sk", 4, false},
		{"vm_area_struct", "vm_mm", 2, true},       {"vm_area_struct", "vm_file", 2, true},
		{"cgroup_subsys_state", "cgroup", 3, true},
	};
	for (size_t i = 0; i < ARRAY_SIZE(tab); i++)
		if (!strcmp(tab[i].type, type) && !strcmp(tab[i].field, field) &&
		    (!tab[i].only72 || env->prof->safe_fields_72))
			return tab[i].kind;
	return 0;
}

/* 6.18 tc_cls_act_btf_struct_access / xdp_btf_struct_access: writes
 * through a BTF pointer go to nf_conntrack's hook
 * (_nf_conntrack_btf_struct_access; nf_conntrack is loaded here, measured
 * on 6.18.44): struct nf_conn and nf_conn___init (same layout) may have
 * their mark written, nothing else */
static int nf_conn_write(struct rb_env *env, const struct btf *b, uint32_t sid, const char *tname, int off, int size)
{
	uint32_t pt = env->prog->prog_type;
	bool hooked = pt == BPF_PROG_TYPE_SCHED_CLS || pt == BPF_PROG_TYPE_SCHED_ACT || pt == BPF_PROG_TYPE_XDP;
	if (!hooked || (strcmp(tname, "nf_conn") && strcmp(tname, "nf_conn___init")))
		return rb_reject(env, "only read is supported");
	const struct btf_type *t = btf__type_by_id(b, sid);
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(b, m->name_off);
		int moff = (int)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		if (!mname || strcmp(mname, "mark") || off != moff)
			continue;
		int64_t end = moff + btf__resolve_size(b, m->type);
		if (off + size > end)
			return rb_reject(env, "write access at off %d with size %d beyond the member of nf_conn ended at %lld",
					 off, size, (long long)end);
		return 0;
	}
	return rb_reject(env, "no write support to nf_conn at off %d", off);
}

int rb_btf_walk(const struct btf *b, uint32_t id, int off, int size, char *why, size_t wsz)
{
	uint32_t ptype = 0;
	const char *field = "";
	bool via_union = false;
	return walk(b, id, off, size, &ptype, &field, &via_union, why, wsz) == WALK_ERR ? -1 : 0;
}

int rb_btf_ptr_off(struct rb_env *env, const struct rb_reg *reg, int regno, const char *tname, int *off)
{
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d is ptr_%s invalid variable offset: off=%d", regno, tname, *off);
	*off += (int)rb_reg_const_val(env, reg);
	if (*off < 0)
		return rb_reject(env, "R%d is ptr_%s invalid negative access: off=%d", regno, tname, *off);
	if (reg->flags & RF_PERCPU)
		return rb_reject(env, "R%d is ptr_%s access percpu memory: off=%d", regno, tname, *off);
	return 0;
}

int rb_btf_load(struct rb_env *env, const struct rb_reg *reg, int regno, int off, int size, bool write,
		struct rb_reg *out)
{
	if (RB_IS_PROG_BTF(reg))
		return rb_alloc_access(env, reg, regno, off, size, write, out);
	const struct btf *b = env->vmlinux;
	uint32_t sid = (uint32_t)reg->map_idx;
	const struct btf_type *t = b ? rb_btf_skip_mods(b, sid, &sid, NULL) : NULL;
	if (!t)
		return rb_unsupported(env, "BTF pointer without vmlinux BTF");
	const char *tname = btf__name_by_offset(b, t->name_off);
	/* 6.18 and 7.2.13 check_ptr_to_btf_access: kernel structs are read
	 * (or written) only by GPL-compatible programs */
	if (!rb_license_gpl_compatible(env->prog->license))
		return rb_reject(env, "Cannot access kernel 'struct %s' from non-GPL compatible program", tname);
	if (rb_btf_ptr_off(env, reg, regno, tname, &off) < 0)
		return RB_E_REJECT;
	/* writes: a struct_ops type's btf_struct_access (6.18 check_ptr_to_btf_access) */
	if (write)
		return env->st_ops ? rb_struct_ops_write(env, regno, sid, off, size) : nf_conn_write(env, b, sid, tname, off, size);
	uint32_t ptype = 0;
	const char *field = "";
	char why[256] = "";
	bool via_union = false;
	int w = walk(b, sid, off, size, &ptype, &field, &via_union, why, sizeof(why));
	if (w == WALK_ERR)
		return rb_reject(env, "%s", why);
	if (w == WALK_PTR) {
		bool rcu = false;
		uint32_t pid;
		const struct btf_type *pt = btf__type_by_id(b, ptype);
		const struct btf_type *target = rb_btf_skip_mods(b, pt->type, &pid, &rcu);
		if (target && btf_is_composite(target)) {
			/* 6.18 and 7.2.13 check_ptr_to_btf_access: walked pointers are untrusted, except the fields the kernel
			 * lists as trusted (BTF_TYPE_SAFE_TRUSTED) or RCU-protected
			 * (BTF_TYPE_SAFE_RCU, __rcu tags) when the parent is trusted */
			uint8_t flags = RF_UNTRUSTED;
			/* is_trusted_reg counts a referenced pointer as trusted */
			bool parent = ((reg->flags & (RF_TRUSTED | RF_RCU)) || reg->ref_obj_id) && !(reg->flags & RF_UNTRUSTED);
			int kind = parent && !via_union ? safe_field(env, tname, field) : 0;
			/* 7.2 (profile.h walk_plain_ptr): in_rcu_cs (rcu.c); an
			 * unlisted field is a plain pointer there */
			bool in_rcu = rb_in_rcu_cs(env);
			if (kind == 1)
				flags = RF_TRUSTED;
			else if (kind == 2)
				flags = RF_TRUSTED | RF_MAYBE_NULL;
			else if (!env->prof->walk_plain_ptr)
				flags = kind == 3 ? RF_RCU : kind == 4 || (rcu && !via_union) ? RF_RCU | RF_MAYBE_NULL : RF_UNTRUSTED;
			else if (!parent && !(reg->flags & RF_UNTRUSTED))
				flags = via_union ? RF_UNTRUSTED : 0; /* 7.2 "old compat": a plain parent (an iterator's
					    * object) gives a plain pointer, untrusted through a union (clear_trusted_flags) */
			else if (!parent || via_union || !in_rcu || (reg->flags & RF_MAYBE_NULL))
				flags = RF_UNTRUSTED;
			else if (kind == 3)
				flags = RF_RCU;
			else if (kind == 4 || rcu)
				flags = RF_RCU | RF_MAYBE_NULL;
			else
				flags = 0; /* "walking unknown pointers yields old deprecated PTR_TO_BTF_ID" */
			rb_reg_ptr(env, out, RT_BTF_ID);
			out->map_idx = (int32_t)pid;
			out->flags = flags;
			if (flags & RF_MAYBE_NULL)
				out->id = ++env->id_gen;
			return 0;
		}
	}
	if (w == WALK_PTR_UNTRUSTED) {
		/* 6.18 btf_struct_access/mark_btf_ld_reg: PTR_TO_MEM |
		 * MEM_RDONLY | PTR_UNTRUSTED, mem_size 0, read by probe loads */
		rb_reg_ptr(env, out, RT_MEM);
		out->flags = RF_RDONLY | RF_UNTRUSTED;
		out->range = 0;
		return 0;
	}
	rb_reg_unknown(env, out);
	return 0;
}
