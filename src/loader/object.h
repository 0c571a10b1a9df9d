/* object.h — the loader's output: a BPF ELF object opened into programs
 * ready to verify, exactly as the kernel would receive them.
 *
 * This is the contract between the loader (src/loader/), the engine
 * (src/engine/) and the kernel oracle (src/oracle/).
 *
 * Instruction streams are final: sub-programs appended, BPF-to-BPF calls
 * resolved, CO-RE relocations applied. Map references are normalised to
 * map indexes: an `ld_imm64` whose src_reg is BPF_PSEUDO_MAP_IDX (5) or
 * BPF_PSEUDO_MAP_IDX_VALUE (6) has imm = index into rb_object.maps (and,
 * for _VALUE, the next insn's imm = offset into the value). The kernel
 * accepts this form directly when given an fd_array, so the oracle passes
 * the real map fds as fd_array and loads the very same instructions.
 */
#ifndef RB_LOADER_OBJECT_H
#define RB_LOADER_OBJECT_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct btf;
struct rb_btf_lend;

struct rb_map {
	char name[64];
	uint32_t type; /* enum bpf_map_type */
	uint32_t key_size, value_size, max_entries, map_flags;
	uint32_t btf_key_type_id, btf_value_type_id, btf_vmlinux_value_type_id;
	int32_t inner_map_idx; /* map-in-map template, or -1 */
	bool frozen;           /* read-only to the program (.rodata, .kconfig) */
	bool global_data;      /* .rodata/.data/.bss/.kconfig */
	uint8_t *init;         /* initial contents of a global-data map (value_size bytes), or NULL */
	size_t init_size;
	/* added by the loader: */
	uint64_t map_extra;    /* BPF_MAP_CREATE map_extra (bloom filter hash count, ...) */
	uint32_t fixups;       /* RB_MAP_FIX_* : sizes the loader chose (user space normally sets them) */
	bool inner_template;   /* only the template of a map-in-map's inner maps */
	uint32_t elf_id;       /* iproute2 struct bpf_elf_map id (0: none): "N/M" sections name it */
};

#define RB_MAP_FIX_MAX_ENTRIES 1u
#define RB_MAP_FIX_KEY_SIZE 2u
#define RB_MAP_FIX_VALUE_SIZE 4u
#define RB_MAP_FIX_INNER 8u /* inner map made up by the loader (map_fixup.c) */

/* Program names and sections are kept whole up to these bounds (6.18's
 * KSYM_NAME_LEN, the longest BTF function name it takes, is 512; a
 * section may hold a path: "uprobe//path/to/binary:func"). A program with
 * a longer one is kept with its name cut and an error naming the bound
 * (rb_prog_set_names): its row says so, never another program's. */
#define RB_PROG_NAME_MAX 1024
#define RB_PROG_SECTION_MAX 4096

struct rb_prog {
	char name[RB_PROG_NAME_MAX];
	char section[RB_PROG_SECTION_MAX];
	uint32_t prog_type;            /* enum bpf_prog_type */
	uint32_t expected_attach_type; /* enum bpf_attach_type */
	bool autoload;                 /* false for SEC("?...") */
	bool type_known;               /* false: section name gives no program type */
	struct bpf_insn *insns;
	size_t insn_cnt;
	uint32_t attach_btf_id;        /* vmlinux BTF type id of the attach target, or 0 */
	char attach_name[128];         /* attach target (fentry/tp_btf/...), or "" */
	uint32_t prog_flags;
	/* BTF func_info / line_info as the kernel receives them (may be NULL) */
	void *func_info;
	uint32_t func_info_rec_size, func_info_cnt;
	void *line_info;
	uint32_t line_info_rec_size, line_info_cnt;
	char license[64];
	uint32_t kern_version;
	/* added by the loader: */
	char error[256];               /* non-empty: this program could not be prepared
				        * (e.g. attach target missing); insns is NULL */
	char undefined_calls[128];     /* functions it calls that the object does not define
				        * ("a, b"; our own path keeps such calls as the file has
				        * them), or "" */
	char libbpf_type_name[32];     /* libbpf_bpf_prog_type_str(), "" if unknown */
	char type_from[16];            /* who decided prog_type: "libbpf", "user", "hints", "iproute2",
				        * "cilium", "libbpf<1.0", "object" (prog_type.h); "" if unknown */
	char type_rule[160];           /* type_from "hints": the rule, "rangebench.types:LINE PATTERN" */
	bool tail_call;                /* section "N/M": iproute2 puts it in slot tail_slot */
	uint32_t tail_map_id, tail_slot; /* of the prog array whose bpf_elf_map id is tail_map_id */
	bool tail_filled;              /* it fills slot tail_slot of prog array tail_map_idx, as
				        * tc's bpf_fill_prog_arrays does (prog_arrays.c) */
	uint32_t tail_map_idx;
};

struct rb_object {
	char path[4096];
	char sha256[65];   /* hex digest of the file */
	struct rb_map *maps;
	size_t map_cnt;
	struct rb_prog *progs;
	size_t prog_cnt;
	void *btf;         /* the object's BTF blob as loaded (NULL if none) */
	size_t btf_size;
	bool legacy_maps;  /* has legacy SEC("maps") definitions (opened by open_legacy.c) */
	bool own_path;     /* opened by open_legacy.c, not libbpf */
	bool iproute2;     /* maps are iproute2's struct bpf_elf_map (tc/ip load it as one type) */
	/* added by the loader: */
	size_t file_size;
	bool no_license;   /* no "license" section: loaded with an empty license, as libbpf
			    * does (GPL-only helpers refused), unless --license gave one */
	bool license_given; /* no_license, and rb_load_opts.license was used */
};

struct rb_type_hints;

struct rb_load_opts {
	const char *btf_path; /* vmlinux BTF for CO-RE; NULL = /sys/kernel/btf/vmlinux */
	/* another kernel's inputs directory (kernel_inputs.h: btf, config,
	 * uname): libbpf prepares the object as on that kernel (its BTF
	 * unless btf_path is given, its CONFIG_* and LINUX_* externs); NULL =
	 * the running kernel */
	const char *kernel_inputs;
	/* program type for the programs libbpf's section table does not type
	 * (prog_type.h): a libbpf type or section name, and an attach type;
	 * NULL = none */
	const char *prog_type, *attach_type;
	/* the license of an object without a "license" section (--license);
	 * NULL = as libbpf: an empty one */
	const char *license;
	/* the type hints of the object's directory (type_hints.h); rb_object_open
	 * reads them itself when this is NULL */
	const struct rb_type_hints *hints;
	/* a kernel BTF parsed once by the caller (engine/vmlinux.h's handle,
	 * which the engine verifies against), lent to libbpf whenever it asks
	 * for that kernel's BTF (btf__load_vmlinux_btf) instead of a parse of
	 * its own (15-40 ms, ~900 page faults each: issue 26); NULL: libbpf
	 * parses its own */
	const struct rb_btf_lend *lend_btf;
};

/* A parsed kernel BTF the loader may lend libbpf (bpf_standin.c): libbpf
 * only reads it, and never frees it (its btf__free is wrapped to spare the
 * lent instance). */
struct rb_btf_lend {
	const char *path; /* the file parsed; NULL: the running kernel's */
	/* the BTF, parsed at the first call (under a lock); NULL: unreadable */
	const struct btf *(*get)(void *ctx);
	void *ctx;
};

/* One line on an object without a license section (how it was loaded), or
 * "" when it has one. */
void rb_object_license_note(const struct rb_object *obj, char *buf, size_t len);
/* One line saying which rule typed each program ("types: NAME TYPE by
 * RULE, ..."), or "" when libbpf's section table typed them all. */
void rb_object_types_line(const struct rb_object *obj, char *buf, size_t len);

/* Open one object file. On error returns < 0 with err naming the file and
 * the reason; never crashes on hostile input. An object that yields no
 * program is an error too ("no programs: why"). */
int rb_object_open(const char *path, const struct rb_load_opts *opts, struct rb_object **out,
		   struct rb_err *err);
/* Same for an object already in memory; name stands for the file in
 * messages and in obj->path. (Added by the loader: used by the fuzzer.) */
int rb_object_open_mem(const char *name, const void *buf, size_t size, const struct rb_load_opts *opts,
		       struct rb_object **out, struct rb_err *err);
void rb_object_free(struct rb_object *obj);

/* Set a program's name and section; one longer than its bound (above) is
 * cut and the program gets an error naming the bound: returns false. */
bool rb_prog_set_names(struct rb_prog *p, const char *name, const char *section);

/* One line on a program that calls functions its object does not define
 * (rb_prog.undefined_calls), for load and verify: what is missing and why
 * the verifier's verdict is about the unresolved call. "" if none. */
void rb_prog_undefined_note(const struct rb_prog *p, char *buf, size_t len);

#endif
