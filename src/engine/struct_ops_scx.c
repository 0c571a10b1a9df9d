/* struct_ops_scx.c — sched_ext's struct_ops types in the 7.2 profile
 * (profile.h sched_ext), following Linux 7.2.13 kernel/sched/ext/ext.c:
 * bpf_sched_ext_ops and bpf_sched_ext_ops_cid share bpf_scx_verifier_ops
 * (get_func_proto = bpf_base_func_proto, bpf_scx_is_valid_access =
 * btf_ctx_access on reads, bpf_scx_btf_struct_access), bpf_scx_check_member
 * (which members may be sleepable) and the per-op kfunc allow table
 * scx_kf_allow_flags[] used by scx_kfunc_context_filter (kfunc_table72.c).
 *
 * The members are those with a cfi stub (__bpf_ops_sched_ext_ops and
 * __bpf_ops_sched_ext_ops_cid); the stub named is the function the kernel
 * finds through kallsyms for that member (bpf_struct_ops_desc_init reads
 * its parameter names for "__nullable" / "__ref"). The cid form reuses the
 * cpu form's stubs except set_cmask. Debian's 7.2.13 cloud image has
 * CONFIG_EXT_GROUP_SCHED and CONFIG_EXT_SUB_SCHED, so the cgroup and sub
 * members are here. The prototypes (the context) come from BTF. */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <string.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/struct_ops.h"
#include "engine/struct_ops_scx.h"
#include "util/array_size.h"

/* 7.2.13 kernel/bpf/helpers.c bpf_base_func_proto for a program loaded
 * with CAP_BPF and CAP_PERFMON (root): the helpers by name, so that a
 * review reads them against the function */
static const int base_helpers[] = {
	/* every program */
	BPF_FUNC_map_lookup_elem, BPF_FUNC_map_update_elem, BPF_FUNC_map_delete_elem, BPF_FUNC_map_push_elem,
	BPF_FUNC_map_pop_elem, BPF_FUNC_map_peek_elem, BPF_FUNC_map_lookup_percpu_elem, BPF_FUNC_get_prandom_u32,
	BPF_FUNC_get_smp_processor_id, BPF_FUNC_get_numa_node_id, BPF_FUNC_tail_call, BPF_FUNC_ktime_get_ns,
	BPF_FUNC_ktime_get_boot_ns, BPF_FUNC_ktime_get_tai_ns, BPF_FUNC_ringbuf_output, BPF_FUNC_ringbuf_reserve,
	BPF_FUNC_ringbuf_submit, BPF_FUNC_ringbuf_discard, BPF_FUNC_ringbuf_query, BPF_FUNC_strncmp,
	BPF_FUNC_strtol, BPF_FUNC_strtoul, BPF_FUNC_get_current_pid_tgid, BPF_FUNC_get_ns_current_pid_tgid,
	BPF_FUNC_get_current_uid_gid,
	/* CAP_BPF */
	BPF_FUNC_spin_lock, BPF_FUNC_spin_unlock, BPF_FUNC_jiffies64, BPF_FUNC_per_cpu_ptr, BPF_FUNC_this_cpu_ptr,
	BPF_FUNC_timer_init, BPF_FUNC_timer_set_callback, BPF_FUNC_timer_start, BPF_FUNC_timer_cancel,
	BPF_FUNC_kptr_xchg, BPF_FUNC_for_each_map_elem, BPF_FUNC_loop, BPF_FUNC_user_ringbuf_drain,
	BPF_FUNC_ringbuf_reserve_dynptr, BPF_FUNC_ringbuf_submit_dynptr, BPF_FUNC_ringbuf_discard_dynptr,
	BPF_FUNC_dynptr_from_mem, BPF_FUNC_dynptr_read, BPF_FUNC_dynptr_write, BPF_FUNC_dynptr_data,
	210 /* cgrp_storage_get: newer than the system uapi header */, 211 /* cgrp_storage_delete */,
	BPF_FUNC_get_current_cgroup_id,
	BPF_FUNC_get_current_ancestor_cgroup_id, BPF_FUNC_current_task_under_cgroup, BPF_FUNC_get_cgroup_classid,
	BPF_FUNC_task_storage_get, BPF_FUNC_task_storage_delete,
	/* CAP_PERFMON */
	BPF_FUNC_trace_printk, BPF_FUNC_get_current_task, BPF_FUNC_get_current_task_btf, BPF_FUNC_get_current_comm,
	BPF_FUNC_probe_read_user, BPF_FUNC_probe_read_kernel, BPF_FUNC_probe_read_user_str,
	BPF_FUNC_probe_read_kernel_str, BPF_FUNC_copy_from_user, BPF_FUNC_copy_from_user_task,
	BPF_FUNC_snprintf_btf, BPF_FUNC_snprintf, BPF_FUNC_task_pt_regs, BPF_FUNC_trace_vprintk,
	BPF_FUNC_perf_event_read_value, BPF_FUNC_perf_event_read, BPF_FUNC_send_signal, BPF_FUNC_send_signal_thread,
	BPF_FUNC_get_task_stack, BPF_FUNC_get_branch_snapshot, BPF_FUNC_find_vma,
};

/* the base set as a bitmap (built once per call: 4 words) */
static const uint64_t *base_set(uint64_t buf[4])
{
	memset(buf, 0, 4 * sizeof(uint64_t));
	for (size_t i = 0; i < ARRAY_SIZE(base_helpers); i++)
		buf[base_helpers[i] / 64] |= 1ull << (base_helpers[i] % 64);
	return buf;
}

/* scx_kf_allow_flags[] groups (7.2.13 enum scx_kf_allow_flags) */
#define UNL RB_SCX_ALLOW_UNLOCKED
#define SEL (RB_SCX_ALLOW_SELECT_CPU | RB_SCX_ALLOW_ENQUEUE)
#define DSP (RB_SCX_ALLOW_ENQUEUE | RB_SCX_ALLOW_DISPATCH)

/* {member, stub, helpers (NULL: the type's), sleepable (bpf_scx_check_member), kfunc groups} */
#define M(m, stub, sl, kf) {#m, stub, NULL, sl, kf}
/* the members both forms have, at the same offsets (so the same sleepable
 * members and groups: check_member and the filter index by offset) */
#define SCX_SHARED_MEMBERS                                                                                         \
	M(enqueue, "sched_ext_ops__enqueue", false, SEL), M(dequeue, "sched_ext_ops__dequeue", false, 0),          \
	M(dispatch, "sched_ext_ops__dispatch", false, DSP), M(tick, "sched_ext_ops__tick", false, 0),              \
	M(runnable, "sched_ext_ops__runnable", false, 0), M(running, "sched_ext_ops__running", false, 0),          \
	M(stopping, "sched_ext_ops__stopping", false, 0), M(quiescent, "sched_ext_ops__quiescent", false, 0),      \
	M(yield, "sched_ext_ops__yield", false, 0),                                                                 \
	M(core_sched_before, "sched_ext_ops__core_sched_before", false, 0),                                         \
	M(set_weight, "sched_ext_ops__set_weight", false, 0), M(update_idle, "sched_ext_ops__update_idle", false, 0), \
	M(init_task, "sched_ext_ops__init_task", true, UNL), M(exit_task, "sched_ext_ops__exit_task", false, 0),    \
	M(enable, "sched_ext_ops__enable", false, 0), M(disable, "sched_ext_ops__disable", false, 0),              \
	M(cgroup_init, "sched_ext_ops__cgroup_init", true, UNL),                                                    \
	M(cgroup_exit, "sched_ext_ops__cgroup_exit", true, UNL),                                                    \
	M(cgroup_prep_move, "sched_ext_ops__cgroup_prep_move", true, UNL),                                          \
	M(cgroup_move, "sched_ext_ops__cgroup_move", false, 0),                                                     \
	M(cgroup_cancel_move, "sched_ext_ops__cgroup_cancel_move", false, UNL),                                     \
	M(cgroup_set_weight, "sched_ext_ops__cgroup_set_weight", false, UNL),                                       \
	M(cgroup_set_bandwidth, "sched_ext_ops__cgroup_set_bandwidth", false, UNL),                                 \
	M(cgroup_set_idle, "sched_ext_ops__cgroup_set_idle", false, UNL),                                           \
	M(sub_attach, "sched_ext_ops__sub_attach", true, UNL), M(sub_detach, "sched_ext_ops__sub_detach", true, UNL), \
	M(init, "sched_ext_ops__init", true, UNL | RB_SCX_ALLOW_INIT), M(exit, "sched_ext_ops__exit", true, UNL),   \
	M(dump, "sched_ext_ops__dump", false, UNL), M(dump_task, "sched_ext_ops__dump_task", false, 0)

static const struct rb_st_member scx_members[] = {
	SCX_SHARED_MEMBERS,
	M(select_cpu, "sched_ext_ops__select_cpu", false, SEL),
	M(set_cpumask, "sched_ext_ops__set_cpumask", false, 0),
	M(cpu_acquire, "sched_ext_ops__cpu_acquire", false, 0),
	M(cpu_release, "sched_ext_ops__cpu_release", false, RB_SCX_ALLOW_CPU_RELEASE),
	M(cpu_online, "sched_ext_ops__cpu_online", true, UNL),
	M(cpu_offline, "sched_ext_ops__cpu_offline", true, UNL),
	M(dump_cpu, "sched_ext_ops__dump_cpu", false, 0),
};

/* the cid form: renamed members reuse the cpu form's stubs, but set_cmask;
 * no cpu_acquire/cpu_release */
static const struct rb_st_member scx_cid_members[] = {
	SCX_SHARED_MEMBERS,
	M(select_cid, "sched_ext_ops__select_cpu", false, SEL),
	M(set_cmask, "sched_ext_ops_cid__set_cmask", false, 0),
	M(cid_online, "sched_ext_ops__cpu_online", true, UNL),
	M(cid_offline, "sched_ext_ops__cpu_offline", true, UNL),
	M(dump_cid, "sched_ext_ops__dump_cpu", false, 0),
};
#undef M

/* offset and end of a member of struct sname by a dotted path, false when absent */
static bool field_at(struct rb_env *env, const char *path, int *off, int *end)
{
	int sz;
	if (!rb_struct_ops_member_at(env, "task_struct", path, off, &sz))
		return false;
	*end = *off + sz;
	return true;
}

/* 7.2.13 bpf_scx_btf_struct_access: task_struct's scx.slice, scx.dsq_vtime
 * (deprecated, still allowed) and scx.disallow, wholly inside the field */
static int scx_write(struct rb_env *env, int regno, uint32_t struct_id, int off, int size)
{
	static const char *const fields[] = {"scx.slice", "scx.dsq_vtime", "scx.disallow"};
	const char *tname = rb_btf_name(env, struct_id);
	if ((int32_t)struct_id == rb_btf_struct_id(env, "task_struct")) {
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			int fo, fe;
			if (field_at(env, fields[i], &fo, &fe) && off >= fo && off + size <= fe)
				return 0;
		}
	}
	return rb_reject(env, "R%d cannot write into ptr_%s at off=%d size=%d", regno, tname ? tname : "", off, size);
}

#define MEMBERS(a) a, (int)(ARRAY_SIZE(a))

static const struct rb_st_ops scx_types[] = {
	{"sched_ext_ops", MEMBERS(scx_members), NULL, true, NULL, NULL, scx_write, base_set, RB_ST_SCX},
	{"sched_ext_ops_cid", MEMBERS(scx_cid_members), NULL, true, NULL, NULL, scx_write, base_set, RB_ST_SCX_CID},
};

const struct rb_st_ops *rb_struct_ops_scx(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(scx_types); i++)
		if (!strcmp(scx_types[i].name, name))
			return &scx_types[i];
	return NULL;
}
