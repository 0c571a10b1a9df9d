/* helpers.c — the helper call check (Linux 6.18 check_helper_call for a
 * privileged loader), reading the helper table (helper_table.c) and the
 * program type table (prog_types.c). */
#include <stdlib.h>
#include <string.h>

#include "engine/backtrack.h"
#include "engine/branches.h"
#include "engine/btf.h"
#include "engine/call.h"
#include "engine/helper_table.h"
#include "engine/helpers.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/names.h"
#include "engine/prog_types.h"
#include "engine/refs.h"

/* the map types the sockmap helpers take (check_map_func_compatibility) */
static bool sock_map_helper(int32_t id, uint32_t map_type)
{
	switch (id) {
	case BPF_FUNC_sock_map_update:
	case BPF_FUNC_sk_redirect_map:
	case BPF_FUNC_msg_redirect_map:
		return map_type == BPF_MAP_TYPE_SOCKMAP;
	case BPF_FUNC_sock_hash_update:
	case BPF_FUNC_sk_redirect_hash:
	case BPF_FUNC_msg_redirect_hash:
		return map_type == BPF_MAP_TYPE_SOCKHASH;
	case BPF_FUNC_sk_select_reuseport:
		return map_type == BPF_MAP_TYPE_SOCKMAP || map_type == BPF_MAP_TYPE_SOCKHASH ||
		       map_type == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY;
	default:
		return false;
	}
}

static bool is_sock_map_helper(int32_t id)
{
	return sock_map_helper(id, BPF_MAP_TYPE_SOCKMAP) || sock_map_helper(id, BPF_MAP_TYPE_SOCKHASH);
}


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

/* may this program call h (get_func_proto)? 0, or a rejection, or
 * "unsupported" where the tables do not model the answer */
static int check_available(struct rb_env *env, const struct rb_helper *h)
{
	const struct rb_prog_type *pt = env->ptype;
	uint32_t at = env->prog->expected_attach_type;
	bool retval = h->id == BPF_FUNC_get_retval || h->id == BPF_FUNC_set_retval;
	if (retval && retval_refused(pt, at))
		return rb_reject(env, "program of this type cannot use helper bpf_%s#%d", h->name, h->id);
	/* measured on 6.18.44: refused to kprobe, tracepoint, perf_event and
	 * raw_tracepoint programs (test_verifier's helper_restricted) */
	if (h->id == BPF_FUNC_ktime_get_coarse_ns &&
	    (pt->type == BPF_PROG_TYPE_KPROBE || pt->type == BPF_PROG_TYPE_TRACEPOINT ||
	     pt->type == BPF_PROG_TYPE_PERF_EVENT || pt->type == BPF_PROG_TYPE_RAW_TRACEPOINT))
		return rb_reject(env, "program of this type cannot use helper bpf_%s#%d", h->name, h->id);
	const uint64_t *set = rb_prog_helper_set(pt, at);
	if (set) {
		if (h->id <= 0 || h->id >= 256 || !((set[h->id / 64] >> (h->id % 64)) & 1))
			return rb_reject(env, "program of this type cannot use helper bpf_%s#%d", h->name, h->id);
		if (rb_helper_proto_differs(h->id, pt->type))
			return rb_unsupported(env, "helper bpf_%s#%d prototype for program type %u", h->name, h->id,
					      pt->type);
		return 0;
	}
	/* The class of a type without a measured set is an approximation of the
	 * kernel's get_func_proto callbacks: a helper it does not list for the
	 * type is reported unsupported rather than risking a false rejection. */
	if (!(h->classes & pt->helper_classes))
		return rb_unsupported(env, "helper bpf_%s#%d for program type %u", h->name, h->id, pt->type);
	return 0;
}

/* maps that only their special helpers may take */
static bool map_compatible(const struct rb_map *m, const struct rb_helper *p)
{
	switch (m->type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		return p->id == BPF_FUNC_tail_call;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		return p->id == BPF_FUNC_perf_event_output || p->id == BPF_FUNC_perf_event_read ||
		       p->id == BPF_FUNC_perf_event_read_value;
	case BPF_MAP_TYPE_RINGBUF:
		return p->id == BPF_FUNC_ringbuf_output || p->id == BPF_FUNC_ringbuf_reserve ||
		       p->id == BPF_FUNC_ringbuf_query;
	case BPF_MAP_TYPE_STACK_TRACE:
		return p->id == BPF_FUNC_get_stackid;
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return p->id == BPF_FUNC_get_local_storage;
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return (p->id == BPF_FUNC_map_lookup_elem && m->type != BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) ||
		       sock_map_helper(p->id, m->type);
	case BPF_MAP_TYPE_SK_STORAGE:
		return p->id == BPF_FUNC_sk_storage_get || p->id == BPF_FUNC_sk_storage_delete;
	case BPF_MAP_TYPE_CGROUP_ARRAY:
		return p->id == BPF_FUNC_current_task_under_cgroup || p->id == BPF_FUNC_skb_under_cgroup;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
		return p->id == BPF_FUNC_redirect_map || p->id == BPF_FUNC_map_lookup_elem ||
		       (m->type == BPF_MAP_TYPE_DEVMAP || m->type == BPF_MAP_TYPE_DEVMAP_HASH ||
			m->type == BPF_MAP_TYPE_CPUMAP
			    ? (p->id == BPF_FUNC_map_update_elem || p->id == BPF_FUNC_map_delete_elem)
			    : false);
	default:
		if (is_sock_map_helper(p->id))
			return false;
		if (p->map_type == MAP_DEVMAPS || p->map_type == MAP_CGROUP_STORAGE)
			return false;
		if (p->map_type)
			return m->type == p->map_type;
		return true;
	}
}

static bool arg_nullable(int kind)
{
	return kind == A_MEM_RO_OR_NULL || kind == A_CTX_OR_NULL || kind == A_VALUE_OR_NULL ||
	       kind == A_SOCKET_OR_NULL;
}

static int check_size_arg(struct rb_env *env, int regno, bool zero_ok, int mem_regno, bool write,
			  uint64_t *umax_out, bool *is_const)
{
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	if (reg->type != RT_SCALAR)
		return rb_reject(env, "R%d type=%s expected=scalar", regno, rb_rtype_name(reg, tn, sizeof(tn)));
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	*umax_out = b.umax;
	*is_const = env->t->is_const(&reg->val);
	if (b.smin < 0)
		return rb_reject(env, "R%d min value is negative, either use unsigned or 'var &= const'", regno);
	if (b.umin == 0 && !zero_ok)
		return rb_reject(env, "R%d invalid zero-sized read: u64=[%llu,%llu]", regno,
				 (unsigned long long)b.umin, (unsigned long long)b.umax);
	if (b.umax >= (1u << 29))
		return rb_reject(env, "R%d unbounded memory access, use 'var &= const' or 'if (var < const)'", regno);
	int err = rb_check_mem_range(env, mem_regno, regno, b.umax, zero_ok, write);
	if (!err)
		err = rb_mark_chain_precision(env, regno);
	return err;
}


/* get_constant_map_key (6.13+): the key is a constant on the stack */
static int const_map_key(struct rb_env *env, const struct rb_reg *key, uint32_t key_size, int64_t *value)
{
	*value = -1;
	if (key->type != RT_STACK || !env->t->is_const(&key->val))
		return 0;
	struct rb_func *f = env->cur->frame[key->frameno];
	int stack_off = key->off + (int)rb_reg_const_val(env, key);
	int slot = -stack_off - 1, spi = slot / 8, off = slot % 8;
	if (spi < 0 || spi >= f->nslots)
		return 0;
	const uint8_t *stype = f->stack[spi].type;
	uint32_t zero_size = 0, spill_size = 0;
	for (int i = off; i >= 0 && stype[i] == SLOT_ZERO; i--)
		zero_size++;
	if (zero_size >= key_size) {
		*value = 0;
		return 0;
	}
	if (stype[7] != SLOT_SPILL || f->stack[spi].spilled.type != RT_SCALAR)
		return 0;
	for (int i = off; i >= 0 && stype[i] == SLOT_SPILL; i--)
		spill_size++;
	if (spill_size != key_size)
		return 0;
	const struct rb_reg *r = &f->stack[spi].spilled;
	if (!env->t->is_const(&r->val))
		return 0;
	int err = rb_mark_stack_precision(env, key->frameno, spi);
	if (err)
		return err;
	*value = (int64_t)rb_reg_const_val(env, r);
	return 0;
}

/* may_access_direct_pkt_data for a helper's memory argument: packet
 * pointers go only to helpers declared pkt_access (or, for some types, to any) */
static bool pkt_arg_ok(struct rb_env *env, const struct rb_helper *p)
{
	if (env->ptype->flags & PT_PKT_HELPER_ANY)
		return true;
	return (env->ptype->flags & PT_PKT_HELPER) && (p->flags & HF_PKT_ACCESS);
}

/* what the argument checks learn for the return value */
struct call_args {
	int map_idx;
	int64_t const_key;
	uint64_t msize_max, alloc_size;
	uint32_t release_id;
};

/* pointer arguments: ctx, map, sockets, BTF pointers, ringbuf records */
static int check_ptr_arg(struct rb_env *env, const struct rb_helper *p, int a, struct rb_reg *reg, const char *tn,
			  struct call_args *ca)
{
	int regno = a + 1;
	switch (p->args[a]) {
	case A_ANY:
		break;
	case A_CTX:
	case A_CTX_OR_NULL:
		if (reg->type != RT_CTX)
			return rb_reject(env, "R%d type=%s expected=ctx", regno, tn);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno,
					 reg->off);
		break;
	case A_MAP:
		if (reg->type != RT_MAP_PTR)
			return rb_reject(env, "R%d type=%s expected=map_ptr", regno, tn);
		ca->map_idx = reg->map_idx;
		if ((env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_SOCKMAP ||
		     env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_SOCKHASH ||
		     env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) &&
		    p->id != BPF_FUNC_map_lookup_elem && !is_sock_map_helper(p->id))
			return rb_unsupported(env, "sockmap/sockhash with bpf_%s", p->name);
		if (!map_compatible(&env->obj->maps[ca->map_idx], p))
			return rb_reject(env, "cannot pass map_type %u into func bpf_%s#%d",
					 env->obj->maps[ca->map_idx].type, p->name, p->id);
		break;
	case A_SOCK_COMMON:
		if (env->prog->prog_type == BPF_PROG_TYPE_CGROUP_SOCK) {
			/* bpf_sk_storage_get_cg_sock_proto: the ctx is the socket */
			if (reg->type != RT_CTX)
				return rb_reject(env, "R%d type=%s expected=ctx", regno, tn);
		} else if (reg->type == RT_BTF_ID) {
			return rb_unsupported(env, "BTF socket pointer passed to a helper");
		} else if ((reg->type != RT_SOCKET && reg->type != RT_SOCK_COMMON && reg->type != RT_TCP_SOCK &&
			    reg->type != RT_XDP_SOCK) ||
			   (reg->flags & RF_MAYBE_NULL)) {
			return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
					 regno, tn);
		}
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		break;
	case A_SOCKET_OR_NULL:
		if (reg->type != RT_SOCKET)
			return rb_reject(env, "R%d type=%s expected=sock", regno, tn);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		break;
	case A_SOCK_RELEASE:
		if (reg->type == RT_BTF_ID)
			return rb_unsupported(env, "BTF socket pointer passed to a helper");
		if ((reg->type != RT_SOCKET && reg->type != RT_SOCK_COMMON && reg->type != RT_TCP_SOCK &&
		     reg->type != RT_XDP_SOCK) ||
		    (reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
					 regno, tn);
		if (!reg->ref_obj_id)
			return rb_reject(env, "R%d must be referenced when passed to release function", regno);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		ca->release_id = reg->ref_obj_id;
		break;
	case A_BTF:
		if (reg->type != RT_BTF_ID || (reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=ptr_", regno, tn);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_reject(env, "R%d must have zero offset when passed to a helper", regno);
		break;
	case A_RINGBUF_REL:
		if (reg->type != RT_MEM || !(reg->flags & RF_RINGBUF) || (reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=ringbuf_mem", regno, tn);
		if (!reg->ref_obj_id)
			return rb_reject(env, "R%d must be referenced when passed to release function", regno);
		if (reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg))
			return rb_reject(env, "R%d must have zero offset when passed to release func", regno);
		ca->release_id = reg->ref_obj_id;
		break;
	default:
		break;
	}
	return 0;
}

/* memory arguments and their sizes: map keys and values, buffers, output slots */
static int check_mem_arg(struct rb_env *env, const struct rb_helper *p, int a, struct rb_reg *reg, const char *tn,
			  struct call_args *ca)
{
	int regno = a + 1, err = 0;
	switch (p->args[a]) {
	case A_VALUE_OR_NULL:
	case A_KEY:
	case A_VALUE: {
		if (ca->map_idx < 0)
			return rb_reject(env, "invalid map_ptr to access map->%s", p->args[a] == A_KEY ? "key" : "value");
		const struct rb_map *m = &env->obj->maps[ca->map_idx];
		if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
		    reg->type != RT_MAP_VALUE && reg->type != RT_MEM)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value", regno,
					 tn);
		if ((reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value", regno,
					 tn);
		err = rb_check_mem_range(env, regno, -1, p->args[a] == A_KEY ? m->key_size : m->value_size,
					 false, false);
		if (err)
			return err;
		if (p->args[a] == A_KEY && (m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY)) {
			err = const_map_key(env, reg, m->key_size, &ca->const_key);
			if (err < 0)
				return err;
		}
		break;
	}
	case A_MEM_RO:
	case A_MEM_RO_OR_NULL:
	case A_MEM_UNINIT:
	case A_MEM_WRITE:
		if (reg->type == RT_BTF_ID)
			return rb_unsupported(env, "BTF pointer passed as helper memory");
		if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
		    reg->type != RT_MAP_VALUE && reg->type != RT_MEM)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		if (reg->flags & RF_MAYBE_NULL)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		/* the access is checked with the size argument */
		break;
	case A_SIZE:
	case A_SIZE_OR_ZERO: {
		bool c;
		bool write = p->args[a - 1] == A_MEM_UNINIT || p->args[a - 1] == A_MEM_WRITE;
		uint64_t scratched = env->scratched_stack;
		err = check_size_arg(env, regno, p->args[a] == A_SIZE_OR_ZERO, regno - 1, write, &ca->msize_max, &c);
		if (p->args[a - 1] == A_MEM_WRITE)
			env->scratched_stack = scratched;
		if (err)
			return err;
		break;
	}
	case A_ALLOC_SIZE:
		if (!rb_reg_is_const(env, reg))
			return rb_reject(env, "R%d is not a known constant'", regno);
		ca->alloc_size = rb_reg_const_val(env, reg);
		if ((err = rb_mark_chain_precision(env, regno)))
			return err;
		break;
	case A_U32_OUT:
	case A_LONG_OUT: {
		if (reg->type != RT_STACK && reg->type != RT_MAP_VALUE && reg->type != RT_MEM &&
		    reg->type != RT_PKT && reg->type != RT_PKT_META)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		int osz = p->args[a] == A_LONG_OUT ? 8 : 4;
		/* MEM_ALIGNED: only a constant, aligned stack offset is modelled */
		if (p->args[a] == A_LONG_OUT &&
		    (reg->type != RT_STACK || !env->t->is_const(&reg->val) ||
		     (reg->off + (int64_t)rb_reg_const_val(env, reg)) % osz))
			return rb_unsupported(env, "aligned output argument of bpf_%s", p->name);
		if ((err = rb_check_mem_range(env, regno, -1, (uint64_t)osz, false, true)))
			return err;
		break;
	}
	default:
		break;
	}
	return 0;
}

/* one argument register against its declared type */
static int check_arg(struct rb_env *env, const struct rb_helper *p, int a, struct call_args *ca)
{
	int regno = a + 1, err;
	if ((err = rb_check_reg_read(env, regno)))
		return err;
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	rb_rtype_name(reg, tn, sizeof(tn));
	if ((reg->type == RT_PKT || reg->type == RT_PKT_META) && p->args[a] != A_ANY && !pkt_arg_ok(env, p))
		return rb_reject(env, "helper access to the packet is not allowed");
	/* a NULL (constant 0) for a nullable argument is accepted, and
	 * 6.18 marks it precise */
	if (arg_nullable(p->args[a]) && reg->type == RT_SCALAR && rb_reg_is_const(env, reg) &&
	    rb_reg_const_val(env, reg) == 0)
		return rb_mark_chain_precision(env, regno);
	switch (p->args[a]) {
	case A_VALUE_OR_NULL:
	case A_KEY:
	case A_VALUE:
	case A_MEM_RO:
	case A_MEM_RO_OR_NULL:
	case A_MEM_UNINIT:
	case A_MEM_WRITE:
	case A_SIZE:
	case A_SIZE_OR_ZERO:
	case A_ALLOC_SIZE:
	case A_U32_OUT:
	case A_LONG_OUT:
		return check_mem_arg(env, p, a, reg, tn, ca);
	default:
		return check_ptr_arg(env, p, a, reg, tn, ca);
	}
}

/* R0 from the helper's return type (the registers r0-r5 are clobbered first) */
static int set_return(struct rb_env *env, const struct rb_helper *p, const struct call_args *ca)
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
	case R_CPU_ID: {
		/* nr_cpu_ids - 1 on this machine's kernel (docs/kernel-facts.md) */
		long ncpu = 2;
		rb_reg_unknown(env, &regs[0]);
		struct rb_bounds b;
		env->t->bounds(&regs[0].val, &b);
		b.umin = 0;
		b.umax = (uint64_t)(ncpu - 1);
		b.smin = 0;
		b.smax = ncpu - 1;
		b.u32_min = 0;
		b.u32_max = (uint64_t)(ncpu - 1);
		b.s32_min = 0;
		b.s32_max = ncpu - 1;
		env->t->from_bounds(&regs[0].val, &b);
		break;
	}
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
			return rb_unsupported(env, "get_current_task_btf without vmlinux BTF");
		rb_reg_ptr(env, &regs[0], RT_BTF_ID);
		regs[0].map_idx = id;
		regs[0].flags = RF_TRUSTED;
		break;
	}
	case R_MAP_VALUE_OR_NULL:
		if (env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_SOCKMAP ||
		    env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_SOCKHASH) {
			/* an acquiring lookup: a map value or NULL that the null check
			 * turns into a socket (mark_ptr_not_null_reg) */
			rb_reg_ptr(env, &regs[0], RT_MAP_VALUE);
			regs[0].map_idx = ca->map_idx;
			regs[0].flags = RF_MAYBE_NULL;
			++env->id_gen;
			uint32_t id = rb_acquire_ref(env);
			if (!id)
				return RB_E_NOMEM;
			regs[0].id = id;
			regs[0].ref_obj_id = id;
			break;
		}
		if ((env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		     env->obj->maps[ca->map_idx].type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
		    env->obj->maps[ca->map_idx].inner_map_idx < 0)
			return rb_unsupported(env, "map-in-map lookup without an inner map template");
		rb_reg_ptr(env, &regs[0], RT_MAP_VALUE);
		regs[0].map_idx = ca->map_idx;
		/* 6.13+: an array lookup with a constant in-range key cannot fail */
		if (p->id == BPF_FUNC_map_lookup_elem && ca->const_key >= 0 &&
		    (uint64_t)ca->const_key < env->obj->maps[ca->map_idx].max_entries)
			break;
		regs[0].flags = RF_MAYBE_NULL;
		regs[0].id = ++env->id_gen;
		break;
	case R_SOCKET_OR_NULL: {
		rb_reg_ptr(env, &regs[0], RT_SOCKET);
		regs[0].flags = RF_MAYBE_NULL;
		++env->id_gen;
		uint32_t id = rb_acquire_ref(env);
		if (!id)
			return RB_E_NOMEM;
		regs[0].id = id;
		regs[0].ref_obj_id = id;
		break;
	}
	case R_RINGBUF_OR_NULL: {
		rb_reg_ptr(env, &regs[0], RT_MEM);
		regs[0].flags = RF_MAYBE_NULL | RF_RINGBUF;
		regs[0].range = (int32_t)ca->alloc_size;
		++env->id_gen; /* 6.18 gives maybe-null results an id, then replaces it with the reference id */
		uint32_t id = rb_acquire_ref(env);
		if (!id)
			return RB_E_NOMEM;
		regs[0].id = id;
		regs[0].ref_obj_id = id;
		break;
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
	const struct rb_helper *p = rb_helper_proto(insn->imm);
	int err;
	if (!p) {
		if (insn->imm <= 0 || insn->imm >= __BPF_FUNC_MAX_ID)
			return rb_reject(env, "invalid func unknown#%d", insn->imm);
		const char *nm = rb_uapi_helper_name(insn->imm);
		return rb_unsupported(env, "helper %s#%d", nm ? nm : "", insn->imm);
	}
	if ((err = check_available(env, p)))
		return err;
	struct call_args ca = {.map_idx = -1, .const_key = -1};
	for (int a = 0; a < 5 && p->args[a] != A_NONE; a++)
		if ((err = check_arg(env, p, a, &ca)))
			return err;
	struct rb_reg *regs = rb_cur_regs(env);
	/* record_func_key: a constant in-range tail-call index is precise */
	if (p->id == BPF_FUNC_tail_call && rb_reg_is_const(env, &regs[3]) &&
	    rb_reg_const_val(env, &regs[3]) < env->obj->maps[ca.map_idx].max_entries &&
	    (err = rb_mark_chain_precision(env, 3)))
		return err;
	if (ca.release_id)
		rb_release_ref(env, ca.release_id);
	if (p->id == BPF_FUNC_tail_call && env->cur->nrefs)
		return rb_reject(env, "tail_call would lead to reference leak");
	/* 6.18 check_helper_call: get_local_storage() cannot fail, so its flags must be 0 */
	if (p->id == BPF_FUNC_get_local_storage &&
	    !(regs[2].type == RT_SCALAR && rb_reg_is_const(env, &regs[2]) && !rb_reg_const_val(env, &regs[2])))
		return rb_reject(env, "get_local_storage() doesn't support non-zero flags");
	if ((err = set_return(env, p, &ca)))
		return err;
	if (p->flags & HF_PKT_CHANGES)
		rb_clear_pkt_pointers(env);
	if (p->id == BPF_FUNC_tail_call && env->cur->curframe > 0)
		return tail_call_exit(env, insn_idx);
	return 0;
}
