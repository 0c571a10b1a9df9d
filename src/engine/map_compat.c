/* map_compat.c — which helpers may take which maps (Linux 6.18
 * check_map_func_compatibility) as two tables: the map types that only
 * some helpers may take (the kernel's first switch, on the map type) and
 * the helpers that take only some map types (its second switch, on the
 * helper). A map and a helper are compatible when neither table says
 * otherwise. Adding a special map or helper: one row (plus a test).
 * Rows of 6.18 whose helpers the helper table does not model yet
 * (inode/task/cgroup storage, arena, struct_ops) are not here: those
 * helpers end as "unsupported" first. */
#include <linux/bpf.h>
#include <stddef.h>

#include "engine/map_compat.h"
#include "util/array_size.h"

#define F(name) BPF_FUNC_##name
#define M(name) BPF_MAP_TYPE_##name

/* these map types go only to these helpers (lists end at 0) */
static const struct {
	uint32_t map_type;
	int32_t helpers[8];
} map_rows[] = {
	{M(PROG_ARRAY), {F(tail_call)}},
	{M(PERF_EVENT_ARRAY),
	 {F(perf_event_read), F(perf_event_output), F(perf_event_read_value), F(skb_output), F(xdp_output)}},
	{M(RINGBUF),
	 {F(ringbuf_output), F(ringbuf_reserve), F(ringbuf_query), F(ringbuf_reserve_dynptr),
	  F(ringbuf_submit_dynptr), F(ringbuf_discard_dynptr)}},
	{M(USER_RINGBUF), {F(user_ringbuf_drain)}},
	{M(STACK_TRACE), {F(get_stackid)}},
	{M(CGROUP_ARRAY), {F(skb_under_cgroup), F(current_task_under_cgroup)}},
	{M(CGROUP_STORAGE), {F(get_local_storage)}},
	{M(PERCPU_CGROUP_STORAGE), {F(get_local_storage)}},
	{M(DEVMAP), {F(redirect_map), F(map_lookup_elem), F(map_update_elem), F(map_delete_elem)}},
	{M(DEVMAP_HASH), {F(redirect_map), F(map_lookup_elem), F(map_update_elem), F(map_delete_elem)}},
	{M(CPUMAP), {F(redirect_map), F(map_lookup_elem), F(map_update_elem), F(map_delete_elem)}},
	{M(XSKMAP), {F(redirect_map), F(map_lookup_elem)}},
	{M(SOCKMAP),
	 {F(sk_redirect_map), F(sock_map_update), F(msg_redirect_map), F(sk_select_reuseport),
	  F(map_lookup_elem)}},
	{M(SOCKHASH),
	 {F(sk_redirect_hash), F(sock_hash_update), F(msg_redirect_hash), F(sk_select_reuseport),
	  F(map_lookup_elem)}},
	{M(REUSEPORT_SOCKARRAY), {F(sk_select_reuseport)}},
	{M(SK_STORAGE), {F(sk_storage_get), F(sk_storage_delete)}},
	{M(TASK_STORAGE), {F(task_storage_get), F(task_storage_delete)}},
	{32 /* CGRP_STORAGE (Linux 6.2) */, {210 /* cgrp_storage_get */, 211 /* cgrp_storage_delete */}},
	{M(QUEUE), {F(map_peek_elem), F(map_pop_elem), F(map_push_elem)}},
	{M(STACK), {F(map_peek_elem), F(map_pop_elem), F(map_push_elem)}},
	{M(BLOOM_FILTER), {F(map_peek_elem), F(map_push_elem)}},
};

/* these helpers take only these map types (lists end at 0) */
static const struct {
	int32_t helper;
	uint32_t map_types[4];
} helper_rows[] = {
	{F(tail_call), {M(PROG_ARRAY)}},
	{F(perf_event_read), {M(PERF_EVENT_ARRAY)}},
	{F(perf_event_output), {M(PERF_EVENT_ARRAY)}},
	{F(perf_event_read_value), {M(PERF_EVENT_ARRAY)}},
	{F(skb_output), {M(PERF_EVENT_ARRAY)}},
	{F(xdp_output), {M(PERF_EVENT_ARRAY)}},
	{F(ringbuf_output), {M(RINGBUF)}},
	{F(ringbuf_reserve), {M(RINGBUF)}},
	{F(ringbuf_query), {M(RINGBUF)}},
	{F(ringbuf_reserve_dynptr), {M(RINGBUF)}},
	{F(user_ringbuf_drain), {M(USER_RINGBUF)}},
	{F(get_stackid), {M(STACK_TRACE)}},
	{F(current_task_under_cgroup), {M(CGROUP_ARRAY)}},
	{F(skb_under_cgroup), {M(CGROUP_ARRAY)}},
	{F(redirect_map), {M(DEVMAP), M(DEVMAP_HASH), M(CPUMAP), M(XSKMAP)}},
	{F(sk_redirect_map), {M(SOCKMAP)}},
	{F(msg_redirect_map), {M(SOCKMAP)}},
	{F(sock_map_update), {M(SOCKMAP)}},
	{F(sk_redirect_hash), {M(SOCKHASH)}},
	{F(msg_redirect_hash), {M(SOCKHASH)}},
	{F(sock_hash_update), {M(SOCKHASH)}},
	{F(get_local_storage), {M(CGROUP_STORAGE), M(PERCPU_CGROUP_STORAGE)}},
	{F(sk_select_reuseport), {M(REUSEPORT_SOCKARRAY), M(SOCKMAP), M(SOCKHASH)}},
	{F(sk_storage_get), {M(SK_STORAGE)}},
	{F(sk_storage_delete), {M(SK_STORAGE)}},
	{F(task_storage_get), {M(TASK_STORAGE)}},
	{F(task_storage_delete), {M(TASK_STORAGE)}},
	{210, {32}},
	{211, {32}},
	{F(map_lookup_percpu_elem), {M(PERCPU_ARRAY), M(PERCPU_HASH), M(LRU_PERCPU_HASH)}},
	{F(map_pop_elem), {M(QUEUE), M(STACK)}},
	{F(map_peek_elem), {M(QUEUE), M(STACK), M(BLOOM_FILTER)}},
	{F(map_push_elem), {M(QUEUE), M(STACK), M(BLOOM_FILTER)}},
};

/* the helper's row, NULL when it takes any map */
static const uint32_t *helper_maps(int32_t helper_id)
{
	for (size_t i = 0; i < ARRAY_SIZE(helper_rows); i++)
		if (helper_rows[i].helper == helper_id)
			return helper_rows[i].map_types;
	return NULL;
}

static bool listed_map(const uint32_t *list, size_t n, uint32_t map_type)
{
	for (size_t i = 0; i < n && list[i]; i++)
		if (list[i] == map_type)
			return true;
	return false;
}

bool rb_map_helper_compatible(uint32_t map_type, int32_t helper_id)
{
	for (size_t i = 0; i < ARRAY_SIZE(map_rows); i++) {
		if (map_rows[i].map_type != map_type)
			continue;
		bool listed = false;
		for (size_t j = 0; j < ARRAY_SIZE(map_rows[i].helpers) && map_rows[i].helpers[j]; j++)
			listed |= map_rows[i].helpers[j] == helper_id;
		if (!listed)
			return false;
	}
	const uint32_t *maps = helper_maps(helper_id);
	return !maps || listed_map(maps, ARRAY_SIZE(helper_rows[0].map_types), map_type);
}

bool rb_helper_takes_sock_map(int32_t helper_id)
{
	const uint32_t *maps = helper_maps(helper_id);
	return maps && (listed_map(maps, ARRAY_SIZE(helper_rows[0].map_types), M(SOCKMAP)) ||
			listed_map(maps, ARRAY_SIZE(helper_rows[0].map_types), M(SOCKHASH)));
}
