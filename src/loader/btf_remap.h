/* btf_remap.h — an object loaded for another kernel's BTF (--btf FILE):
 * libbpf 1.1 resolves attach targets, kfunc calls, typed ksyms and
 * struct_ops value types against the running kernel's vmlinux BTF even
 * when CO-RE uses a custom one (btf_custom_path covers CO-RE only), so the
 * ids it writes are the running kernel's. This maps each such id to the id
 * of the type with the same name and kind in FILE, as the kernel owning
 * FILE would have seen them. */
#ifndef RB_LOADER_BTF_REMAP_H
#define RB_LOADER_BTF_REMAP_H

#include "loader/object.h"
#include "util/err.h"

/* Remap every vmlinux BTF id of obj from the running kernel's BTF to
 * path's. An id whose type is missing from path's BTF is left as it is
 * (the engine then reports the target as it finds it); nothing is done
 * where the running kernel has no BTF. Returns 0, or < 0 with err set when
 * path's BTF cannot be read. */
int rb_btf_remap_object(struct rb_object *obj, const char *path, struct rb_err *err);

#endif
