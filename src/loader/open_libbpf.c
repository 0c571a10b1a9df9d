/* open_libbpf.c — open an object with libbpf 1.1, loading it against the
 * bpf() stand-in (bpf_standin.c explains the design), then turn what the
 * stand-in recorded into an rb_object: map table in libbpf's order (plus
 * inner-map templates), global-data contents, and per program the final
 * instructions with map fds replaced by map indexes.
 *
 * Program types come from libbpf's section-name table: 1.1's, or for the
 * sections only mainline libbpf knows, mainline's (prog_type.c), applied
 * with bpf_program__set_type() and friends before the load. A program whose
 * section no libbpf knows is prepared as the type the resolver
 * (prog_type.h) gives it, or as a socket filter only to get libbpf past
 * its type check; rb_resolve_prog_types() sets its final type. A program
 * libbpf cannot prepare (typically an fentry/tp_btf whose attach target is
 * missing from the vmlinux BTF) gets rb_prog.error and the object is
 * reloaded without it, so one bad program does not lose the others. */
#include <bpf/btf.h>
#include <elf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/bpf_standin.h"
#include "loader/kernel_inputs.h"
#include "loader/open_paths.h"
#include "loader/prog_type.h"
#include "loader/uapi_names.h"

/* reloads after leaving out a program libbpf cannot prepare (each is a full
 * open + load, so bounded) */
#define MAX_RETRIES 256

struct attempt {
	struct rb_standin st;
	struct bpf_object *bo;
	uint32_t *fix;     /* RB_MAP_FIX_* per libbpf map, in libbpf's order */
};

static const char *strip_prefix(const char *m)
{
	return strncmp(m, "libbpf: ", 8) ? m : m + 8;
}

/* name of the program a libbpf message is about ("prog 'NAME': ..."), or NULL */
static bool msg_prog(const char *msg, char *name, size_t sz)
{
	const char *p = strstr(msg, "prog '");
	if (!p)
		return false;
	p += 6;
	const char *q = strchr(p, '\'');
	if (!q || (size_t)(q - p) >= sz)
		return false;
	memcpy(name, p, (size_t)(q - p));
	name[q - p] = 0;
	return true;
}

static void attempt_end(struct attempt *a)
{
	/* closed in its own context: the kernel BTF it may still hold can be
	 * a lent one (bpf_standin.c, btf__free) */
	if (a->bo) {
		struct rb_standin *prev = rb_standin_begin(&a->st);
		bpf_object__close(a->bo);
		rb_standin_end(prev);
	}
	a->bo = NULL;
	free(a->fix);
	a->fix = NULL;
	rb_standin_free(&a->st);
}

/* Prepare p as mainline libbpf prepares a section 1.1 does not know
 * (libbpf_prepare_prog_load): type, expected attach type, prog_flags, and
 * for SEC_ATTACH_BTF sections the vmlinux BTF id of the name after '/'.
 * Returns -1 with rp->error set when the target cannot be found, as
 * libbpf fails such a program. */
static int newer_section(struct bpf_program *p, const struct rb_sec_info *si, struct rb_prog *rp)
{
	bpf_program__set_type(p, si->type);
	bpf_program__set_expected_attach_type(p, si->eat);
	bpf_program__set_flags(p, bpf_program__flags(p) | si->prog_flags);
	if (!si->attach_btf)
		return 0;
	const char *target = rb_section_suffix(bpf_program__section_name(p));
	if (!target[0]) {
		snprintf(rp->error, sizeof(rp->error),
			 "prog '%.100s': no BTF-based attach target is specified in its section", bpf_program__name(p));
		return -1;
	}
	int e = bpf_program__set_attach_target(p, 0, target);
	if (e) {
		snprintf(rp->error, sizeof(rp->error), "prog '%.100s': failed to find kernel BTF type ID of '%.100s': %d",
			 bpf_program__name(p), target, e);
		return -1;
	}
	return 0;
}

/* open + prepare + load. The first call (obj->progs == NULL) allocates
 * obj->progs and records each program's own autoload flag; disabled[]
 * marks programs (by libbpf order) to leave out. Returns 0 when loaded;
 * on failure a->bo is NULL if the object could not even be opened. */
static int attempt_load(struct attempt *a, const struct rb_elf *elf, const uint8_t *buf,
			const struct rb_load_opts *opts, const struct rb_kinputs *ki, const bool *disabled,
			struct rb_object *obj, struct rb_err *err)
{
	const char *base = strrchr(elf->path, '/');
	base = base ? base + 1 : elf->path;
	const char *btf = opts && opts->btf_path ? opts->btf_path : ki ? ki->btf : NULL;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = base, .btf_custom_path = btf);
	memset(a, 0, sizeof(*a));
	a->st.vmlinux_btf = btf;
	a->st.kinputs = ki;
	a->st.lend = opts ? opts->lend_btf : NULL;
	struct rb_standin *prev = rb_standin_begin(&a->st);
	a->bo = bpf_object__open_mem(buf, elf->size, &oo);
	int ret = -1;
	if (!a->bo) {
		rb_errf(err, "%s: %s", elf->path,
			a->st.warn_cnt ? strip_prefix(a->st.first_warn) : "libbpf cannot open the object");
		goto out;
	}
	struct bpf_program *p;
	size_t nprogs = 0, nmaps = 0, i = 0;
	bpf_object__for_each_program(p, a->bo) nprogs++;
	if (!obj->progs) {
		obj->progs = calloc(nprogs ? nprogs : 1, sizeof(*obj->progs));
		if (!obj->progs) {
			rb_errf(err, "%s: out of memory", elf->path);
			goto out;
		}
		obj->prog_cnt = nprogs;
		bpf_object__for_each_program(p, a->bo) obj->progs[i++].autoload = bpf_program__autoload(p);
	}
	if (nprogs != obj->prog_cnt) {
		rb_errf(err, "%s: program count changed between opens", elf->path);
		goto out;
	}
	i = 0;
	bpf_object__for_each_program(p, a->bo) {
		/* SEC("?...") programs load too: we want every program */
		bpf_program__set_autoload(p, !(disabled && disabled[i]));
		struct rb_sec_info si;
		if (rb_section_by_libbpf(bpf_program__section_name(p), &si) && strcmp(si.from, "libbpf")) {
			/* a section mainline libbpf types as 1.1 does not:
			 * prepared as mainline prepares it */
			if (newer_section(p, &si, &obj->progs[i]))
				bpf_program__set_autoload(p, false);
		} else if (bpf_program__type(p) == BPF_PROG_TYPE_UNSPEC) {
			/* the type the resolver will give it (prog_type.h), so that
			 * libbpf prepares it as that type; a socket filter if none */
			struct rb_prog tmp = {0};
			struct rb_object one = {.progs = &tmp, .prog_cnt = 1};
			snprintf(tmp.section, sizeof(tmp.section), "%s", bpf_program__section_name(p));
			snprintf(one.path, sizeof(one.path), "%s", elf->path); /* for the type hints */
			struct rb_err ignored;
			if (rb_resolve_prog_types(&one, opts, &ignored) || !tmp.type_known) {
				bpf_program__set_type(p, BPF_PROG_TYPE_SOCKET_FILTER);
			} else {
				bpf_program__set_type(p, tmp.prog_type);
				bpf_program__set_expected_attach_type(p, tmp.expected_attach_type);
			}
		}
		i++;
	}
	struct bpf_map *m;
	bpf_object__for_each_map(m, a->bo) nmaps++;
	a->fix = calloc(nmaps + 1, sizeof(*a->fix));
	if (!a->fix) {
		rb_errf(err, "%s: out of memory", elf->path);
		goto out;
	}
	int ncpus = libbpf_num_possible_cpus();
	i = 0;
	bpf_object__for_each_map(m, a->bo) {
		uint32_t k = bpf_map__key_size(m), v = bpf_map__value_size(m), n = bpf_map__max_entries(m);
		if (!bpf_map__is_internal(m)) {
			a->fix[i] = rb_map_fix_sizes(bpf_map__type(m), &k, &v, &n, ncpus);
			if (a->fix[i]) {
				bpf_map__set_key_size(m, k);
				bpf_map__set_value_size(m, v);
				bpf_map__set_max_entries(m, n);
			}
		}
		/* pinned maps would be looked up and pinned in bpffs */
		bpf_map__set_pin_path(m, NULL);
		i++;
	}
	if (bpf_object__load(a->bo))
		rb_errf(err, "%s: %s", elf->path,
			a->st.warn_cnt ? strip_prefix(a->st.first_warn) : "libbpf cannot load the object");
	else if (a->st.oom)
		rb_errf(err, "%s: out of memory recording the load", elf->path);
	else
		ret = 0;
	if (ret == 0 && ki)
		rb_kinputs_patch_kconfig(ki, a->bo, &a->st);
out:
	rb_standin_end(prev);
	return ret;
}

static int find_map_by_rec(const struct rb_object *obj, const long *rec_of, long rec)
{
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (rec_of[i] == rec)
			return (int)i;
	return -1;
}

/* n bytes at p all zero (NULL: no value written, zero) */
static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void fill_map(struct rb_map *rm, const char *name, const struct rb_rec_map *r)
{
	snprintf(rm->name, sizeof(rm->name), "%s", name);
	rm->type = r->attr.map_type;
	rm->key_size = r->attr.key_size;
	rm->value_size = r->attr.value_size;
	rm->max_entries = r->attr.max_entries;
	rm->map_flags = r->attr.map_flags;
	rm->btf_key_type_id = r->attr.btf_key_type_id;
	rm->btf_value_type_id = r->attr.btf_value_type_id;
	rm->btf_vmlinux_value_type_id = r->attr.btf_vmlinux_value_type_id;
	rm->map_extra = r->attr.map_extra;
	rm->frozen = r->frozen;
	rm->inner_map_idx = -1;
}

static int collect_maps(struct attempt *a, struct rb_object *obj, long **rec_of_out, struct rb_err *err,
			const char *path)
{
	size_t n = 0, cap = 0;
	struct bpf_map *m;
	bpf_object__for_each_map(m, a->bo) cap++;
	cap = cap * 2 + 1; /* room for inner-map templates */
	obj->maps = calloc(cap, sizeof(*obj->maps));
	long *rec_of = calloc(cap, sizeof(long));
	*rec_of_out = rec_of;
	if (!obj->maps || !rec_of)
		return rb_errf(err, "%s: out of memory", path);
	size_t li = 0;
	bpf_object__for_each_map(m, a->bo) {
		struct rb_rec_map *r = rb_standin_map_by_fd(&a->st, bpf_map__fd(m));
		uint32_t fix = a->fix[li++];
		if (!r)
			continue; /* not created (autocreate off) */
		struct rb_map *rm = &obj->maps[n];
		fill_map(rm, bpf_map__name(m), r);
		rm->global_data = bpf_map__is_internal(m);
		rm->fixups = fix;
		rec_of[n] = r - a->st.maps;
		/* the initial value of global data; none kept for a writable
		 * map whose value is all zero (.bss: no copy of a large zero
		 * area, which reads as zero anyway) */
		if (rm->global_data && rm->value_size && (rm->frozen || !all_zero(r->value, rm->value_size))) {
			rm->init = calloc(1, rm->value_size);
			if (!rm->init)
				return rb_errf(err, "%s: out of memory", path);
			if (r->value)
				memcpy(rm->init, r->value, rm->value_size);
			rm->init_size = rm->value_size;
		}
		n++;
	}
	obj->map_cnt = n;
	/* inner-map templates: libbpf creates them only to create the outer map */
	for (size_t i = 0; i < n; i++) {
		long inner = a->st.maps[rec_of[i]].inner;
		if (inner < 0)
			continue;
		int idx = find_map_by_rec(obj, rec_of, inner);
		if (idx < 0) {
			if (obj->map_cnt >= cap)
				return rb_errf(err, "%s: too many inner maps", path);
			idx = (int)obj->map_cnt++;
			char nm[64];
			snprintf(nm, sizeof(nm), "%.56s.inner", obj->maps[i].name);
			fill_map(&obj->maps[idx], nm, &a->st.maps[inner]);
			obj->maps[idx].inner_template = true;
			rec_of[idx] = inner;
		}
		obj->maps[i].inner_map_idx = idx;
	}
	return 0;
}

/* map fds in ld_imm64 -> map indexes (see object.h) */
static int convert_insns(struct attempt *a, struct rb_object *obj, const long *rec_of, struct rb_prog *rp,
			 struct rb_err *err, const char *path)
{
	for (size_t i = 0; i < rp->insn_cnt; i++) {
		struct bpf_insn *in = &rp->insns[i];
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (i + 1 >= rp->insn_cnt)
			return rb_errf(err, "%s: program %s: truncated ld_imm64 at insn %zu", path, rp->name, i);
		if (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE) {
			struct rb_rec_map *r = rb_standin_map_by_fd(&a->st, in->imm);
			int idx = r ? find_map_by_rec(obj, rec_of, r - a->st.maps) : -1;
			if (idx < 0)
				return rb_errf(err, "%s: program %s: insn %zu refers to an unknown map fd %d", path,
					       rp->name, i, in->imm);
			in->src_reg = in->src_reg == BPF_PSEUDO_MAP_FD ? BPF_PSEUDO_MAP_IDX : BPF_PSEUDO_MAP_IDX_VALUE;
			in->imm = idx;
		}
		i++;
	}
	return 0;
}

static int collect_progs(struct attempt *a, struct rb_object *obj, const long *rec_of, struct rb_err *err,
			 const char *path)
{
	size_t i = 0;
	struct bpf_program *p;
	bpf_object__for_each_program(p, a->bo) {
		struct rb_prog *rp = &obj->progs[i++];
		rb_prog_set_names(rp, bpf_program__name(p), bpf_program__section_name(p));
		struct rb_sec_info si;
		rp->type_known = rb_section_by_libbpf(rp->section, &si);
		const char *tn = rp->type_known ? rb_prog_type_str(bpf_program__type(p)) : NULL;
		snprintf(rp->libbpf_type_name, sizeof(rp->libbpf_type_name), "%s", tn ? tn : "");
		snprintf(rp->type_from, sizeof(rp->type_from), "%s", rp->type_known ? si.from : "");
		rp->prog_type = rp->type_known ? bpf_program__type(p) : BPF_PROG_TYPE_UNSPEC;
		rp->expected_attach_type = bpf_program__expected_attach_type(p);
		if (rp->error[0])
			continue;
		struct rb_rec_prog *r = rb_standin_prog_by_fd(&a->st, bpf_program__fd(p));
		if (!r) {
			snprintf(rp->error, sizeof(rp->error), "libbpf did not load this program");
			continue;
		}
		rp->prog_type = rp->type_known ? r->attr.prog_type : BPF_PROG_TYPE_UNSPEC;
		rp->expected_attach_type = r->attr.expected_attach_type;
		rp->attach_btf_id = r->attr.attach_btf_id;
		if (rp->attach_btf_id)
			snprintf(rp->attach_name, sizeof(rp->attach_name), "%s", rb_section_suffix(rp->section));
		rp->prog_flags = r->attr.prog_flags;
		rp->kern_version = r->attr.kern_version;
		memcpy(rp->license, r->license, sizeof(rp->license));
		rp->insn_cnt = r->attr.insn_cnt;
		rp->insns = r->insns;
		r->insns = NULL;
		if (rp->insn_cnt > RB_MAX_INSNS)
			return rb_errf(err, "%s: program %s has %zu instructions after relocation (kernel limit %u)",
				       path, rp->name, rp->insn_cnt, RB_MAX_INSNS);
		rp->func_info = r->func_info;
		r->func_info = NULL;
		if (rp->func_info) {
			rp->func_info_rec_size = r->attr.func_info_rec_size;
			rp->func_info_cnt = r->attr.func_info_cnt;
		}
		rp->line_info = r->line_info;
		r->line_info = NULL;
		if (rp->line_info) {
			rp->line_info_rec_size = r->attr.line_info_rec_size;
			rp->line_info_cnt = r->attr.line_info_cnt;
		}
		if (convert_insns(a, obj, rec_of, rp, err, path))
			return -1;
	}
	return 0;
}

/* name of the kernel symbol a libbpf message says is missing
 * ("extern (func ksym) 'NAME': not found ...", "extern 'NAME' (strong): not
 * resolved"), or false */
/* the name quoted at p ('NAME', p at the opening quote) into name */
static bool quoted_name(const char *p, char *name, size_t sz)
{
	if (!p || *p != '\'')
		return false;
	p++;
	const char *q = strchr(p, '\'');
	if (!q || q == p || (size_t)(q - p) >= sz)
		return false;
	memcpy(name, p, (size_t)(q - p));
	name[q - p] = 0;
	return true;
}

static bool msg_missing_extern(const char *msg, char *name, size_t sz)
{
	if (!strstr(msg, "not found in kernel") && !strstr(msg, "not resolved"))
		return false;
	const char *p = strstr(msg, "extern ");
	return quoted_name(p ? strchr(p, '\'') : NULL, name, sz);
}

/* Make the undefined global symbol `name` weak in buf (a private copy of
 * the file). libbpf then leaves a missing kernel symbol unresolved (kfunc
 * call imm 0, ksym address 0) instead of failing the whole object; the
 * programs that use it are marked afterwards. Returns false if no such
 * symbol. */
static bool weaken_extern(const struct rb_elf *elf, uint8_t *buf, const char *name)
{
	bool hit = false;
	if (!elf->symtab)
		return false;
	for (size_t i = 1; i < elf->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(elf, i);
		if (s.st_shndx != SHN_UNDEF || ELF64_ST_BIND(s.st_info) != STB_GLOBAL ||
		    strcmp(rb_elf_sym_name(elf, &s), name))
			continue;
		size_t at = elf->secs[elf->symtab].sh.sh_offset + i * sizeof(Elf64_Sym) + offsetof(Elf64_Sym, st_info);
		buf[at] = (uint8_t)ELF64_ST_INFO(STB_WEAK, ELF64_ST_TYPE(s.st_info));
		hit = true;
	}
	return hit;
}

/* name of an undefined symbol the object's BTF does not describe ("failed
 * to find BTF for extern 'NAME'"): a library call clang left uninlined
 * (memcmp), a function meant to be linked in later (Tetragon's CEL
 * expressions), or a misused macro. libbpf 1.1 refuses the whole object at
 * open for it; or false */
static bool msg_extern_without_btf(const char *msg, char *name, size_t sz)
{
	static const char pre[] = "failed to find BTF for extern ";
	const char *p = strstr(msg, pre);
	return quoted_name(p ? p + sizeof(pre) - 1 : NULL, name, sz);
}

/* In buf (a private copy of the file): give the undefined symbol `name` type
 * STT_FUNC, so that libbpf no longer takes it for an extern, and drop the
 * relocations against it (the last entries of each relocation section take
 * their place, sh_size shrinks). A call to it is left as clang wrote it
 * ("call -1"): libbpf then fails the programs that make it ("no .text
 * section found yet sub-program call exists"), which are left out with
 * their reason as the kernel would refuse a call into nothing, and opens
 * the others. Returns false if there is no such symbol. */
static bool drop_extern(const struct rb_elf *elf, uint8_t *buf, const char *name)
{
	size_t idx = 0;
	if (!elf->symtab)
		return false;
	for (size_t i = 1; i < elf->nsyms && !idx; i++) {
		Elf64_Sym s = rb_elf_sym(elf, i);
		if (s.st_shndx == SHN_UNDEF && ELF64_ST_TYPE(s.st_info) == STT_NOTYPE &&
		    !strcmp(rb_elf_sym_name(elf, &s), name))
			idx = i;
	}
	if (!idx)
		return false;
	Elf64_Sym s = rb_elf_sym(elf, idx);
	size_t at = elf->secs[elf->symtab].sh.sh_offset + idx * sizeof(Elf64_Sym) + offsetof(Elf64_Sym, st_info);
	buf[at] = (uint8_t)ELF64_ST_INFO(ELF64_ST_BIND(s.st_info), STT_FUNC);
	Elf64_Ehdr eh;
	memcpy(&eh, buf, sizeof(eh));
	for (size_t k = 1; k < elf->nsec; k++) {
		const Elf64_Shdr *sh = &elf->secs[k].sh;
		if (sh->sh_type != SHT_REL || sh->sh_entsize != sizeof(Elf64_Rel) || sh->sh_link != elf->symtab)
			continue;
		Elf64_Xword size = sh->sh_size;
		uint8_t *rel = buf + sh->sh_offset;
		for (Elf64_Xword off = 0; off + sizeof(Elf64_Rel) <= size;) {
			Elf64_Rel r;
			memcpy(&r, rel + off, sizeof(r));
			if (ELF64_R_SYM(r.r_info) != idx) {
				off += sizeof(Elf64_Rel);
				continue;
			}
			size -= sizeof(Elf64_Rel);
			memmove(rel + off, rel + size, sizeof(Elf64_Rel));
		}
		if (size != sh->sh_size) {
			size_t shat = eh.e_shoff + k * eh.e_shentsize + offsetof(Elf64_Shdr, sh_size);
			memcpy(buf + shat, &size, sizeof(size));
		}
	}
	return true;
}

/* apply `edit` (drop_extern, weaken_extern) for symbol `name` to the
 * private copy of the file (*own, made on first use) and append the name
 * to `list`; false if there is no copy or no such symbol */
static bool rewrite_symbol(const struct rb_elf *elf, uint8_t **own, const char *name,
			   bool (*edit)(const struct rb_elf *, uint8_t *, const char *), char *list, size_t listsz)
{
	if (!*own && (*own = malloc(elf->size)) != NULL)
		memcpy(*own, elf->buf, elf->size);
	if (!*own || !edit(elf, *own, name))
		return false;
	size_t l = strlen(list);
	snprintf(list + l, listsz - l, "%s%s", l ? ", " : "", name);
	return true;
}

/* libbpf >= 1.4 (bpf_object__relocate_data, poison_kfunc_call) turns a
 * call to a weak kfunc it could not resolve into a call of helper
 * 2002000000 + the extern's index; 1.1 left a kfunc call of id 0 */
#define POISON_CALL_KFUNC_BASE 2002000000

/* programs that call a kfunc or use a typed ksym left unresolved, after
 * the loader made the missing symbols weak (`names`): refused, as libbpf
 * refuses the object they are in (any libbpf version) */
static void mark_unresolved(struct rb_object *obj, const char *names)
{
	for (size_t k = 0; k < obj->prog_cnt; k++) {
		struct rb_prog *p = &obj->progs[k];
		bool bad = false;
		for (size_t i = 0; i < p->insn_cnt && !bad; i++) {
			const struct bpf_insn *in = &p->insns[i];
			if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL && in->imm == 0)
				bad = true;
			if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0 && in->imm >= POISON_CALL_KFUNC_BASE)
				bad = true;
			if (in->code == (BPF_LD | BPF_IMM | BPF_DW) && in->src_reg == BPF_PSEUDO_BTF_ID && in->imm == 0)
				bad = true;
		}
		if (!bad)
			continue;
		snprintf(p->error, sizeof(p->error), "uses kernel symbol(s) missing from vmlinux BTF: %.200s", names);
		free(p->insns);
		p->insns = NULL;
		p->insn_cnt = 0;
		free(p->func_info);
		p->func_info = NULL;
		p->func_info_cnt = 0;
		free(p->line_info);
		p->line_info = NULL;
		p->line_info_cnt = 0;
	}
}

int rb_open_libbpf(const struct rb_elf *elf, const struct rb_load_opts *opts, struct rb_object *obj,
		   struct rb_err *err)
{
	struct attempt a;
	bool *disabled = NULL;
	long *rec_of = NULL;
	uint8_t *own = NULL;       /* private copy of the file once a symbol is weakened */
	char weak[256] = "";       /* names weakened so far */
	char dropped[256] = "";    /* undefined functions without BTF (drop_extern) */
	int ret = -1;
	struct rb_kinputs *ki = NULL;
	if (opts && opts->kernel_inputs) {
		if (!(ki = malloc(sizeof(*ki)))) {
			rb_errf(err, "%s: out of memory", elf->path);
			return -1;
		}
		struct rb_err e;
		if (rb_kinputs_read(opts->kernel_inputs, ki, &e)) {
			rb_errf(err, "%s: %s", elf->path, e.msg);
			free(ki);
			return -1;
		}
	}
	memset(&a, 0, sizeof(a));
	for (size_t tries = 0, weakened = 0;; tries++) {
		if (attempt_load(&a, elf, own ? own : elf->buf, opts, ki, disabled, obj, err) == 0)
			break;
		char name[128];
		/* an undefined function without BTF: no extern any more, see above */
		if (!a.bo && weakened < 32 && msg_extern_without_btf(a.st.first_warn, name, sizeof(name))) {
			if (!rewrite_symbol(elf, &own, name, drop_extern, dropped, sizeof(dropped)))
				goto out;
			weakened++;
			attempt_end(&a);
			continue;
		}
		if (!a.bo || !obj->progs)
			goto out;
		/* a missing kernel symbol: make it weak and retry */
		if (weakened < 32 && msg_missing_extern(a.st.first_warn, name, sizeof(name))) {
			if (!rewrite_symbol(elf, &own, name, weaken_extern, weak, sizeof(weak)))
				goto out;
			weakened++;
			attempt_end(&a);
			continue;
		}
		/* a program libbpf could not prepare: leave it out and retry */
		if (tries >= obj->prog_cnt + weakened || tries >= MAX_RETRIES ||
		    !msg_prog(a.st.first_warn, name, sizeof(name)))
			goto out;
		if (!disabled && !(disabled = calloc(obj->prog_cnt, sizeof(bool)))) {
			rb_errf(err, "%s: out of memory", elf->path);
			goto out;
		}
		size_t i = 0, hit = obj->prog_cnt;
		struct bpf_program *p;
		bpf_object__for_each_program(p, a.bo) {
			if (!strcmp(bpf_program__name(p), name) && !disabled[i])
				hit = i;
			i++;
		}
		if (hit == obj->prog_cnt)
			goto out;
		disabled[hit] = true;
		if (dropped[0] && strstr(a.st.first_warn, "no .text section found yet sub-program call exists"))
			snprintf(obj->progs[hit].error, sizeof(obj->progs[hit].error),
				 "calls a function the object does not define and has no BTF for (%.180s)", dropped);
		else
			snprintf(obj->progs[hit].error, sizeof(obj->progs[hit].error), "%.250s",
				 strip_prefix(a.st.first_warn));
		attempt_end(&a);
	}
	if (collect_maps(&a, obj, &rec_of, err, elf->path))
		goto out;
	if (collect_progs(&a, obj, rec_of, err, elf->path))
		goto out;
	if (weak[0])
		mark_unresolved(obj, weak);
	struct btf *b = bpf_object__btf(a.bo);
	struct rb_rec_btf *rb = b ? rb_standin_btf_by_fd(&a.st, btf__fd(b)) : NULL;
	if (rb) {
		obj->btf = rb->data;
		obj->btf_size = rb->size;
		rb->data = NULL;
	}
	ret = 0;
out:
	attempt_end(&a);
	free(disabled);
	free(rec_of);
	free(own);
	free(ki);
	return ret;
}
