/* graph.h — the rbtree and linked-list kfuncs on a bpf_rb_root or
 * bpf_list_head of a map value (Linux 6.18 and 7.2.13). See graph.c. */
#ifndef RB_ENGINE_GRAPH_H
#define RB_ENGINE_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/kfunc_table.h"
#include "engine/state.h"

/* a graph root's btf_field_graph_root: the nodes' struct (an id of the
 * object's BTF) and the bpf_rb_node's (bpf_list_node's) offset in it */
struct rb_graph_root {
	int32_t value_id;
	int32_t node_off;
	bool list;       /* a bpf_list_head (else a bpf_rb_root) */
	bool refcounted; /* the nodes' struct has a bpf_refcount (btf_record refcount_off >= 0) */
};

/* the bpf_rb_root or bpf_list_head register reg points to (a map value
 * at a constant offset) and its "contains:" declaration: 0, or -1 when none */
int rb_graph_root_of(struct rb_env *env, const struct rb_reg *reg, struct rb_graph_root *out);
/* mark_reg_graph_node + ref_set_non_owning: a non-owning reference to a
 * node of root (MEM_RCU too where the nodes are refcounted) */
void rb_graph_non_owning(struct rb_env *env, struct rb_reg *r, const struct rb_graph_root *root);
/* invalidate_non_owning_refs: every non-owning reference of the current
 * state becomes an unknown scalar (at a lock's release) */
void rb_graph_invalidate_non_owning(struct rb_env *env);
/* is_bpf_rbtree_add_kfunc: bpf_rbtree_add_impl, or 7.2.13's implicit-argument
 * bpf_rbtree_add (a name only 7.2.13's BTF has, profile.h graph_kfuncs_72) */
bool rb_is_rbtree_add(const char *name);
/* the `special` checker of bpf_rbtree_add_impl, bpf_rbtree_first and
 * bpf_rbtree_remove (kfunc_table.c) */
int rb_kfunc_rbtree(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
/* ... of bpf_list_push_front_impl, bpf_list_push_back_impl,
 * bpf_list_pop_front, bpf_list_pop_back, bpf_list_front and bpf_list_back */
int rb_kfunc_list(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);

#endif
