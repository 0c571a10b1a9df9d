/* loader_fixture.h — helpers shared by the loader tests (cmocka): where
 * the test BPF objects are built (make rule: build/test/objects/), opening
 * one and finding its programs, reading a file, and a small independent
 * ELF section reader (not the loader's own code). */
#ifndef RB_TESTS_LOADER_FIXTURE_H
#define RB_TESTS_LOADER_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/object.h"

static inline const char *lf_obj_path(const char *name, char *buf, size_t sz)
{
	const char *dir = getenv("RB_TEST_OBJECTS");
	snprintf(buf, sz, "%s/%s.bpf.o", dir ? dir : "build/test/objects", name);
	return buf;
}

/* the test object NAME opened with opts (NULL: the defaults); the test
 * fails when it cannot be */
static inline struct rb_object *lf_open(const char *name, const struct rb_load_opts *opts)
{
	char p[512];
	struct rb_err err = {{0}};
	struct rb_object *o = NULL;
	int r = rb_object_open(lf_obj_path(name, p, sizeof(p)), opts, &o, &err);
	if (r)
		print_error("open %s: %s\n", p, err.msg);
	assert_int_equal(r, 0);
	assert_non_null(o);
	return o;
}

/* program NAME of o; the test fails when there is none */
static inline const struct rb_prog *lf_prog(const struct rb_object *o, const char *name)
{
	for (size_t i = 0; i < o->prog_cnt; i++)
		if (!strcmp(o->progs[i].name, name))
			return &o->progs[i];
	fail_msg("no program %s", name);
	return NULL;
}

static inline uint8_t *lf_read(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return b;
}

/* section header i of a well-formed ELF64 image (for the tests' own objects) */
static inline Elf64_Shdr *lf_shdr(uint8_t *img, size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	return (Elf64_Shdr *)(img + eh->e_shoff + i * sizeof(Elf64_Shdr));
}

static inline size_t lf_shnum(const uint8_t *img) { return ((const Elf64_Ehdr *)img)->e_shnum; }

static inline const char *lf_secname(uint8_t *img, size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Shdr *str = lf_shdr(img, eh->e_shstrndx);
	return (const char *)img + str->sh_offset + lf_shdr(img, i)->sh_name;
}

static inline long lf_find_sec(uint8_t *img, const char *name)
{
	for (size_t i = 1; i < lf_shnum(img); i++)
		if (!strcmp(lf_secname(img, i), name))
			return (long)i;
	return -1;
}

/* size in instructions of function symbol `name`, or -1 */
static inline long lf_func_insns(uint8_t *img, const char *name)
{
	for (size_t i = 1; i < lf_shnum(img); i++) {
		Elf64_Shdr *sh = lf_shdr(img, i);
		if (sh->sh_type != SHT_SYMTAB)
			continue;
		Elf64_Shdr *strs = lf_shdr(img, sh->sh_link);
		for (size_t k = 0; k < sh->sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym s;
			memcpy(&s, img + sh->sh_offset + k * sizeof(s), sizeof(s));
			if (ELF64_ST_TYPE(s.st_info) == STT_FUNC &&
			    !strcmp((const char *)img + strs->sh_offset + s.st_name, name))
				return (long)(s.st_size / 8);
		}
	}
	return -1;
}

#endif
