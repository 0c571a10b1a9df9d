/* kfunc_table72.c — kfuncs of the 7.2 profile (profile.h sched_ext) that
 * the 6.18 table (kfunc_table.c) lacks: sched_ext's, as Linux 7.2.13
 * registers them (kernel/sched/ext/ext.c, idle.c, cid.c): each row names
 * the kfunc, the BTF_ID_FLAGS it has there (7.2's KF_* numbering, one
 * value in every set that lists it) and the kfunc id sets that list it.
 * The program types that may call it follow from the sets' registrations
 * (register_btf_kfunc_id_set: scx_init, scx_idle_init, scx_cid_kfunc_init);
 * the per-op filter scx_kfunc_context_filter is rb_kfunc72_filter below.
 * Prototypes are read from BTF at run time (kfuncs.c), never from here. */
#include <linux/bpf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alloc_obj.h"
#include "engine/graph.h"
#include "engine/iter.h"
#include "engine/kfunc_table72.h"
#include "engine/profile.h"
#include "engine/struct_ops.h"
#include "engine/struct_ops_scx.h"
#include "util/array_size.h"

/* the kfunc id sets (scx_kfunc_ids_<name>) */
#define UNL RB_SCX_SET_UNLOCKED
#define INI RB_SCX_SET_INIT
#define SEL RB_SCX_SET_SELECT_CPU
#define ENQ RB_SCX_SET_ENQUEUE_DISPATCH
#define DSP RB_SCX_SET_DISPATCH
#define REL RB_SCX_SET_CPU_RELEASE
#define IDL RB_SCX_SET_IDLE
#define ANY RB_SCX_SET_ANY
#define CPU RB_SCX_SET_CPU_ONLY
#define CID RB_SCX_SET_CID

#define T_STRUCT_OPS (1ull << BPF_PROG_TYPE_STRUCT_OPS)
#define T_TRACING (1ull << BPF_PROG_TYPE_TRACING)
#define T_SYSCALL (1ull << BPF_PROG_TYPE_SYSCALL)
/* which program types each set is registered for (cpu_only is not
 * registered: the filter alone reads it) */
#define TYPES(s)                                                                                                    \
	((((s) & (ENQ | DSP | REL | INI)) ? T_STRUCT_OPS : 0) |                                                       \
	 (((s) & (UNL | SEL)) ? T_STRUCT_OPS | T_SYSCALL : 0) |                                                       \
	 (((s) & (ANY | IDL | CID)) ? T_STRUCT_OPS | T_TRACING | T_SYSCALL : 0))

#define R(n, sets, fl) {{#n, TYPES(sets), fl, true, NULL}, sets, RB_K72_SCX}
/* a row with a `special` checker */
#define RS(n, sets, fl, fn) {{#n, TYPES(sets), fl, true, fn}, sets, RB_K72_SCX}

/* kernel/bpf/arena.c common_kfunc_set (BPF_PROG_TYPE_UNSPEC: every
 * program type), profile.h arena_kfuncs */
#define T_ALL 0xffffffffffffffffull
#define A(n, fl) {{#n, T_ALL, fl, true, NULL}, 0, RB_K72_ARENA}

/* kfuncs Debian's 7.2.13 build registers that 6.18.44's here does not (its
 * vmlinux BTF has the function without the bpf_kfunc tag), profile.h
 * kfunc_sets_72, available as the 6.18 table's members of the same set.
 * bpf_verify_pkcs7_signature (CONFIG_SYSTEM_DATA_VERIFICATION): 7.2.13
 * kernel/bpf/helpers.c generic_btf_ids, KF_SLEEPABLE, so the availability
 * of that set's bpf_lookup_user_key (kfunc_table.c) */
#define B(n, avail, fl) {{#n, avail##ull, fl, true, NULL}, 0, RB_K72_BUILD}

/* 7.2.13 kernel/bpf/helpers.c generic_btf_ids (the generic kfunc set:
 * the program types of the 6.18 table's bpf_obj_new_impl, measured),
 * profile.h graph_kfuncs_72: the KF_IMPLICIT_ARGS forms of the allocation
 * and graph kfuncs, and the list kfuncs 6.18.44 has not. g: the row's
 * `special` checker (alloc_obj.c, graph.c), the same as its "_impl" form's */
#define G(n, fl, fn) {{#n, 0x08e84a3e8ull, fl, true, fn}, 0, RB_K72_GRAPH}

/* in name order (bsearch) */
static const struct rb_kfunc72 rows[] = {
	R(__scx_bpf_dsq_insert_vtime, ENQ, KF_IMPLICIT_ARGS | KF_RCU),
	R(__scx_bpf_select_cpu_and, UNL | CPU | SEL, KF_IMPLICIT_ARGS | KF_RCU),
	A(bpf_arena_alloc_pages, KF_ARENA_RET | KF_ARENA_ARG2),
	A(bpf_arena_free_pages, KF_ARENA_ARG2),
	A(bpf_arena_reserve_pages, KF_ARENA_ARG2),
	/* the open-coded DSQ iterator (iter.c) */
	RS(bpf_iter_scx_dsq_destroy, ANY, KF_ITER_DESTROY, rb_kfunc_iter_destroy),
	RS(bpf_iter_scx_dsq_new, ANY, KF_IMPLICIT_ARGS | KF_ITER_NEW | KF_RCU_PROTECTED, rb_kfunc_iter_new),
	RS(bpf_iter_scx_dsq_next, ANY, KF_ITER_NEXT | KF_RET_NULL, rb_kfunc_iter_next),
	/* 7.2.13's implicit-argument allocation and graph kfuncs (graph_kfuncs_72) */
	G(bpf_list_add, KF_IMPLICIT_ARGS, rb_kfunc_list),
	G(bpf_list_del, KF_ACQUIRE | KF_RET_NULL, rb_kfunc_list),
	G(bpf_list_empty, 0, rb_kfunc_list),
	G(bpf_list_is_first, 0, rb_kfunc_list),
	G(bpf_list_is_last, 0, rb_kfunc_list),
	G(bpf_list_push_back, KF_IMPLICIT_ARGS, rb_kfunc_list),
	G(bpf_list_push_front, KF_IMPLICIT_ARGS, rb_kfunc_list),
	G(bpf_obj_drop, KF_RELEASE | KF_IMPLICIT_ARGS, rb_kfunc_obj_drop),
	G(bpf_obj_new, KF_ACQUIRE | KF_RET_NULL | KF_IMPLICIT_ARGS, rb_kfunc_obj_new),
	G(bpf_percpu_obj_drop, KF_RELEASE | KF_IMPLICIT_ARGS, rb_kfunc_obj_drop),
	G(bpf_percpu_obj_new, KF_ACQUIRE | KF_RET_NULL | KF_IMPLICIT_ARGS, rb_kfunc_obj_new),
	G(bpf_rbtree_add, KF_IMPLICIT_ARGS, rb_kfunc_rbtree),
	G(bpf_refcount_acquire, KF_ACQUIRE | KF_RET_NULL | KF_RCU | KF_IMPLICIT_ARGS, rb_kfunc_refcount_acquire),
	B(bpf_verify_pkcs7_signature, 0x08e84a3e8, KF_SLEEPABLE),
	R(scx_bpf_cid_curr, ANY, KF_IMPLICIT_ARGS | KF_RET_NULL | KF_RCU_PROTECTED),
	R(scx_bpf_cid_override, INI, KF_IMPLICIT_ARGS | KF_SLEEPABLE),
	R(scx_bpf_cid_to_cpu, CID, KF_IMPLICIT_ARGS),
	R(scx_bpf_cid_topo, CID, KF_IMPLICIT_ARGS),
	R(scx_bpf_cidperf_cap, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_cidperf_cur, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_cidperf_set, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_cpu_curr, ANY | CPU, KF_IMPLICIT_ARGS | KF_RET_NULL | KF_RCU_PROTECTED),
	R(scx_bpf_cpu_node, CPU | IDL, KF_IMPLICIT_ARGS),
	R(scx_bpf_cpu_rq, ANY | CPU, KF_IMPLICIT_ARGS),
	R(scx_bpf_cpu_to_cid, CID, KF_IMPLICIT_ARGS),
	R(scx_bpf_cpuperf_cap, ANY | CPU, KF_IMPLICIT_ARGS),
	R(scx_bpf_cpuperf_cur, ANY | CPU, KF_IMPLICIT_ARGS),
	R(scx_bpf_cpuperf_set, ANY | CPU, KF_IMPLICIT_ARGS),
	R(scx_bpf_create_dsq, UNL, KF_IMPLICIT_ARGS | KF_SLEEPABLE),
	R(scx_bpf_destroy_dsq, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_dispatch_cancel, DSP, KF_IMPLICIT_ARGS),
	R(scx_bpf_dispatch_nr_slots, DSP, KF_IMPLICIT_ARGS),
	R(scx_bpf_dsq_insert, ENQ, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_dsq_insert___v2, ENQ, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_dsq_insert_vtime, ENQ, KF_RCU),
	R(scx_bpf_dsq_move, DSP | UNL, KF_RCU),
	R(scx_bpf_dsq_move_set_slice, DSP | UNL, KF_RCU),
	R(scx_bpf_dsq_move_set_vtime, DSP | UNL, KF_RCU),
	R(scx_bpf_dsq_move_to_local, DSP, KF_IMPLICIT_ARGS),
	R(scx_bpf_dsq_move_to_local___v2, DSP, KF_IMPLICIT_ARGS),
	R(scx_bpf_dsq_move_vtime, DSP | UNL, KF_RCU),
	R(scx_bpf_dsq_nr_queued, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_dsq_peek, ANY, KF_IMPLICIT_ARGS | KF_RCU_PROTECTED | KF_RET_NULL),
	R(scx_bpf_dsq_reenq, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_dump_bstr, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_error_bstr, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_events, ANY, 0),
	R(scx_bpf_exit_bstr, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_get_idle_cpumask, CPU | IDL, KF_IMPLICIT_ARGS | KF_ACQUIRE),
	R(scx_bpf_get_idle_cpumask_node, CPU | IDL, KF_IMPLICIT_ARGS | KF_ACQUIRE),
	R(scx_bpf_get_idle_smtmask, CPU | IDL, KF_IMPLICIT_ARGS | KF_ACQUIRE),
	R(scx_bpf_get_idle_smtmask_node, CPU | IDL, KF_IMPLICIT_ARGS | KF_ACQUIRE),
	R(scx_bpf_get_online_cpumask, ANY | CPU, KF_ACQUIRE),
	R(scx_bpf_get_possible_cpumask, ANY | CPU, KF_ACQUIRE),
	R(scx_bpf_kick_cid, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_kick_cpu, ANY | CPU, KF_IMPLICIT_ARGS),
	R(scx_bpf_locked_rq, ANY, KF_IMPLICIT_ARGS | KF_RET_NULL),
	R(scx_bpf_now, ANY, 0),
	R(scx_bpf_nr_cids, ANY, 0),
	R(scx_bpf_nr_cpu_ids, ANY, 0),
	R(scx_bpf_nr_node_ids, ANY, 0),
	R(scx_bpf_nr_online_cids, ANY, 0),
	R(scx_bpf_pick_any_cpu, CPU | IDL, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_pick_any_cpu_node, CPU | IDL, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_pick_idle_cpu, CPU | IDL, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_pick_idle_cpu_node, CPU | IDL, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_put_cpumask, ANY | CPU, KF_RELEASE),
	R(scx_bpf_put_idle_cpumask, CPU | IDL, KF_RELEASE),
	R(scx_bpf_reenqueue_local, REL, KF_IMPLICIT_ARGS),
	R(scx_bpf_reenqueue_local___v2, ANY, KF_IMPLICIT_ARGS),
	R(scx_bpf_select_cpu_and, UNL | CPU | SEL, KF_RCU),
	R(scx_bpf_select_cpu_dfl, UNL | CPU | SEL, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_sub_dispatch, DSP, KF_IMPLICIT_ARGS),
	R(scx_bpf_task_cgroup, ANY, KF_IMPLICIT_ARGS | KF_RCU | KF_ACQUIRE),
	R(scx_bpf_task_cid, ANY, KF_RCU),
	R(scx_bpf_task_cpu, ANY | CPU, KF_RCU),
	R(scx_bpf_task_running, ANY, KF_RCU),
	R(scx_bpf_task_set_dsq_vtime, ANY, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_task_set_slice, ANY, KF_IMPLICIT_ARGS | KF_RCU),
	R(scx_bpf_test_and_clear_cpu_idle, CPU | IDL, KF_IMPLICIT_ARGS),
	R(scx_bpf_this_cid, ANY, 0),
	R(scx_bpf_tid_to_task, ANY, KF_RET_NULL | KF_RCU_PROTECTED),
};

static int cmp(const void *key, const void *row)
{
	return strcmp((const char *)key, ((const struct rb_kfunc72 *)row)->k.name);
}

const struct rb_kfunc72 *rb_kfunc72_row(const char *name)
{
	if (!name)
		return NULL;
	return bsearch(name, rows, ARRAY_SIZE(rows), sizeof(rows[0]), cmp);
}

const struct rb_kfunc72 *rb_kfunc72_row_in(const char *name, const struct rb_profile *p)
{
	const struct rb_kfunc72 *r = rb_kfunc72_row(name);
	if (!r)
		return NULL;
	switch (r->gate) {
	case RB_K72_SCX:
		return p->sched_ext ? r : NULL;
	case RB_K72_ARENA:
		return p->arena_kfuncs ? r : NULL;
	case RB_K72_BUILD:
		return p->kfunc_sets_72 ? r : NULL;
	case RB_K72_GRAPH:
		return p->graph_kfuncs_72 ? r : NULL;
	}
	return NULL;
}

const struct rb_kfunc72 *rb_kfunc72_rows(int *n)
{
	*n = (int)(ARRAY_SIZE(rows));
	return rows;
}

/* 7.2.13 scx_kfunc_context_filter: true when the program may call a kfunc
 * of these sets (sets 0: not a sched_ext kfunc, allowed) */
bool rb_kfunc72_filter(uint32_t sets, uint32_t prog_type, const struct rb_st_ops *st, const struct rb_st_member *sm)
{
	if (!(sets & ~(uint32_t)(CPU | CID)))
		return true; /* in none of the filtered sets */
	if (prog_type == BPF_PROG_TYPE_SYSCALL)
		return (sets & (UNL | SEL | IDL | ANY)) != 0;
	if (prog_type != BPF_PROG_TYPE_STRUCT_OPS)
		return (sets & (ANY | IDL)) != 0;
	if (!st || (st->kind != RB_ST_SCX && st->kind != RB_ST_SCX_CID))
		return false; /* another struct_ops type */
	if (st->kind == RB_ST_SCX_CID && (sets & CPU))
		return false; /* cid-form schedulers may not call cpu-only kfuncs */
	if (sets & (ANY | IDL))
		return true;
	uint32_t allow = sm ? sm->kf_allow : 0;
	return ((allow & RB_SCX_ALLOW_UNLOCKED) && (sets & UNL)) || ((allow & RB_SCX_ALLOW_INIT) && (sets & INI)) ||
	       ((allow & RB_SCX_ALLOW_CPU_RELEASE) && (sets & REL)) ||
	       ((allow & RB_SCX_ALLOW_DISPATCH) && (sets & DSP)) ||
	       ((allow & RB_SCX_ALLOW_ENQUEUE) && (sets & ENQ)) ||
	       ((allow & RB_SCX_ALLOW_SELECT_CPU) && (sets & SEL));
}
