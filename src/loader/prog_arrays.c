/* prog_arrays.c — iproute2's tail-call sections. tc (lib/bpf_legacy.c,
 * bpf_fill_prog_arrays) loads each section named "N/M" (numbers as %i
 * reads them) and stores it in slot M of the prog array whose struct
 * bpf_elf_map id is N (the first such map); objects of our own loader
 * path only, the ones tc's loader takes. A section whose id no map has is left alone, and a
 * slot past the array's end fails tc's load (the kernel answers E2BIG).
 * The object records the filling so that the kernel oracle fills the same
 * slots before it loads a program using the array (kload.c), and the
 * engine checks the program against what the array holds, as the kernel
 * does after verification (6.18 bpf_check_tail_call). */
#include "loader/open_paths.h"
#include "loader/prog_arrays.h"

void rb_fill_prog_arrays(struct rb_object *obj)
{
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct rb_prog *p = &obj->progs[i];
		p->tail_filled = false;
		if (!obj->own_path || !p->tail_call || p->error[0] || !p->insns || !p->type_known)
			continue;
		for (size_t m = 0; m < obj->map_cnt; m++) {
			const struct rb_map *map = &obj->maps[m];
			if (map->elf_id != p->tail_map_id || map->type != BPF_MAP_TYPE_PROG_ARRAY)
				continue;
			if (p->tail_slot < map->max_entries) {
				p->tail_filled = true;
				p->tail_map_idx = (uint32_t)m;
			}
			break;
		}
	}
}

/* the owner of a prog array: the first program tc stores in it */
static const struct rb_prog *owner_of(const struct rb_object *obj, size_t map)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (obj->progs[i].tail_filled && obj->progs[i].tail_map_idx == map)
			return &obj->progs[i];
	return NULL;
}

bool rb_prog_arrays_compatible(const struct rb_object *obj, const struct rb_prog *p, size_t *map)
{
	const uint32_t flags = BPF_F_XDP_HAS_FRAGS | BPF_F_SLEEPABLE;
	for (size_t i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		size_t m = (size_t)(uint32_t)in->imm;
		i++;
		if (in->src_reg != BPF_PSEUDO_MAP_IDX || m >= obj->map_cnt ||
		    obj->maps[m].type != BPF_MAP_TYPE_PROG_ARRAY)
			continue;
		const struct rb_prog *o = owner_of(obj, m);
		if (o && (o->prog_type != p->prog_type || o->expected_attach_type != p->expected_attach_type ||
			  (o->prog_flags & flags) != (p->prog_flags & flags))) {
			*map = m;
			return false;
		}
	}
	return true;
}
