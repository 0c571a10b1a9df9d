/* legacy_btf_ext.c — BTF, func_info and line_info for objects opened by
 * our own path (open_legacy.c), so that the kernel oracle loads them with
 * their BTF and the engine sees the global functions the kernel sees
 * (6.18 verifies a BTF_FUNC_GLOBAL subprogram on its own).
 *
 * clang leaves every DATASEC's size and its variables' offsets 0; libbpf
 * (1.1, btf_fixup_datasec) fills them from the ELF section sizes and
 * symbol values and sorts the variables, and marks global symbols of
 * hidden visibility static (variables and functions), before the kernel
 * sees the BTF. We do the same on a copy. A DATASEC whose section or
 * variable the file does not have makes the BTF unusable: the object then
 * loads without it, as it did before.
 *
 * .BTF.ext holds per code section records whose insn_off is a byte offset
 * in the section. A program is built from units (its own function, then
 * the functions it calls, appended); each unit's records are moved to the
 * unit's place in the program, with insn_off an instruction index, as
 * libbpf does for the programs it loads. */
#include "loader/legacy_btf_ext.h"

#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>
#include "util/sort.h"

static size_t sec_by_name(const struct rb_elf *e, const char *name)
{
	for (size_t i = 1; i < e->nsec; i++)
		if (!strcmp(e->secs[i].name, name))
			return i;
	return 0;
}

/* a global or weak symbol named name (of STT_OBJECT or, for functions,
 * STT_FUNC type), preferring one in section sec */
static bool find_sym(const struct rb_elf *e, const char *name, int type, size_t sec, Elf64_Sym *out)
{
	bool found = false;
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		int b = ELF64_ST_BIND(s.st_info);
		if (ELF64_ST_TYPE(s.st_info) != type || (b != STB_GLOBAL && b != STB_WEAK) ||
		    strcmp(rb_elf_sym_name(e, &s), name))
			continue;
		*out = s;
		found = true;
		if (!sec || s.st_shndx == sec)
			return true;
	}
	return found;
}

static bool hidden(const Elf64_Sym *s)
{
	int v = ELF64_ST_VISIBILITY(s->st_other);
	return v == STV_HIDDEN || v == STV_INTERNAL;
}

static int vsi_cmp(const void *a, const void *b)
{
	const struct btf_var_secinfo *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* btf_fixup_datasec for one DATASEC; false if the file lacks what it names */
static bool fix_datasec(const struct rb_elf *e, struct btf *btf, struct btf_type *t)
{
	const char *sname = btf__name_by_offset(btf, t->name_off);
	if (!sname)
		return false;
	if (!strcmp(sname, ".kconfig") || !strcmp(sname, ".ksyms"))
		return false; /* externs: libbpf's business; this path has none */
	size_t sec = sec_by_name(e, sname);
	bool fix_offsets = false;
	if (t->size == 0) {
		if (!sec || !e->secs[sec].sh.sh_size || e->secs[sec].sh.sh_size > UINT32_MAX)
			return false;
		t->size = (uint32_t)e->secs[sec].sh.sh_size;
		fix_offsets = true;
	}
	struct btf_var_secinfo *vsi = btf_var_secinfos(t);
	uint16_t n = btf_vlen(t);
	for (uint16_t i = 0; i < n; i++) {
		struct btf_type *v = (struct btf_type *)btf__type_by_id(btf, vsi[i].type);
		if (!v || !btf_is_var(v))
			return false;
		struct btf_var *var = btf_var(v);
		if (var->linkage == BTF_VAR_STATIC || var->linkage == BTF_VAR_GLOBAL_EXTERN)
			continue;
		const char *vname = btf__name_by_offset(btf, v->name_off);
		Elf64_Sym s;
		if (!vname || !find_sym(e, vname, STT_OBJECT, sec, &s))
			return false;
		if (fix_offsets)
			vsi[i].offset = (uint32_t)s.st_value;
		if (hidden(&s))
			var->linkage = BTF_VAR_STATIC;
	}
	rb_sort(vsi, n, sizeof(*vsi), vsi_cmp);
	return true;
}

int rb_legacy_btf(const struct rb_elf *e, void **out, size_t *size)
{
	*out = NULL;
	*size = 0;
	if (!e->btf || !e->secs[e->btf].data)
		return 0;
	const struct rb_elf_sec *s = &e->secs[e->btf];
	struct btf *btf = btf__new(s->data, (uint32_t)s->sh.sh_size);
	if (!btf)
		return 0; /* (rb_elf_parse checked it: cannot happen but for memory) */
	bool ok = true;
	uint32_t n = btf__type_cnt(btf);
	for (uint32_t id = 1; id < n && ok; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, id);
		if (btf_is_datasec(t)) {
			ok = fix_datasec(e, btf, t);
		} else if (btf_is_func(t) && btf_vlen(t) == BTF_FUNC_GLOBAL) {
			/* a global function of hidden visibility is static to libbpf */
			Elf64_Sym fs;
			const char *fname = btf__name_by_offset(btf, t->name_off);
			if (fname && find_sym(e, fname, STT_FUNC, 0, &fs) && hidden(&fs))
				t->info = (t->info & ~0xffffu) | BTF_FUNC_STATIC; /* linkage is the vlen */
		}
	}
	int ret = 0;
	if (ok) {
		uint32_t sz;
		const void *raw = btf__raw_data(btf, &sz);
		if (raw && (*out = malloc(sz)) != NULL) {
			memcpy(*out, raw, sz);
			*size = sz;
		} else {
			ret = -1;
		}
	}
	btf__free(btf);
	return ret;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rb_ext_rec *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

/* the string at offset off of the object's BTF, or NULL */
static const char *btf_str(const struct rb_elf *e, uint32_t off)
{
	const uint8_t *d = e->secs[e->btf].data;
	uint32_t hdr = rb_rd32(d + 4), str_off = rb_rd32(d + 16), str_len = rb_rd32(d + 20);
	if (off >= str_len)
		return NULL;
	const char *p = (const char *)d + hdr + str_off + off;
	return memchr(p, 0, str_len - off) ? p : NULL;
}

/* the records of sub-section which (0 func_info, 1 line_info), checked by
 * rb_btf_ext_check when the file was parsed */
static int index_sub(const struct rb_elf *e, int which, uint32_t *rec_size, struct rb_ext_rec **out, size_t *nout)
{
	const struct rb_elf_sec *s = &e->secs[e->btf_ext];
	const uint8_t *d = s->data;
	uint32_t hdr = rb_rd32(d + 4), hoff = 8 + 8 * (uint32_t)which;
	if (hoff + 8 > hdr)
		return 0;
	uint32_t off = rb_rd32(d + hoff), len = rb_rd32(d + hoff + 4);
	if (len < 4)
		return 0;
	const uint8_t *p = d + hdr + off;
	uint32_t rec = rb_rd32(p), pos = 4;
	size_t n = 0, k = 0;
	while (pos + 8 <= len) { /* count */
		uint32_t num = rb_rd32(p + pos + 4);
		n += num;
		pos += 8 + num * rec;
	}
	*out = calloc(n + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (pos = 4; pos + 8 <= len;) {
		const char *name = btf_str(e, rb_rd32(p + pos));
		uint32_t num = rb_rd32(p + pos + 4);
		size_t sec = name ? sec_by_name(e, name) : 0;
		pos += 8;
		for (uint32_t i = 0; i < num; i++, pos += rec)
			if (sec)
				(*out)[k++] = (struct rb_ext_rec){sec, rb_rd32(p + pos) / 8, p + pos};
	}
	rb_sort(*out, k, sizeof(**out), rec_cmp);
	*nout = k;
	*rec_size = rec;
	return 0;
}

int rb_legacy_ext_init(const struct rb_elf *e, struct rb_legacy_ext *x)
{
	memset(x, 0, sizeof(*x));
	if (!e->btf || !e->btf_ext)
		return 0;
	if (index_sub(e, 0, &x->fi_size, &x->fi, &x->nfi) || index_sub(e, 1, &x->li_size, &x->li, &x->nli)) {
		rb_legacy_ext_free(x);
		return -1;
	}
	return 0;
}

void rb_legacy_ext_free(struct rb_legacy_ext *x)
{
	free(x->fi);
	free(x->li);
	memset(x, 0, sizeof(*x));
}

/* first record at or after (sec, insn) */
static size_t lower(const struct rb_ext_rec *r, size_t n, size_t sec, uint64_t insn)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r[mid].sec < sec || (r[mid].sec == sec && r[mid].insn < insn))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the records of every unit, moved to the program; NULL (and *cnt 0) if a
 * unit has none at its start, or (one_each) more than one */
static void *collect(const struct rb_ext_rec *r, size_t n, uint32_t rec_size, const struct rb_legacy_unit *u,
		     size_t nu, bool one_each, uint32_t *cnt, bool *oom)
{
	*cnt = 0;
	size_t total = 0;
	for (size_t i = 0; i < nu; i++) {
		size_t a = lower(r, n, u[i].sec, u[i].start), b = lower(r, n, u[i].sec, u[i].start + u[i].len);
		if (a == b || r[a].insn != u[i].start || (one_each && b - a != 1))
			return NULL;
		total += b - a;
	}
	if (!total || total > UINT32_MAX)
		return NULL;
	uint8_t *out = malloc(total * rec_size), *w = out;
	if (!out) {
		*oom = true;
		return NULL;
	}
	for (size_t i = 0; i < nu; i++) {
		size_t a = lower(r, n, u[i].sec, u[i].start), b = lower(r, n, u[i].sec, u[i].start + u[i].len);
		for (size_t k = a; k < b; k++, w += rec_size) {
			memcpy(w, r[k].rec, rec_size);
			uint32_t at = (uint32_t)(u[i].out + (r[k].insn - u[i].start));
			memcpy(w, &at, 4);
		}
	}
	*cnt = (uint32_t)total;
	return out;
}

int rb_legacy_ext_prog(const struct rb_legacy_ext *x, const struct rb_legacy_unit *u, size_t nu, struct rb_prog *p)
{
	bool oom = false;
	if (!x->nfi || !nu)
		return 0;
	p->func_info = collect(x->fi, x->nfi, x->fi_size, u, nu, true, &p->func_info_cnt, &oom);
	if (!p->func_info)
		return oom ? -1 : 0;
	p->func_info_rec_size = x->fi_size;
	if (x->nli) {
		p->line_info = collect(x->li, x->nli, x->li_size, u, nu, false, &p->line_info_cnt, &oom);
		if (p->line_info)
			p->line_info_rec_size = x->li_size;
	}
	return oom ? -1 : 0;
}
