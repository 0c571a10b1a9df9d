/* open_legacy.c — objects libbpf 1.x refuses or sees no program in:
 * legacy map definitions in SEC("maps") ("legacy map definitions in 'maps'
 * section are not supported"), static or STT_NOTYPE program symbols,
 * iproute2-style objects (tc/ip), objects from old toolchains. Older real
 * projects (iproute2's tc/xdp programs, Cilium's datapath, samples built
 * against bpf_load.c) are like that. This is our own small path over the
 * validated ELF view (elf_view.c):
 *   - maps: the "maps" section (if any) is an array of fixed-size
 *     definitions, one per symbol; the size is section size / symbol
 *     count. 20..32 bytes is struct bpf_map_def {type, key_size,
 *     value_size, max_entries, map_flags[, inner_map_idx, numa_node]}; 36
 *     bytes or more is iproute2's struct bpf_elf_map {type, size_key,
 *     size_value, max_elem, flags, id, pinning, inner_id, inner_idx}
 *     (pinning is tc's business: any value is taken; inner_id names the
 *     map-in-map template by its id);
 *   - .data/.rodata/.bss sections become single-entry array maps like
 *     libbpf makes them (.rodata read-only to the program and frozen);
 *     except in objects for v4l-utils' bpf_load.c (maps section named
 *     "<type>/maps", ir-keytable's IR decoders), whose loader writes a
 *     global variable's value into the ld_imm64 that names it (BPF_PARAM);
 *   - programs: per code section other than .text, its global functions
 *     (STT_FUNC; in a section without any, named global STT_NOTYPE
 *     symbols, which old clang and assemblers emit), else its static
 *     functions, else the whole section as one program (as tc loads a
 *     section); program types come from prog_type.c, called by object.c;
 *   - R_BPF_64_64 relocations on ld_imm64 become map references (map index
 *     form, see object.h); so do the SHT_RELA sections (".rela<section>")
 *     of old LLVM, whose entries on ld_imm64 have type 0 (R_BPF_NONE)
 *     against the map symbols: the loaders of that era (iproute2's,
 *     samples/bpf's bpf_load.c) read only the symbol of each entry and
 *     relocated every ld_imm64 it names, whatever the type (libbpf 1.x
 *     skips SHT_RELA sections, leaving the reference a scalar); calls (R_BPF_64_32, or pc-relative calls with no
 *     relocation) pull the called function in after the program, once,
 *     and the call offset is rewritten, as libbpf does for BTF objects; a
 *     call to a function the object does not define (memset, memcpy not
 *     inlined by an old clang) stays as the file has it, for the verifier
 *     to reject.
 */
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/legacy_btf_ext.h"
#include "loader/legacy_btf_maps.h"
#include "loader/open_paths.h"
#include "util/sort.h"

#define R_BPF_NONE 0
#define R_BPF_64_64 1
#define R_BPF_64_32 10



struct lctx {
	const struct rb_elf *e;
	struct rb_object *obj;
	size_t *map_sym;     /* per legacy map: its symbol's offset in "maps" */
	size_t btf_maps_sec; /* section index of ".maps", 0 if none */
	uint64_t *btf_off;   /* per map: its offset in ".maps", UINT64_MAX if not a BTF map */
	size_t nlegacy;
	size_t def_size;
	long *sec_map;       /* per section: global-data map index, or -1 */
	struct rb_err *err;
	/* lookup tables, so that building a program costs O(n log n) */
	struct rel_ent *rels;   /* relocations of code sections, sorted by (sec, off) */
	size_t nrels;
	struct frange *fr;      /* function symbols of code sections, sorted by (sec, start) */
	size_t nfr;
	uint32_t *stamp;        /* per unit id: program generation that placed it */
	size_t *placed;         /* per unit id: its output offset in that program */
	uint32_t gen;
	uint64_t total;         /* instructions produced over all programs */
	bool *has_func;         /* per section: holds an STT_FUNC symbol */
	bool fatal;             /* the last error fails the whole object */
	struct rb_legacy_ext ext; /* .BTF.ext func_info/line_info records */
};

struct rel_ent {
	uint64_t sec, off;
	Elf64_Rel rel;
};

struct frange {
	uint64_t sec, start, len;
	size_t sym; /* its symbol */
};

#define LEGACY_TOTAL_INSNS (16u * RB_MAX_INSNS)

/* an error that fails the whole object (see prog_or_error) */
__attribute__((format(printf, 2, 3))) static int fatalf(struct lctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
	va_end(ap);
	c->fatal = true;
	return -1;
}

static int sym_off_cmp(const void *a, const void *b)
{
	const Elf64_Sym *x = a, *y = b;
	return x->st_value < y->st_value ? -1 : x->st_value > y->st_value;
}

static bool is_data_sec(const struct rb_elf_sec *s)
{
	if (!(s->sh.sh_flags & SHF_ALLOC) || (s->sh.sh_flags & SHF_EXECINSTR) || s->sh.sh_size == 0)
		return false;
	return !strncmp(s->name, ".data", 5) || !strncmp(s->name, ".rodata", 7) || !strncmp(s->name, ".bss", 4);
}

static int parse_maps(struct lctx *c)
{
	const struct rb_elf *e = c->e;
	const struct rb_elf_sec *ms = &e->secs[e->legacy_maps];
	size_t n = 0;
	for (size_t i = 1; e->legacy_maps && i < e->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		if (s.st_shndx == e->legacy_maps && ELF64_ST_TYPE(s.st_info) != STT_SECTION && s.st_name)
			n++;
	}
	if (e->legacy_maps && n == 0)
		return rb_errf(c->err, "%s: section maps has no map symbols", e->path);
	if (n && (ms->sh.sh_size % n || ms->sh.sh_size / n < 20))
		return rb_errf(c->err, "%s: section maps (%llu bytes) does not divide into %zu map definitions",
			       e->path, (unsigned long long)ms->sh.sh_size, n);
	c->def_size = n ? ms->sh.sh_size / n : 0;
	/* iproute2's struct bpf_elf_map (36 bytes; newer tc loaders add fields) */
	c->obj->iproute2 = c->def_size >= 36;
	Elf64_Sym *syms = calloc(n + 1, sizeof(*syms));
	size_t ndata = 0;
	for (size_t i = 1; i < e->nsec; i++) {
		ndata += is_data_sec(&e->secs[i]);
		if (!strcmp(e->secs[i].name, ".maps"))
			c->btf_maps_sec = i;
	}
	size_t nbtf = c->btf_maps_sec ? rb_btf_maps_count(e) : 0, cap = n + 2 * nbtf + ndata + 1;
	c->btf_off = calloc(cap, sizeof(uint64_t));
	c->obj->maps = calloc(cap, sizeof(struct rb_map));
	c->map_sym = calloc(n + 1, sizeof(size_t));
	c->sec_map = calloc(e->nsec, sizeof(long));
	if (!syms || !c->obj->maps || !c->map_sym || !c->sec_map || !c->btf_off) {
		free(syms);
		return rb_errf(c->err, "%s: out of memory", e->path);
	}
	size_t k = 0;
	for (size_t i = 1; e->legacy_maps && i < e->nsyms && k < n; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		if (s.st_shndx == e->legacy_maps && ELF64_ST_TYPE(s.st_info) != STT_SECTION && s.st_name)
			syms[k++] = s;
	}
	rb_sort(syms, n, sizeof(*syms), sym_off_cmp);
	int ncpus = libbpf_num_possible_cpus();
	uint32_t *ids = calloc(n + 1, sizeof(uint32_t)), *inner = calloc(n + 1, sizeof(uint32_t));
	if (!ids || !inner) {
		free(syms);
		free(ids);
		free(inner);
		return rb_errf(c->err, "%s: out of memory", e->path);
	}
	int ret = 0;
	for (size_t i = 0; i < n; i++) {
		if (syms[i].st_value % c->def_size || (i && syms[i].st_value == syms[i - 1].st_value)) {
			ret = rb_errf(c->err, "%s: map symbol '%s' is not at a definition boundary", e->path,
				      rb_elf_sym_name(e, &syms[i]));
			break;
		}
		const uint8_t *d = ms->data + syms[i].st_value;
		struct rb_map *m = &c->obj->maps[i];
		snprintf(m->name, sizeof(m->name), "%s", rb_elf_sym_name(e, &syms[i]));
		m->type = rb_rd32(d);
		m->key_size = rb_rd32(d + 4);
		m->value_size = rb_rd32(d + 8);
		m->max_entries = rb_rd32(d + 12);
		m->map_flags = rb_rd32(d + 16);
		m->inner_map_idx = -1;
		if (c->def_size >= 36) { /* struct bpf_elf_map: id at 20, inner_id at 28 */
			ids[i] = rb_rd32(d + 20);
			inner[i] = rb_rd32(d + 28);
		} else if (c->def_size >= 24 && (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
						 m->type == BPF_MAP_TYPE_HASH_OF_MAPS)) {
			uint32_t idx = rb_rd32(d + 20); /* struct bpf_map_def inner_map_idx */
			if (idx >= n || idx == i) {
				ret = rb_errf(c->err, "%s: map '%s' has bad inner_map_idx %u", e->path, m->name, idx);
				break;
			}
			m->inner_map_idx = (int32_t)idx;
		}
		m->fixups = rb_map_fix_sizes(m->type, &m->key_size, &m->value_size, &m->max_entries, ncpus);
		c->map_sym[i] = syms[i].st_value;
	}
	for (size_t i = 0; !ret && i < n; i++) {
		if (!inner[i])
			continue;
		for (size_t j = 0; j < n; j++)
			if (j != i && ids[j] == inner[i])
				c->obj->maps[i].inner_map_idx = (int32_t)j;
		/* an inner_id no map has: as if none (map_fixup.c stands one in) */
	}
	for (size_t i = 0; !ret && i < n; i++)
		c->obj->maps[i].elf_id = ids[i];
	free(syms);
	free(ids);
	free(inner);
	if (ret)
		return ret;
	c->nlegacy = n;
	c->obj->map_cnt = n;
	/* BTF-defined maps next to the legacy ones */
	for (size_t i = 0; i < cap; i++)
		c->btf_off[i] = UINT64_MAX;
	size_t nb = 0;
	if (nbtf && rb_btf_maps_parse(e, c->obj, n + 2 * nbtf, c->btf_off, &nb, c->err))
		return -1;
	for (size_t i = n; i < c->obj->map_cnt; i++) {
		struct rb_map *m = &c->obj->maps[i];
		m->fixups = rb_map_fix_sizes(m->type, &m->key_size, &m->value_size, &m->max_entries, ncpus);
	}
	/* global data, as libbpf would make it */
	for (size_t i = 0; i < e->nsec; i++) {
		c->sec_map[i] = -1;
		const struct rb_elf_sec *s = &e->secs[i];
		if (i == 0 || !is_data_sec(s))
			continue;
		if (s->sh.sh_size > RB_MAX_NOBITS_SIZE)
			return rb_errf(c->err, "%s: data section %s too large", e->path, s->name);
		struct rb_map *m = &c->obj->maps[c->obj->map_cnt];
		bool ro = !strncmp(s->name, ".rodata", 7);
		snprintf(m->name, sizeof(m->name), "%s", s->name);
		m->type = BPF_MAP_TYPE_ARRAY;
		m->key_size = 4;
		m->value_size = (uint32_t)s->sh.sh_size;
		m->max_entries = 1;
		m->map_flags = ro ? BPF_F_RDONLY_PROG : BPF_F_MMAPABLE;
		m->frozen = ro;
		m->global_data = true;
		m->inner_map_idx = -1;
		/* NOBITS (.bss): zero, nothing to keep or allocate */
		if (s->data && s->sh.sh_size) {
			m->init = malloc(s->sh.sh_size);
			if (!m->init)
				return rb_errf(c->err, "%s: out of memory", e->path);
			memcpy(m->init, s->data, s->sh.sh_size);
			m->init_size = s->sh.sh_size;
		}
		c->sec_map[i] = (long)c->obj->map_cnt++;
	}
	return 0;
}

static int rel_cmp(const void *a, const void *b)
{
	const struct rel_ent *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int fr_cmp(const void *a, const void *b)
{
	const struct frange *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Is sym a function of a code section? STT_FUNC symbols are; in a code
 * section without any (old clang, hand-written assembly), so are named
 * global STT_NOTYPE symbols. has_func == NULL: count generously (an upper
 * bound). */
static bool func_sym(const struct rb_elf *e, const Elf64_Sym *s, const bool *has_func)
{
	if (!s->st_shndx || s->st_shndx >= e->nsec || !(e->secs[s->st_shndx].sh.sh_flags & SHF_EXECINSTR) ||
	    s->st_value % 8 || s->st_value >= e->secs[s->st_shndx].sh.sh_size)
		return false;
	int t = ELF64_ST_TYPE(s->st_info);
	if (t == STT_FUNC)
		return true;
	if (t != STT_NOTYPE || ELF64_ST_BIND(s->st_info) == STB_LOCAL || !s->st_name)
		return false;
	return !has_func || !has_func[s->st_shndx];
}

/* a relocation section (SHT_REL, or old LLVM's SHT_RELA) of a code section */
static bool code_relocs(const struct rb_elf *e, size_t i)
{
	const struct rb_elf_sec *rs = &e->secs[i];
	return (rs->sh.sh_type == SHT_REL || rs->sh.sh_type == SHT_RELA) &&
	       (e->secs[rs->sh.sh_info].sh.sh_flags & SHF_EXECINSTR) && rs->data;
}

static size_t rel_size(const struct rb_elf_sec *rs)
{
	return rs->sh.sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
}

static int build_index(struct lctx *c)
{
	const struct rb_elf *e = c->e;
	size_t nr = 0, nf = 0;
	c->has_func = calloc(e->nsec, sizeof(bool));
	if (!c->has_func)
		return rb_errf(c->err, "%s: out of memory", e->path);
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		if (ELF64_ST_TYPE(s.st_info) == STT_FUNC && s.st_shndx && s.st_shndx < e->nsec)
			c->has_func[s.st_shndx] = true;
	}
	for (size_t i = 1; i < e->nsec; i++)
		if (code_relocs(e, i))
			nr += e->secs[i].sh.sh_size / rel_size(&e->secs[i]);
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		nf += func_sym(e, &s, NULL) != 0;
	}
	c->rels = calloc(nr + 1, sizeof(*c->rels));
	c->fr = calloc(nf + 1, sizeof(*c->fr));
	c->stamp = calloc(nf + e->nsec, sizeof(*c->stamp));
	c->placed = calloc(nf + e->nsec, sizeof(*c->placed));
	if (!c->rels || !c->fr || !c->stamp || !c->placed)
		return rb_errf(c->err, "%s: out of memory", e->path);
	for (size_t i = 1; i < e->nsec; i++) {
		const struct rb_elf_sec *rs = &e->secs[i];
		if (!code_relocs(e, i))
			continue;
		size_t esz = rel_size(rs);
		const struct rb_elf_sec *ts = &e->secs[rs->sh.sh_info];
		for (size_t k = 0; k < rs->sh.sh_size / esz; k++) {
			struct rel_ent *r = &c->rels[c->nrels];
			/* r_offset and r_info lead both forms (an Elf64_Rela's
			 * addend follows; map references take none) */
			memcpy(&r->rel, rs->data + k * esz, sizeof(r->rel));
			r->sec = rs->sh.sh_info;
			r->off = r->rel.r_offset;
			if (rs->sh.sh_type == SHT_RELA && ELF64_R_TYPE(r->rel.r_info) == R_BPF_NONE) {
				/* old LLVM's form (see the top): an ld_imm64 it
				 * names is relocated as R_BPF_64_64; on any
				 * other instruction it does nothing */
				const uint8_t *at = ts->data + r->off;
				if (r->off % 8 || r->off + 16 > ts->sh.sh_size || at[0] != (BPF_LD | BPF_IMM | BPF_DW))
					continue;
				r->rel.r_info = ELF64_R_INFO(ELF64_R_SYM(r->rel.r_info), R_BPF_64_64);
			}
			c->nrels++;
		}
	}
	rb_sort(c->rels, c->nrels, sizeof(*c->rels), rel_cmp);
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		if (func_sym(e, &s, c->has_func))
			c->fr[c->nfr++] = (struct frange){s.st_shndx, s.st_value / 8, s.st_size / 8, i};
	}
	rb_sort(c->fr, c->nfr, sizeof(*c->fr), fr_cmp);
	/* drop a second symbol at the same place; a function without a size
	 * (STT_NOTYPE, or old assemblers) runs to the next one or the end */
	size_t k = 0;
	for (size_t i = 0; i < c->nfr; i++) {
		if (k && c->fr[k - 1].sec == c->fr[i].sec && c->fr[k - 1].start == c->fr[i].start)
			continue;
		c->fr[k++] = c->fr[i];
	}
	c->nfr = k;
	for (size_t i = 0; i < c->nfr; i++) {
		struct frange *f = &c->fr[i];
		uint64_t end = e->secs[f->sec].sh.sh_size / 8;
		if (i + 1 < c->nfr && c->fr[i + 1].sec == f->sec)
			end = c->fr[i + 1].start;
		if (!f->len || f->start + f->len > end)
			f->len = end - f->start;
	}
	return 0;
}

/* relocation at byte offset off of code section sec, or false */
static bool find_reloc(const struct lctx *c, size_t sec, uint64_t off, Elf64_Rel *out)
{
	size_t lo = 0, hi = c->nrels;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct rel_ent *r = &c->rels[mid];
		if (r->sec < sec || (r->sec == sec && r->off < off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nrels && c->rels[lo].sec == sec && c->rels[lo].off == off) {
		*out = c->rels[lo].rel;
		return true;
	}
	return false;
}

/* the code unit of section sec holding instruction t: the function symbol
 * that covers it, else the whole section. Returns its unit id. */
static size_t unit_of(const struct lctx *c, size_t sec, size_t t, size_t *start, size_t *len)
{
	size_t lo = 0, hi = c->nfr;
	while (lo < hi) { /* first range after (sec, t) */
		size_t mid = (lo + hi) / 2;
		const struct frange *f = &c->fr[mid];
		if (f->sec < sec || (f->sec == sec && f->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const struct frange *f = &c->fr[lo - 1];
		if (f->sec == sec && f->start <= t && t < f->start + f->len) {
			*start = f->start;
			*len = f->len;
			return lo - 1;
		}
	}
	*start = 0;
	*len = c->e->secs[sec].sh.sh_size / 8;
	return c->nfr + sec;
}

static int map_reloc(struct lctx *c, struct rb_prog *p, size_t i, const Elf64_Sym *sym)
{
	const struct rb_elf *e = c->e;
	struct bpf_insn *in = &p->insns[i];
	if (sym->st_shndx == e->legacy_maps) {
		uint64_t off = sym->st_value + (ELF64_ST_TYPE(sym->st_info) == STT_SECTION ? (uint32_t)in->imm : 0);
		for (size_t m = 0; m < c->nlegacy; m++)
			if (c->map_sym[m] == off) {
				in->src_reg = BPF_PSEUDO_MAP_IDX;
				in->imm = (int32_t)m;
				return 0;
			}
		return rb_errf(c->err, "%s: program %s insn %zu refers to no map (maps+%llu)", e->path, p->name, i,
			       (unsigned long long)off);
	}
	if (c->btf_maps_sec && sym->st_shndx == c->btf_maps_sec) {
		uint64_t off = sym->st_value + (ELF64_ST_TYPE(sym->st_info) == STT_SECTION ? (uint32_t)in->imm : 0);
		for (size_t m = c->nlegacy; m < c->obj->map_cnt; m++)
			if (c->btf_off[m] == off) {
				in->src_reg = BPF_PSEUDO_MAP_IDX;
				in->imm = (int32_t)m;
				return 0;
			}
		return rb_errf(c->err, "%s: program %s insn %zu refers to no map (.maps+%llu)", e->path, p->name, i,
			       (unsigned long long)off);
	}
	if (e->params_as_imm && sym->st_shndx > 0 && sym->st_shndx < e->nsec && c->sec_map[sym->st_shndx] >= 0 &&
	    ELF64_ST_TYPE(sym->st_info) == STT_OBJECT) {
		/* v4l-utils' BPF_PARAM: the variable's value (its default in
		 * .data; ir-keytable may override it) becomes the immediate */
		const struct rb_elf_sec *ds = &e->secs[sym->st_shndx];
		uint64_t size = sym->st_size == 8 ? 8 : 4, v = 0;
		if (sym->st_value + size > ds->sh.sh_size)
			return rb_errf(c->err, "%s: program %s insn %zu: parameter '%s' lies outside %s", e->path,
				       p->name, i, rb_elf_sym_name(e, sym), ds->name);
		if (ds->data) /* .bss (no contents): 0 */
			v = size == 8 ? (uint64_t)rb_rd32(ds->data + sym->st_value) |
						(uint64_t)rb_rd32(ds->data + sym->st_value + 4) << 32
				      : rb_rd32(ds->data + sym->st_value);
		in->src_reg = 0;
		in->imm = (int32_t)(uint32_t)v;
		in[1].imm = (int32_t)(uint32_t)(v >> 32);
		return 0;
	}
	if (sym->st_shndx > 0 && sym->st_shndx < e->nsec && c->sec_map[sym->st_shndx] >= 0) {
		uint64_t off = sym->st_value + (uint32_t)in->imm;
		if (off >= e->secs[sym->st_shndx].sh.sh_size)
			return rb_errf(c->err, "%s: program %s insn %zu points past the end of %s", e->path, p->name,
				       i, e->secs[sym->st_shndx].name);
		in->src_reg = BPF_PSEUDO_MAP_IDX_VALUE;
		in->imm = (int32_t)c->sec_map[sym->st_shndx];
		in[1].imm = (int32_t)off;
		return 0;
	}
	return rb_errf(c->err, "%s: program %s insn %zu: unsupported relocation against '%s'", e->path, p->name, i,
		       rb_elf_sym_name(e, sym));
}

/* add name to p->undefined_calls once ("a, b"); a symbol without a name
 * is "?" (an empty name matched everywhere and the search below never
 * advanced: found by make fuzz, tests/fuzz/regress/timeout-unnamed-extern) */
static void note_undefined(struct rb_prog *p, const char *name)
{
	if (!name || !*name)
		name = "?";
	size_t n = strlen(name), l = strlen(p->undefined_calls);
	for (const char *q = p->undefined_calls; (q = strstr(q, name)) != NULL; q += n)
		if ((q == p->undefined_calls || q[-1] == ' ') && (q[n] == 0 || q[n] == ','))
			return;
	snprintf(p->undefined_calls + l, sizeof(p->undefined_calls) - l, "%s%s", l ? ", " : "", name);
}

static int build_prog(struct lctx *c, struct rb_prog *p, size_t sec, size_t start, size_t len)
{
	const struct rb_elf *e = c->e;
	size_t ucap = 8, nu = 1, cap = len + 16;
	struct rb_legacy_unit *u = malloc(ucap * sizeof(*u));
	p->insns = malloc(cap * sizeof(struct bpf_insn));
	if (!u || !p->insns) {
		free(u);
		c->fatal = true;
		return rb_errf(c->err, "%s: out of memory", e->path);
	}
	memcpy(p->insns, e->secs[sec].data + start * 8, len * 8);
	u[0] = (struct rb_legacy_unit){sec, start, len, 0};
	size_t n = len, cu = 0;
	int ret = 0;
	c->gen++;
	{
		size_t us, ul, uid = unit_of(c, sec, start, &us, &ul);
		if (us == start && ul == len) {
			c->stamp[uid] = c->gen;
			c->placed[uid] = 0;
		}
	}
	for (size_t i = 0; i < n && !ret; i++) {
		while (i >= u[cu].out + u[cu].len)
			cu++;
		size_t usec = u[cu].sec, orig = u[cu].start + (i - u[cu].out);
		struct bpf_insn *in = &p->insns[i];
		Elf64_Rel r;
		bool has = find_reloc(c, usec, (uint64_t)orig * 8, &r);
		Elf64_Sym sym = has ? rb_elf_sym(e, ELF64_R_SYM(r.r_info)) : (Elf64_Sym){0};
		bool is_ld64 = in->code == (BPF_LD | BPF_IMM | BPF_DW);
		bool is_call = in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL;
		/* an ld_imm64 relocated against code is a function's address
		 * (a callback), as libbpf reads it (RELO_SUBPROG_ADDR) */
		if (has && is_ld64 && ELF64_R_TYPE(r.r_info) == R_BPF_64_64 && sym.st_shndx &&
		    sym.st_shndx < e->nsec && (e->secs[sym.st_shndx].sh.sh_flags & SHF_EXECINSTR))
			in->src_reg = BPF_PSEUDO_FUNC;
		bool is_func = is_ld64 && in->src_reg == BPF_PSEUDO_FUNC;
		if (is_ld64 && i + 1 >= u[cu].out + u[cu].len) {
			ret = rb_errf(c->err, "%s: program %s: ld_imm64 cut at insn %zu", e->path, p->name, i);
			break;
		}
		if (has && is_ld64 && !is_func && ELF64_R_TYPE(r.r_info) == R_BPF_64_64) {
			ret = map_reloc(c, p, i, &sym);
			i++;
			continue;
		}
		if (!is_call && !is_func) {
			if (is_ld64)
				i++;
			continue;
		}
		/* target instruction of the call / function reference */
		size_t tsec = usec;
		int64_t t;
		if (has && is_call && sym.st_shndx == SHN_UNDEF) {
			/* a call to a function that is not in the object (memset or
			 * memcpy that an old clang did not inline): no loader can
			 * resolve it; the instruction goes to the verifier as the
			 * file has it, and the verifier's verdict is the answer
			 * (load and verify name the function, rb_prog_undefined_note) */
			note_undefined(p, rb_elf_sym_name(e, &sym));
			continue;
		}
		if (has) {
			if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= e->nsec ||
			    !(e->secs[sym.st_shndx].sh.sh_flags & SHF_EXECINSTR)) {
				ret = rb_errf(c->err, "%s: program %s insn %zu calls '%s', which is not code", e->path,
					      p->name, i, rb_elf_sym_name(e, &sym));
				break;
			}
			tsec = sym.st_shndx;
			t = is_call ? (int64_t)(sym.st_value / 8) + in->imm + 1
				    : (int64_t)((sym.st_value + (uint32_t)in->imm) / 8);
		} else {
			t = (int64_t)orig + in->imm + 1;
		}
		if (t < 0 || (uint64_t)t >= e->secs[tsec].sh.sh_size / 8) {
			ret = rb_errf(c->err, "%s: program %s insn %zu calls outside section %s", e->path, p->name, i,
				      e->secs[tsec].name);
			break;
		}
		size_t dst, fs, fl, uid = unit_of(c, tsec, (size_t)t, &fs, &fl);
		if (c->stamp[uid] == c->gen) {
			dst = c->placed[uid] + ((size_t)t - fs);
		} else {
			if (n + fl > RB_MAX_INSNS) {
				ret = rb_errf(c->err, "%s: program %s exceeds %u instructions with its sub-programs",
					      e->path, p->name, RB_MAX_INSNS);
				break;
			}
			if (nu == ucap) {
				struct rb_legacy_unit *nuu = realloc(u, (ucap *= 2) * sizeof(*u));
				if (!nuu) {
					ret = fatalf(c, "%s: out of memory", e->path);
					break;
				}
				u = nuu;
			}
			if (n + fl > cap) {
				cap = (n + fl) * 2;
				struct bpf_insn *ni = realloc(p->insns, cap * sizeof(*ni));
				if (!ni) {
					ret = fatalf(c, "%s: out of memory", e->path);
					break;
				}
				p->insns = ni;
				in = &p->insns[i];
			}
			memcpy(p->insns + n, e->secs[tsec].data + fs * 8, fl * 8);
			u[nu++] = (struct rb_legacy_unit){tsec, fs, fl, n};
			c->stamp[uid] = c->gen;
			c->placed[uid] = n;
			dst = n + ((size_t)t - fs);
			n += fl;
		}
		if (is_call) {
			in->imm = (int32_t)((int64_t)dst - (int64_t)i - 1);
		} else {
			in->imm = (int32_t)((int64_t)dst - (int64_t)i - 1);
			i++;
		}
	}
	p->insn_cnt = n;
	if (!ret && rb_legacy_ext_prog(&c->ext, u, nu, p))
		ret = fatalf(c, "%s: out of memory", e->path);
	free(u);
	c->total += n;
	if (!ret && c->total > LEGACY_TOTAL_INSNS)
		ret = fatalf(c, "%s: more than %u instructions over all programs", e->path, LEGACY_TOTAL_INSNS);
	return ret;
}

/* A program that cannot be built (a relocation against a symbol the
 * object does not define, say) gets rb_prog.error and no instructions;
 * the object and its other programs stay. Running out of memory or over
 * the instruction budget fails the object. */
static int prog_or_error(struct lctx *c, struct rb_prog *p, int ret)
{
	if (ret == 0 || c->fatal)
		return ret;
	const char *m = c->err->msg;
	size_t pl = strlen(c->e->path);
	if (!strncmp(m, c->e->path, pl) && !strncmp(m + pl, ": ", 2))
		m += pl + 2;
	snprintf(p->error, sizeof(p->error), "%.250s", m);
	c->err->msg[0] = 0;
	free(p->insns);
	p->insns = NULL;
	p->insn_cnt = 0;
	free(p->func_info);
	free(p->line_info);
	p->func_info = p->line_info = NULL;
	p->func_info_cnt = p->line_info_cnt = 0;
	return 0;
}

int rb_open_legacy(const struct rb_elf *e, struct rb_object *obj, struct rb_err *err)
{
	struct lctx c = {.e = e, .obj = obj, .err = err};
	int ret = parse_maps(&c);
	if (!ret)
		ret = build_index(&c);
	/* the object's BTF as libbpf would load it, and the records of
	 * .BTF.ext: func_info tells the kernel which functions are global */
	if (!ret && (rb_legacy_btf(e, &obj->btf, &obj->btf_size) || rb_legacy_ext_init(e, &c.ext)))
		ret = rb_errf(err, "%s: out of memory", e->path);
	if (!ret && !obj->btf)
		rb_legacy_ext_free(&c.ext); /* records without their BTF are of no use */
	char license[64] = "";
	uint32_t kver = 0;
	for (size_t i = 1; !ret && i < e->nsec; i++) {
		const struct rb_elf_sec *s = &e->secs[i];
		if (!strcmp(s->name, "license") && s->data) {
			size_t l = strnlen((const char *)s->data, s->sh.sh_size);
			snprintf(license, sizeof(license), "%.*s", (int)(l < 63 ? l : 63), (const char *)s->data);
		} else if (!strcmp(s->name, "version") && s->data) {
			if (s->sh.sh_size != 4)
				ret = rb_errf(err, "%s: version section is %llu bytes, not 4", e->path,
					      (unsigned long long)s->sh.sh_size);
			else
				kver = rb_rd32(s->data);
		}
	}
	/* programs: per code section other than .text (or the lone function of
	 * a .text-only object, as libbpf 1.1 takes it), its global functions
	 * (STT_FUNC, else named global STT_NOTYPE); if none, its static
	 * functions (libbpf < 1.0 took those as programs); if none, the whole
	 * section (iproute2 loads a section as one program). */
	/* an object whose only code is one function in .text: libbpf 1.1 takes
	 * that function for a program (prog_is_subprog: a .text function is a
	 * sub-program only beside other programs), in section ".text" */
	size_t text_sec = 0, ncode = 0, ntext = 0;
	for (size_t i = 1; i < e->nsec; i++) {
		const struct rb_elf_sec *s = &e->secs[i];
		if (s->sh.sh_type != SHT_PROGBITS || !(s->sh.sh_flags & SHF_EXECINSTR) || s->sh.sh_size == 0)
			continue;
		if (!strcmp(s->name, ".text"))
			text_sec = i;
		else
			ncode++;
	}
	for (size_t k = 0; text_sec && k < c.nfr; k++)
		ntext += c.fr[k].sec == text_sec;
	bool lone_text = text_sec && !ncode && ntext == 1;
	size_t np = 0;
	for (int pass = 0; pass < 2 && !ret; pass++) {
		if (pass == 1) {
			obj->progs = calloc(np ? np : 1, sizeof(*obj->progs));
			if (!obj->progs) {
				ret = rb_errf(err, "%s: out of memory", e->path);
				break;
			}
			np = 0;
		}
		size_t f = 0;
		for (size_t i = 1; i < e->nsec && !ret; i++) {
			const struct rb_elf_sec *s = &e->secs[i];
			while (f < c.nfr && c.fr[f].sec < i)
				f++;
			if (s->sh.sh_type != SHT_PROGBITS || !(s->sh.sh_flags & SHF_EXECINSTR) || s->sh.sh_size == 0 ||
			    (!strcmp(s->name, ".text") && !lone_text))
				continue;
			size_t nglobal = 0, nf = 0;
			for (size_t k = f; k < c.nfr && c.fr[k].sec == i; k++, nf++) {
				Elf64_Sym sym = rb_elf_sym(e, c.fr[k].sym);
				nglobal += ELF64_ST_BIND(sym.st_info) != STB_LOCAL;
			}
			for (size_t k = f; k < f + nf && !ret; k++) {
				Elf64_Sym sym = rb_elf_sym(e, c.fr[k].sym);
				if (nglobal && ELF64_ST_BIND(sym.st_info) == STB_LOCAL)
					continue;
				if (pass == 0) {
					np++;
					continue;
				}
				struct rb_prog *p = &obj->progs[np++];
				bool whole = rb_prog_set_names(p, rb_elf_sym_name(e, &sym), s->name);
				ret = prog_or_error(&c, p, build_prog(&c, p, i, c.fr[k].start, c.fr[k].len));
				if (!whole) /* the names' error, not the build's */
					rb_prog_set_names(p, rb_elf_sym_name(e, &sym), s->name);
			}
			if (nf == 0) {
				if (pass == 0) {
					np++;
					continue;
				}
				struct rb_prog *p = &obj->progs[np++];
				bool whole = rb_prog_set_names(p, s->name, s->name);
				ret = prog_or_error(&c, p, build_prog(&c, p, i, 0, s->sh.sh_size / 8));
				if (!whole)
					rb_prog_set_names(p, s->name, s->name);
			}
		}
	}
	obj->prog_cnt = np;
	/* program types: rb_resolve_prog_types() (prog_type.h), by the caller */
	for (size_t i = 0; !ret && i < np; i++) {
		struct rb_prog *p = &obj->progs[i];
		p->autoload = p->section[0] != '?';
		memcpy(p->license, license, sizeof(license));
		p->kern_version = kver;
	}
	free(c.map_sym);
	free(c.btf_off);
	free(c.sec_map);
	free(c.rels);
	free(c.fr);
	free(c.stamp);
	free(c.placed);
	free(c.has_func);
	rb_legacy_ext_free(&c.ext);
	return ret;
}
