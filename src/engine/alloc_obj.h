/* alloc_obj.h — objects a program allocates (Linux 6.18 and 7.2.13
 * PTR_TO_BTF_ID | MEM_ALLOC): bpf_obj_new / bpf_obj_drop and the special
 * fields of a program-BTF struct. See alloc_obj.c. */
#ifndef RB_ENGINE_ALLOC_OBJ_H
#define RB_ENGINE_ALLOC_OBJ_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/kfunc_table.h"
#include "engine/state.h"

struct btf;
/* the special field (btf_field_type_name: "bpf_rb_node", "kptr", ...) of
 * struct sid of BTF b that [off, off + size) overlaps, NULL when none */
const char *rb_alloc_special_field(const struct btf *b, uint32_t sid, int off, int size);
/* check_ptr_to_btf_access of an object of the program's BTF (RB_IS_PROG_BTF): a load
 * (into *out, a scalar) or a store of size bytes at off past reg */
int rb_alloc_access(struct rb_env *env, const struct rb_reg *reg, int regno, int off, int size, bool write,
		    struct rb_reg *out);
/* the `special` checkers of bpf_obj_new_impl and bpf_obj_drop_impl (kfunc_table.c) */
int rb_kfunc_obj_new(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
int rb_kfunc_obj_drop(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
/* ... of bpf_refcount_acquire_impl */
int rb_kfunc_refcount_acquire(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);

#endif
