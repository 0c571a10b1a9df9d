/* elf_view.h — a bounds-checked view of a BPF ELF object held in memory.
 *
 * rb_elf_parse() checks every size and offset against the file size before
 * anything uses it (headers, section table, names, symbols, relocations,
 * BTF and BTF.ext), so that both libbpf (which trusts more than it should
 * in version 1.1) and our own legacy path only ever see a structurally
 * sound file. Accessors copy fields out with memcpy: sections may start at
 * any offset, so pointer casts would be misaligned. */
#ifndef RB_LOADER_ELF_VIEW_H
#define RB_LOADER_ELF_VIEW_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define RB_MAX_INSNS 1000000u            /* the kernel's BPF_COMPLEXITY_LIMIT_INSNS */
#define RB_MAX_FILE_SIZE (512u << 20)    /* refuse bigger object files */
/* .bss-like sections (no file contents) become a map's value: the
 * kernel's limit for an array map value (array_map_alloc_check, 6.18:
 * value_size > INT_MAX is E2BIG). Nothing is allocated for their zero
 * bytes until something needs them. */
#define RB_MAX_NOBITS_SIZE 0x7fffffffu
#define RB_MAX_FUNCS 65536u              /* function symbols in code (programs + sub-programs) */

#ifndef EM_BPF
#define EM_BPF 247
#endif

struct rb_elf_sec {
	const char *name;      /* NUL-terminated, inside the file */
	Elf64_Shdr sh;
	const uint8_t *data;   /* sh_size bytes inside the file, or NULL for SHT_NOBITS */
};

struct rb_elf {
	const char *path;      /* for messages */
	const uint8_t *buf;
	size_t size;
	struct rb_elf_sec *secs;
	size_t nsec;
	size_t symtab;         /* section index of SHT_SYMTAB, 0 if none */
	size_t nsyms;
	const struct rb_elf_sec *strtab;
	size_t btf, btf_ext;   /* section indexes of .BTF / .BTF.ext, 0 if none */
	size_t legacy_maps;    /* section index of SEC("maps"), 0 if none */
	/* the maps section is named "<type>/maps": v4l-utils' bpf_load.c
	 * (ir-keytable's IR decoders), whose loader writes the value of a
	 * global variable into the ld_imm64 that refers to it */
	bool params_as_imm;
};

/* Validate buf as a BPF relocatable object and index it. elf keeps pointers
 * into buf. On error returns -1 with err = "PATH: reason". */
int rb_elf_parse(struct rb_elf *elf, const char *path, const void *buf, size_t size, struct rb_err *err);
void rb_elf_free(struct rb_elf *elf);

/* Symbol i (i < elf->nsyms) and its name ("" if none). */
Elf64_Sym rb_elf_sym(const struct rb_elf *elf, size_t i);
const char *rb_elf_sym_name(const struct rb_elf *elf, const Elf64_Sym *sym);

/* Validate a BTF blob / a .BTF.ext blob against its BTF (called by
 * rb_elf_parse; exposed for tests). reason gets a short text on failure. */
bool rb_btf_check(const uint8_t *data, size_t size, uint32_t *nr_types, uint32_t *str_len,
		  char *reason, size_t reason_sz);
bool rb_btf_ext_check(const uint8_t *data, size_t size, uint32_t nr_types, uint32_t str_len,
		      char *reason, size_t reason_sz);

static inline uint32_t rb_rd32(const uint8_t *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return v;
}
static inline uint16_t rb_rd16(const uint8_t *p)
{
	uint16_t v;
	__builtin_memcpy(&v, p, 2);
	return v;
}

#endif
