/* kfunc_table.c — every kfunc of the running kernel (Linux 6.18.44; the
 * FUNCs its vmlinux BTF tags "bpf_kfunc"), in name order.
 *
 * Availability (second column, a bit per enum bpf_prog_type) was measured
 * on 6.18.44: one call-only probe program (r0 = 0; call kfunc; r0 = 0;
 * exit) per kfunc and program type; "calling kernel function X is not
 * allowed" means unavailable, any other answer available (6.18 checks the
 * kfunc id sets, btf_kfunc_id_set_contains, before the arguments).
 * tests/unit/test_kfuncs.c re-measures it where bpf() is permitted.
 * Types measured: rb_kfunc_measured_types (tracing through tp_btf only;
 * struct_ops (27) through tcp_congestion_ops.ssthresh and
 * bpf_dummy_ops.test_1, which gave equal sets; ext, lsm and lirc_mode2
 * could not be loaded here). A filter
 * on the attach type inside a set (e.g. bpf_sock_destroy for iterators)
 * shows as "unavailable" for the attach type probed.
 *
 * Flags (third column, K rows) are 6.18's BTF_ID_FLAGS from the kernel
 * sources: kernel/bpf/helpers.c (generic and common sets), kernel/bpf/
 * cpumask.c, net/netfilter/nf_conntrack_bpf.c, kernel/bpf/helpers.c's
 * string kfuncs (6.17+). U rows: flags not recorded, calls end as
 * "unsupported" (the flags decide acquire/release/NULL semantics). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alloc_obj.h"
#include "engine/dynptr_kfuncs.h"
#include "engine/graph.h"
#include "engine/irq_flags.h"
#include "engine/iter.h"
#include "engine/kfunc_table.h"
#include "engine/locks.h"
#include "engine/rcu.h"
#include "util/array_size.h"

/* socket_filter .. raw_tracepoint_writable and cgroup_sockopt except
 * lirc_mode2 (1-19, 21-25), tracing as tp_btf (26), struct_ops (27), sk_lookup (30),
 * syscall (31), netfilter (32) */
const uint64_t rb_kfunc_measured_types = 0x1cfeffffeull;

#define K(n, avail, fl) {#n, avail##ull, fl, true, NULL}
#define U(n, avail) {#n, avail##ull, 0, false, NULL}
/* S rows: a `special` checker (6.18 flags recorded) */
#define S(n, avail, fl, fn) {#n, avail##ull, fl, true, fn}
/* an open-coded iterator's destroy, new and next (in name order), equally
 * available, flags not recorded */
#define ITER_U(type, avail) U(bpf_iter_##type##_destroy, avail), U(bpf_iter_##type##_new, avail), \
			    U(bpf_iter_##type##_next, avail)

static const struct rb_kfunc rows[] = {
	U(__bpf_trap, 0x1cfeffffe),
	U(bbr_cwnd_event, 0x008000000),
	U(bbr_init, 0x008000000),
	U(bbr_main, 0x008000000),
	U(bbr_min_tso_segs, 0x008000000),
	U(bbr_set_state, 0x008000000),
	U(bbr_sndbuf_expand, 0x008000000),
	U(bbr_ssthresh, 0x008000000),
	U(bbr_undo_cwnd, 0x008000000),
	U(bpf_arena_alloc_pages, 0x000000000),
	U(bpf_arena_free_pages, 0x000000000),
	U(bpf_arena_reserve_pages, 0x000000000),
	K(bpf_cast_to_kern_ctx, 0x1cfeffffe, KF_FASTCALL),
	K(bpf_cgroup_acquire, 0x08e84a3e8, KF_ACQUIRE | KF_RCU | KF_RET_NULL),
	K(bpf_cgroup_ancestor, 0x08e84a3e8, KF_ACQUIRE | KF_RCU | KF_RET_NULL),
	K(bpf_cgroup_from_id, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL),
	U(bpf_cgroup_read_xattr, 0x1cfeffffe),
	K(bpf_cgroup_release, 0x08e84a3e8, KF_RELEASE),
	U(bpf_copy_from_user_dynptr, 0x1cfeffffe),
	K(bpf_copy_from_user_str, 0x1cfeffffe, KF_SLEEPABLE),
	U(bpf_copy_from_user_str_dynptr, 0x1cfeffffe),
	U(bpf_copy_from_user_task_dynptr, 0x1cfeffffe),
	U(bpf_copy_from_user_task_str, 0x1cfeffffe),
	U(bpf_copy_from_user_task_str_dynptr, 0x1cfeffffe),
	K(bpf_cpumask_acquire, 0x08c0000a0, KF_ACQUIRE | KF_TRUSTED_ARGS),
	K(bpf_cpumask_and, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_any_and_distribute, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_any_distribute, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_clear, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_clear_cpu, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_copy, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_create, 0x08c0000a0, KF_ACQUIRE | KF_RET_NULL),
	K(bpf_cpumask_empty, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_equal, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_first, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_first_and, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_first_zero, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_full, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_intersects, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_or, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_populate, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_release, 0x08c0000a0, KF_RELEASE),
	K(bpf_cpumask_set_cpu, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_setall, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_subset, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_test_and_clear_cpu, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_test_and_set_cpu, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_test_cpu, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_weight, 0x08c0000a0, KF_RCU),
	K(bpf_cpumask_xor, 0x08c0000a0, KF_RCU),
	U(bpf_crypto_ctx_acquire, 0x080000000),
	U(bpf_crypto_ctx_create, 0x080000000),
	U(bpf_crypto_ctx_release, 0x080000000),
	U(bpf_crypto_decrypt, 0x000000058),
	U(bpf_crypto_encrypt, 0x000000058),
	K(bpf_ct_change_status, 0x000000048, KF_TRUSTED_ARGS),
	K(bpf_ct_change_timeout, 0x000000048, KF_TRUSTED_ARGS),
	K(bpf_ct_insert_entry, 0x000000048, KF_ACQUIRE | KF_RET_NULL | KF_RELEASE),
	K(bpf_ct_release, 0x000000048, KF_RELEASE),
	U(bpf_ct_set_nat_info, 0x000000048),
	K(bpf_ct_set_status, 0x000000048, KF_TRUSTED_ARGS),
	K(bpf_ct_set_timeout, 0x000000048, KF_TRUSTED_ARGS),
	S(bpf_dynptr_adjust, 0x1cfeffffe, 0, rb_kfunc_dynptr_scalar),
	U(bpf_dynptr_clone, 0x1cfeffffe),
	U(bpf_dynptr_copy, 0x1cfeffffe),
	U(bpf_dynptr_from_skb, 0x1068cffba),
	U(bpf_dynptr_from_skb_meta, 0x000000018),
	U(bpf_dynptr_from_xdp, 0x000000040),
	S(bpf_dynptr_is_null, 0x1cfeffffe, 0, rb_kfunc_dynptr_scalar),
	S(bpf_dynptr_is_rdonly, 0x1cfeffffe, 0, rb_kfunc_dynptr_scalar),
	U(bpf_dynptr_memset, 0x1cfeffffe),
	S(bpf_dynptr_size, 0x1cfeffffe, 0, rb_kfunc_dynptr_scalar),
	U(bpf_dynptr_slice, 0x1cfeffffe),
	U(bpf_dynptr_slice_rdwr, 0x1cfeffffe),
	U(bpf_fentry_test1, 0x000000000),
	U(bpf_get_dentry_xattr, 0x000000000),
	U(bpf_get_file_xattr, 0x000000000),
	U(bpf_get_kmem_cache, 0x1cfeffffe),
	U(bpf_get_task_exe_file, 0x000000000),
	ITER_U(bits, 0x1cfeffffe),
	ITER_U(css, 0x1cfeffffe),
	ITER_U(css_task, 0x1cfeffffe),
	ITER_U(dmabuf, 0x1cfeffffe),
	ITER_U(kmem_cache, 0x1cfeffffe),
	/* open-coded iterators (iter.c; kernel/bpf/bpf_iter.c's flags) */
	S(bpf_iter_num_destroy, 0x1cfeffffe, KF_ITER_DESTROY, rb_kfunc_iter_destroy),
	S(bpf_iter_num_new, 0x1cfeffffe, KF_ITER_NEW, rb_kfunc_iter_new),
	S(bpf_iter_num_next, 0x1cfeffffe, KF_ITER_NEXT | KF_RET_NULL, rb_kfunc_iter_next),
	ITER_U(task, 0x1cfeffffe),
	ITER_U(task_vma, 0x1cfeffffe),
	K(bpf_key_put, 0x08e84a3e8, KF_RELEASE),
	K(bpf_kfunc_call_memb_release, 0x0840000a8, KF_RELEASE), /* net/bpf/test_run.c test_sk_check_kfunc_ids */
	K(bpf_kfunc_call_test_release, 0x0840000a8, KF_RELEASE),
	/* linked lists of allocated objects (graph.c); the same flags in 7.2.13 */
	S(bpf_list_back, 0x08e84a3e8, KF_RET_NULL, rb_kfunc_list),
	S(bpf_list_front, 0x08e84a3e8, KF_RET_NULL, rb_kfunc_list),
	S(bpf_list_pop_back, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL, rb_kfunc_list),
	S(bpf_list_pop_front, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL, rb_kfunc_list),
	S(bpf_list_push_back_impl, 0x08e84a3e8, 0, rb_kfunc_list),
	S(bpf_list_push_front_impl, 0x08e84a3e8, 0, rb_kfunc_list),
	S(bpf_local_irq_restore, 0x1cfeffffe, 0, rb_kfunc_irq_flag),
	S(bpf_local_irq_save, 0x1cfeffffe, 0, rb_kfunc_irq_flag),
	K(bpf_lookup_system_key, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL),
	K(bpf_lookup_user_key, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL | KF_SLEEPABLE),
	K(bpf_map_sum_elem_count, 0x1cfeffffe, 0),
	U(bpf_modify_return_test, 0x000000000),
	U(bpf_modify_return_test2, 0x000000000),
	U(bpf_modify_return_test_tp, 0x1cfeffffe),
	/* allocated objects (alloc_obj.c) */
	S(bpf_obj_drop_impl, 0x08e84a3e8, KF_RELEASE, rb_kfunc_obj_drop),
	S(bpf_obj_new_impl, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL, rb_kfunc_obj_new),
	U(bpf_path_d_path, 0x000000000),
	S(bpf_percpu_obj_drop_impl, 0x08e84a3e8, KF_RELEASE, rb_kfunc_obj_drop),
	S(bpf_percpu_obj_new_impl, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL, rb_kfunc_obj_new),
	S(bpf_preempt_disable, 0x1cfeffffe, 0, rb_kfunc_preempt),
	S(bpf_preempt_enable, 0x1cfeffffe, 0, rb_kfunc_preempt),
	U(bpf_probe_read_kernel_dynptr, 0x1cfeffffe),
	U(bpf_probe_read_kernel_str_dynptr, 0x1cfeffffe),
	U(bpf_probe_read_user_dynptr, 0x1cfeffffe),
	U(bpf_probe_read_user_str_dynptr, 0x1cfeffffe),
	U(bpf_put_file, 0x000000000),
	/* rbtrees of allocated objects (graph.c) */
	S(bpf_rbtree_add_impl, 0x08e84a3e8, 0, rb_kfunc_rbtree),
	S(bpf_rbtree_first, 0x08e84a3e8, KF_RET_NULL, rb_kfunc_rbtree),
	S(bpf_rbtree_left, 0x08e84a3e8, KF_RET_NULL, rb_kfunc_rbtree),
	S(bpf_rbtree_remove, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL, rb_kfunc_rbtree),
	S(bpf_rbtree_right, 0x08e84a3e8, KF_RET_NULL, rb_kfunc_rbtree),
	S(bpf_rbtree_root, 0x08e84a3e8, KF_RET_NULL, rb_kfunc_rbtree),
	S(bpf_rcu_read_lock, 0x1cfeffffe, 0, rb_kfunc_rcu),
	S(bpf_rcu_read_unlock, 0x1cfeffffe, 0, rb_kfunc_rcu),
	K(bpf_rdonly_cast, 0x1cfeffffe, KF_FASTCALL),
	S(bpf_refcount_acquire_impl, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL | KF_RCU, rb_kfunc_refcount_acquire),
	U(bpf_remove_dentry_xattr, 0x000000000),
	/* kernel/bpf/rqspinlock.c's flags (locks.c) */
	S(bpf_res_spin_lock, 0x1cfeffffe, KF_RET_NULL, rb_kfunc_res_spin_lock),
	S(bpf_res_spin_lock_irqsave, 0x1cfeffffe, KF_RET_NULL, rb_kfunc_res_spin_lock),
	S(bpf_res_spin_unlock, 0x1cfeffffe, 0, rb_kfunc_res_spin_lock),
	S(bpf_res_spin_unlock_irqrestore, 0x1cfeffffe, 0, rb_kfunc_res_spin_lock),
	K(bpf_send_signal_task, 0x08e84a3e8, KF_TRUSTED_ARGS),
	U(bpf_session_cookie, 0x000000000),
	U(bpf_session_is_return, 0x000000000),
	U(bpf_set_dentry_xattr, 0x000000000),
	U(bpf_sk_assign_tcp_reqsk, 0x000000008),
	K(bpf_skb_ct_alloc, 0x000000048, KF_ACQUIRE | KF_RET_NULL),
	K(bpf_skb_ct_lookup, 0x000000048, KF_ACQUIRE | KF_RET_NULL),
	U(bpf_sock_addr_set_sun_path, 0x00284a300),
	U(bpf_sock_destroy, 0x000000000),
	U(bpf_sock_ops_enable_tx_tstamp, 0x00284a300),
	K(bpf_strcasecmp, 0x1cfeffffe, 0),
	K(bpf_strchr, 0x1cfeffffe, 0),
	K(bpf_strchrnul, 0x1cfeffffe, 0),
	K(bpf_strcmp, 0x1cfeffffe, 0),
	K(bpf_strcspn, 0x1cfeffffe, 0),
	U(bpf_stream_vprintk_impl, 0x1cfeffffe),
	K(bpf_strlen, 0x1cfeffffe, 0),
	K(bpf_strnchr, 0x1cfeffffe, 0),
	K(bpf_strnlen, 0x1cfeffffe, 0),
	K(bpf_strnstr, 0x1cfeffffe, 0),
	K(bpf_strrchr, 0x1cfeffffe, 0),
	K(bpf_strspn, 0x1cfeffffe, 0),
	K(bpf_strstr, 0x1cfeffffe, 0),
	K(bpf_task_acquire, 0x08e84a3e8, KF_ACQUIRE | KF_RCU | KF_RET_NULL),
	K(bpf_task_from_pid, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL),
	K(bpf_task_from_vpid, 0x08e84a3e8, KF_ACQUIRE | KF_RET_NULL),
	K(bpf_task_get_cgroup1, 0x08e84a3e8, KF_ACQUIRE | KF_RCU | KF_RET_NULL),
	K(bpf_task_release, 0x08e84a3e8, KF_RELEASE),
	K(bpf_task_under_cgroup, 0x08e84a3e8, KF_RCU),
	U(bpf_task_work_schedule_resume_impl, 0x1cfeffffe),
	U(bpf_task_work_schedule_signal_impl, 0x1cfeffffe),
	K(bpf_throw, 0x08e84a3e8, 0),
	U(bpf_wq_init, 0x1cfeffffe),
	U(bpf_wq_set_callback_impl, 0x1cfeffffe),
	U(bpf_wq_start, 0x1cfeffffe),
	K(bpf_xdp_ct_alloc, 0x000000048, KF_ACQUIRE | KF_RET_NULL),
	K(bpf_xdp_ct_lookup, 0x000000048, KF_ACQUIRE | KF_RET_NULL),
	U(bpf_xdp_get_xfrm_state, 0x000000040),
	U(bpf_xdp_metadata_rx_hash, 0x1cfeffffe),
	U(bpf_xdp_metadata_rx_timestamp, 0x1cfeffffe),
	U(bpf_xdp_metadata_rx_vlan_tag, 0x1cfeffffe),
	U(bpf_xdp_pull_data, 0x000000040),
	U(bpf_xdp_xfrm_state_release, 0x000000040),
	U(css_rstat_flush, 0x0040000a0),
	U(css_rstat_updated, 0x0040000a0),
	U(cubictcp_acked, 0x008000000),
	U(cubictcp_cong_avoid, 0x008000000),
	U(cubictcp_cwnd_event, 0x008000000),
	U(cubictcp_init, 0x008000000),
	U(cubictcp_recalc_ssthresh, 0x008000000),
	U(cubictcp_state, 0x008000000),
	K(tcp_cong_avoid_ai, 0x008000000, 0),
	K(tcp_reno_cong_avoid, 0x008000000, 0),
	K(tcp_reno_ssthresh, 0x008000000, 0),
	K(tcp_reno_undo_cwnd, 0x008000000, 0),
	K(tcp_slow_start, 0x008000000, 0),
};

static int cmp(const void *key, const void *row)
{
	return strcmp((const char *)key, ((const struct rb_kfunc *)row)->name);
}

const struct rb_kfunc *rb_kfunc_row(const char *name)
{
	if (!name)
		return NULL;
	return bsearch(name, rows, ARRAY_SIZE(rows), sizeof(rows[0]), cmp);
}

const struct rb_kfunc *rb_kfunc_rows(int *n)
{
	*n = (int)(ARRAY_SIZE(rows));
	return rows;
}
