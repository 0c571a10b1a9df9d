/* helpers.c — what execcheck's concrete machine does for a helper call:
 * results any run of the helper could give, within what its Linux 6.18
 * prototype declares (the engine models the same prototypes in
 * engine/helpers.c). Memory a helper writes gets random bytes. Helpers
 * with no model here stop the run (counted as aborted, never checked). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "exec/machine.h"
#include "util/array_size.h"

enum hkind {
	H_NONE = 0,
	H_ANY,    /* any integer */
	H_U32,    /* get_prandom_u32 */
	H_CPU,    /* get_smp_processor_id: [0, nr_cpu_ids - 1], 2 CPUs as the engine assumes */
	H_ERR,    /* 0 or a negative errno */
	H_VOID,   /* no result (r0 not readable) */
	H_LOOKUP, /* map value or NULL */
	H_WRITE,  /* writes [arg a, +arg b) then 0 or -errno */
	H_STR,    /* writes [arg a, +arg b), returns length in [0, size] or -errno */
	H_FIXED,  /* writes b bytes at arg a, then 0 or -errno */
	H_NULL,   /* socket lookups: NULL (no socket) */
	H_RINGBUF,
	H_STORAGE, /* get_local_storage: the map's value */
	H_TAILCALL,
};

struct hmodel {
	int id;
	uint8_t kind, a, b;
};

static const struct hmodel models[] = {
	{BPF_FUNC_map_lookup_elem, H_LOOKUP, 0, 0},
	{BPF_FUNC_map_update_elem, H_ERR, 0, 0},
	{BPF_FUNC_map_delete_elem, H_ERR, 0, 0},
	{BPF_FUNC_probe_read, H_WRITE, 1, 2},
	{BPF_FUNC_probe_read_user, H_WRITE, 1, 2},
	{BPF_FUNC_probe_read_kernel, H_WRITE, 1, 2},
	{BPF_FUNC_probe_read_str, H_STR, 1, 2},
	{BPF_FUNC_probe_read_user_str, H_STR, 1, 2},
	{BPF_FUNC_probe_read_kernel_str, H_STR, 1, 2},
	{BPF_FUNC_get_stack, H_STR, 2, 3},
	{BPF_FUNC_get_current_comm, H_WRITE, 1, 2},
	{BPF_FUNC_skb_load_bytes, H_WRITE, 3, 4},
	{BPF_FUNC_skb_load_bytes_relative, H_WRITE, 3, 4},
	{BPF_FUNC_perf_event_read_value, H_WRITE, 3, 4},
	{BPF_FUNC_fib_lookup, H_WRITE, 2, 3},
	{BPF_FUNC_get_ns_current_pid_tgid, H_WRITE, 3, 4},
	{BPF_FUNC_skb_get_tunnel_key, H_WRITE, 2, 3},
	{BPF_FUNC_skb_get_tunnel_opt, H_WRITE, 2, 3},
	{BPF_FUNC_check_mtu, H_FIXED, 3, 4},
	{BPF_FUNC_get_prandom_u32, H_U32, 0, 0},
	{BPF_FUNC_get_smp_processor_id, H_CPU, 0, 0},
	{BPF_FUNC_ktime_get_ns, H_ANY, 0, 0},
	{BPF_FUNC_ktime_get_boot_ns, H_ANY, 0, 0},
	{BPF_FUNC_ktime_get_coarse_ns, H_ANY, 0, 0},
	{BPF_FUNC_ktime_get_tai_ns, H_ANY, 0, 0},
	{BPF_FUNC_jiffies64, H_ANY, 0, 0},
	{BPF_FUNC_get_current_pid_tgid, H_ANY, 0, 0},
	{BPF_FUNC_get_current_uid_gid, H_ANY, 0, 0},
	{BPF_FUNC_get_current_cgroup_id, H_ANY, 0, 0},
	{BPF_FUNC_get_current_ancestor_cgroup_id, H_ANY, 0, 0},
	{BPF_FUNC_get_current_task, H_ANY, 0, 0},
	{BPF_FUNC_get_current_task_btf, H_ANY, 0, 0}, /* a BTF pointer: no region (see base_unmodelled) */
	{BPF_FUNC_get_numa_node_id, H_ANY, 0, 0},
	{BPF_FUNC_get_socket_cookie, H_ANY, 0, 0},
	{BPF_FUNC_get_socket_uid, H_ANY, 0, 0},
	{BPF_FUNC_get_hash_recalc, H_ANY, 0, 0},
	{BPF_FUNC_get_cgroup_classid, H_ANY, 0, 0},
	{BPF_FUNC_get_route_realm, H_ANY, 0, 0},
	{BPF_FUNC_skb_cgroup_id, H_ANY, 0, 0},
	{BPF_FUNC_get_func_ip, H_ANY, 0, 0},
	{BPF_FUNC_get_attach_cookie, H_ANY, 0, 0},
	{BPF_FUNC_trace_printk, H_ANY, 0, 0},
	{BPF_FUNC_trace_vprintk, H_ANY, 0, 0},
	{BPF_FUNC_perf_event_output, H_ERR, 0, 0},
	{BPF_FUNC_perf_event_read, H_ANY, 0, 0},
	{BPF_FUNC_ringbuf_output, H_ERR, 0, 0},
	{BPF_FUNC_ringbuf_query, H_ANY, 0, 0},
	{BPF_FUNC_ringbuf_reserve, H_RINGBUF, 0, 0},
	{BPF_FUNC_ringbuf_submit, H_VOID, 0, 0},
	{BPF_FUNC_ringbuf_discard, H_VOID, 0, 0},
	{BPF_FUNC_get_stackid, H_ANY, 0, 0},
	{BPF_FUNC_send_signal, H_ERR, 0, 0},
	{BPF_FUNC_send_signal_thread, H_ERR, 0, 0},
	{BPF_FUNC_current_task_under_cgroup, H_ANY, 0, 0},
	{BPF_FUNC_redirect, H_ANY, 0, 0},
	{BPF_FUNC_redirect_map, H_ANY, 0, 0},
	{BPF_FUNC_redirect_neigh, H_ANY, 0, 0},
	{BPF_FUNC_clone_redirect, H_ERR, 0, 0},
	{BPF_FUNC_csum_diff, H_ANY, 0, 0},
	{BPF_FUNC_csum_update, H_ANY, 0, 0},
	{BPF_FUNC_set_hash_invalid, H_ANY, 0, 0},
	{BPF_FUNC_set_hash, H_ANY, 0, 0},
	{BPF_FUNC_l3_csum_replace, H_ERR, 0, 0},
	{BPF_FUNC_l4_csum_replace, H_ERR, 0, 0},
	/* helpers that may change the packet fail here, so it stays as it is */
	{BPF_FUNC_skb_store_bytes, H_ERR, 0, 0},
	{BPF_FUNC_skb_vlan_push, H_ERR, 0, 0},
	{BPF_FUNC_skb_vlan_pop, H_ERR, 0, 0},
	{BPF_FUNC_skb_change_proto, H_ERR, 0, 0},
	{BPF_FUNC_skb_change_type, H_ERR, 0, 0},
	{BPF_FUNC_skb_change_tail, H_ERR, 0, 0},
	{BPF_FUNC_skb_change_head, H_ERR, 0, 0},
	{BPF_FUNC_skb_pull_data, H_ERR, 0, 0},
	{BPF_FUNC_skb_adjust_room, H_ERR, 0, 0},
	{BPF_FUNC_xdp_adjust_head, H_ERR, 0, 0},
	{BPF_FUNC_xdp_adjust_meta, H_ERR, 0, 0},
	{BPF_FUNC_xdp_adjust_tail, H_ERR, 0, 0},
	{BPF_FUNC_skb_set_tunnel_key, H_ERR, 0, 0},
	{BPF_FUNC_skb_set_tunnel_opt, H_ERR, 0, 0},
	{BPF_FUNC_sk_lookup_tcp, H_NULL, 0, 0},
	{BPF_FUNC_sk_lookup_udp, H_NULL, 0, 0},
	{BPF_FUNC_get_local_storage, H_STORAGE, 0, 0},
	{BPF_FUNC_sk_storage_get, H_LOOKUP, 0, 0},
	{BPF_FUNC_tail_call, H_TAILCALL, 0, 0},
	{BPF_FUNC_strtol, H_FIXED, 4, 8},
	{BPF_FUNC_strtoul, H_FIXED, 4, 8},
};

static const struct hmodel *find(int32_t id)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (models[i].id == id)
			return &models[i];
	return NULL;
}

static uint64_t err_or_zero(struct xm *m)
{
	static const int errs[] = {EINVAL, ENOENT, EFAULT, E2BIG, ENOMEM, EEXIST};
	uint64_t r = xm_rand(m);
	return (r & 1) ? 0 : (uint64_t)-(int64_t)errs[(r >> 1) % 6];
}

static int map_of(struct xm *m, const struct cval *p)
{
	if (p->rg < 0 || m->rg[p->rg].kind != XR_MAPPTR)
		return -1;
	return m->rg[p->rg].idx;
}

static int write_mem(struct xm *m, const struct cval *p, uint64_t size)
{
	if (size == 0)
		return XS_NEXT;
	if (size > (1u << 20))
		return XS_FAULT;
	int rc = xm_mem_check(m, p, 0, (int)size, true);
	if (rc)
		return rc;
	const struct xregion *r = &m->rg[p->rg];
	xm_mem_write_random(m, p->rg, (int64_t)(p->v - r->base), size);
	return XS_NEXT;
}

static int lookup(struct xm *m, const struct hmodel *h, struct cval *r0)
{
	struct cval *regs = m->fr[m->cur].regs;
	int mi = map_of(m, &regs[1]);
	if (mi < 0)
		return XS_ABORT;
	const struct rb_map *mp = &m->obj->maps[mi];
	if (mp->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || mp->type == BPF_MAP_TYPE_HASH_OF_MAPS ||
	    mp->type == BPF_MAP_TYPE_SOCKMAP || mp->type == BPF_MAP_TYPE_SOCKHASH || m->mapval_rg[mi] < 0) {
		snprintf(m->why, sizeof(m->why), "lookup in map type %u", mp->type);
		return XS_ABORT;
	}
	*r0 = (struct cval){0, -1, 0};
	const struct xregion *v = &m->rg[m->mapval_rg[mi]];
	if (h->id == BPF_FUNC_map_lookup_elem) {
		/* the key is read: key_size bytes must be there */
		int rc = xm_mem_check(m, &regs[2], 0, (int)mp->key_size, false);
		if (rc)
			return rc;
		bool array = mp->type == BPF_MAP_TYPE_ARRAY || mp->type == BPF_MAP_TYPE_PERCPU_ARRAY ||
			     mp->global_data;
		if (array) {
			const struct xregion *kr = &m->rg[regs[2].rg];
			uint32_t key = 0;
			memcpy(&key, kr->mem + (int64_t)(regs[2].v - kr->base) - kr->lo, 4);
			if (key < mp->max_entries)
				*r0 = (struct cval){v->base, (int16_t)m->mapval_rg[mi], 0};
			return XS_NEXT;
		}
	}
	if (xm_rand(m) % 3)
		*r0 = (struct cval){v->base, (int16_t)m->mapval_rg[mi], 0};
	return XS_NEXT;
}

int xm_helper(struct xm *m, int32_t id)
{
	const struct hmodel *h = find(id);
	struct cval *regs = m->fr[m->cur].regs;
	struct cval r0 = {0, -1, 0};
	int rc = XS_NEXT;
	if (!h) {
		snprintf(m->why, sizeof(m->why), "helper %d has no model", id);
		return XS_ABORT;
	}
	switch (h->kind) {
	case H_ANY: r0.v = xm_rand_value(m); break;
	case H_U32: r0.v = (uint32_t)xm_rand(m); break;
	case H_CPU: r0.v = xm_rand(m) & 1; break;
	case H_ERR: r0.v = err_or_zero(m); break;
	case H_VOID: r0.v = xm_rand(m); break;
	case H_TAILCALL: r0.v = xm_rand(m); break; /* the tail call fails: the program goes on */
	case H_NULL: break;
	case H_LOOKUP:
		rc = lookup(m, h, &r0);
		if (rc == XS_ABORT && !m->why[0])
			snprintf(m->why, sizeof(m->why), "lookup without a map");
		break;
	case H_STORAGE: {
		int mi = map_of(m, &regs[1]);
		if (mi < 0 || m->mapval_rg[mi] < 0) {
			snprintf(m->why, sizeof(m->why), "local storage without a value");
			return XS_ABORT;
		}
		r0 = (struct cval){m->rg[m->mapval_rg[mi]].base, (int16_t)m->mapval_rg[mi], 0};
		break;
	}
	case H_WRITE:
	case H_STR: {
		uint64_t size = regs[h->b].v;
		rc = write_mem(m, &regs[h->a], size);
		if (h->kind == H_STR) {
			uint64_t r = xm_rand(m);
			r0.v = (r & 3) ? (size ? (r >> 2) % (size + 1) : 0) : (uint64_t)-(int64_t)EFAULT;
		} else {
			r0.v = err_or_zero(m);
		}
		break;
	}
	case H_FIXED:
		rc = write_mem(m, &regs[h->a], h->b);
		r0.v = err_or_zero(m);
		break;
	case H_RINGBUF: {
		uint64_t size = regs[2].v;
		if (xm_rand(m) % 4 == 0 || size > (1u << 16))
			break; /* NULL */
		int rg = xm_new_region(m, XR_MEM, 0, 0, (int64_t)size);
		if (rg < 0) {
			snprintf(m->why, sizeof(m->why), "too many ring buffer reservations");
			return XS_ABORT;
		}
		r0 = (struct cval){m->rg[rg].base, (int16_t)rg, 0};
		break;
	}
	}
	if (rc == XS_FAULT && !m->why[0])
		snprintf(m->why, sizeof(m->why), "helper %d: memory argument out of bounds", id);
	if (rc)
		return rc;
	regs[0] = r0;
	for (int i = 1; i <= 5; i++)
		regs[i] = (struct cval){xm_rand(m), -1, 0};
	return XS_NEXT;
}
