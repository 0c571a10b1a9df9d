/* btf.h — BTF pointers and tracing contexts (Linux 6.18 btf_ctx_access, btf_struct_access). */
#ifndef RB_ENGINE_BTF_H
#define RB_ENGINE_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

int rb_btf_init(struct rb_env *env);
int rb_btf_ctx_access(struct rb_env *env, int off, int size, bool write, struct rb_reg *out);
int rb_btf_load(struct rb_env *env, const struct rb_reg *reg, int regno, int off, int size, bool write,
		struct rb_reg *out);
struct btf;
/* btf_struct_walk of [off, off + size) in struct id of BTF b: 0, or -1
 * with the kernel's reason in why */
int rb_btf_walk(const struct btf *b, uint32_t id, int off, int size, char *why, size_t wsz);
/* The offset checks of an access through a BTF pointer (kernel struct or
 * allocated object, 6.18 and 7.2.13 check_ptr_to_btf_access): a constant
 * offset, not negative, not per-CPU memory. 0 with *off the whole
 * offset (the register's constant added), or RB_E_REJECT (rejected). */
int rb_btf_ptr_off(struct rb_env *env, const struct rb_reg *reg, int regno, const char *tname, int *off);

#endif
