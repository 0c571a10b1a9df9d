/* map_fixup.c — map sizes that real tools' user space sets at run time.
 *
 * Objects from libbpf-tools and similar leave some map sizes to be set by
 * their loader program (bpf_map__set_max_entries() etc.), so the object
 * alone says 0. The kernel refuses a map with max_entries 0 (and a stack
 * trace map with no key/value size), so we pick what those tools
 * typically pick; each change is flagged in rb_map.fixups. After the open,
 * rb_map_fix_object() applies the size rules the kernel enforces per map
 * type and stands in an inner map for a map-in-map that has none. */
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/open_paths.h"

#define DEFAULT_MAX_ENTRIES 1024u
#define DEFAULT_RINGBUF_BYTES (256u * 1024u)
#define PERF_MAX_STACK_DEPTH 127u /* the kernel's default sysctl kernel.perf_event_max_stack */

uint32_t rb_map_fix_sizes(uint32_t type, uint32_t *key_size, uint32_t *value_size, uint32_t *max_entries,
			  int ncpus)
{
	uint32_t fix = 0;
	switch (type) {
	/* local storage maps must have max_entries 0; struct_ops maps are sized by libbpf */
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case 32: /* BPF_MAP_TYPE_CGRP_STORAGE (Linux 6.2) */
	case BPF_MAP_TYPE_STRUCT_OPS:
		return 0;
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		if (*max_entries == 0) {
			*max_entries = DEFAULT_RINGBUF_BYTES;
			fix |= RB_MAP_FIX_MAX_ENTRIES;
		}
		return fix;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		if (*max_entries == 0) {
			*max_entries = ncpus > 0 ? (uint32_t)ncpus : 1;
			fix |= RB_MAP_FIX_MAX_ENTRIES;
		}
		return fix;
	case BPF_MAP_TYPE_STACK_TRACE:
		if (*key_size == 0) {
			*key_size = 4;
			fix |= RB_MAP_FIX_KEY_SIZE;
		}
		if (*value_size == 0) {
			*value_size = PERF_MAX_STACK_DEPTH * 8;
			fix |= RB_MAP_FIX_VALUE_SIZE;
		}
		break;
	default:
		break;
	}
	if (*max_entries == 0) {
		*max_entries = DEFAULT_MAX_ENTRIES;
		fix |= RB_MAP_FIX_MAX_ENTRIES;
	}
	return fix;
}

const char *rb_section_suffix(const char *sec)
{
	const char *s = strchr(sec, '/');
	return s ? s + 1 : "";
}

/* Sizes the kernel (Linux 6.18 map_alloc_check of each map type) insists
 * on, which loaders set whatever the object says: ring buffers take no
 * key or value and a power-of-two multiple of the page size (libbpf's
 * adjust_ringbuf_sz); the fd arrays (perf event, prog, cgroup) and
 * map-in-map outer maps take 4-byte keys and values. */
static uint32_t fix_kernel_rules(struct rb_map *m)
{
	uint32_t fix = 0;
	switch (m->type) {
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF: {
		if (m->key_size) {
			m->key_size = 0;
			fix |= RB_MAP_FIX_KEY_SIZE;
		}
		if (m->value_size) {
			m->value_size = 0;
			fix |= RB_MAP_FIX_VALUE_SIZE;
		}
		uint32_t sz = 4096;
		while (sz < m->max_entries && sz < (1u << 31))
			sz <<= 1;
		if (sz != m->max_entries) {
			m->max_entries = sz;
			fix |= RB_MAP_FIX_MAX_ENTRIES;
		}
		break;
	}
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		if (m->type != BPF_MAP_TYPE_HASH_OF_MAPS && m->key_size != 4) {
			m->key_size = 4;
			fix |= RB_MAP_FIX_KEY_SIZE;
		}
		if (m->value_size != 4) {
			m->value_size = 4;
			fix |= RB_MAP_FIX_VALUE_SIZE;
		}
		break;
	default:
		break;
	}
	return fix;
}

int rb_map_fix_object(struct rb_object *obj, struct rb_err *err)
{
	size_t n = obj->map_cnt, need = 0;
	for (size_t i = 0; i < n; i++) {
		struct rb_map *m = &obj->maps[i];
		if (m->global_data)
			continue;
		m->fixups |= fix_kernel_rules(m);
		need += (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || m->type == BPF_MAP_TYPE_HASH_OF_MAPS) &&
			m->inner_map_idx < 0;
	}
	if (!need)
		return 0;
	/* A map-in-map whose object names no inner map: its user space hands
	 * the kernel one when it creates the outer map (inner_map_fd). We
	 * stand one in, the smallest the kernel takes (an array of one 4-byte
	 * value), flagged RB_MAP_FIX_INNER, so that the engine and the
	 * kernel verify against the same inner map. */
	struct rb_map *nm = realloc(obj->maps, (n + need) * sizeof(*nm));
	if (!nm)
		return rb_errf(err, "%s: out of memory", obj->path);
	obj->maps = nm;
	for (size_t i = 0; i < n; i++) {
		struct rb_map *m = &obj->maps[i];
		if (m->global_data || m->inner_map_idx >= 0 ||
		    (m->type != BPF_MAP_TYPE_ARRAY_OF_MAPS && m->type != BPF_MAP_TYPE_HASH_OF_MAPS))
			continue;
		struct rb_map *in = &obj->maps[obj->map_cnt];
		char name[sizeof(in->name)];
		snprintf(name, sizeof(name), "%.56s.inner", m->name);
		memset(in, 0, sizeof(*in));
		memcpy(in->name, name, sizeof(name));
		in->type = BPF_MAP_TYPE_ARRAY;
		in->key_size = 4;
		in->value_size = 4;
		in->max_entries = 1;
		in->inner_map_idx = -1;
		in->inner_template = true;
		in->fixups = RB_MAP_FIX_INNER;
		m->inner_map_idx = (int32_t)obj->map_cnt++;
		m->fixups |= RB_MAP_FIX_INNER;
	}
	return 0;
}
