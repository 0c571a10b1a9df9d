/* helper_sets72.c — the helper sets of the 7.2 profile (profile.h
 * helper_sets_72): which helpers each program type may call in Debian's
 * Linux 7.2.13 (linux-image-7.2.13+deb14-cloud-amd64), measured inside
 * that kernel (QEMU TCG guest, 2026-12-06) the way the 6.18 sets of
 * helper_sets.c were (the full sets by name in helper_set_lists.h): one `call id; r0 = 0; exit`
 * program per helper id 1..255, loaded with the program type, attach
 * type and (trampoline, LSM, iterator, tp_btf programs) an attach target
 * of 7.2.13's vmlinux BTF; "cannot use helper" or "invalid/unknown func"
 * in the log means unavailable. `rangebench helpers` run in the guest
 * gave the differences from the 6.18 sets for the other types.
 *
 * Where 7.2.13 and the 6.18 tables differ:
 * - trampoline programs (fentry, fexit, fmod_ret) and LSM programs: the
 *   running 6.18.44 refuses them here (lockdown), so the engine had no
 *   set; 7.2.13's were measured on bpf_fentry_test1 (fentry, fexit),
 *   bpf_modify_return_test (fmod_ret), and the LSM hooks file_open,
 *   socket_bind, bprm_committed_creds (sleepable or not: one set; 7.2
 *   bpf_lsm_func_proto), and lsm_cgroup on socket_bind;
 * - tp_btf adds bpf_get_func_arg#183 and bpf_get_func_arg_cnt#185
 *   (7.2 tracing_prog_func_proto gives them to raw tracepoints);
 * - cgroup_sock (attach 0, i.e. sock_create) adds bpf_setsockopt#49 and
 *   bpf_getsockopt#57 (7.2 sock_filter_func_proto,
 *   bpf_sock_create_setsockopt_proto); cgroup_sock_addr's unix
 *   getpeername/getsockname (attach types 52, 53) lose them (7.2
 *   sock_addr_func_proto lists neither);
 * - lwt_seg6local: the seg6 helpers #74-#76 are there (the cloud image
 *   has CONFIG_IPV6_SEG6_BPF) and bpf_skb_pull_data#39 is not (7.2
 *   lwt_seg6local_func_proto);
 * - bpf_probe_write_user#36 is available to kprobe, tracepoint, raw
 *   tracepoint, perf_event, syscall and tracing programs: the guest runs
 *   without lockdown, 6.18.44 here with lockdown=integrity refuses it.
 * Every other (program type, attach type) pair measured equal to 6.18. */
#include "engine/helper_sets72.h"

#include <linux/bpf.h>
#include <stdbool.h>
#include <string.h>

#include "engine/helper_set_lists.h"
#include "engine/helper_sets.h"
#include "engine/prog_types.h"
#include "util/array_size.h"

/* full sets, 7.2.13 as measured (helper_set_lists.h) */
static const uint64_t hs72_trampoline[4] = RB_HELPER_BITS(RB_HS72_TRAMPOLINE);
static const uint64_t hs72_lsm[4] = RB_HELPER_BITS(RB_HS72_LSM);
static const uint64_t hs72_lsm_cgroup[4] = RB_HELPER_BITS(RB_HS72_LSM_CGROUP);
static const uint64_t hs72_tp_btf[4] = RB_HELPER_BITS(RB_HS72_TP_BTF);

/* differences from a 6.18 set: helper ids added, helper ids removed
 * (0-terminated) */
struct delta72 {
	uint32_t type;
	int attach; /* -1: every attach type */
	int32_t add[4], del[4];
};

static const struct delta72 deltas[] = {
	{BPF_PROG_TYPE_KPROBE, -1, {BPF_FUNC_probe_write_user}, {0}},
	{BPF_PROG_TYPE_TRACEPOINT, -1, {BPF_FUNC_probe_write_user}, {0}},
	{BPF_PROG_TYPE_RAW_TRACEPOINT, -1, {BPF_FUNC_probe_write_user}, {0}},
	{BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, -1, {BPF_FUNC_probe_write_user}, {0}},
	{BPF_PROG_TYPE_PERF_EVENT, -1, {BPF_FUNC_probe_write_user}, {0}},
	{BPF_PROG_TYPE_SYSCALL, -1, {BPF_FUNC_probe_write_user}, {0}},
	{BPF_PROG_TYPE_CGROUP_SOCK, 0, {BPF_FUNC_setsockopt, BPF_FUNC_getsockopt}, {0}},
	{BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, {BPF_FUNC_setsockopt, BPF_FUNC_getsockopt}, {0}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 52 /* BPF_CGROUP_UNIX_GETPEERNAME */, {0},
	 {BPF_FUNC_setsockopt, BPF_FUNC_getsockopt}},
	{BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 53 /* BPF_CGROUP_UNIX_GETSOCKNAME */, {0},
	 {BPF_FUNC_setsockopt, BPF_FUNC_getsockopt}},
	{BPF_PROG_TYPE_LWT_SEG6LOCAL, -1, {BPF_FUNC_lwt_seg6_store_bytes, BPF_FUNC_lwt_seg6_adjust_srh, BPF_FUNC_lwt_seg6_action},
	 {BPF_FUNC_skb_pull_data}},
};

static void set_bit(uint64_t set[4], int32_t id, bool on)
{
	if (id <= 0 || id >= 256)
		return;
	if (on)
		set[id / 64] |= 1ull << (id % 64);
	else
		set[id / 64] &= ~(1ull << (id % 64));
}

/* 6.18's set plus and minus a row's ids, into buf */
static const uint64_t *apply(const uint64_t *base, const int32_t add[4], const int32_t del[4], uint64_t buf[4])
{
	if (!base)
		return NULL;
	memcpy(buf, base, 4 * sizeof(uint64_t));
	for (int k = 0; k < 4; k++) {
		set_bit(buf, add[k], true);
		set_bit(buf, del[k], false);
	}
	return buf;
}

/* 7.2 kernel/bpf/bpf_lsm.c bpf_lsm_func_proto: lsm_cgroup programs on
 * the hooks of bpf_lsm_locked_sockopt_hooks (sock_graft, inet_csk_clone,
 * inet_conn_established) and bpf_lsm_unlocked_sockopt_hooks
 * (socket_post_create, socket_socketpair) may call bpf_setsockopt and
 * bpf_getsockopt on a socket (the set measured on socket_bind has
 * neither) */
static bool sockopt_hook(const char *target)
{
	static const char *const hooks[] = {"sock_graft", "inet_csk_clone", "inet_conn_established",
					    "socket_post_create", "socket_socketpair"};
	if (!target)
		return false;
	if (!strncmp(target, "bpf_lsm_", 8))
		target += 8;
	for (size_t i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!strcmp(target, hooks[i]))
			return true;
	return false;
}

const uint64_t *rb_helper_set_72(const struct rb_prog_type *pt, uint32_t at, const char *target, uint64_t buf[4])
{
	static const int32_t write_user[4] = {BPF_FUNC_probe_write_user}, none[4] = {0};
	if (pt->type == BPF_PROG_TYPE_TRACING) {
		switch (at) {
		case BPF_TRACE_FENTRY:
		case BPF_TRACE_FEXIT:
		case BPF_MODIFY_RETURN:
			return hs72_trampoline;
		case BPF_TRACE_ITER:
			/* measured on the task and bpf_map_elem targets: 6.18's
			 * iterator sets (tcp and unix add the sockopt helpers)
			 * plus bpf_probe_write_user */
			return apply(rb_tracing_helper_set(at, target), write_user, none, buf);
		case BPF_TRACE_RAW_TP:
			return hs72_tp_btf;
		default:
			return NULL;
		}
	}
	if (pt->type == BPF_PROG_TYPE_LSM && at == BPF_LSM_CGROUP && sockopt_hook(target)) {
		static const int32_t sockopt[4] = {BPF_FUNC_setsockopt, BPF_FUNC_getsockopt};
		return apply(hs72_lsm_cgroup, sockopt, none, buf);
	}
	if (pt->type == BPF_PROG_TYPE_LSM)
		return at == BPF_LSM_CGROUP ? hs72_lsm_cgroup : hs72_lsm;
	for (size_t i = 0; i < ARRAY_SIZE(deltas); i++) {
		const struct delta72 *d = &deltas[i];
		if (d->type != pt->type || (d->attach >= 0 && (uint32_t)d->attach != at))
			continue;
		return apply(rb_prog_helper_set(pt, at), d->add, d->del, buf);
	}
	return NULL;
}
