/* btf_names.h — the kernel's and the object's BTF, and names of their
 * types (see btf_names.c). No access rules here: a leaf the log and every
 * checker can call. */
#ifndef RB_ENGINE_BTF_NAMES_H
#define RB_ENGINE_BTF_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

struct btf;
struct btf_type;

/* the shared vmlinux BTF (parsed on first use, its time left out of
 * verify_us), or NULL when unreadable */
const struct btf *rb_need_vmlinux(struct rb_env *env);
/* the object's BTF (map value types, allocated objects), parsed on first
 * use; NULL when none */
const struct btf *rb_obj_btf(struct rb_env *env);
/* btf__find_by_name_kind on the vmlinux BTF, each name searched once per
 * vmlinux handle (rb_vmlinux_find): the id, <= 0 when none, -1 when unreadable */
int32_t rb_btf_find(struct rb_env *env, const char *name, int kind);
/* id of struct `name` in the vmlinux BTF, <= 0 when none or unreadable */
int32_t rb_btf_struct_id(struct rb_env *env, const char *name);
/* the name of vmlinux type id ("?" when the BTF is not loaded or has no such id) */
const char *rb_btf_name(struct rb_env *env, uint32_t id);
/* the name of type id of the object's BTF ("?" when none) */
const char *rb_alloc_type_name(struct rb_env *env, uint32_t id);
/* type id's type with its modifiers and typedefs skipped (its id into
 * *out_id when non-NULL); *rcu (when non-NULL) set by an "rcu" type tag
 * among them. NULL when an id is not in b. */
const struct btf_type *rb_btf_skip_mods(const struct btf *b, uint32_t id, uint32_t *out_id, bool *rcu);

#endif
