/* names.h — names for `unsupported` messages: helpers by their uapi name,
 * kfuncs by their name in the running kernel's BTF. */
#ifndef RB_ENGINE_NAMES_H
#define RB_ENGINE_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct btf;

/* Linux 6.18's __BPF_FUNC_MAX_ID: helper ids are 1..211 (measured on
 * 6.18.44: a call of 212 is "invalid func unknown#212") */
#define RB_FUNC_MAX_ID 212

/* "bpf_map_lookup_elem" for 1 ("bpf_unspec" for 0); NULL outside 0..RB_FUNC_MAX_ID-1 */
const char *rb_uapi_helper_name(int32_t id);
/* the kernel's way of naming a helper in its messages, "bpf_name#id"
 * ("unknown#id" outside the helper ids), written into buf */
const char *rb_helper_label(int32_t id, char *buf, size_t len);
/* the FUNC name of BTF id `id` in vmlinux, or NULL (btf may be NULL) */
const char *rb_kfunc_name(const struct btf *vmlinux, int32_t id);

#endif
