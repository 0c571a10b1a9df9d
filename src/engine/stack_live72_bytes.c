/* stack_live72_bytes.c — the stack accesses each instruction makes through
 * frame-pointer-derived values (liveness.c record_*), and how many stack
 * bytes a helper or kfunc reads or writes through such an argument, for Linux 7.2.13's
 * static stack liveness (verifier.c bpf_helper_stack_access_bytes,
 * bpf_kfunc_stack_access_bytes, bpf_get_call_summary; liveness.c
 * find_callback_subprog), from the engine's helper table, vmlinux BTF and
 * the constant registers (const_fold.c). Reimplemented from 7.2.13's
 * rules; see stack_live72.c. */
#include <bpf/btf.h>
#include <string.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/helper_table.h"
#include "engine/kfunc_table.h"
#include "engine/kfunc_table72.h"
#include "engine/profile.h"
#include "engine/stack_live72_int.h"

/* the largest key or value size of the maps the program uses (7.2
 * used_maps, inner maps included) */
uint32_t l72_used_maps_max(const struct rb_env *env, bool key)
{
	uint32_t v = 0;
	for (int k = 0; k < env->insn_cnt; k++) {
		const struct bpf_insn *x = &env->insns[k];
		if (x->code != (BPF_LD | BPF_IMM | BPF_DW) ||
		    (x->src_reg != BPF_PSEUDO_MAP_IDX && x->src_reg != BPF_PSEUDO_MAP_IDX_VALUE) || x->imm < 0 ||
		    (size_t)x->imm >= env->obj->map_cnt)
			continue;
		const struct rb_map *m = &env->obj->maps[x->imm];
		uint32_t s = key ? m->key_size : m->value_size;
		if (s > v)
			v = s;
		if (m->inner_map_idx >= 0 && (size_t)m->inner_map_idx < env->obj->map_cnt) {
			const struct rb_map *im = &env->obj->maps[m->inner_map_idx];
			s = key ? im->key_size : im->value_size;
			if (s > v)
				v = s;
		}
	}
	return v;
}

/* the key or value size of the map a helper argument names: the
 * constant map register before it, else the largest of the program's
 * maps (and their inner maps) */
static int64_t map_arg_size(struct rb_env *env, const struct rb_helper *h, int arg, bool key, int idx)
{
	const struct rb_const_regs *c = env->const_regs ? &env->const_regs[idx] : NULL;
	int i;
	for (i = 0; i < arg; i++)
		if (h->args[i] == A_MAP)
			break;
	if (i < arg && c && (c->mmask & (1u << (i + 1))) && c->val[i + 1] < env->obj->map_cnt) {
		const struct rb_map *m = &env->obj->maps[c->val[i + 1]];
		return key ? m->key_size : m->value_size;
	}
	uint32_t v = l72_maps_max(env, key);
	return v ? (int64_t)v : L72_UNKNOWN;
}

/* bpf_helper_stack_access_bytes */
int64_t l72_helper_bytes(struct rb_env *env, const struct bpf_insn *in, int arg, int idx)
{
	bool variant;
	const struct rb_helper *h = rb_helper_proto_for(in->imm, env->prog->prog_type, env->prog->expected_attach_type,
						       &variant);
	if (!h || (h->flags & HF_NAME_ONLY))
		return L72_UNKNOWN;
	const struct rb_const_regs *c = env->const_regs ? &env->const_regs[idx] : NULL;
	uint8_t next = arg + 1 < 5 ? h->args[arg + 1] : A_NONE;
	bool sized = next == A_SIZE || next == A_SIZE_OR_ZERO;
	switch (h->args[arg]) {
	case A_KEY:
		return map_arg_size(env, h, arg, true, idx);
	case A_VALUE:
	case A_VALUE_OR_NULL:
		return map_arg_size(env, h, arg, false, idx);
	case A_VALUE_UNINIT: {
		int64_t s = map_arg_size(env, h, arg, false, idx);
		return s == L72_UNKNOWN ? s : -s;
	}
	case A_MEM_RO:
	case A_MEM_RO_OR_NULL:
	case A_MEM_WRITE:
	case A_MEM_WRITE_OR_NULL:
	case A_MEM_UNINIT: {
		bool uninit = h->args[arg] == A_MEM_UNINIT;
		if (!sized)
			return L72_UNKNOWN;
		if (c && (c->cmask & (1u << (arg + 2))))
			return uninit ? -(int64_t)c->val[arg + 2] : (int64_t)c->val[arg + 2];
		return uninit ? 0 : L72_STACK_MAX;
	}
	case A_FIXED_RO:
		return rb_helper_arg_size(in->imm, arg);
	case A_U32_OUT:
		return -4;
	case A_LONG_OUT:
		return -8;
	case A_DYNPTR_LOCAL_UNINIT:
	case A_DYNPTR_RINGBUF_UNINIT:
		return -16;
	case A_DYNPTR_RDONLY:
	case A_DYNPTR_RINGBUF_RELEASE:
		return 16;
	case A_STACK_OR_NULL:
		return 0; /* a callback's context: the callback is analysed itself */
	default:
		return L72_UNKNOWN;
	}
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* bpf_kfunc_stack_access_bytes */
int64_t l72_kfunc_bytes(struct rb_env *env, const struct bpf_insn *in, int arg, int idx)
{
	const struct btf *b = in->off ? NULL : rb_need_vmlinux(env);
	const struct btf_type *ft = b ? btf__type_by_id(b, (uint32_t)in->imm) : NULL;
	if (!ft || !btf_is_func(ft))
		return L72_UNKNOWN;
	const char *name = btf__name_by_offset(b, ft->name_off);
	const struct rb_kfunc *row = rb_kfunc_row(name);
	const struct rb_kfunc72 *r72 = rb_kfunc72_row_in(name, env->prof);
	if (r72)
		row = &r72->k;
	const struct btf_type *proto = btf__type_by_id(b, ft->type);
	if (!row || !proto || !btf_is_func_proto(proto))
		return L72_UNKNOWN;
	int n = btf_vlen(proto);
	if (arg >= n)
		return 0;
	const struct btf_param *ps = btf_params(proto);
	const struct btf_type *t = btf__type_by_id(b, ps[arg].type);
	while (t && btf_is_mod(t))
		t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_ptr(t))
		return 0;
	uint32_t rid = t->type;
	const struct btf_type *rt = btf__type_by_id(b, rid);
	while (rt && btf_is_mod(rt)) {
		rid = rt->type;
		rt = btf__type_by_id(b, rid);
	}
	const char *pname = btf__name_by_offset(b, ps[arg].name_off);
	int64_t size;
	if (rt && btf_is_struct(rt) && !strcmp(btf__name_by_offset(b, rt->name_off), "bpf_dynptr")) {
		size = 16;
	} else if (arg + 1 < n && (has_suffix(btf__name_by_offset(b, ps[arg + 1].name_off), "__sz") ||
				   has_suffix(btf__name_by_offset(b, ps[arg + 1].name_off), "__szk"))) {
		const struct rb_const_regs *c = env->const_regs ? &env->const_regs[idx] : NULL;
		if (!c || !(c->cmask & (1u << (arg + 2))))
			return L72_STACK_MAX;
		size = c->val[arg + 2];
	} else {
		long s = btf__resolve_size(b, rid);
		if (s < 0)
			return L72_UNKNOWN;
		size = s;
	}
	if ((arg == 0 && (row->flags & KF_ITER_NEW)) || (pname && has_suffix(pname, "__uninit")))
		return -size;
	return size;
}

/* bpf_get_call_summary's num_params, 5 when unknown */
int l72_call_params(struct rb_env *env, const struct bpf_insn *in)
{
	if (in->src_reg == 0) {
		bool variant;
		const struct rb_helper *h = rb_helper_proto_for(in->imm, env->prog->prog_type,
							       env->prog->expected_attach_type, &variant);
		if (!h || (h->flags & HF_NAME_ONLY))
			return 5;
		int n = 0;
		while (n < 5 && h->args[n] != A_NONE)
			n++;
		return n;
	}
	const struct btf *b = in->off ? NULL : rb_need_vmlinux(env);
	const struct btf_type *ft = b ? btf__type_by_id(b, (uint32_t)in->imm) : NULL;
	const struct btf_type *p = ft && btf_is_func(ft) ? btf__type_by_id(b, ft->type) : NULL;
	return p && btf_is_func_proto(p) ? btf_vlen(p) : 5;
}

/* find_callback_subprog: the callback's subprogram (-1 l72_none, -2 not one
 * known constant) and which caller register becomes which callback one */
int l72_callback_sub(struct rb_env *env, const struct bpf_insn *in, int idx, int *caller_reg, int *callee_reg)
{
	int cb;
	*caller_reg = *callee_reg = -1;
	if (in->src_reg != 0)
		return -1;
	switch (in->imm) {
	case BPF_FUNC_loop:
	case BPF_FUNC_user_ringbuf_drain:
		cb = 2, *caller_reg = 3, *callee_reg = 2;
		break;
	case BPF_FUNC_for_each_map_elem:
		cb = 2, *caller_reg = 3, *callee_reg = 4;
		break;
	case BPF_FUNC_find_vma:
		cb = 3, *caller_reg = 4, *callee_reg = 3;
		break;
	default:
		return -1;
	}
	const struct rb_const_regs *c = env->const_regs ? &env->const_regs[idx] : NULL;
	if (!c || !(c->smask & (1u << cb)))
		return -2;
	return (int)c->val[cb];
}

/* spis_or_range over half slots lo..hi */
static rb_spis range(int lo, int hi)
{
	rb_spis m = 0;
	for (int h = lo; h <= hi && h < 128; h++)
		m |= RB_SPIS_HALF(h);
	return m;
}

/* record_stack_access_off */
static int access_off(struct inst *f, int64_t off, int64_t bytes, int frame, int idx)
{
	if (off >= 0)
		return 0; /* out of bounds: refused by the exploration */
	if (bytes == L72_UNKNOWN)
		return l72_mark_read(f, frame, idx, range(0, (int)((-off - 1) / 4)));
	if (bytes > 0) {
		int64_t lo = (-off - bytes) / 4;
		return l72_mark_read(f, frame, idx, range(lo > 0 ? (int)lo : 0, (int)((-off - 1) / 4)));
	}
	bytes = -bytes;
	int64_t hi = -off / 4 - 1, lo = (-off - bytes + 3) / 4;
	if (lo < 0)
		lo = 0;
	return lo <= hi ? l72_mark_write(f, frame, idx, range((int)lo, (int)hi)) : 0;
}

/* record_stack_access */
static int access(struct inst *f, const struct l72_at *a, int64_t bytes, int frame, int idx)
{
	if (!bytes)
		return 0;
	if (!a->cnt)
		return bytes > 0 || bytes == L72_UNKNOWN ? l72_mark_read(f, frame, idx, L72_SPIS_ALL) : 0;
	if (bytes != L72_UNKNOWN && bytes < 0 && a->cnt != 1)
		return 0; /* a write at one of several offsets defines nothing */
	for (int i = 0; i < a->cnt; i++) {
		int err = access_off(f, a->off[i], bytes, frame, idx);
		if (err)
			return err;
	}
	return 0;
}

/* record_imprecise: every slot of every frame in the mask is read */
static int imprecise(struct inst *f, uint32_t mask, int idx)
{
	for (int fr = 0; mask; fr++, mask >>= 1)
		if ((mask & 1) && fr <= f->depth) {
			int err = l72_mark_read(f, fr, idx, L72_SPIS_ALL);
			if (err)
				return err;
		}
	return 0;
}

/* record_load_store_access */
int l72_record_load_store(struct rb_env *env, struct inst *f, const struct l72_at *regs, int idx)
{
	const struct bpf_insn *in = &env->insns[idx];
	int sz = l72_size_bytes(in->code);
	const struct l72_at *p;
	switch (BPF_CLASS(in->code)) {
	case BPF_LDX:
		p = &regs[in->src_reg % L72_NAT];
		break;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			/* a read-modify-write or a load-acquire reads; a
			 * store-release writes */
			if (in->imm == RB_STORE_REL)
				sz = -sz;
			p = &regs[(in->imm == RB_LOAD_ACQ ? in->src_reg : in->dst_reg) % L72_NAT];
		} else {
			p = &regs[in->dst_reg % L72_NAT];
			sz = -sz;
		}
		break;
	case BPF_ST:
		p = &regs[in->dst_reg % L72_NAT];
		sz = -sz;
		break;
	default:
		return 0;
	}
	struct l72_at res;
	if (p->cnt > 0) {
		res = *p;
		for (int i = 0; i < p->cnt; i++)
			if (l72_add_off(p->off[i], in->off, &res.off[i])) {
				res.cnt = 0;
				break;
			}
		p = &res;
	}
	if (p->frame >= 0 && p->frame <= f->depth)
		return access(f, p, sz, p->frame, idx);
	if (p->frame == L72_IMPRECISE)
		return imprecise(f, p->mask, idx);
	return 0;
}

/* record_call_access (helpers and kfuncs; a subprogram call's accesses
 * are its instance's) */
int l72_record_call(struct rb_env *env, struct inst *f, const struct l72_at *regs, int idx)
{
	const struct bpf_insn *in = &env->insns[idx];
	if (in->src_reg == BPF_PSEUDO_CALL)
		return 0;
	int n = l72_call_params(env, in);
	for (int r = 1; r <= 5 && r <= n; r++) {
		const struct l72_at *a = &regs[r];
		if (!l72_is_fp(a))
			continue;
		int64_t bytes;
		if (in->src_reg == 0)
			bytes = l72_helper_bytes(env, in, r - 1, idx);
		else if (in->src_reg == BPF_PSEUDO_KFUNC_CALL)
			bytes = l72_kfunc_bytes(env, in, r - 1, idx);
		else {
			for (int fr = 0; fr <= f->depth; fr++) {
				int err = l72_mark_read(f, fr, idx, L72_SPIS_ALL);
				if (err)
					return err;
			}
			continue;
		}
		if (!bytes)
			continue;
		int err = a->frame >= 0 && a->frame <= f->depth ? access(f, a, bytes, a->frame, idx)
			  : a->frame == L72_IMPRECISE              ? imprecise(f, a->mask, idx)
								    : 0;
		if (err)
			return err;
	}
	return 0;
}
