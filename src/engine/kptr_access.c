/* kptr_access.c — loads and stores of the kptr fields of a map value, as
 * Linux 6.18 and 7.2.13 check them (the same rules in both):
 * check_map_access's field loop (a kptr is read or written whole, 8 bytes
 * at its constant offset, never by a helper), check_map_kptr_access (only
 * BPF_MEM loads, stores of NULL or of a matching object into an untrusted
 * kptr: map_kptr_match_type) and btf_ld_kptr_type / mark_btf_ld_reg (what a
 * load gives: a referenced kptr of an RCU-protected type, or a per-CPU
 * one, is an RCU pointer inside an RCU read section, an untrusted one
 * otherwise; always maybe NULL). The fields are kptrs.c's record. */
#include <bpf/btf.h>
#include <string.h>

#include "engine/alloc_obj.h"
#include "engine/backtrack.h"
#include "engine/btf_names.h"
#include "engine/kfuncs.h"
#include "engine/kptr_access.h"
#include "engine/kptrs.h"
#include "engine/log.h"
#include "engine/rcu.h"

/* btf_field_type_name */
static const char *kind_name(int kind)
{
	return kind == RB_KPTR_PERCPU ? "percpu_kptr" : kind == RB_KPTR_UPTR ? "uptr" : "kptr";
}

/* rcu_protected_object (6.18 and 7.2.13 rcu_protected_types): the kernel
 * structs whose referenced kptrs are RCU-protected; every type of the
 * program's BTF is */
static bool rcu_protected(struct rb_env *env, const struct rb_kptr_field *f)
{
	static const char *const types[] = {"prog_test_ref_kfunc", "cgroup", "bpf_cpumask", "task_struct",
					    "bpf_crypto_ctx"};
	if (f->local)
		return true;
	const char *n = rb_btf_name(env, (uint32_t)f->btf_id);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(n, types[i]))
			return true;
	return false;
}

/* kptr_pointee_btf_record's BPF_GRAPH_NODE: the local pointee holds a
 * bpf_list_node or a bpf_rb_node */
static bool has_graph_node(struct rb_env *env, uint32_t sid)
{
	const struct btf *b = rb_obj_btf(env);
	const struct btf_type *t = b ? rb_btf_skip_mods(b, sid, &sid, NULL) : NULL;
	if (!t || !btf_is_composite(t))
		return false;
	for (int i = 0; i < btf_vlen(t); i++) {
		const char *k = rb_alloc_special_field(b, sid, (int)(btf_member_bit_offset(t, (uint32_t)i) / 8), 1);
		if (k && (!strcmp(k, "bpf_list_node") || !strcmp(k, "bpf_rb_node")))
			return true;
	}
	return false;
}

/* mark_btf_ld_reg with btf_ld_kptr_type's flags (mark_uptr_ld_reg for a uptr) */
static void load_kptr(struct rb_env *env, const struct rb_kptr_field *f, struct rb_reg *out)
{
	if (f->kind == RB_KPTR_UPTR) {
		const struct btf *b = rb_obj_btf(env);
		rb_reg_ptr(env, out, RT_MEM);
		out->range = (int32_t)btf__resolve_size(b, f->ptee);
		out->flags = RF_MAYBE_NULL;
		out->id = ++env->id_gen;
		return;
	}
	rb_reg_ptr(env, out, RT_BTF_ID);
	out->map_idx = f->btf_id;
	out->flags = RF_MAYBE_NULL;
	bool rcu_safe = f->kind == RB_KPTR_PERCPU || (f->kind == RB_KPTR_REF && rcu_protected(env, f));
	if (rcu_safe && rb_in_rcu_cs(env)) {
		out->flags |= RF_RCU;
		if (f->kind == RB_KPTR_PERCPU) {
			out->flags |= RF_PERCPU;
			out->range = RB_BTF_PROG;
		} else if (f->local) {
			out->range = has_graph_node(env, f->ptee) ? RB_BTF_ALLOC_NON_OWN : RB_BTF_ALLOC;
		}
	} else {
		out->flags |= RF_UNTRUSTED;
		if (f->local)
			out->range = RB_BTF_PROG;
	}
	out->id = ++env->id_gen;
}

/* map_kptr_match_type: an untrusted kptr takes a kernel object of its type
 * (plain, trusted, RCU or untrusted) or an allocated object of its local
 * type, maybe NULL, at offset 0 */
static int match_type(struct rb_env *env, const struct rb_kptr_field *f, const struct rb_reg *reg, int regno)
{
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	const char *targ = f->local ? rb_alloc_type_name(env, (uint32_t)f->btf_id) : rb_btf_name(env, (uint32_t)f->btf_id);
	bool prog_btf = RB_IS_PROG_BTF(reg);
	uint8_t perm = prog_btf ? (uint8_t)(RF_MAYBE_NULL | (f->kind == RB_KPTR_PERCPU ? RF_PERCPU : 0))
				: (uint8_t)(RF_MAYBE_NULL | RF_TRUSTED | RF_RCU | (f->kind == RB_KPTR_UNREF ? RF_UNTRUSTED : 0));
	/* MEM_ALLOC is the only other flag allowed (NON_OWN_REF is not) */
	bool ok = reg->type == RT_BTF_ID && !(reg->flags & ~perm) && (!prog_btf || reg->range == RB_BTF_ALLOC);
	const char *rname = "";
	if (ok) {
		rname = prog_btf ? rb_alloc_type_name(env, (uint32_t)reg->map_idx) : rb_btf_name(env, (uint32_t)reg->map_idx);
		/* __check_ptr_off_reg with a fixed offset allowed */
		if (reg->off < 0)
			return rb_reject(env, "negative offset %s ptr R%d off=%d disallowed", tn, regno, reg->off);
		if (!env->t->is_const(&reg->val) || rb_reg_const_val(env, reg)) {
			struct rb_bounds vb;
			char tb[64];
			rb_reg_bounds(env, reg, &vb);
			return rb_reject(env, "variable %s access var_off=%s disallowed", tn,
					 rb_tnum_str(vb.var_off.value, vb.var_off.mask, tb, sizeof(tb)));
		}
		/* btf_struct_ids_match: the same BTF, the type at reg's offset,
		 * strictly for a referenced kptr */
		const struct btf *b = f->local ? rb_obj_btf(env) : rb_need_vmlinux(env);
		ok = prog_btf == f->local && b &&
		     rb_btf_struct_ids_match(b, (uint32_t)reg->map_idx, reg->off, (uint32_t)f->btf_id, f->kind != RB_KPTR_UNREF);
	}
	if (ok)
		return 0;
	if (f->kind == RB_KPTR_UNREF)
		return rb_reject(env, "invalid kptr access, R%d type=%s%s expected=ptr_%s or untrusted_ptr_%s", regno, tn,
				 rname, targ, targ);
	return rb_reject(env, "invalid kptr access, R%d type=%s%s expected=ptr_%s", regno, tn, rname, targ);
}

/* check_map_kptr_access */
static int kptr_access(struct rb_env *env, const struct rb_kptr_field *f, int value_regno)
{
	const struct bpf_insn *insn = &env->insns[env->insn_idx];
	uint8_t cls = BPF_CLASS(insn->code);
	if (BPF_MODE(insn->code) != BPF_MEM)
		return rb_reject(env, "kptr in map can only be accessed using BPF_MEM instruction mode");
	if (cls != BPF_LDX && (f->kind == RB_KPTR_REF || f->kind == RB_KPTR_PERCPU))
		return rb_reject(env, "store to referenced kptr disallowed");
	if (cls != BPF_LDX && f->kind == RB_KPTR_UPTR)
		return rb_reject(env, "store to uptr disallowed");
	if (cls == BPF_LDX) {
		load_kptr(env, f, &rb_cur_regs(env)[value_regno]);
		return 0;
	}
	if (cls == BPF_STX) {
		const struct rb_reg *v = &rb_cur_regs(env)[value_regno];
		/* NULL: valid only because it is known zero, so made precise (7.2.13) */
		if (v->type == RT_SCALAR && rb_reg_is_const(env, v) && rb_reg_const_val(env, v) == 0)
			return rb_mark_chain_precision(env, value_regno);
		return match_type(env, f, v, value_regno);
	}
	if (insn->imm)
		return rb_reject(env, "BPF_ST imm must be 0 when storing to kptr at off=%d", f->off);
	return 0;
}

int rb_kptr_map_access(struct rb_env *env, const struct rb_reg *reg, int off, int size, bool helper,
		       int value_regno)
{
	const struct rb_kptr_rec *rec = rb_map_kptrs(env, reg->map_idx);
	if (!rec->n)
		return 0;
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	bool cst = env->t->is_const(&reg->val);
	int64_t var = cst ? (int64_t)rb_reg_const_val(env, reg) : 0;
	const struct rb_kptr_field *hit = NULL;
	/* the fields in offset order, as btf_parse_fields sorts them */
	for (int64_t last = INT64_MIN;;) {
		const struct rb_kptr_field *f = NULL;
		for (int i = 0; i < rec->n; i++)
			if (rec->f[i].off > last && (!f || rec->f[i].off < f->off))
				f = &rec->f[i];
		if (!f)
			break;
		last = f->off;
		if (!((int64_t)b.smin + off < f->off + 8 && f->off < (int64_t)b.umax + off + size))
			continue;
		const char *n = kind_name(f->kind);
		if (helper)
			return rb_reject(env, "%s cannot be accessed indirectly by helper", n);
		if (!cst)
			return rb_reject(env, "%s access cannot have variable offset", n);
		if (f->off != off + var)
			return rb_reject(env, "%s access misaligned expected=%d off=%lld", n, f->off, (long long)(off + var));
		if (size != 8)
			return rb_reject(env, "%s access size must be BPF_DW", n);
		hit = f;
	}
	if (!hit || helper)
		return 0;
	int err = kptr_access(env, hit, value_regno);
	return err ? err : 1;
}
