/* btf.h — BTF pointers and tracing contexts (Linux 6.18 btf_ctx_access, btf_struct_access). */
#ifndef RB_ENGINE_BTF_H
#define RB_ENGINE_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

/* the shared vmlinux BTF (parsed on first use, its time left out of
 * verify_us), or NULL when unreadable */
const struct btf *rb_need_vmlinux(struct rb_env *env);
int rb_btf_init(struct rb_env *env);
int rb_btf_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_reg *out);
int rb_btf_load(struct rb_env *env, const struct rb_reg *reg, int regno, int off, int size, bool write,
		struct rb_reg *out);
const char *rb_btf_name(struct rb_env *env, uint32_t id);
struct btf;
/* btf_struct_walk of [off, off + size) in struct id of BTF b: 0, or -1
 * with the kernel's reason in why */
/* type id's type with its modifiers and typedefs skipped (its id into
 * *out_id when non-NULL); *rcu (when non-NULL) set by an "rcu" type tag
 * among them. NULL when an id is not in b. */
const struct btf_type *rb_btf_skip_mods(const struct btf *b, uint32_t id, uint32_t *out_id, bool *rcu);
int rb_btf_walk(const struct btf *b, uint32_t id, int off, int size, char *why, size_t wsz);
/* The offset checks of an access through a BTF pointer (kernel struct or
 * allocated object, 6.18 and 7.2.13 check_ptr_to_btf_access): a constant
 * offset, not negative, not per-CPU memory. 0 with *off the whole
 * offset (the register's constant added), or RB_E_REJECT (rejected). */
int rb_btf_ptr_off(struct rb_env *env, const struct rb_reg *reg, int regno, const char *tname, int *off);
int32_t rb_btf_struct_id(struct rb_env *env, const char *name);

#endif
