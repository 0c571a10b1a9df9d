/* names.h — names for `unsupported` messages: helpers by their uapi name,
 * kfuncs by their name in the running kernel's BTF. */
#ifndef RB_ENGINE_NAMES_H
#define RB_ENGINE_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct btf;

/* "bpf_map_lookup_elem" for 1; NULL for ids this build's uapi header does
 * not name (helpers newer than the header) */
const char *rb_uapi_helper_name(int32_t id);
/* the FUNC name of BTF id `id` in vmlinux, or NULL (btf may be NULL) */
const char *rb_kfunc_name(const struct btf *vmlinux, int32_t id);

#endif
