/* legacy_btf_ext.h — the object's BTF and its .BTF.ext func_info/line_info
 * for the loader's own path (open_legacy.c), as libbpf would hand them to
 * the kernel: DATASEC sizes and variable offsets filled in from the ELF
 * file, and per program the records of each piece of code it is built
 * from, with instruction offsets in the program (see legacy_btf_ext.c).
 * Internal to the loader. */
#ifndef RB_LOADER_LEGACY_BTF_EXT_H
#define RB_LOADER_LEGACY_BTF_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "loader/elf_view.h"
#include "loader/object.h"

/* a run of instructions of section sec (from instruction start, len long)
 * copied into a program at instruction out */
struct rb_legacy_unit {
	size_t sec, start, len, out;
};

struct rb_ext_rec {
	size_t sec;          /* ELF section index */
	uint64_t insn;       /* instruction index in that section */
	const uint8_t *rec;  /* the record in the file */
};

struct rb_legacy_ext {
	uint32_t fi_size, li_size; /* record sizes (0: none) */
	struct rb_ext_rec *fi, *li; /* sorted by (sec, insn) */
	size_t nfi, nli;
};

/* The object's .BTF with the fix-ups libbpf makes before loading it
 * (DATASEC size and variable offsets from the ELF file, hidden symbols
 * static). *out = NULL when the object has no BTF or it cannot be fixed
 * up (the object then loads without BTF, as before). Returns -1 only when
 * out of memory. */
int rb_legacy_btf(const struct rb_elf *e, void **out, size_t *size);

/* Index the .BTF.ext func_info and line_info records by section. Returns
 * -1 only when out of memory; x is empty if the object has none. */
int rb_legacy_ext_init(const struct rb_elf *e, struct rb_legacy_ext *x);
void rb_legacy_ext_free(struct rb_legacy_ext *x);

/* p->func_info / p->line_info for a program built from units u[0..nu):
 * kept only when every unit starts with exactly one func_info record (the
 * kernel wants one per function, at its first instruction) and, for
 * line_info, with a line record. Returns -1 only when out of memory. */
int rb_legacy_ext_prog(const struct rb_legacy_ext *x, const struct rb_legacy_unit *u, size_t nu,
		       struct rb_prog *p);

#endif
