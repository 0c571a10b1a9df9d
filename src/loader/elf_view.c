/* elf_view.c — structural validation of BPF ELF objects (see elf_view.h).
 *
 * What is checked, and why: libbpf 1.1 reads section headers, symbols and
 * relocations with few bounds checks (later libbpf releases added many after
 * fuzzing), so everything it will dereference is checked here first:
 *   - ELF64, little-endian, ET_REL, EM_BPF (or EM_NONE, as old LLVM wrote),
 *     64-byte section headers;
 *   - extended section numbering (more than 65,279 sections) read as libelf
 *     reads it;
 *   - every section with contents lies inside the file; NOBITS sections
 *     take no file bytes, their size is capped at a map value's limit;
 *   - section and symbol names are NUL-terminated inside their string table;
 *   - at most one symbol table; symbol section indexes exist; functions and
 *     objects lie inside their section; functions are instruction-aligned;
 *   - relocation tables: entry size, symbol index, target section, offset
 *     inside the target (and a whole ld_imm64 for R_BPF_64_64 in code);
 *     entries only for the targets a loader reads (code, .maps,
 *     .struct_ops), not debug sections;
 *   - code sections: a multiple of 8 bytes, at most 1,000,000 instructions;
 *   - .BTF and .BTF.ext: see btf_check.c.
 */
#include "loader/elf_view.h"

#include <stdlib.h>
#include <string.h>

#define R_BPF_64_64 1
#define R_BPF_64_ABS64 2
#define R_BPF_64_ABS32 3
#define R_BPF_64_NODYLD32 4
#define R_BPF_64_32 10

static bool in_file(const struct rb_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* NUL-terminated string at off inside a string section, or NULL */
static const char *str_at(const struct rb_elf_sec *s, uint64_t off)
{
	if (!s || !s->data || off >= s->sh.sh_size)
		return NULL;
	if (!memchr(s->data + off, 0, s->sh.sh_size - off))
		return NULL;
	return (const char *)s->data + off;
}

Elf64_Sym rb_elf_sym(const struct rb_elf *elf, size_t i)
{
	Elf64_Sym s;
	memcpy(&s, elf->secs[elf->symtab].data + i * sizeof(Elf64_Sym), sizeof(s));
	return s;
}

const char *rb_elf_sym_name(const struct rb_elf *elf, const Elf64_Sym *sym)
{
	if (sym->st_name == 0)
		return "";
	const char *n = str_at(elf->strtab, sym->st_name);
	return n ? n : "";
}

void rb_elf_free(struct rb_elf *elf)
{
	free(elf->secs);
	elf->secs = NULL;
	elf->nsec = 0;
}

static int check_symbols(struct rb_elf *e, struct rb_err *err)
{
	const struct rb_elf_sec *st = &e->secs[e->symtab];
	if (st->sh.sh_entsize != sizeof(Elf64_Sym) || st->sh.sh_size % sizeof(Elf64_Sym))
		return rb_errf(err, "%s: symbol table has bad entry size", e->path);
	if (st->sh.sh_link == 0 || st->sh.sh_link >= e->nsec || e->secs[st->sh.sh_link].sh.sh_type != SHT_STRTAB ||
	    !e->secs[st->sh.sh_link].data)
		return rb_errf(err, "%s: symbol table has no valid string table", e->path);
	e->strtab = &e->secs[st->sh.sh_link];
	e->nsyms = st->sh.sh_size / sizeof(Elf64_Sym);
	size_t nfuncs = 0;
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s = rb_elf_sym(e, i);
		if (s.st_name && !str_at(e->strtab, s.st_name))
			return rb_errf(err, "%s: symbol %zu has a name outside the string table", e->path, i);
		if (s.st_shndx == SHN_XINDEX)
			return rb_errf(err, "%s: symbol %zu uses extended section indexes", e->path, i);
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		if (s.st_shndx >= e->nsec)
			return rb_errf(err, "%s: symbol %zu refers to missing section %u", e->path, i, s.st_shndx);
		const struct rb_elf_sec *sec = &e->secs[s.st_shndx];
		int type = ELF64_ST_TYPE(s.st_info);
		if (type == STT_FUNC || type == STT_OBJECT || type == STT_SECTION || type == STT_NOTYPE) {
			uint64_t sz = type == STT_FUNC || type == STT_OBJECT ? s.st_size : 0;
			if (s.st_value > sec->sh.sh_size || sz > sec->sh.sh_size - s.st_value)
				return rb_errf(err, "%s: symbol %zu ('%s') lies outside section %s", e->path, i,
					       rb_elf_sym_name(e, &s), sec->name);
			if ((sec->sh.sh_flags & SHF_EXECINSTR) && type == STT_FUNC && (s.st_value % 8 || s.st_size % 8))
				return rb_errf(err, "%s: function '%s' is not instruction-aligned", e->path,
					       rb_elf_sym_name(e, &s));
			if ((sec->sh.sh_flags & SHF_EXECINSTR) && type == STT_FUNC && ++nfuncs > RB_MAX_FUNCS)
				return rb_errf(err, "%s: more than %u functions", e->path, RB_MAX_FUNCS);
		}
	}
	return 0;
}

static int check_relocs(struct rb_elf *e, size_t idx, struct rb_err *err)
{
	const struct rb_elf_sec *rs = &e->secs[idx];
	bool rela = rs->sh.sh_type == SHT_RELA;
	size_t esz = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
	if (!rs->data && rs->sh.sh_size)
		return rb_errf(err, "%s: relocation section %s has no contents", e->path, rs->name);
	if ((rs->sh.sh_entsize && rs->sh.sh_entsize != esz) || rs->sh.sh_size % esz)
		return rb_errf(err, "%s: relocation section %s has bad entry size", e->path, rs->name);
	if (!e->symtab || rs->sh.sh_link != e->symtab)
		return rb_errf(err, "%s: relocation section %s does not use the symbol table", e->path, rs->name);
	if (rs->sh.sh_info == 0 || rs->sh.sh_info >= e->nsec)
		return rb_errf(err, "%s: relocation section %s targets missing section %u", e->path, rs->name,
			       (unsigned)rs->sh.sh_info);
	const struct rb_elf_sec *t = &e->secs[rs->sh.sh_info];
	bool code = (t->sh.sh_flags & SHF_EXECINSTR) != 0;
	/* Relocations of sections no loader reads (debug info: old
	 * toolchains wrote some that point nowhere) are not looked into;
	 * libbpf reads those of code, .maps and .struct_ops only. */
	if (!code && strcmp(t->name, ".maps") && strncmp(t->name, ".struct_ops", 11))
		return 0;
	size_t n = rs->sh.sh_size / esz;
	for (size_t i = 0; i < n; i++) {
		Elf64_Rel r;
		memcpy(&r, rs->data + i * esz, sizeof(r));
		uint64_t sym = ELF64_R_SYM(r.r_info), type = ELF64_R_TYPE(r.r_info);
		if (sym >= e->nsyms)
			return rb_errf(err, "%s: relocation %zu in %s uses symbol %llu of %zu", e->path, i, rs->name,
				       (unsigned long long)sym, e->nsyms);
		uint64_t width = type == R_BPF_64_ABS32 || type == R_BPF_64_NODYLD32 ? 4 : 8;
		if (code && type == R_BPF_64_64)
			width = 16;
		if (r.r_offset > t->sh.sh_size || width > t->sh.sh_size - r.r_offset)
			return rb_errf(err, "%s: relocation %zu in %s points outside section %s (offset %llu, size %llu)",
				       e->path, i, rs->name, t->name, (unsigned long long)r.r_offset,
				       (unsigned long long)t->sh.sh_size);
		if (code && r.r_offset % 8)
			return rb_errf(err, "%s: relocation %zu in %s is not instruction-aligned", e->path, i, rs->name);
		if (code && !t->data)
			return rb_errf(err, "%s: relocation in code section %s without contents", e->path, t->name);
	}
	return 0;
}

/* The section count and the section name table's index, as libelf's
 * elf_getshdrnum and elf_getshdrstrndx read them (extended section
 * numbering, gABI): with SHN_LORESERVE (65,280) sections or more, e_shnum
 * is 0 and the count is section 0's sh_size; e_shstrndx SHN_XINDEX means
 * the index is section 0's sh_link. 0, or -1 with err. */
static int section_count(const struct rb_elf *e, const Elf64_Ehdr *eh, uint64_t *shnum_out, uint64_t *shstrndx_out,
			 struct rb_err *err)
{
	const char *path = e->path;
	size_t size = e->size;
	uint64_t shnum = eh->e_shnum, shstrndx = eh->e_shstrndx;
	if (eh->e_shoff && (shnum == 0 || shstrndx == SHN_XINDEX)) {
		Elf64_Shdr s0;
		if (!in_file(e, eh->e_shoff, sizeof(s0)))
			return rb_errf(err, "%s: section header table (offset %llu) lies outside the file (%zu bytes)", path,
				       (unsigned long long)eh->e_shoff, size);
		memcpy(&s0, e->buf + eh->e_shoff, sizeof(s0));
		if (shnum == 0)
			shnum = s0.sh_size;
		if (shstrndx == SHN_XINDEX)
			shstrndx = s0.sh_link;
	}
	if (shnum == 0)
		return rb_errf(err, "%s: bad section count 0", path);
	if (shnum > size / sizeof(Elf64_Shdr) || !in_file(e, eh->e_shoff, shnum * sizeof(Elf64_Shdr)))
		return rb_errf(err,
			       "%s: section header table (offset %llu, %llu entries) lies outside the file (%zu bytes)",
			       path, (unsigned long long)eh->e_shoff, (unsigned long long)shnum, size);
	if (shstrndx == SHN_UNDEF || shstrndx >= shnum)
		return rb_errf(err, "%s: bad section name table index %llu", path, (unsigned long long)shstrndx);
	*shnum_out = shnum;
	*shstrndx_out = shstrndx;
	return 0;
}

int rb_elf_parse(struct rb_elf *e, const char *path, const void *buf, size_t size, struct rb_err *err)
{
	memset(e, 0, sizeof(*e));
	e->path = path;
	e->buf = buf;
	e->size = size;
	if (size > RB_MAX_FILE_SIZE)
		return rb_errf(err, "%s: file too large (%zu bytes)", path, size);
	if (size < sizeof(Elf64_Ehdr))
		return rb_errf(err, "%s: not an ELF file (only %zu bytes)", path, size);
	Elf64_Ehdr eh;
	memcpy(&eh, buf, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return rb_errf(err, "%s: not an ELF file (bad magic)", path);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return rb_errf(err, "%s: not a 64-bit little-endian ELF file", path);
	/* e_machine 0 (EM_NONE): old LLVM wrote that for BPF; libbpf and
	 * iproute2 accept it, so do we */
	if (eh.e_type != ET_REL || (eh.e_machine != EM_BPF && eh.e_machine != EM_NONE))
		return rb_errf(err, "%s: not a BPF object (e_type %u, e_machine %u)", path, eh.e_type, eh.e_machine);
	if (eh.e_shentsize != sizeof(Elf64_Shdr))
		return rb_errf(err, "%s: bad section header size %u", path, eh.e_shentsize);
	uint64_t shnum = 0, shstrndx = 0;
	if (section_count(e, &eh, &shnum, &shstrndx, err) < 0)
		return -1;
	e->nsec = shnum;
	e->secs = calloc(e->nsec, sizeof(*e->secs));
	if (!e->secs)
		return rb_errf(err, "%s: out of memory", path);
	const uint8_t *b = buf;
	for (size_t i = 0; i < e->nsec; i++) {
		struct rb_elf_sec *s = &e->secs[i];
		memcpy(&s->sh, b + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof(Elf64_Shdr));
		if (i == 0)
			continue;
		if (s->sh.sh_type == SHT_NOBITS) {
			/* no bytes in the file (.bss); its size becomes a
			 * map's value_size, which the kernel caps */
			if (s->sh.sh_size > RB_MAX_NOBITS_SIZE) {
				rb_errf(err,
					"%s: section %zu (NOBITS, %llu bytes) is larger than a map value may be (%u "
					"bytes: the kernel's array_map_alloc_check refuses value_size > INT_MAX)",
					path, i, (unsigned long long)s->sh.sh_size, RB_MAX_NOBITS_SIZE);
				goto fail;
			}
		} else if (s->sh.sh_type != SHT_NULL) {
			if (!in_file(e, s->sh.sh_offset, s->sh.sh_size))
				goto bad_size;
			s->data = b + s->sh.sh_offset;
		}
		if (s->sh.sh_link >= e->nsec)
			goto bad_link;
		continue;
	bad_size:
		rb_errf(err, "%s: section %zu (offset %llu, size %llu) lies outside the file (%zu bytes)", path, i,
			(unsigned long long)s->sh.sh_offset, (unsigned long long)s->sh.sh_size, size);
		goto fail;
	bad_link:
		rb_errf(err, "%s: section %zu links to missing section %u", path, i, s->sh.sh_link);
		goto fail;
	}
	const struct rb_elf_sec *shstr = &e->secs[shstrndx];
	if (shstr->sh.sh_type != SHT_STRTAB || !shstr->data) {
		rb_errf(err, "%s: section name table is not a string table", path);
		goto fail;
	}
	uint64_t total_insns = 0;
	for (size_t i = 0; i < e->nsec; i++) {
		struct rb_elf_sec *s = &e->secs[i];
		s->name = i == 0 ? "" : str_at(shstr, s->sh.sh_name);
		if (!s->name) {
			rb_errf(err, "%s: section %zu has a name outside the section name table", path, i);
			goto fail;
		}
		if (i == 0)
			continue;
		if (s->sh.sh_type == SHT_SYMTAB) {
			if (e->symtab) {
				rb_errf(err, "%s: more than one symbol table", path);
				goto fail;
			}
			e->symtab = i;
		}
		if (s->sh.sh_type == SHT_PROGBITS && (s->sh.sh_flags & SHF_EXECINSTR)) {
			if (s->sh.sh_size % 8) {
				rb_errf(err, "%s: code section %s size %llu is not a multiple of 8", path, s->name,
					(unsigned long long)s->sh.sh_size);
				goto fail;
			}
			if (s->sh.sh_size / 8 > RB_MAX_INSNS) {
				rb_errf(err, "%s: code section %s has %llu instructions (kernel limit %u)", path, s->name,
					(unsigned long long)s->sh.sh_size / 8, RB_MAX_INSNS);
				goto fail;
			}
			total_insns += s->sh.sh_size / 8;
		}
		if (!strcmp(s->name, ".BTF") || !strcmp(s->name, ".BTF.ext") || !strcmp(s->name, "maps") ||
		    !strcmp(s->name, ".maps") || !strcmp(s->name, "license") || !strcmp(s->name, "version")) {
			if (!s->data || s->sh.sh_size == 0) {
				rb_errf(err, "%s: section %s has no contents", path, s->name);
				goto fail;
			}
		}
		if (!strcmp(s->name, ".BTF"))
			e->btf = i;
		else if (!strcmp(s->name, ".BTF.ext"))
			e->btf_ext = i;
		else if (!strcmp(s->name, "maps"))
			e->legacy_maps = i;
		else if (!(s->sh.sh_flags & SHF_EXECINSTR) && strlen(s->name) > 5 &&
			 !strcmp(s->name + strlen(s->name) - 5, "/maps") && s->data && s->sh.sh_size) {
			e->legacy_maps = i;
			e->params_as_imm = true;
		}
	}
	if (total_insns > 16ull * RB_MAX_INSNS) {
		rb_errf(err, "%s: %llu instructions in all (too many)", path, (unsigned long long)total_insns);
		goto fail;
	}
	if (e->symtab && check_symbols(e, err))
		goto fail;
	for (size_t i = 1; i < e->nsec; i++) {
		uint32_t t = e->secs[i].sh.sh_type;
		if ((t == SHT_REL || t == SHT_RELA) && check_relocs(e, i, err))
			goto fail;
	}
	if (e->btf) {
		char why[160];
		uint32_t nr_types = 0, str_len = 0;
		const struct rb_elf_sec *s = &e->secs[e->btf];
		if (!rb_btf_check(s->data, s->sh.sh_size, &nr_types, &str_len, why, sizeof(why))) {
			rb_errf(err, "%s: bad .BTF: %s", path, why);
			goto fail;
		}
		if (e->btf_ext) {
			s = &e->secs[e->btf_ext];
			if (!rb_btf_ext_check(s->data, s->sh.sh_size, nr_types, str_len, why, sizeof(why))) {
				rb_errf(err, "%s: bad .BTF.ext: %s", path, why);
				goto fail;
			}
		}
	} else if (e->btf_ext) {
		rb_errf(err, "%s: .BTF.ext without .BTF", path);
		goto fail;
	}
	return 0;
fail:
	rb_elf_free(e);
	return -1;
}
