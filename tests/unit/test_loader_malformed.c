/* test_loader_malformed.c — hostile and broken object files: every one
 * gives a clean error naming the file (or, for harmless mutations, opens),
 * never a crash or a sanitizer report, in bounded time. Inputs are made by
 * mutating the good test objects: truncation at many offsets, corrupted
 * ELF header fields, huge section sizes and offsets, relocations pointing
 * outside their section or at missing symbols, broken BTF, code sections
 * that are not whole instructions, and an object over the kernel's
 * 1,000,000-instruction limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/object.h"
#include "loader_fixture.h"
#include "util/array_size.h"

static const char *const objs[] = {"btf_maps", "global_data", "subprog", "core", "legacy_maps", "legacy_elf_map"};
#define NOBJS (ARRAY_SIZE(objs))
/* mutations of core.o that still open make libbpf parse the host's 5 MB
 * vmlinux BTF each time (for the tp_btf attach target): keep the many-
 * iteration loops to the other objects so the suite stays fast */
static bool slow_obj(size_t k) { return !strcmp(objs[k], "core"); }

static uint8_t *load_img(const char *name, size_t *sz)
{
	char p[512];
	uint8_t *img = lf_read(lf_obj_path(name, p, sizeof(p)), sz);
	assert_non_null(img);
	return img;
}

/* Open a mutated image: must fail with "NAME: reason" (want_fail) or at
 * least not crash; returns 0 if it opened. contains: expected substring. */
static int try_open(const uint8_t *img, size_t sz, bool want_fail, const char *contains)
{
	struct rb_object *o = NULL;
	struct rb_err err = {{0}};
	int r = rb_object_open_mem("mut.o", img, sz, NULL, &o, &err);
	if (r == 0) {
		if (want_fail)
			fail_msg("mutated object opened but should not have (%s)", contains ? contains : "-");
		assert_non_null(o);
		rb_object_free(o);
		return 0;
	}
	assert_null(o);
	if (strncmp(err.msg, "mut.o: ", 7) || strlen(err.msg) < 10)
		fail_msg("error does not name the file and a reason: '%s'", err.msg);
	if (contains && !strstr(err.msg, contains))
		fail_msg("error '%s' does not say '%s'", err.msg, contains);
	return -1;
}

static void test_truncation(void **state)
{
	(void)state;
	for (size_t k = 0; k < NOBJS; k++) {
		size_t sz;
		uint8_t *img = load_img(objs[k], &sz);
		/* every length up to past the ELF header, then 97 spread over the file;
		 * the section table is at the end, so every cut loses part of it */
		for (size_t n = 0; n < sz; n = n < 80 ? n + 1 : n + sz / 97 + 1) {
			uint8_t *cut = malloc(n ? n : 1);
			memcpy(cut, img, n);
			try_open(cut, n, true, NULL);
			free(cut);
		}
		free(img);
	}
}

static void test_header_fields(void **state)
{
	(void)state;
	size_t sz;
	uint8_t *img = load_img("global_data", &sz);
	uint8_t *m = malloc(sz);
	struct {
		size_t off, width;
		uint64_t val;
		const char *why;
	} cases[] = {
		{0, 1, 0x7e, "bad magic"},
		{EI_CLASS, 1, ELFCLASS32, "64-bit"},
		{EI_DATA, 1, ELFDATA2MSB, "little-endian"},
		{offsetof(Elf64_Ehdr, e_type), 2, ET_EXEC, "not a BPF object"},
		{offsetof(Elf64_Ehdr, e_machine), 2, EM_X86_64, "not a BPF object"},
		{offsetof(Elf64_Ehdr, e_shoff), 8, 0xfffffffffff0ull, "section header table"},
		{offsetof(Elf64_Ehdr, e_shoff), 8, 1, NULL},
		{offsetof(Elf64_Ehdr, e_shnum), 2, 0xfeff, "section header table"},
		{offsetof(Elf64_Ehdr, e_shnum), 2, 0, "bad section count"},
		{offsetof(Elf64_Ehdr, e_shentsize), 2, 32, "section header size"},
		{offsetof(Elf64_Ehdr, e_shstrndx), 2, 0xfff0, "section name table index"},
		{offsetof(Elf64_Ehdr, e_shstrndx), 2, 2, "string table"}, /* llvm puts .strtab at 1 */
	};
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		memcpy(m, img, sz);
		memcpy(m + cases[c].off, &cases[c].val, cases[c].width);
		try_open(m, sz, true, cases[c].why);
	}
	/* every single-bit flip in the ELF header: no crash */
	for (size_t bit = 0; bit < sizeof(Elf64_Ehdr) * 8; bit++) {
		memcpy(m, img, sz);
		m[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		try_open(m, sz, false, NULL);
	}
	free(m);
	free(img);
}

static void test_section_sizes_and_offsets(void **state)
{
	(void)state;
	for (size_t k = 0; k < NOBJS; k++) {
		size_t sz;
		uint8_t *img = load_img(objs[k], &sz);
		uint8_t *m = malloc(sz);
		for (size_t i = 1; i < lf_shnum(img); i++) {
			if (lf_shdr(img, i)->sh_type == SHT_NULL)
				continue;
			memcpy(m, img, sz);
			lf_shdr(m, i)->sh_size = 0xffffffffffffull;
			/* a NOBITS section takes no file bytes: its limit is a
			 * map value's */
			try_open(m, sz, true,
				 lf_shdr(m, i)->sh_type == SHT_NOBITS ? "larger than a map value may be" : "lies outside the file");
			memcpy(m, img, sz);
			if (lf_shdr(m, i)->sh_type != SHT_NOBITS && lf_shdr(m, i)->sh_size) {
				lf_shdr(m, i)->sh_offset = sz + 64;
				try_open(m, sz, true, "lies outside the file");
			}
			memcpy(m, img, sz);
			lf_shdr(m, i)->sh_link = 0xffff;
			try_open(m, sz, true, "links to missing section");
			memcpy(m, img, sz);
			lf_shdr(m, i)->sh_name = 0x7fffffff;
			try_open(m, sz, true, "name outside");
		}
		/* a code section that is not whole instructions */
		for (size_t i = 1; i < lf_shnum(img); i++)
			if ((lf_shdr(img, i)->sh_flags & SHF_EXECINSTR) && lf_shdr(img, i)->sh_size >= 8) {
				memcpy(m, img, sz);
				lf_shdr(m, i)->sh_size -= 4;
				try_open(m, sz, true, NULL);
			}
		free(m);
		free(img);
	}
}

static void test_relocations(void **state)
{
	(void)state;
	unsigned tried = 0;
	for (size_t k = 0; k < NOBJS; k++) {
		if (slow_obj(k))
			continue;
		size_t sz;
		uint8_t *img = load_img(objs[k], &sz);
		uint8_t *m = malloc(sz);
		for (size_t i = 1; i < lf_shnum(img); i++) {
			Elf64_Shdr *rs = lf_shdr(img, i);
			if (rs->sh_type != SHT_REL || rs->sh_size < sizeof(Elf64_Rel))
				continue;
			size_t n = rs->sh_size / sizeof(Elf64_Rel);
			if (!(lf_shdr(img, rs->sh_info)->sh_flags & SHF_EXECINSTR)) {
				/* relocations of debug sections: no loader reads them
				 * (old toolchains wrote broken ones), so the object opens */
				Elf64_Rel rel;
				memcpy(m, img, sz);
				memcpy(&rel, m + rs->sh_offset, sizeof(rel));
				rel.r_offset = 0xfffffffffffffff8ull;
				rel.r_info = ELF64_R_INFO(0xffffff, ELF64_R_TYPE(rel.r_info));
				memcpy(m + rs->sh_offset, &rel, sizeof(rel));
				assert_int_equal(try_open(m, sz, false, NULL), 0);
				tried++;
				continue;
			}
			for (size_t r = 0; r < n; r += n / 4 + 1) {
				size_t at = rs->sh_offset + r * sizeof(Elf64_Rel);
				Elf64_Rel rel;
				/* offset past the end of the target section */
				memcpy(m, img, sz);
				memcpy(&rel, m + at, sizeof(rel));
				rel.r_offset = lf_shdr(img, rs->sh_info)->sh_size + 8;
				memcpy(m + at, &rel, sizeof(rel));
				try_open(m, sz, true, "points outside section");
				/* huge offset */
				rel.r_offset = 0xfffffffffffffff8ull;
				memcpy(m + at, &rel, sizeof(rel));
				try_open(m, sz, true, "points outside section");
				/* symbol index past the symbol table */
				memcpy(m, img, sz);
				memcpy(&rel, m + at, sizeof(rel));
				rel.r_info = ELF64_R_INFO(0xffffff, ELF64_R_TYPE(rel.r_info));
				memcpy(m + at, &rel, sizeof(rel));
				try_open(m, sz, true, "uses symbol");
				/* misaligned offset into code */
				memcpy(m, img, sz);
				memcpy(&rel, m + at, sizeof(rel));
				if (lf_shdr(img, rs->sh_info)->sh_flags & SHF_EXECINSTR) {
					rel.r_offset += 4;
					memcpy(m + at, &rel, sizeof(rel));
					try_open(m, sz, true, NULL);
				}
				/* random relocation types: no crash */
				for (unsigned t = 0; t < 16; t++) {
					memcpy(m, img, sz);
					memcpy(&rel, m + at, sizeof(rel));
					rel.r_info = ELF64_R_INFO(ELF64_R_SYM(rel.r_info), t);
					memcpy(m + at, &rel, sizeof(rel));
					try_open(m, sz, false, NULL);
				}
				tried++;
			}
			/* target section index out of range */
			memcpy(m, img, sz);
			lf_shdr(m, i)->sh_info = 0xffff;
			try_open(m, sz, true, "targets missing section");
		}
		free(m);
		free(img);
	}
	assert_true(tried >= 10);
}

/* first type record of the given kind in the .BTF of img, or NULL */
static uint8_t *btf_type_of_kind(uint8_t *img, unsigned kind, uint32_t *nr_types)
{
	long s = lf_find_sec(img, ".BTF");
	assert_true(s > 0);
	uint8_t *d = img + lf_shdr(img, (size_t)s)->sh_offset;
	uint32_t hdr, toff, tlen;
	memcpy(&hdr, d + 4, 4);
	memcpy(&toff, d + 8, 4);
	memcpy(&tlen, d + 12, 4);
	uint8_t *t = d + hdr + toff, *end = t + tlen, *hit = NULL;
	*nr_types = 0;
	while (t < end) {
		uint32_t info, vlen;
		memcpy(&info, t + 4, 4);
		vlen = info & 0xffff;
		unsigned k = (info >> 24) & 0x1f;
		if (k == kind && !hit)
			hit = t;
		size_t extra = k == 1 || k == 14 || k == 17 ? 4 : k == 3 ? 12
			     : k == 4 || k == 5 || k == 15 || k == 19 ? 12 * vlen
			     : k == 6 || k == 13 ? 8 * vlen : 0;
		t += 12 + extra;
		(*nr_types)++;
	}
	return hit;
}

static void test_btf(void **state)
{
	(void)state;
	size_t sz;
	uint8_t *img = load_img("btf_maps", &sz);
	uint8_t *m = malloc(sz);
	uint32_t n;
	/* a pointer to a type that does not exist */
	memcpy(m, img, sz);
	uint8_t *ptr = btf_type_of_kind(m, 2 /* PTR */, &n);
	assert_non_null(ptr);
	uint32_t bad = n + 10;
	memcpy(ptr + 8, &bad, 4);
	try_open(m, sz, true, "bad .BTF");
	/* a typedef that names itself */
	memcpy(m, img, sz);
	uint8_t *td = btf_type_of_kind(m, 8 /* TYPEDEF */, &n);
	if (!td)
		td = btf_type_of_kind(m, 2, &n);
	long id = 1;
	{
		long s = lf_find_sec(m, ".BTF");
		uint8_t *d = m + lf_shdr(m, (size_t)s)->sh_offset;
		uint32_t hdr, toff;
		memcpy(&hdr, d + 4, 4);
		memcpy(&toff, d + 8, 4);
		for (uint8_t *t = d + hdr + toff; t < td; id++) {
			uint32_t info;
			memcpy(&info, t + 4, 4);
			unsigned k = (info >> 24) & 0x1f, vlen = info & 0xffff;
			t += 12 + (k == 1 || k == 14 || k == 17 ? 4 : k == 3 ? 12
				   : k == 4 || k == 5 || k == 15 || k == 19 ? 12 * vlen
				   : k == 6 || k == 13 ? 8 * vlen : 0);
		}
	}
	uint32_t self = (uint32_t)id;
	memcpy(td + 8, &self, 4);
	try_open(m, sz, true, "cyclic");
	/* a type name outside the string section */
	memcpy(m, img, sz);
	ptr = btf_type_of_kind(m, 4 /* STRUCT */, &n);
	uint32_t far = 0x7ffffff0;
	memcpy(ptr, &far, 4);
	try_open(m, sz, true, "bad .BTF");
	/* an unknown kind */
	memcpy(m, img, sz);
	ptr = btf_type_of_kind(m, 1 /* INT */, &n);
	uint32_t info = 31u << 24;
	memcpy(ptr + 4, &info, 4);
	try_open(m, sz, true, "bad .BTF");
	/* every bit of the first 256 bytes of .BTF and .BTF.ext flipped: no crash */
	const char *secs[] = {".BTF", ".BTF.ext"};
	for (int s = 0; s < 2; s++) {
		long si = lf_find_sec(img, secs[s]);
		assert_true(si > 0);
		Elf64_Shdr *sh = lf_shdr(img, (size_t)si);
		size_t lim = sh->sh_size < 256 ? sh->sh_size : 256;
		for (size_t bit = 0; bit < lim * 8; bit += 3) {
			memcpy(m, img, sz);
			m[sh->sh_offset + bit / 8] ^= (uint8_t)(1u << (bit % 8));
			try_open(m, sz, false, NULL);
		}
	}
	free(m);
	free(img);
}

/* a minimal object with one code section of n_insns instructions and one
 * function symbol covering it */
static uint8_t *make_big(size_t n_insns, size_t *sz)
{
	static const char shstr[] = "\0.shstrtab\0socket\0.symtab\0.strtab\0";
	static const char str[] = "\0prog\0";
	size_t code = n_insns * 8, off_code = 64, off_sym = off_code + code, off_str = off_sym + 2 * 24;
	size_t off_shstr = off_str + sizeof(str), off_sh = (off_shstr + sizeof(shstr) + 7) & ~(size_t)7;
	*sz = off_sh + 5 * 64;
	uint8_t *b = calloc(1, *sz);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_machine = 247;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = 64;
	eh->e_shoff = off_sh;
	eh->e_shentsize = 64;
	eh->e_shnum = 5;
	eh->e_shstrndx = 1;
	for (size_t i = 0; i < n_insns; i++)
		b[off_code + 8 * i] = i == n_insns - 1 ? 0x95 /* exit */ : 0xb7 /* r0 = 0 */;
	Elf64_Sym sym = {.st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 2, .st_size = code};
	memcpy(b + off_sym + 24, &sym, sizeof(sym));
	memcpy(b + off_str, str, sizeof(str));
	memcpy(b + off_shstr, shstr, sizeof(shstr));
	Elf64_Shdr *sh = (Elf64_Shdr *)(b + off_sh);
	sh[1] = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = off_shstr, .sh_size = sizeof(shstr)};
	sh[2] = (Elf64_Shdr){.sh_name = 11, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			     .sh_offset = off_code, .sh_size = code, .sh_addralign = 8};
	sh[3] = (Elf64_Shdr){.sh_name = 18, .sh_type = SHT_SYMTAB, .sh_offset = off_sym, .sh_size = 48,
			     .sh_link = 4, .sh_info = 1, .sh_entsize = 24, .sh_addralign = 8};
	sh[4] = (Elf64_Shdr){.sh_name = 26, .sh_type = SHT_STRTAB, .sh_offset = off_str, .sh_size = sizeof(str)};
	return b;
}

static void test_insn_limit(void **state)
{
	(void)state;
	size_t sz;
	uint8_t *b = make_big(1000001, &sz);
	try_open(b, sz, true, "1000001 instructions (kernel limit 1000000)");
	free(b);
	/* the same construction within the limit is a valid object */
	b = make_big(16, &sz);
	struct rb_object *o = NULL;
	struct rb_err err = {{0}};
	int r = rb_object_open_mem("small.o", b, sz, NULL, &o, &err);
	if (r)
		fail_msg("%s", err.msg);
	assert_int_equal(o->prog_cnt, 1);
	assert_int_equal(o->progs[0].insn_cnt, 16);
	rb_object_free(o);
	free(b);
}

/* random byte changes anywhere in the first 512 bytes and in the section
 * table, seeded: no crash, every failure names the file */
static void test_random_mutations(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (size_t k = 0; k < NOBJS; k++) {
		if (slow_obj(k))
			continue;
		size_t sz;
		uint8_t *img = load_img(objs[k], &sz);
		uint8_t *m = malloc(sz);
		size_t shoff = ((Elf64_Ehdr *)img)->e_shoff;
		for (int it = 0; it < 150; it++) {
			memcpy(m, img, sz);
			for (int c = 0; c < 4; c++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				size_t at = (x >> 8) % 2 ? (x >> 16) % (sz < 512 ? sz : 512)
							  : shoff + (x >> 16) % (sz - shoff);
				m[at] = (uint8_t)x;
			}
			try_open(m, sz, false, NULL);
		}
		free(m);
		free(img);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_section_sizes_and_offsets),
		cmocka_unit_test(test_relocations),
		cmocka_unit_test(test_btf),
		cmocka_unit_test(test_insn_limit),
		cmocka_unit_test(test_random_mutations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
