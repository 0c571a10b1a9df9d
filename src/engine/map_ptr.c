/* map_ptr.c — reads of struct bpf_map fields through a map pointer (Linux
 * 6.18 check_ptr_to_map_access): the map type's own struct (its ops'
 * map_btf_id, which begins with a struct bpf_map) is walked as a BTF
 * pointer, read-only, from offset 0. */
#include "engine/btf_names.h"
#include "engine/map_ptr.h"

#include <linux/bpf.h>
#include <stddef.h>

#include "engine/btf.h"
#include "engine/log.h"

/* the struct behind each map type's map_btf_id (6.18 *_map_ops) */
static const char *map_struct(uint32_t map_type)
{
	switch (map_type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return "bpf_array";
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return "bpf_htab";
	case BPF_MAP_TYPE_STACK_TRACE: return "bpf_stack_map";
	case BPF_MAP_TYPE_LPM_TRIE: return "lpm_trie";
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return "bpf_dtab";
	case BPF_MAP_TYPE_SOCKMAP: return "bpf_stab";
	case BPF_MAP_TYPE_SOCKHASH: return "bpf_shtab";
	case BPF_MAP_TYPE_CPUMAP: return "bpf_cpu_map";
	case BPF_MAP_TYPE_XSKMAP: return "xsk_map";
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY: return "reuseport_array";
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return "bpf_queue_stack";
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
		return "bpf_local_storage_map";
	case BPF_MAP_TYPE_RINGBUF: return "bpf_ringbuf_map";
	case BPF_MAP_TYPE_BLOOM_FILTER: return "bpf_bloom_filter";
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return "bpf_cgroup_storage_map";
	default: return NULL;
	}
}

int rb_map_ptr_access(struct rb_env *env, int regno, int off, int size, bool write, int value_regno)
{
	const struct rb_reg *reg = &rb_cur_regs(env)[regno];
	uint32_t mt = env->obj->maps[reg->map_idx].type;
	const char *tname = map_struct(mt);
	if (!tname)
		return rb_unsupported(env, "map pointer field access for map type %u", mt);
	int32_t sid = rb_btf_struct_id(env, tname);
	if (sid <= 0)
		return rb_unsupported(env, "map pointer field access without vmlinux BTF");
	if (off < 0)
		return rb_reject(env, "R%d is %s invalid negative access: off=%d", regno, tname, off);
	if (write)
		return rb_reject(env, "only read from %s is supported", tname);
	/* the access as through a PTR_TO_BTF_ID of that struct (no flags) */
	struct rb_reg btf = *reg;
	rb_reg_ptr(env, &btf, RT_BTF_ID);
	btf.map_idx = sid;
	struct rb_reg out;
	int err = rb_btf_load(env, &btf, regno, off, size, false, &out);
	if (err)
		return err;
	/* check_ptr_to_map_access keeps only btf_struct_access's own flags:
	 * a walked pointer is a plain ptr_, not untrusted */
	if (out.type == RT_BTF_ID)
		out.flags &= (uint8_t)~(RF_UNTRUSTED | RF_TRUSTED);
	if (value_regno < 0)
		return 0;
	struct rb_reg *v = &rb_cur_regs(env)[value_regno];
	*v = out;
	/* check_mem_access: a narrower scalar load is zero-extended */
	if (size < 8 && v->type == RT_SCALAR)
		env->t->truncate(&v->val, (unsigned)size * 8, false);
	return 0;
}
