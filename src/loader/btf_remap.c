/* btf_remap.c — vmlinux BTF ids from the running kernel's BTF to another
 * kernel's (see btf_remap.h). */
#include "loader/btf_remap.h"

#include <bpf/btf.h>
#include <linux/bpf.h>
#include <string.h>

/* the id of the type named and kinded as `id` of `from`, in `to`; id itself when absent */
static uint32_t remap_id(const struct btf *from, const struct btf *to, uint32_t id)
{
	const struct btf_type *t = id ? btf__type_by_id(from, id) : NULL;
	if (!t || !t->name_off)
		return id;
	const char *name = btf__name_by_offset(from, t->name_off);
	int nid = name ? btf__find_by_name_kind(to, name, btf_kind(t)) : -1;
	return nid > 0 ? (uint32_t)nid : id;
}

/* a struct_ops program's member index (its expected_attach_type) in the
 * struct `fid` of `from`, as the index of the member of that name in the
 * struct `tid` of `to` (7.2.13's tcp_congestion_ops has a member 6.18's
 * lacks, so the indexes after it move); idx itself when absent */
static uint32_t remap_member(const struct btf *from, const struct btf *to, uint32_t fid, uint32_t tid, uint32_t idx)
{
	const struct btf_type *ft = btf__type_by_id(from, fid), *tt = btf__type_by_id(to, tid);
	if (!ft || !tt || !btf_is_composite(ft) || !btf_is_composite(tt) || idx >= btf_vlen(ft))
		return idx;
	const char *name = btf__name_by_offset(from, btf_members(ft)[idx].name_off);
	const struct btf_member *m = btf_members(tt);
	for (uint32_t i = 0; name && i < btf_vlen(tt); i++) {
		const char *n = btf__name_by_offset(to, m[i].name_off);
		if (n && !strcmp(n, name))
			return i;
	}
	return idx;
}

static void remap_insns(const struct btf *from, const struct btf *to, struct rb_prog *p)
{
	for (size_t i = 0; p->insns && i < p->insn_cnt; i++) {
		struct bpf_insn *in = &p->insns[i];
		/* a kfunc call into vmlinux (off 0: not a module's BTF) */
		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL && in->off == 0)
			in->imm = (int32_t)remap_id(from, to, (uint32_t)in->imm);
		/* a typed ksym: ld_imm64 of a vmlinux BTF id (second half's imm: BTF fd, 0 = vmlinux) */
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) && i + 1 < p->insn_cnt) {
			if (in->src_reg == BPF_PSEUDO_BTF_ID && in[1].imm == 0)
				in->imm = (int32_t)remap_id(from, to, (uint32_t)in->imm);
			i++;
		}
	}
}

int rb_btf_remap_object(struct rb_object *obj, const char *path, struct rb_err *err)
{
	/* without the running kernel's BTF libbpf resolved no vmlinux id either */
	struct btf *from = btf__load_vmlinux_btf();
	if (!from)
		return 0;
	struct btf *to = btf__parse(path, NULL);
	if (!to) {
		btf__free(from);
		return rb_errf(err, "%s: cannot read BTF from %s", obj->path, path);
	}
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct rb_prog *p = &obj->progs[i];
		uint32_t fid = p->attach_btf_id;
		p->attach_btf_id = remap_id(from, to, fid);
		if (p->prog_type == BPF_PROG_TYPE_STRUCT_OPS)
			p->expected_attach_type = remap_member(from, to, fid, p->attach_btf_id, p->expected_attach_type);
		remap_insns(from, to, p);
	}
	for (size_t i = 0; i < obj->map_cnt; i++)
		obj->maps[i].btf_vmlinux_value_type_id = remap_id(from, to, obj->maps[i].btf_vmlinux_value_type_id);
	btf__free(to);
	btf__free(from);
	return 0;
}
