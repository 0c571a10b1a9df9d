/* mem.c — loads and stores (Linux 6.18 check_mem_access and friends):
 * ctx, map values (read-only global data read as constants), packets,
 * helper memory; the stack is in stack.c. Privileged loader semantics
 * (allow_uninit_stack, allow_ptr_leaks). */
#include <string.h>

#include "engine/alu.h"
#include "engine/btf.h"
#include "engine/ctx.h"
#include "engine/log.h"
#include "engine/kptr_access.h"
#include "engine/locks.h"
#include "engine/map_ptr.h"
#include "engine/mem.h"
#include "engine/timers.h"
#include "engine/profile.h"
#include "engine/prog_types.h"
#include "engine/stack.h"

/* 6.18 __check_mem_access's line for an access at off outside mem_size
 * bytes of a map value ("map"), a map key ("key") or other memory */
static void log_bad_access(struct rb_env *env, int regno, const struct rb_reg *reg, const char *what,
			   uint32_t mem_size, long long off, int size)
{
	if (!strcmp(what, "pkt")) /* 7.2 __check_mem_access prints the offset twice */
		rb_log(env, "invalid access to packet, off=%lld size=%d, R%d(id=%u,off=%lld,r=%u)\n", off, size, regno,
		       reg->id, off, mem_size);
	else if (!strcmp(what, "map"))
		rb_log(env, "invalid access to map value, value_size=%u off=%lld size=%d\n", mem_size, off, size);
	else if (!strcmp(what, "key"))
		rb_log(env, "invalid access to map key, key_size=%u off=%lld size=%d\n", mem_size, off, size);
	else
		rb_log(env, "invalid access to memory, mem_size=%u off=%lld size=%d\n", mem_size, off, size);
}

/* check_mem_region_access: off is the access's offset from the pointer's
 * base (its fixed offset included) */
static int check_mem_region(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size,
			    uint32_t mem_size, bool zero_ok, const char *what)
{
	struct rb_bounds b;
	if (env->prof->ptr_off_in_var) {
		/* 7.2: the bounds hold the constant too (a map value plus -1
		 * is unbounded, umax 2^64 - 1), off is the instruction's */
		rb_ptr_whole_bounds(env, reg, &b);
		off -= reg->off;
	} else {
		rb_reg_bounds(env, reg, &b);
	}
	if (b.smin < 0 && (b.smin == INT64_MIN || (int64_t)off + b.smin != (int64_t)(int32_t)(off + b.smin) ||
			   b.smin + off < 0))
		return rb_reject(env,
				 "R%d min value is negative, either use unsigned index or do a if (index >=0) check.",
				 regno);
	int64_t lo = b.smin + off;
	bool size_ok = size > 0 || (size == 0 && zero_ok);
	if (!(lo >= 0 && size_ok && (uint64_t)lo + (uint64_t)size <= mem_size)) {
		log_bad_access(env, regno, reg, what, mem_size, (long long)lo, size);
		return rb_reject(env, "R%d min value is outside of the allowed memory range", regno);
	}
	if (b.umax >= RB_MAX_VAR_OFF)
		return rb_reject(env, "R%d unbounded memory access, make sure to bounds check any such access",
				 regno);
	uint64_t hi = b.umax + (uint64_t)(int64_t)off;
	if (!((int64_t)hi >= 0 && size_ok && hi + (uint64_t)size <= mem_size)) {
		log_bad_access(env, regno, reg, what, mem_size, (long long)hi, size);
		return rb_reject(env, "R%d max value is outside of the allowed memory range", regno);
	}
	return 0;
}

static int check_packet(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size, bool zero_ok)
{
	if (env->prof->ptr_off_in_var) {
		/* 7.2 check_packet_access: the range counts from the packet
		 * start, the access is checked over the pointer's whole range */
		if (reg->range < 0)
			return rb_reject(env, "R%d offset is outside of the packet", regno);
		return check_mem_region(env, regno, reg, off, size, (uint32_t)reg->range, zero_ok, "pkt");
	}
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	if (b.smin < 0)
		return rb_reject(env,
				 "R%d min value is negative, either use unsigned index or do a if (index >=0) check.",
				 regno);
	bool size_ok = size > 0 || (size == 0 && zero_ok);
	if (reg->range < 0 || !(off >= 0 && size_ok && (int64_t)off + size <= reg->range)) {
		/* 6.18 __check_mem_access prints the access offset twice */
		rb_log(env, "invalid access to packet, off=%d size=%d, R%d(id=%u,off=%d,r=%d)\n", off, size, regno,
		       reg->id, off, reg->range);
		return rb_reject(env, "R%d offset is outside of the packet", regno);
	}
	return 0;
}

/* 6.18 check_ptr_alignment(): with BPF_F_STRICT_ALIGNMENT (x86-64 has
 * efficient unaligned access, so only then) or for atomics, accesses wider
 * than a byte must be aligned; packet pointers as if NET_IP_ALIGN were 2.
 * Stack accesses are always strict (check_stack_access). */
static int check_ptr_alignment(struct rb_env *env, const struct rb_reg *reg, int off, int size, bool strict_once)
{
	bool strict = ((env->prog->prog_flags & BPF_F_STRICT_ALIGNMENT) &&
		       !(env->prog->prog_flags & BPF_F_ANY_ALIGNMENT)) ||
		      strict_once;
	if (!strict || size == 1 || reg->type == RT_STACK || reg->type == RT_ARENA)
		return 0;
	const char *desc = "";
	bool pkt = reg->type == RT_PKT || reg->type == RT_PKT_META;
	switch (reg->type) {
	case RT_FLOW_KEYS: desc = "flow keys "; break;
	case RT_MAP_KEY: desc = "key "; break;
	case RT_MAP_VALUE: desc = "value "; break;
	case RT_CTX: desc = "context "; break;
	case RT_SOCKET: desc = "sock "; break;
	case RT_SOCK_COMMON: desc = "sock_common "; break;
	case RT_TCP_SOCK: desc = "tcp_sock "; break;
	case RT_XDP_SOCK: desc = "xdp_sock "; break;
	default: break;
	}
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	uint64_t lowmask = (uint64_t)size - 1;
	uint64_t add = (uint64_t)(int64_t)((pkt ? 2 : 0) + reg->off + off);
	/* tnum_add(var_off, const) is aligned when no unknown bit and no
	 * known bit of the sum falls below the size */
	if (!(b.var_off.mask & lowmask) && !((b.var_off.value + add) & lowmask))
		return 0;
	char tn[48];
	rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn));
	if (pkt)
		return rb_reject(env, "misaligned packet access off %d+%s+%d+%d size %d", 2, tn, reg->off, off, size);
	return rb_reject(env, "misaligned %saccess off %s+%d+%d size %d", desc, tn, reg->off, off, size);
}

/* a for_each or timer callback's map key: read-only (6.18) */
static int map_key_access(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size, bool write,
			  int value_regno, bool sext)
{
	if (write)
		return rb_reject(env, "write to change key R%d not allowed", regno);
	int err = check_mem_region(env, regno, reg, off, size, env->obj->maps[reg->map_idx].key_size, false, "key");
	if (err || value_regno < 0)
		return err;
	struct rb_reg *v = &rb_cur_regs(env)[value_regno];
	rb_reg_unknown(env, v);
	if (size < 8)
		env->t->truncate(&v->val, (unsigned)size * 8, sext);
	return 0;
}

/* __check_buffer_access, for tracepoint buffers and iterator buffers
 * (PTR_TO_BUF): the pointer's variable part must be a constant and the
 * access start inside the buffer; its end only raises the largest offset
 * the program reads (max_tp_access, max_rdonly_access, max_rdwr_access),
 * which the kernel checks against the real size when the program is
 * attached. off includes the pointer's fixed offset, insn_off is the
 * instruction's. 6.18 wants the variable part 0 (its constants are in the
 * fixed offset); 7.2.13 adds any constant variable part to the start
 * (profile.h buffer_const_var_off). */
static int buffer_access(struct rb_env *env, int regno, const struct rb_reg *reg, int insn_off, int off, int size,
			 const char *info)
{
	bool is_const = env->t->is_const(&reg->val);
	int64_t v = is_const ? (int64_t)rb_reg_const_val(env, reg) : 0;
	char tn[48];
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn));
	if (env->prof->buffer_const_var_off) {
		if (!is_const)
			return rb_reject(env, "R%d invalid variable buffer offset: off=%d, var_off=%s", regno, insn_off, tn);
		if (v + off < 0)
			return rb_reject(env, "R%d invalid negative %s buffer offset: off=%d, var_off=%lld", regno, info,
					 insn_off, (long long)(v + off - insn_off));
		return 0;
	}
	if (off < 0)
		return rb_reject(env, "R%d invalid %s buffer access: off=%d, size=%d", regno, info, off, size);
	if (!is_const || v != 0)
		return rb_reject(env, "R%d invalid variable buffer offset: off=%d, var_off=%s", regno, off, tn);
	return 0;
}

/* check_tp_buffer_access and PTR_TO_BUF (check_mem_access): a tracepoint
 * buffer, or an iterator's map key (read-only: refuses writes) or value;
 * a load gives an unknown scalar */
static int buf_access(struct rb_env *env, int regno, const struct rb_reg *reg, int insn_off, int off, int size,
		      bool write, int load_regno, const char *tn)
{
	bool rdonly = reg->type == RT_BUF && (reg->flags & RF_RDONLY);
	if (write && rdonly)
		return rb_reject(env, "R%d cannot write into %s", regno, tn);
	const char *info = reg->type == RT_TP_BUFFER ? "tracepoint" : rdonly ? "rdonly" : "rdwr";
	int err = buffer_access(env, regno, reg, insn_off, off, size, info);
	if (err)
		return err;
	if (!write && load_regno >= 0)
		rb_reg_unknown(env, &rb_cur_regs(env)[load_regno]);
	return 0;
}

/* check_flow_keys_access: inside struct bpf_flow_keys, read and write */
static int flow_keys_access(struct rb_env *env, int off, int size, bool write, int value_regno)
{
	struct rb_reg *regs = rb_cur_regs(env);
	if (write && value_regno >= 0 && rb_is_pointer(&regs[value_regno]))
		return rb_unsupported(env, "pointer stored into flow keys");
	if (size < 0 || off < 0 || (uint64_t)off + (uint64_t)size > sizeof(struct bpf_flow_keys))
		return rb_reject(env, "invalid access to flow keys off=%d size=%d", off, size);
	if (!write && value_regno >= 0)
		rb_reg_unknown(env, &regs[value_regno]);
	return 0;
}

/* PTR_TO_MEM: read-only memory refuses writes; untrusted read-only memory
 * is read by probe loads, without bounds (6.18 check_mem_access) */
static int mem_access(struct rb_env *env, int regno, const struct rb_reg *reg, int off, int size, bool write,
		      const char *tn)
{
	if (write && (reg->flags & RF_RDONLY))
		return rb_reject(env, "R%d cannot write into %s", regno, tn);
	if ((reg->flags & RF_RDONLY) && (reg->flags & RF_UNTRUSTED))
		return 0;
	return check_mem_region(env, regno, reg, off, size, (uint32_t)reg->range, false, "mem");
}

/* the register's type name for a message, formatted when a message needs
 * it (an snprintf per memory access was a few per cent of the engine's
 * time) */
static const char *rtype_name(const struct rb_reg *reg, char tn[48])
{
	rb_rtype_str(reg, tn, 48);
	return tn;
}

int rb_check_mem_access(struct rb_env *env, int insn_idx, int regno, int off, int size, bool write,
			int value_regno, bool sext, bool strict_once)
{
	(void)insn_idx;
	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_reg reg = regs[regno];
	const struct bpf_insn *insn = &env->insns[env->insn_idx];
	char tn[48];
	int err = check_ptr_alignment(env, &reg, off, size, strict_once);
	if (err)
		return err;
	off += reg.off;
	if (reg.flags & RF_MAYBE_NULL)
		return rb_reject(env, "R%d invalid mem access '%s'", regno, rtype_name(&reg, tn));
	switch (reg.type) {
	case RT_MAP_VALUE: {
		const struct rb_map *m = &env->obj->maps[reg.map_idx];
		bool rdonly = (m->map_flags & BPF_F_RDONLY_PROG) != 0;
		if (write && rdonly)
			return rb_reject(env, "write into map forbidden, value_size=%u off=%d size=%d", m->value_size,
					 off, size);
		if (!write && (m->map_flags & BPF_F_WRONLY_PROG))
			return rb_reject(env, "read from map forbidden, value_size=%u off=%d size=%d", m->value_size,
					 off, size);
		if ((err = check_mem_region(env, regno, &reg, off, size, m->value_size, false, "map")) ||
		    (err = rb_lock_check_access(env, &reg, off, size)) || (err = rb_timer_check_access(env, &reg, off, size)))
			return err;
		if ((err = rb_kptr_map_access(env, &reg, off, size, false, value_regno)))
			return err < 0 ? err : 0;
		if (!write && value_regno >= 0) {
			if (rdonly && m->frozen && m->init && env->t->is_const(&reg.val)) {
				uint64_t o = rb_reg_const_val(env, &reg) + (uint64_t)(int64_t)off;
				if (o + (uint64_t)size <= m->init_size) {
					uint64_t v = 0;
					memcpy(&v, m->init + o, (size_t)size);
					if (sext) {
						int sh = 64 - 8 * size;
						v = (uint64_t)((int64_t)(v << sh) >> sh);
					}
					rb_reg_const(env, &regs[value_regno], v);
					return 0;
				}
			}
			rb_reg_unknown(env, &regs[value_regno]);
		}
		break;
	}
	case RT_MAP_KEY: return map_key_access(env, regno, &reg, off, size, write, value_regno, sext);
	case RT_MEM:
		if ((err = mem_access(env, regno, &reg, off, size, write, rtype_name(&reg, tn))))
			return err;
		if (!write && value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_CTX: {
		if (reg.off)
			return rb_reject(env, "dereference of modified ctx ptr R%d off=%d disallowed", regno, reg.off);
		if (!env->t->is_const(&reg.val) || rb_reg_const_val(env, &reg) != 0) {
			struct rb_bounds b;
			rb_reg_bounds(env, &reg, &b);
			char tn[48];
			return rb_reject(env, "variable ctx access var_off=%s disallowed",
					 rb_tnum_str(b.var_off.value, b.var_off.mask, tn, sizeof(tn)));
		}
		if (env->ptype->flags & PT_BTF_CTX) {
			struct rb_reg v;
			if ((err = rb_btf_ctx_access(env, off, size, write, &v)))
				return err;
			if (value_regno >= 0)
				regs[value_regno] = v;
			break;
		}
		struct rb_ctx_access ca = {0};
		if ((err = rb_ctx_access(env, off, size, write, &ca)))
			return err;
		if (!write && value_regno >= 0) {
			if (ca.reg_type == RT_SCALAR) {
				rb_reg_unknown(env, &regs[value_regno]);
			} else {
				rb_reg_ptr(env, &regs[value_regno], ca.reg_type);
				regs[value_regno].flags = ca.flags;
				if (ca.reg_type == RT_BTF_ID)
					regs[value_regno].map_idx = ca.btf_id;
				if (ca.flags & RF_MAYBE_NULL)
					regs[value_regno].id = ++env->id_gen;
			}
		}
		break;
	}
	case RT_STACK:
		if ((err = rb_check_stack_access(env, regno, &reg, off, size, write, value_regno, sext, insn)))
			return err;
		break;
	case RT_PKT:
	case RT_PKT_META:
		if (write && !(env->ptype->flags & PT_PKT_WRITE))
			return rb_reject(env, "cannot write into packet");
		if ((err = check_packet(env, regno, &reg, off, size, false)))
			return err;
		if (!write && value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_ARENA:
		/* 7.2.13 check_mem_access: arena memory is not checked (the JIT
		 * guards it); a load reads an unknown scalar */
		if (!write && value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_XDP_SOCK:
		/* struct bpf_xdp_sock: only the u32 queue_id at offset 0 is readable */
		if (write || off != 0 || size != 4)
			return rb_reject(env, "invalid xdp_sock access off=%d size=%d", off, size);
		if (value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_BTF_ID: {
		struct rb_reg v;
		if ((err = rb_btf_load(env, &reg, regno, off, size, write, &v)))
			return err;
		if (!write && value_regno >= 0)
			regs[value_regno] = v;
		break;
	}
	case RT_MAP_PTR: /* reads of struct bpf_map fields through BTF (map_ptr.c) */
		return rb_map_ptr_access(env, regno, off, size, write, value_regno);
	case RT_SOCKET:
	case RT_SOCK_COMMON:
	case RT_TCP_SOCK:
		if ((err = reg.type == RT_TCP_SOCK ? rb_tcp_sock_field_access(env, regno, rtype_name(&reg, tn), off, size, write)
						   : rb_sock_field_access(env, regno, rtype_name(&reg, tn), reg.type == RT_SOCK_COMMON, off, size, write)))
			return err;
		if (value_regno >= 0)
			rb_reg_unknown(env, &regs[value_regno]);
		break;
	case RT_FLOW_KEYS:
		if ((err = flow_keys_access(env, off, size, write, value_regno)))
			return err;
		break;
	case RT_TP_BUFFER:
	case RT_BUF:
		if ((err = buf_access(env, regno, &reg, off - reg.off, off, size, write, value_regno, rtype_name(&reg, tn))))
			return err;
		break;
	default:
		return rb_reject(env, "R%d invalid mem access '%s'", regno, rtype_name(&reg, tn));
	}
	if (!write && size < 8 && value_regno >= 0 && regs[value_regno].type == RT_SCALAR)
		env->t->truncate(&regs[value_regno].val, (unsigned)size * 8, sext);
	return 0;
}

static int bpf_size(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static int check_atomic(struct rb_env *env, const struct bpf_insn *insn)
{
	int size = bpf_size(insn->code), err;
	switch (insn->imm) {
	case BPF_ADD:
	case BPF_ADD | BPF_FETCH:
	case BPF_AND:
	case BPF_AND | BPF_FETCH:
	case BPF_OR:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR:
	case BPF_XOR | BPF_FETCH:
	case BPF_XCHG:
	case BPF_CMPXCHG:
		break;
	case 0x100: /* BPF_LOAD_ACQ: 6.18 check_atomic_load() -> check_load_mem() */
		if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_write(env, insn->dst_reg)))
			return err;
		return rb_unsupported(env, "load-acquire");
	case 0x110: /* BPF_STORE_REL: 6.18 check_atomic_store() -> check_store_reg() */
		if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_read(env, insn->dst_reg)))
			return err;
		return rb_unsupported(env, "store-release");
	default:
		/* 6.18 check_atomic() */
		return rb_reject(env, "BPF_ATOMIC uses invalid atomic opcode %02x", (unsigned)insn->imm);
	}
	if (size != 4 && size != 8)
		return rb_reject(env, "invalid atomic operand size");
	if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_read(env, insn->dst_reg)))
		return err;
	struct rb_reg *regs = rb_cur_regs(env);
	if (insn->imm == BPF_CMPXCHG && (err = rb_check_reg_read(env, 0)))
		return err;
	/* "R%d leaks addr into mem" (a pointer in R0 of a cmpxchg or in the
	 * source) is an unprivileged check: 6.18's is_pointer_value() is false
	 * when pointer leaks are allowed, as they are for root */
	uint8_t t = regs[insn->dst_reg].type;
	if (t == RT_CTX || t == RT_PKT || t == RT_PKT_META || t == RT_FLOW_KEYS)
		return rb_reject(env, "BPF_ATOMIC stores into R%d %s is not allowed", insn->dst_reg, "ctx");
	int load_reg = -1;
	if (insn->imm & BPF_FETCH)
		load_reg = insn->imm == BPF_CMPXCHG ? 0 : insn->src_reg;
	if (load_reg >= 0 && (err = rb_check_reg_write(env, load_reg)))
		return err;
	/* read then write of the same location */
	if ((err = rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, false, load_reg, false,
				       true)))
		return err;
	return rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, true, -1, false, true);
}

/* 6.18 save_aux_ptr_type(): one load or store instruction may not be used
 * with pointer types that are converted differently (ctx, sockets, BTF
 * pointers) on different paths; two memory/BTF pointers merge */
static bool mismatch_ok(uint8_t t)
{
	return t != RT_CTX && t != RT_SOCKET && t != RT_SOCK_COMMON && t != RT_TCP_SOCK && t != RT_XDP_SOCK &&
	       t != RT_BTF_ID && t != RT_ARENA;
}

static int save_aux_ptr_type(struct rb_env *env, uint8_t type, uint8_t flags, bool allow_trust_mismatch)
{
	struct rb_aux *a = &env->aux[env->insn_idx];
	if (!a->ptr_seen) {
		a->ptr_seen = true;
		a->ptr_type = type;
		a->ptr_flags = flags;
		return 0;
	}
	bool same = a->ptr_type == type && a->ptr_flags == flags;
	if (same || (mismatch_ok(type) && mismatch_ok(a->ptr_type)))
		return 0;
	bool mem_or_btf = (type == RT_MEM || type == RT_BTF_ID) && (a->ptr_type == RT_MEM || a->ptr_type == RT_BTF_ID);
	if (allow_trust_mismatch && mem_or_btf) {
		a->ptr_type = RT_BTF_ID;
		a->ptr_flags = RF_UNTRUSTED;
		return 0;
	}
	return rb_reject(env, "same insn cannot be used with different pointers");
}

int rb_check_ldst(struct rb_env *env, const struct bpf_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);
	int size = bpf_size(insn->code), err;
	if (cls == BPF_LDX) {
		if (mode != BPF_MEM && mode != BPF_MEMSX)
			return rb_reject(env, "BPF_LDX uses reserved fields");
		if (insn->imm)
			return rb_reject(env, "BPF_LDX uses reserved fields");
		if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_write(env, insn->dst_reg)))
			return err;
		struct rb_reg src = rb_cur_regs(env)[insn->src_reg];
		if ((err = rb_check_mem_access(env, env->insn_idx, insn->src_reg, insn->off, size, false, insn->dst_reg,
					       mode == BPF_MEMSX, false)) ||
		    (err = save_aux_ptr_type(env, src.type, src.flags, true)))
			return err;
		/* 6.18.44 check_load_mem(): the loaded register's sanity check */
		rb_reg_sanity(env, &rb_cur_regs(env)[insn->dst_reg], "ldx");
		return 0;
	}
	if (cls == BPF_STX) {
		if (mode == BPF_ATOMIC)
			return check_atomic(env, insn);
		if (mode != BPF_MEM || insn->imm != 0)
			return rb_reject(env, "BPF_STX uses reserved fields");
		if ((err = rb_check_reg_read(env, insn->src_reg)) || (err = rb_check_reg_read(env, insn->dst_reg)))
			return err;
		struct rb_reg dst = rb_cur_regs(env)[insn->dst_reg];
		if ((err = rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, true, insn->src_reg,
					       false, false)))
			return err;
		return save_aux_ptr_type(env, dst.type, dst.flags, false);
	}
	/* BPF_ST */
	if (mode != BPF_MEM || insn->src_reg != 0)
		return rb_reject(env, "BPF_ST uses reserved fields");
	if ((err = rb_check_reg_read(env, insn->dst_reg)))
		return err;
	struct rb_reg dst = rb_cur_regs(env)[insn->dst_reg];
	if ((err = rb_check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off, size, true, -1, false, false)))
		return err;
	return save_aux_ptr_type(env, dst.type, dst.flags, false);
}

/* check_helper_mem_access: [reg, reg + size) is readable (or, for a
 * write, writable) */
int rb_check_mem_range(struct rb_env *env, int regno, int size_regno, uint64_t size, bool zero_ok,
		       enum rb_mem_use use)
{
	bool write_uninit = use != RB_MEM_READ;
	(void)size_regno;
	struct rb_reg reg = rb_cur_regs(env)[regno];
	char tn[48];
	int off = reg.off;
	int sz = (int)size;
	if (size > (1u << 29))
		return rb_reject(env, "R%d unbounded memory access", regno);
	switch (reg.type) {
	case RT_PKT:
	case RT_PKT_META:
		if (write_uninit && !(env->ptype->flags & PT_PKT_WRITE))
			return rb_reject(env, "cannot write into packet");
		return check_packet(env, regno, &reg, off, sz, zero_ok);
	case RT_MAP_VALUE: {
		const struct rb_map *m = &env->obj->maps[reg.map_idx];
		if (write_uninit && (m->map_flags & BPF_F_RDONLY_PROG))
			return rb_reject(env, "write into map forbidden, value_size=%u off=%d size=%d", m->value_size,
					 off, sz);
		if (!write_uninit && (m->map_flags & BPF_F_WRONLY_PROG))
			return rb_reject(env, "read from map forbidden, value_size=%u off=%d size=%d", m->value_size,
					 off, sz);
		int err = check_mem_region(env, regno, &reg, off, sz, m->value_size, zero_ok, "map");
		return err ? err : rb_kptr_map_access(env, &reg, off, sz, true, -1);
	}
	case RT_MAP_KEY:
		if (write_uninit)
			return rb_reject(env, "R%d cannot write into %s", regno, rtype_name(&reg, tn));
		return check_mem_region(env, regno, &reg, off, sz, env->obj->maps[reg.map_idx].key_size, zero_ok,
					"key");
	case RT_MEM:
		/* check_reg_type: no memory argument takes PTR_UNTRUSTED */
		if (reg.flags & RF_UNTRUSTED)
			return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
					 regno, rtype_name(&reg, tn));
		if (write_uninit && (reg.flags & RF_RDONLY))
			return rb_reject(env, "R%d cannot write into %s", regno, rtype_name(&reg, tn));
		return check_mem_region(env, regno, &reg, off, sz, (uint32_t)reg.range, zero_ok, "mem");
	case RT_BUF:
		/* check_helper_mem_access: a helper writing into the read-only
		 * key is refused; the access is checked at the pointer's offset */
		if (write_uninit && (reg.flags & RF_RDONLY))
			return rb_reject(env, "R%d cannot write into %s", regno, rtype_name(&reg, tn));
		return buffer_access(env, regno, &reg, 0, off, sz, (reg.flags & RF_RDONLY) ? "rdonly" : "rdwr");
	case RT_STACK:
		return rb_check_stack_range(env, regno, &reg, off, sz, zero_ok, use);
	case RT_CTX:
		/* 6.18: only syscall programs may pass their context as memory
		 * (checked as a one-byte ctx access at its end) */
		if (env->ptype->type == BPF_PROG_TYPE_SYSCALL) {
			if (sz == 0)
				return zero_ok ? 0 : rb_reject(env, "R%d zero-size ctx access", regno);
			return rb_check_mem_access(env, env->insn_idx, regno, sz - 1, 1, write_uninit, -1, false, false);
		}
		return rb_reject(env, "R%d type=%s expected=fp", regno, rtype_name(&reg, tn));
	default:
		if (sz == 0 && zero_ok && reg.type == RT_SCALAR && rb_reg_is_const(env, &reg) &&
		    rb_reg_const_val(env, &reg) == 0)
			return 0;
		return rb_reject(env, "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_",
				 regno, rtype_name(&reg, tn));
	}
}
