/* helper_args.c — a helper call's argument registers against the argument
 * types of its helper_table.c row (Linux 6.18 check_func_arg,
 * check_mem_size_reg, get_constant_map_key), for a privileged loader. */
#include <stdlib.h>
#include <string.h>

#include "engine/backtrack.h"
#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/const_str.h"
#include "engine/helper_args.h"
#include "engine/kfuncs.h"
#include "engine/kptrs.h"
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/map_compat.h"
#include "engine/mem.h"
#include "engine/names.h"
#include "engine/prog_types.h"
#include "engine/timers.h"

static bool arg_nullable(int kind)
{
	return kind == A_MEM_RO_OR_NULL || kind == A_MEM_WRITE_OR_NULL || kind == A_CTX_OR_NULL || kind == A_VALUE_OR_NULL ||
	       kind == A_SOCKET_OR_NULL || kind == A_BTF_TASK_OR_NULL || kind == A_STACK_OR_NULL ||
	       kind == A_BTF_STRUCT_OR_NULL;
}

static int check_size_arg(struct rb_env *env, int regno, bool zero_ok, int mem_regno, enum rb_mem_use use,
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
	/* 6.18 check_mem_size_reg: a size that is not a constant drops meta,
	 * so raw memory is checked as a clobbering write (read for liveness) */
	if (use == RB_MEM_RAW && !*is_const)
		use = RB_MEM_WRITE;
	int err = rb_check_mem_range(env, mem_regno, regno, b.umax, zero_ok, use);
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

/* 6.18 may_update_sockmap: the program types that may update or delete
 * sockmap/sockhash entries with bpf_map_update_elem/bpf_map_delete_elem */
static bool may_update_sockmap(struct rb_env *env, int32_t id)
{
	switch (env->ptype->type) {
	case BPF_PROG_TYPE_TRACING:
		return env->prog->expected_attach_type == BPF_TRACE_ITER;
	case BPF_PROG_TYPE_SOCK_OPS:
		return id == BPF_FUNC_map_delete_elem;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_SK_LOOKUP:
		return true;
	default:
		return false;
	}
}

/* the pointer's offset, fixed or variable, is not a known 0 */
static bool off_nonzero(struct rb_env *env, const struct rb_reg *reg)
{
	return reg->off || !env->t->is_const(&reg->val) || rb_reg_const_val(env, reg);
}

/* a socket pointer the helper may take: sock_common, sock, tcp_sock or
 * xdp_sock, not NULL */
static bool is_sock_ptr(const struct rb_reg *reg)
{
	return (reg->type == RT_SOCKET || reg->type == RT_SOCK_COMMON || reg->type == RT_TCP_SOCK ||
		reg->type == RT_XDP_SOCK) &&
	       !(reg->flags & RF_MAYBE_NULL);
}

/* a BTF pointer for ARG_PTR_TO_BTF_ID_SOCK_COMMON: ptr_ or trusted_ptr_ to a
 * struct that starts with (or is) a sock_common */
static int check_btf_sock_common(struct rb_env *env, int regno, const struct rb_reg *reg, const char *tn)
{
	if (reg->flags & ~RF_TRUSTED)
		return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
				 regno, tn);
	int32_t sc = rb_btf_struct_id(env, "sock_common");
	if (sc <= 0 || !rb_btf_struct_ids_match(env->vmlinux, (uint32_t)reg->map_idx, reg->off, (uint32_t)sc, false))
		return rb_reject(env, "R%d is of type %s but %s is expected", regno,
				 rb_btf_name(env, (uint32_t)reg->map_idx), "sock_common");
	return 0;
}

/* ARG_PTR_TO_BTF_ID(_OR_NULL) of struct `want`: 6.18 btf_ptr_types, then
 * btf_struct_ids_match against the arg_btf_id; a pointer that may be NULL
 * only where the argument may be (6.18 and 7.2.13 check_reg_type:
 * bpf_inode_storage_get takes a dentry's d_inode, trusted or NULL) */
static int check_btf_struct_arg(struct rb_env *env, const char *want, int regno, const struct rb_reg *reg,
				const char *tn, bool nullable)
{
	uint8_t mods = reg->flags & (uint8_t)~RF_MAYBE_NULL;
	if (reg->type != RT_BTF_ID || (mods && mods != RF_TRUSTED && mods != RF_RCU))
		return rb_reject(env, "R%d type=%s expected=ptr_, trusted_ptr_, rcu_ptr_", regno, tn);
	if ((reg->flags & RF_MAYBE_NULL) && !nullable)
		return rb_reject(env, "Possibly NULL pointer passed to helper arg%d", regno);
	int32_t sid = want ? rb_btf_struct_id(env, want) : -1;
	if (sid <= 0 || !rb_btf_struct_ids_match(env->vmlinux, (uint32_t)reg->map_idx, reg->off, (uint32_t)sid, false))
		return rb_reject(env, "R%d is of type %s but %s is expected", regno, rb_btf_name(env, (uint32_t)reg->map_idx),
				 want ? want : "?");
	/* check_func_arg_reg_off: PTR_TO_BTF_ID may carry a fixed offset (the
	 * struct walk above matched the struct found there, e.g. bpf_d_path's
	 * &file->f_path); a variable one is refused (__check_ptr_off_reg) */
	if (!env->t->is_const(&reg->val) || rb_reg_const_val(env, reg)) {
		struct rb_bounds b;
		char vo[64];
		rb_reg_bounds(env, reg, &b);
		return rb_reject(env, "variable %s access var_off=%s disallowed", tn,
				 rb_tnum_str(b.var_off.value, b.var_off.mask, vo, sizeof(vo)));
	}
	return 0;
}

/* pointer arguments: ctx, map, sockets, BTF pointers, ringbuf records */
static int check_ptr_arg(struct rb_env *env, const struct rb_helper *p, int a, struct rb_reg *reg, const char *tn,
			  struct rb_call_args *ca)
{
	int regno = a + 1;
	switch (p->args[a]) {
	case A_ANY:
		break;
	case A_CTX:
	case A_CTX_OR_NULL:
		if (reg->type != RT_CTX)
			return rb_reject(env, "R%d type=%s expected=ctx", regno, tn);
		if (off_nonzero(env, reg))
			return rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno,
					 reg->off);
		break;
	case A_MAP: {
		/* a map-in-map lookup's map_ptr_or_null is no map pointer until
		 * it is null-checked (6.18 check_reg_type: the type with its
		 * PTR_MAYBE_NULL flag is not in the compatible set) */
		if (reg->type != RT_MAP_PTR || (reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=map_ptr", regno, tn);
		/* bpf_timer_init: the map must be the timer's own, and an
		 * inner map the one of the same lookup (map_uid) */
		if (ca->map_idx >= 0 && (ca->map_idx != reg->map_idx || ca->map_uid != RB_MAP_UID(reg)))
			return rb_reject(env, "timer pointer in R1 map_uid=%d doesn't match map pointer in R2 map_uid=%d",
					 ca->map_uid, RB_MAP_UID(reg));
		ca->map_idx = reg->map_idx;
		ca->map_uid = RB_MAP_UID(reg);
		uint32_t mt = env->obj->maps[ca->map_idx].type;
		bool sock_map = mt == BPF_MAP_TYPE_SOCKMAP || mt == BPF_MAP_TYPE_SOCKHASH;
		if (sock_map && (p->id == BPF_FUNC_map_update_elem || p->id == BPF_FUNC_map_delete_elem)) {
			/* may_update_sockmap */
			ca->sockmap_refused = !may_update_sockmap(env, p->id);
			break;
		}
		if ((sock_map || mt == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) && p->id != BPF_FUNC_map_lookup_elem &&
		    !rb_helper_takes_sock_map(p->id))
			return rb_unsupported(env, "sockmap/sockhash with bpf_%s#%d", p->name, p->id);
		/* bpf_tail_call: record_func_key refuses any map but a prog
		 * array before check_map_func_compatibility runs (6.18) */
		if (p->id == BPF_FUNC_tail_call && mt != BPF_MAP_TYPE_PROG_ARRAY)
			break;
		if (!rb_map_helper_compatible(env->obj->maps[ca->map_idx].type, p->id))
			return rb_reject(env, "cannot pass map_type %u into func bpf_%s#%d",
					 env->obj->maps[ca->map_idx].type, p->name, p->id);
		break;
	}
	case A_SOCK_COMMON:
		if (env->prog->prog_type == BPF_PROG_TYPE_CGROUP_SOCK) {
			/* bpf_sk_storage_get_cg_sock_proto: the ctx is the socket */
			if (reg->type != RT_CTX)
				return rb_reject(env, "R%d type=%s expected=ctx", regno, tn);
		} else if (reg->type == RT_BTF_ID) {
			/* ARG_PTR_TO_BTF_ID_SOCK_COMMON */
			int err = check_btf_sock_common(env, regno, reg, tn);
			if (err)
				return err;
		} else if (!is_sock_ptr(reg)) {
			return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
					 regno, tn);
		}
		if (off_nonzero(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		break;
	case A_BTF_TASK:
	case A_BTF_TASK_OR_NULL:
	case A_BTF_STRUCT:
	case A_BTF_STRUCT_OR_NULL:
		return check_btf_struct_arg(env,
					    p->args[a] == A_BTF_STRUCT || p->args[a] == A_BTF_STRUCT_OR_NULL
						    ? rb_helper_arg_struct(p->id, a)
						    : "task_struct",
					    regno, reg, tn, arg_nullable(p->args[a]));
	case A_CONST_STR:
		return rb_check_const_str_arg(env, regno);
	case A_SOCK_PTR:
		if (!is_sock_ptr(reg))
			return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock", regno, tn);
		if (off_nonzero(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		break;
	case A_SOCKET_OR_NULL:
		if (reg->type != RT_SOCKET)
			return rb_reject(env, "R%d type=%s expected=sock", regno, tn);
		if (off_nonzero(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		break;
	case A_SOCK_RELEASE:
		if (reg->type == RT_BTF_ID) {
			/* ARG_PTR_TO_BTF_ID_SOCK_COMMON | OBJ_RELEASE (bpf_sk_release's exception) */
			int err = check_btf_sock_common(env, regno, reg, tn);
			if (err)
				return err;
			if (!reg->ref_obj_id)
				return rb_reject(env, "R%d must be referenced when passed to release function", regno);
			if (off_nonzero(env, reg))
				return rb_reject(env, "R%d must have zero offset when passed to release func", regno);
			ca->release_id = reg->ref_obj_id;
			break;
		}
		if (!is_sock_ptr(reg))
			return rb_reject(env, "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_",
					 regno, tn);
		if (!reg->ref_obj_id)
			return rb_reject(env, "R%d must be referenced when passed to release function", regno);
		if (off_nonzero(env, reg))
			return rb_unsupported(env, "socket pointer with an offset passed to a helper");
		ca->release_id = reg->ref_obj_id;
		break;
	case A_BTF:
		if (reg->type != RT_BTF_ID || (reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=ptr_", regno, tn);
		if (off_nonzero(env, reg))
			return rb_reject(env, "R%d must have zero offset when passed to a helper", regno);
		break;
	case A_FUNC:
		if (reg->type != RT_FUNC)
			return rb_reject(env, "R%d type=%s expected=func", regno, tn);
		if (off_nonzero(env, reg))
			return rb_unsupported(env, "callback pointer with an offset");
		ca->subprog = reg->map_idx;
		break;
	case A_STACK_OR_NULL:
		if (reg->type != RT_STACK)
			return rb_reject(env, "R%d type=%s expected=fp", regno, tn);
		break;
	case A_RINGBUF_REL:
		if (reg->type != RT_MEM || !(reg->flags & RF_RINGBUF) || (reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=ringbuf_mem", regno, tn);
		if (!reg->ref_obj_id)
			return rb_reject(env, "R%d must be referenced when passed to release function", regno);
		if (off_nonzero(env, reg))
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
			  struct rb_call_args *ca)
{
	int regno = a + 1, err = 0;
	switch (p->args[a]) {
	case A_VALUE_OR_NULL:
	case A_KEY:
	case A_VALUE:
	case A_VALUE_UNINIT: {
		if (ca->map_idx < 0)
			return rb_reject(env, "invalid map_ptr to access map->%s", p->args[a] == A_KEY ? "key" : "value");
		const struct rb_map *m = &env->obj->maps[ca->map_idx];
		if (p->args[a] == A_VALUE && (m->type == BPF_MAP_TYPE_SOCKMAP || m->type == BPF_MAP_TYPE_SOCKHASH)) {
			/* resolve_map_arg_type: a sockmap's value is a socket */
			struct rb_helper q = *p;
			q.args[a] = A_SOCK_COMMON;
			return check_ptr_arg(env, &q, a, reg, tn, ca);
		}
		if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
		    reg->type != RT_MAP_VALUE && reg->type != RT_MEM && reg->type != RT_MAP_KEY)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value", regno,
					 tn);
		if ((reg->flags & RF_MAYBE_NULL))
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value", regno,
					 tn);
		err = rb_check_mem_range(env, regno, -1, p->args[a] == A_KEY ? m->key_size : m->value_size,
					 false, p->args[a] == A_VALUE_UNINIT ? RB_MEM_RAW : RB_MEM_READ);
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
	case A_MEM_WRITE_OR_NULL:
		if (reg->type == RT_BTF_ID)
			return rb_unsupported(env, "BTF pointer passed as helper memory");
		if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
		    reg->type != RT_MAP_VALUE && reg->type != RT_MEM && reg->type != RT_MAP_KEY && reg->type != RT_BUF)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		/* check_reg_type: a memory argument the helper writes takes no
		 * MEM_RDONLY pointer (an iterator's map key) */
		if ((reg->flags & RF_MAYBE_NULL) ||
		    (reg->type == RT_BUF && (reg->flags & RF_RDONLY) && p->args[a] != A_MEM_RO &&
		     p->args[a] != A_MEM_RO_OR_NULL))
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		/* the access is checked with the size argument */
		break;
	case A_SIZE:
	case A_SIZE_OR_ZERO: {
		bool c = true;
		bool in_place = p->args[a - 1] == A_MEM_WRITE || p->args[a - 1] == A_MEM_WRITE_OR_NULL;
		enum rb_mem_use use = p->args[a - 1] == A_MEM_UNINIT ? RB_MEM_RAW : in_place ? RB_MEM_WRITE : RB_MEM_READ;
		uint64_t scratched = env->scratched_stack;
		err = check_size_arg(env, regno, p->args[a] == A_SIZE_OR_ZERO, regno - 1, use, &ca->msize_max, &c);
		/* written in place, or raw memory of a size that is not a
		 * constant: 6.18 check_mem_size_reg drops meta (raw mode), and
		 * check_stack_range_initialized clobbers the bytes (read for
		 * liveness) without byte-wise stores, so no slot is scratched */
		if (in_place || !c)
			env->scratched_stack = scratched;
		if (err)
			return err;
		break;
	}
	case A_ALLOC_SIZE: {
		/* check_reg_type first: a scalar (6.18 scalar_types) */
		char tn[48];
		if (reg->type != RT_SCALAR)
			return rb_reject(env, "R%d type=%s expected=scalar", regno, rb_rtype_name(reg, tn, sizeof(tn)));
		if (!rb_reg_is_const(env, reg))
			return rb_reject(env, "R%d is not a known constant'", regno);
		ca->alloc_size = rb_reg_const_val(env, reg);
		if ((err = rb_mark_chain_precision(env, regno)))
			return err;
		break;
	}
	case A_FIXED_RO:
		if (reg->type != RT_STACK && reg->type != RT_PKT && reg->type != RT_PKT_META &&
		    reg->type != RT_MAP_VALUE && reg->type != RT_MEM && reg->type != RT_MAP_KEY && reg->type != RT_BUF)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		if ((err = rb_check_mem_range(env, regno, -1, rb_helper_arg_size(p->id, a), false, RB_MEM_READ)))
			return err;
		break;
	case A_U32_OUT:
	case A_LONG_OUT: {
		if (reg->type != RT_STACK && reg->type != RT_MAP_VALUE && reg->type != RT_MEM &&
		    reg->type != RT_PKT && reg->type != RT_PKT_META && reg->type != RT_BUF)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, tn);
		int osz = p->args[a] == A_LONG_OUT ? 8 : 4;
		/* MEM_ALIGNED: only a constant stack offset is modelled */
		if (p->args[a] == A_LONG_OUT && (reg->type != RT_STACK || !env->t->is_const(&reg->val)))
			return rb_unsupported(env, "aligned output argument of bpf_%s#%d", p->name, p->id);
		if ((err = rb_check_mem_range(env, regno, -1, (uint64_t)osz, false, RB_MEM_RAW)))
			return err;
		/* 6.18 ARG_PTR_TO_FIXED_SIZE_MEM: the access, then check_ptr_alignment
		 * with strict alignment (the var_off of a constant prints as its value) */
		if (p->args[a] == A_LONG_OUT) {
			int64_t c = (int64_t)rb_reg_const_val(env, reg);
			if ((c + reg->off) % osz)
				return rb_reject(env, "misaligned stack access off %lld+%d+%d size %d", (long long)c, reg->off,
						 0, osz);
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

int rb_check_helper_arg(struct rb_env *env, const struct rb_helper *p, int a, struct rb_call_args *ca)
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
	case A_VALUE_UNINIT:
	case A_MEM_RO:
	case A_MEM_RO_OR_NULL:
	case A_MEM_UNINIT:
	case A_MEM_WRITE:
	case A_MEM_WRITE_OR_NULL:
	case A_FIXED_RO:
	case A_SIZE:
	case A_SIZE_OR_ZERO:
	case A_ALLOC_SIZE:
	case A_U32_OUT:
	case A_LONG_OUT:
		err = check_mem_arg(env, p, a, reg, tn, ca);
		break;
	case A_SPIN_LOCK:
		err = rb_check_spin_lock_arg(env, p->id, regno);
		break;
	case A_TIMER:
		err = rb_check_timer_arg(env, regno, &ca->map_idx, &ca->map_uid);
		break;
	case A_KPTR_XCHG_DEST:
		err = rb_check_kptr_xchg_dest(env, regno, ca);
		break;
	case A_KPTR_XCHG_SRC:
		err = rb_check_kptr_xchg_src(env, regno, ca);
		break;
	case A_PERCPU_BTF:
		/* check_reg_type (percpu_btf_ptr_types): a per-CPU BTF pointer,
		 * plain, RCU or trusted; its type becomes the result's */
		if (reg->type != RT_BTF_ID || !(reg->flags & RF_PERCPU) || RB_IS_ALLOC(reg) ||
		    (reg->flags & ~(RF_PERCPU | RF_RCU | RF_TRUSTED)) ||
		    (reg->flags & (RF_RCU | RF_TRUSTED)) == (RF_RCU | RF_TRUSTED))
			return rb_reject(env, "R%d type=%s expected=percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_",
					 regno, tn);
		if (off_nonzero(env, reg))
			return rb_unsupported(env, "per-CPU pointer with an offset passed to bpf_%s", p->name);
		ca->ret_btf_id = reg->map_idx;
		/* 6.18 and 7.2.13 check_helper_call: an RCU one (a loaded
		 * percpu kptr) gives that CPU's object, MEM_ALLOC | MEM_RCU */
		ca->ret_alloc_rcu = reg->range == RB_BTF_PROG && (reg->flags & RF_RCU);
		break;
	case A_DYNPTR_LOCAL_UNINIT:
		err = rb_dynptr_check_arg(env, regno, RB_DA_UNINIT, RB_DYNPTR_LOCAL, &ca->dynptr);
		break;
	case A_DYNPTR_RINGBUF_UNINIT:
		err = rb_dynptr_check_arg(env, regno, RB_DA_UNINIT, RB_DYNPTR_RINGBUF, &ca->dynptr);
		break;
	case A_DYNPTR_RDONLY:
		err = rb_dynptr_check_arg(env, regno, RB_DA_RDONLY, RB_DYNPTR_INVALID, &ca->dynptr);
		break;
	case A_DYNPTR_RINGBUF_RELEASE:
		err = rb_dynptr_check_arg(env, regno, RB_DA_RELEASE, RB_DYNPTR_RINGBUF, &ca->dynptr);
		break;
	default:
		err = check_ptr_arg(env, p, a, reg, tn, ca);
		break;
	}
	if (err)
		return err;
	/* check_func_arg: the reference an argument holds (one at most; not
	 * the object bpf_kptr_xchg stores into) */
	if (reg->ref_obj_id && p->args[a] != A_KPTR_XCHG_DEST) {
		if (ca->ref_obj_id)
			return rb_reject(env, "more than one arg with ref_obj_id R%d %u %u", regno, reg->ref_obj_id,
					 ca->ref_obj_id);
		ca->ref_obj_id = reg->ref_obj_id;
	}
	return 0;
}


int rb_check_helper_map(struct rb_env *env, const struct rb_helper *p, const struct rb_call_args *ca)
{
	if (!ca->sockmap_refused)
		return 0;
	rb_log(env, "cannot update sockmap in this context\n");
	return rb_reject(env, "cannot pass map_type %u into func bpf_%s#%d", env->obj->maps[ca->map_idx].type, p->name,
			 p->id);
}
