/* helpers.c — the helper call check (Linux 6.18 check_helper_call for a
 * privileged loader), reading the helper table (helper_table.c) and the
 * program type table (prog_types.c). */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "engine/btf_names.h"
#include "engine/engine.h"
#include "engine/kptrs.h"
#include "engine/locks.h"
#include "engine/lsm.h"
#include "engine/backtrack.h"
#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/call.h"
#include "engine/callbacks.h"
#include "engine/dynptr.h"
#include "engine/helper_args.h"
#include "engine/const_str.h"
#include "engine/helper_gpl.h"
#include "engine/helper_sets.h"
#include "engine/helper_sets72.h"
#include "engine/profile.h"
#include "engine/helper_table.h"
#include "engine/helpers.h"
#include "engine/struct_ops.h"
#include "util/array_size.h"
#include "engine/log.h"
#include "engine/map_compat.h"
#include "engine/mem.h"
#include "engine/names.h"
#include "engine/prog_types.h"
#include "engine/refs.h"
#include "engine/rcu.h"

/* cgroup_common_func_proto: get_retval/set_retval are not available from
 * these attach types */
static bool retval_refused(const struct rb_prog_type *pt, uint32_t at)
{
	if (pt->type == BPF_PROG_TYPE_CGROUP_SKB)
		return at == BPF_CGROUP_INET_INGRESS || at == BPF_CGROUP_INET_EGRESS;
	switch (at) {
	case BPF_CGROUP_INET_INGRESS:
	case BPF_CGROUP_INET_EGRESS:
	case BPF_CGROUP_SOCK_OPS:
	case BPF_CGROUP_UDP4_RECVMSG:
	case BPF_CGROUP_UDP6_RECVMSG:
	case BPF_CGROUP_INET4_GETPEERNAME:
	case BPF_CGROUP_INET6_GETPEERNAME:
	case BPF_CGROUP_INET4_GETSOCKNAME:
	case BPF_CGROUP_INET6_GETSOCKNAME:
		return rb_prog_has_helper_sets(pt);
	default:
		return false;
	}
}

/* may this program call helper id (6.18 get_func_proto)? 0, or the
 * kernel's rejection, or "unsupported" where the tables cannot tell (a
 * type without a measured helper set, and a helper its class does not
 * name). h is the modelled prototype, NULL when there is none. */
/* a helper's label for a message, formatted only when one is made (not
 * at every call the helper passes) */
#define LB rb_helper_label(id, lb, sizeof(lb))

static int check_available(struct rb_env *env, int32_t id, const struct rb_helper *h)
{
	const struct rb_prog_type *pt = env->ptype;
	uint32_t at = env->prog->expected_attach_type;
	char lb[64]; /* the label, formatted only for a message (LB) */
	bool retval = id == BPF_FUNC_get_retval || id == BPF_FUNC_set_retval;
	if (retval && retval_refused(pt, at))
		return rb_reject(env, "program of this type cannot use helper %s", LB);
	/* measured on 6.18.44: refused to kprobe, tracepoint, perf_event and
	 * raw_tracepoint programs (test_verifier's helper_restricted) */
	if (id == BPF_FUNC_ktime_get_coarse_ns &&
	    (pt->type == BPF_PROG_TYPE_KPROBE || pt->type == BPF_PROG_TYPE_TRACEPOINT ||
	     pt->type == BPF_PROG_TYPE_PERF_EVENT || pt->type == BPF_PROG_TYPE_RAW_TRACEPOINT))
		return rb_reject(env, "program of this type cannot use helper %s", LB);
	const uint64_t *set = rb_struct_ops_helper_set(env);
	/* the running kernel's set where it was measured (not for a 7.2 profile's set) */
	const struct rb_helper_source *hs = NULL;
	if (!set) {
		set = rb_prog_helper_set(pt, at);
		hs = set && env->opts ? env->opts->helpers : NULL;
	}
	const char *target = env->prog->attach_btf_id ? rb_btf_name(env, env->prog->attach_btf_id) : NULL;
	uint64_t buf72[4];
	const uint64_t *s72 = env->prof->helper_sets_72 ? rb_helper_set_72(pt, at, target, buf72) : NULL;
	if (s72)
		set = s72, hs = NULL;
	int k = -1; /* the kernel's answer: 1, 0, or -1 unmeasured */
	if (hs && hs->has) {
		/* an id outside 1..255 is in no set, measured or compiled-in */
		k = id > 0 && id < 256 ? hs->has(hs->ctx, pt->type, at, id) : -1;
	} else if (hs) {
		const uint64_t *ks = hs->set(hs->ctx, pt->type, at);
		if (ks)
			set = ks;
	}
	if (k >= 0)
		return k ? 0 : rb_reject(env, "program of this type cannot use helper %s", LB);
	if (!set && pt->type == BPF_PROG_TYPE_TRACING)
		set = rb_tracing_helper_set(at, target);
	if (set)
		return id > 0 && id < 256 && ((set[id / 64] >> (id % 64)) & 1)
			       ? 0
			       : rb_reject(env, "program of this type cannot use helper %s", LB);
	/* The class of a type without a measured set is an approximation of the
	 * kernel's get_func_proto callbacks: a helper it does not list for the
	 * type is reported unsupported rather than risking a false rejection. */
	if (!h || !(h->classes & pt->helper_classes) || (h->flags & HF_SET_ONLY))
		return rb_unsupported(env, "helper %s: its availability to program type %s is not modelled", LB,
				      pt->name);
	return 0;
}

/* an available helper: is its prototype for this program type the one
 * modelled? 0, or "unsupported" */
static int check_modelled(struct rb_env *env, int32_t id, const struct rb_helper *h, bool variant)
{
	const struct rb_prog_type *pt = env->ptype;
	char lb[64];
	if (!h)
		return rb_unsupported(env, "helper %s: its prototype is not modelled", LB);
	/* a type with classes as well as a set: the class names the types the
	 * modelled prototype is for */
	if (variant)
		return 0;
	/* bpf_lsm_func_proto gives lsm_cgroup programs bpf_get_local_storage_proto,
	 * the cgroup types' prototype (6.18 and 7.2.13; available where the
	 * program's helper set has it) */
	if (h->id == BPF_FUNC_get_local_storage && pt->type == BPF_PROG_TYPE_LSM &&
	    env->prog->expected_attach_type == BPF_LSM_CGROUP)
		return 0;
	if (pt->helper_classes ? !(h->classes & pt->helper_classes) : rb_helper_proto_differs(h->id, pt->type))
		return rb_unsupported(env, "helper %s: its prototype for program type %s is not modelled", LB,
				      pt->name);
	return 0;
}
#undef LB

/* 6.18 check_helper_call after the licence: a prototype's .allowed
 * callback ("helper call is not allowed in probe"), then .might_sleep */
static int check_allowed(struct rb_env *env, const struct rb_helper *p)
{
	const struct rb_prog *prog = env->prog;
	uint32_t at = prog->expected_attach_type;
	bool tracing = env->ptype->type == BPF_PROG_TYPE_TRACING;
	if (p->id == BPF_FUNC_d_path && !(tracing && at == BPF_TRACE_ITER)) {
		/* bpf_d_path_allowed: iterators, LSM programs on a sleepable
		 * hook (sleepable_lsm_hooks, whether the program sleeps or
		 * not), and trampolines on the functions of
		 * btf_allowlist_d_path (the same list in 6.18 and 7.2.13, with
		 * CONFIG_SECURITY and CONFIG_SECURITY_PATH); a tracepoint is
		 * none of them */
		static const char *const allow[] = {
			"security_file_permission", "security_inode_getattr", "security_file_open",
			"security_path_truncate",   "vfs_truncate",           "vfs_fallocate",
			"dentry_open",              "vfs_getattr",            "filp_close",
		};
		bool ok = false;
		if (env->ptype->type == BPF_PROG_TYPE_LSM)
			ok = rb_lsm_sleepable_hook(env->func_name);
		else if (!tracing)
			return rb_unsupported(env, "bpf_d_path#%d for program type %s", p->id, env->ptype->name);
		for (size_t i = 0; tracing && at != BPF_TRACE_RAW_TP && i < ARRAY_SIZE(allow); i++)
			ok |= !strcmp(env->func_name, allow[i]);
		if (!ok)
			return rb_reject(env, "helper call is not allowed in probe");
	}
	if (tracing && (p->id == BPF_FUNC_sk_storage_get || p->id == BPF_FUNC_sk_storage_delete)) {
		/* bpf_sk_storage_tracing_allowed */
		bool ok = at == BPF_TRACE_ITER || at == BPF_TRACE_RAW_TP ||
			  ((at == BPF_TRACE_FENTRY || at == BPF_TRACE_FEXIT) &&
			   strncmp(prog->attach_name, "bpf_sk_storage", strlen("bpf_sk_storage")));
		if (!ok)
			return rb_reject(env, "helper call is not allowed in probe");
	}
	/* bpf_ima_inode_hash_allowed (both ima helpers): the hook is sleepable */
	if ((p->id == BPF_FUNC_ima_file_hash || p->id == BPF_FUNC_ima_inode_hash) &&
	    !rb_lsm_sleepable_hook(env->func_name))
		return rb_reject(env, "helper call is not allowed in probe");
	if ((p->flags & HF_MIGHT_SLEEP) && !(prog->prog_flags & BPF_F_SLEEPABLE))
		return rb_reject(env, "helper call might sleep in a non-sleepable prog");
	if (p->flags & HF_MIGHT_SLEEP) {
		char n[64];
		snprintf(n, sizeof(n), "bpf_%s", p->name);
		return rb_rcu_check_sleepable(env, n, p->id, true);
	}
	return 0;
}

/* RET_PTR_TO_MAP_VALUE_OR_NULL: what a lookup in map ca->map_idx gives */
static int set_map_value_return(struct rb_env *env, const struct rb_helper *p, const struct rb_call_args *ca,
				struct rb_reg *r0)
{
	const struct rb_map *m = &env->obj->maps[ca->map_idx];
	if (m->type == BPF_MAP_TYPE_SOCKMAP || m->type == BPF_MAP_TYPE_SOCKHASH) {
		/* an acquiring lookup: a map value or NULL that the null check
		 * turns into a socket (mark_ptr_not_null_reg) */
		rb_reg_ptr(env, r0, RT_MAP_VALUE);
		r0->map_idx = ca->map_idx;
		r0->flags = RF_MAYBE_NULL;
		return rb_acquire_ref_null(env, r0);
	}
	if (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || m->type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		if (m->inner_map_idx < 0)
			return rb_unsupported(env, "map-in-map lookup without an inner map template");
		/* measured on 6.18.44: a map-in-map lookup is the inner map's
		 * pointer or NULL from the call on ("map_ptr_or_null(id=N,ks=..,
		 * vs=..)"), never elided */
		rb_reg_ptr(env, r0, RT_MAP_PTR);
		r0->map_idx = m->inner_map_idx;
		RB_MAP_UID(r0) = ca->map_uid;
		r0->flags = RF_MAYBE_NULL;
		r0->id = ++env->id_gen;
		return 0;
	}
	if (m->type == BPF_MAP_TYPE_XSKMAP) {
		/* the same for an XSKMAP: "xdp_sock_or_null(id=N)" at the call */
		rb_reg_ptr(env, r0, RT_XDP_SOCK);
		r0->flags = RF_MAYBE_NULL;
		r0->id = ++env->id_gen;
		return 0;
	}
	rb_reg_ptr(env, r0, RT_MAP_VALUE);
	r0->map_idx = ca->map_idx;
	RB_MAP_UID(r0) = ca->map_uid; /* an inner map's value: that lookup's uid */
	/* 6.13+: an array lookup with a constant in-range key cannot fail */
	if (p->id == BPF_FUNC_map_lookup_elem && ca->const_key >= 0 && (uint64_t)ca->const_key < m->max_entries) {
		/* a value that may hold a bpf_spin_lock gets an id (the lock's identity) */
		if (rb_map_has_lock(env, ca->map_idx))
			r0->id = ++env->id_gen;
		return 0;
	}
	r0->flags = RF_MAYBE_NULL;
	r0->id = ++env->id_gen;
	return 0;
}

/* bpf_get_smp_processor_id: [0, nr_cpu_ids - 1] (6.18 do_refine_retval_range) */
static void cpu_id_range(struct rb_env *env, struct rb_reg *r)
{
	long ncpu = env->opts && env->opts->nr_cpu_ids ? (long)env->opts->nr_cpu_ids : 2;
	rb_reg_unknown(env, r);
	struct rb_bounds b;
	env->t->bounds(&r->val, &b);
	b.umin = b.u32_min = 0;
	b.smin = b.s32_min = 0;
	b.umax = b.u32_max = (uint64_t)(ncpu - 1);
	b.smax = b.s32_max = ncpu - 1;
	env->t->from_bounds(&r->val, &b);
}

static bool ref_held(const struct rb_vstate *st, uint32_t id)
{
	for (int i = 0; id && i < st->nrefs; i++)
		if (st->refs[i] == id)
			return true;
	return false;
}

/* 7.2 check_helper_call (profile.h ptr_cast_branch): a pointer cast of a
 * referenced object explores its NULL result as a branch of its own (R0
 * the constant 0, from the next instruction) and goes on with R0 not
 * NULL, carrying the object's reference id as its id ("a cast might
 * return NULL for a non-NULL input") */
static int cast_null_branch(struct rb_env *env, struct rb_reg *r0, uint32_t ref)
{
	struct rb_vstate *b = rb_push_branch(env, env->insn_idx + 1, env->insn_idx);
	if (!b)
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	rb_reg_const(env, &b->frame[b->curframe]->regs[0], 0);
	r0->flags &= ~RF_MAYBE_NULL;
	r0->id = ref;
	return 0;
}

/* RET_PTR_TO_MEM_OR_BTF_ID (6.18 check_helper_call; 7.2.13 the same):
 * this CPU's (or a given CPU's, maybe NULL) copy of a per-CPU variable:
 * read-only memory of the type's size, or, for a struct, a BTF pointer
 * (MEM_RDONLY dropped) to the variable's type as written */
static int set_percpu_return(struct rb_env *env, const struct rb_call_args *ca, bool maybe_null, struct rb_reg *r0)
{
	if (ca->ret_alloc_rcu) {
		/* 6.18 and 7.2.13: PTR_TO_BTF_ID | MEM_ALLOC | MEM_RCU, never
		 * NULL (the type replaces the helper's PTR_MAYBE_NULL) */
		rb_reg_ptr(env, r0, RT_BTF_ID);
		r0->map_idx = ca->ret_btf_id;
		r0->range = RB_BTF_ALLOC;
		r0->flags = RF_RCU;
		return 0;
	}
	const struct btf *b = env->vmlinux;
	int32_t type = b ? btf__resolve_type(b, (uint32_t)ca->ret_btf_id) : -1;
	const struct btf_type *t = type > 0 ? btf__type_by_id(b, (uint32_t)type) : NULL;
	if (!t)
		return rb_unsupported(env, "per-CPU pointer type %d", ca->ret_btf_id);
	if (btf_is_struct(t)) {
		rb_reg_ptr(env, r0, RT_BTF_ID);
		r0->map_idx = ca->ret_btf_id;
	} else {
		int64_t sz = btf__resolve_size(b, (uint32_t)type);
		if (sz < 0)
			return rb_reject(env, "unable to resolve the size of type '%s': %lld",
					 btf__name_by_offset(b, t->name_off), (long long)sz);
		rb_reg_ptr(env, r0, RT_MEM);
		r0->flags = RF_RDONLY;
		r0->range = (int32_t)sz;
	}
	if (maybe_null) {
		r0->flags |= RF_MAYBE_NULL;
		r0->id = ++env->id_gen;
	}
	return 0;
}

/* R0 from the helper's return type (the registers r0-r5 are clobbered first) */
static int set_return(struct rb_env *env, const struct rb_helper *p, const struct rb_call_args *ca)
{
	struct rb_reg *regs = rb_cur_regs(env);
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
	switch (p->ret) {
	case R_INT:
		rb_reg_unknown(env, &regs[0]);
		break;
	case R_SIZE_OR_ERR: {
		rb_reg_unknown(env, &regs[0]);
		struct rb_bounds b;
		env->t->bounds(&regs[0].val, &b);
		b.smax = (int64_t)ca->msize_max;
		b.s32_max = (int64_t)ca->msize_max;
		b.smin = -4095;
		b.s32_min = -4095;
		env->t->from_bounds(&regs[0].val, &b);
		break;
	}
	case R_CPU_ID:
		cpu_id_range(env, &regs[0]);
		break;
	case R_VOID:
		rb_reg_not_init(env, &regs[0]);
		break;
	case R_MAP_VALUE:
		rb_reg_ptr(env, &regs[0], RT_MAP_VALUE);
		regs[0].map_idx = ca->map_idx;
		break;
	case R_BTF_TASK: {
		int32_t id = rb_btf_struct_id(env, "task_struct");
		if (id <= 0)
			return rb_unsupported(env, "bpf_get_current_task_btf#%d without vmlinux BTF", BPF_FUNC_get_current_task_btf);
		rb_reg_ptr(env, &regs[0], RT_BTF_ID);
		regs[0].map_idx = id;
		regs[0].flags = RF_TRUSTED;
		break;
	}
	case R_MAP_VALUE_OR_NULL:
		return set_map_value_return(env, p, ca, &regs[0]);
	case R_KPTR:
		return rb_kptr_xchg_return(env, ca, &regs[0]);
	case R_PERCPU_MEM:
	case R_PERCPU_MEM_OR_NULL:
		return set_percpu_return(env, ca, p->ret == R_PERCPU_MEM_OR_NULL, &regs[0]);
	case R_BTF_PTR: {
		/* RET_PTR_TO_BTF_ID: an untrusted pointer, never NULL */
		int32_t sid = rb_btf_struct_id(env, rb_helper_ret_struct(p->id));
		if (sid <= 0)
			return rb_unsupported(env, "bpf_%s without vmlinux BTF", p->name);
		rb_reg_ptr(env, &regs[0], RT_BTF_ID);
		regs[0].map_idx = sid;
		break;
	}
	case R_SOCK_OR_NULL:
	case R_TCP_SOCK_OR_NULL:
	case R_BTF_SOCK_OR_NULL: {
		/* not acquired: a cast carries its argument's reference */
		enum rb_rtype rt = p->ret == R_SOCK_OR_NULL ? RT_SOCKET : p->ret == R_TCP_SOCK_OR_NULL ? RT_TCP_SOCK : RT_BTF_ID;
		int32_t sid = 0;
		if (rt == RT_BTF_ID && (sid = rb_btf_struct_id(env, rb_helper_ret_struct(p->id))) <= 0)
			return rb_unsupported(env, "bpf_%s without vmlinux BTF", p->name);
		rb_reg_ptr(env, &regs[0], rt);
		regs[0].map_idx = sid;
		regs[0].flags = RF_MAYBE_NULL;
		regs[0].id = ++env->id_gen;
		if (p->flags & HF_PTR_CAST)
			regs[0].ref_obj_id = ca->ref_obj_id;
		if ((p->flags & HF_PTR_CAST) && env->prof->ptr_cast_branch && ref_held(env->cur, ca->ref_obj_id))
			return cast_null_branch(env, &regs[0], ca->ref_obj_id);
		break;
	}
	case R_SOCK_COMMON_OR_NULL:
	case R_SOCKET_OR_NULL: {
		rb_reg_ptr(env, &regs[0], p->ret == R_SOCKET_OR_NULL ? RT_SOCKET : RT_SOCK_COMMON);
		regs[0].flags = RF_MAYBE_NULL;
		return rb_acquire_ref_null(env, &regs[0]);
	}
	case R_DYNPTR_MEM_OR_NULL:
		/* a slice: the dynptr's reference (its release invalidates the
		 * slice) and its id (destroying the dynptr does) */
		rb_reg_ptr(env, &regs[0], RT_MEM);
		regs[0].flags = RF_MAYBE_NULL;
		regs[0].range = (int32_t)ca->alloc_size;
		regs[0].id = ++env->id_gen;
		regs[0].ref_obj_id = ca->dynptr.ref_obj_id;
		RB_SLICE_DYNPTR_ID(&regs[0]) = (int32_t)ca->dynptr.id;
		break;
	case R_RINGBUF_OR_NULL: {
		rb_reg_ptr(env, &regs[0], RT_MEM);
		regs[0].flags = RF_MAYBE_NULL | RF_RINGBUF;
		regs[0].range = (int32_t)ca->alloc_size;
		return rb_acquire_ref_null(env, &regs[0]);
	}
	}
	return 0;
}

/* 6.18: a successful tail call from a subprogram leaves it at once with
 * the tail-called program's result; the failed call falls through */
static int tail_call_exit(struct rb_env *env, int insn_idx)
{
	if (!rb_push_branch(env, insn_idx + 1, insn_idx))
		return env->done ? RB_E_REJECT : RB_E_NOMEM;
	rb_reg_unknown(env, &rb_cur_regs(env)[0]);
	int next = insn_idx;
	int rc = rb_subprog_return(env, &next);
	if (rc < 0)
		return rc;
	env->insn_idx = next - 1; /* the caller of this function adds one */
	return 0;                 /* (no "from" line: 6.18 prints none here) */
}

int rb_check_helper_call(struct rb_env *env, const struct bpf_insn *insn, int insn_idx)
{
	bool variant;
	const struct rb_helper *p =
		rb_helper_proto_for(insn->imm, env->ptype->type, env->prog->expected_attach_type, &variant);
	char lb[64];
	int err;
	/* 6.18 check_helper_call: the id, get_func_proto, then the licence */
	if (insn->imm < 0 || insn->imm >= RB_FUNC_MAX_ID)
		return rb_reject(env, "invalid func %s", rb_helper_label(insn->imm, lb, sizeof(lb)));
	if ((err = check_available(env, insn->imm, p)))
		return err;
	if (!rb_license_gpl_compatible(env->prog->license) &&
	    rb_helper_gpl_only(insn->imm, env->ptype->type, env->prog->expected_attach_type))
		return rb_reject(env, "cannot call GPL-restricted function from non-GPL compatible program");
	if ((err = check_modelled(env, insn->imm, p, variant)))
		return err;
	if ((err = check_allowed(env, p)))
		return err;
	struct rb_call_args ca = {.map_idx = -1, .const_key = -1, .subprog = -1};
	for (int a = 0; a < 5 && p->args[a] != A_NONE; a++)
		if ((err = rb_check_helper_arg(env, p, a, &ca)))
			return err;
	if ((err = rb_check_helper_map(env, p, &ca)))
		return err;
	struct rb_reg *regs = rb_cur_regs(env);
	/* record_func_key (6.18): a prog array only (its message has no
	 * newline: the kernel's log runs on into the next line), and a
	 * constant in-range tail-call index is precise */
	if (p->id == BPF_FUNC_tail_call && env->obj->maps[ca.map_idx].type != BPF_MAP_TYPE_PROG_ARRAY)
		return rb_reject(env, "expected prog array map for tail call");
	if (p->id == BPF_FUNC_tail_call && rb_reg_is_const(env, &regs[3]) &&
	    rb_reg_const_val(env, &regs[3]) < env->obj->maps[ca.map_idx].max_entries &&
	    (err = rb_mark_chain_precision(env, 3)))
		return err;
	if (ca.dynptr.release && (err = rb_dynptr_release(env, ca.dynptr.regno)))
		return err;
	if (ca.release_id && ca.kptr_percpu && (err = rb_kptr_percpu_stored(env, ca.release_id)))
		return err;
	if (ca.release_id)
		rb_release_ref(env, ca.release_id);
	/* 6.18 check_bpf_snprintf_call: the format against the data's size */
	if (p->id == BPF_FUNC_snprintf && (err = rb_check_snprintf_format(env)))
		return err;
	if (p->id == BPF_FUNC_tail_call && rb_ptr_refs(env->cur))
		return rb_reject(env, "tail_call would lead to reference leak");
	if (p->id == BPF_FUNC_tail_call && (err = rb_rcu_check_leak(env, "tail_call")))
		return err;
	/* 6.18 check_helper_call: get_local_storage() cannot fail, so its flags must be 0 */
	if (p->id == BPF_FUNC_get_local_storage &&
	    !(regs[2].type == RT_SCALAR && rb_reg_is_const(env, &regs[2]) && !rb_reg_const_val(env, &regs[2])))
		return rb_reject(env, "get_local_storage() doesn't support non-zero flags");
	/* 6.18 check_helper_call: a local dynptr only over a map value */
	if (p->id == BPF_FUNC_dynptr_from_mem && regs[1].type != RT_MAP_VALUE) {
		char tn[48];
		return rb_reject(env, "Unsupported reg type %s for bpf_dynptr_from_mem data",
				 rb_rtype_name(&regs[1], tn, sizeof(tn)));
	}
	if ((err = rb_helper_callback(env, p->id, insn_idx, ca.subprog)))
		return err;
	if ((err = set_return(env, p, &ca)))
		return err;
	if (p->flags & HF_PKT_CHANGES)
		rb_clear_pkt_pointers(env);
	if (p->id == BPF_FUNC_tail_call && env->cur->curframe > 0)
		return tail_call_exit(env, insn_idx);
	return 0;
}
