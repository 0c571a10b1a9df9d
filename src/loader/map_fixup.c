/* map_fixup.c — map sizes that real tools' user space sets at run time.
 *
 * Objects from libbpf-tools and similar leave some map sizes to be set by
 * their loader program (bpf_map__set_max_entries() etc.), so the object
 * alone says 0. The kernel refuses a map with max_entries 0 (and a stack
 * trace map with no key/value size), so we pick what those tools
 * typically pick; each change is flagged in rb_map.fixups. */
#include <linux/bpf.h>
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
