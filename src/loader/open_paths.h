/* open_paths.h — the two ways an object is opened (internal to the loader):
 * libbpf against the bpf() stand-in, or our own path for legacy
 * SEC("maps") objects that libbpf 1.x refuses; plus the verifier-tests raw
 * format. All fill obj->maps and
 * obj->progs; the caller fills path, sha256 and file_size. */
#ifndef RB_LOADER_OPEN_PATHS_H
#define RB_LOADER_OPEN_PATHS_H

#include "loader/elf_view.h"
#include "loader/object.h"

int rb_open_libbpf(const struct rb_elf *elf, const struct rb_load_opts *opts, struct rb_object *obj,
		   struct rb_err *err);
int rb_open_legacy(const struct rb_elf *elf, struct rb_object *obj, struct rb_err *err);

/* The verifier-tests raw-program format (open_rbvt.c): one test of the
 * kernel's test_verifier tables per file, recognised by its magic. */
#define RB_RBVT_MAGIC "RBVTEST1"
bool rb_is_rbvt(const void *buf, size_t size);
int rb_open_rbvt(const char *path, const void *buf, size_t size, const struct rb_load_opts *opts,
		 struct rb_object *obj, struct rb_err *err);

/* Sizes user space normally sets before loading (max_entries 0, stack-trace
 * key/value sizes, ring buffer size): the values the loader picks instead.
 * Returns the RB_MAP_FIX_* flags of what changed. */
uint32_t rb_map_fix_sizes(uint32_t type, uint32_t *key_size, uint32_t *value_size, uint32_t *max_entries,
			  int ncpus);

/* The kernel's per-type size rules and a stand-in inner map for a
 * map-in-map without one, over the opened object's maps (map_fixup.c). */
int rb_map_fix_object(struct rb_object *obj, struct rb_err *err);

/* iproute2's "N/M" sections fill slot M of the prog array whose
 * bpf_elf_map id is N (prog_arrays.c): sets rb_prog.tail_filled and
 * tail_map_idx. Call after the program types are resolved. */
void rb_fill_prog_arrays(struct rb_object *obj);

/* Text after the first '/' of a section name ("" if none). */
const char *rb_section_suffix(const char *sec);

#endif
