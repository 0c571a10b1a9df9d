/* kstruct.c — verifier state sizes from the running kernel's BTF (see
 * kstruct.h). A kernel that holds cnums already (Linux 7.2: r64, r32)
 * gives its own sizes, and its cnum layout is itself. For 6.18 the cnum
 * layout is computed, not read: the eight bounds of
 * 6.18's struct bpf_reg_state are consecutive 8- and 4-byte fields at an
 * 8-byte aligned offset, so one struct cnum64 {u64 base, size} and one
 * struct cnum32 {u32 base, size} (24 bytes) take their place with no new
 * padding; every register in bpf_func_state (MAX_BPF_REG = 11) and every
 * bpf_stack_state's spilled_ptr shrinks by the same amount. */
#include <bpf/btf.h>
#include <string.h>

#include "oracle/kstruct.h"
#include "util/array_size.h"

#define CNUM_BYTES (16 + 8)
#define MAX_BPF_REG 11

static int struct_size(const struct btf *b, const char *name, uint32_t *out)
{
	int id = btf__find_by_name_kind(b, name, BTF_KIND_STRUCT);
	if (id < 0)
		return -1;
	*out = btf__type_by_id(b, (uint32_t)id)->size;
	return id;
}

static int bounds_bytes(const struct btf *b, int reg_id, uint32_t *out)
{
	static const char *const fields[] = {"smin_value",    "smax_value",    "umin_value",    "umax_value",
					     "s32_min_value", "s32_max_value", "u32_min_value", "u32_max_value"};
	const struct btf_type *t = btf__type_by_id(b, (uint32_t)reg_id);
	const struct btf_member *m = btf_members(t);
	uint32_t sum = 0;
	unsigned found = 0;
	for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(b, m->name_off);
		for (unsigned f = 0; n && f < ARRAY_SIZE(fields); f++) {
			if (strcmp(n, fields[f]))
				continue;
			int64_t sz = btf__resolve_size(b, m->type);
			if (sz <= 0)
				return -1;
			sum += (uint32_t)sz;
			found++;
		}
	}
	if (found == 8) {
		*out = sum;
		return 0;
	}
	if (found)
		return -1;
	/* Linux 7.2 (include/linux/bpf_verifier.h): struct cnum64 r64 and
	 * struct cnum32 r32 in place of the eight bounds */
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = btf__type_by_id(b, m->type);
		const char *tn = mt && btf_is_struct(mt) ? btf__name_by_offset(b, mt->name_off) : NULL;
		if (tn && (!strcmp(tn, "cnum64") || !strcmp(tn, "cnum32"))) {
			sum += mt->size;
			found++;
		}
	}
	if (found != 2)
		return -1;
	*out = sum;
	return 0;
}

int rb_kstruct_sizes(const struct btf *b, struct rb_kstruct_sizes *out)
{
	memset(out, 0, sizeof(*out));
	if (!b)
		return -1;
	int reg_id = struct_size(b, "bpf_reg_state", &out->reg);
	if (reg_id < 0 || struct_size(b, "bpf_func_state", &out->func) < 0 ||
	    struct_size(b, "bpf_stack_state", &out->stack_slot) < 0 ||
	    struct_size(b, "bpf_verifier_state", &out->vstate) < 0 || bounds_bytes(b, reg_id, &out->bounds) < 0 ||
	    out->bounds < CNUM_BYTES)
		return -1;
	uint32_t saved = out->bounds - CNUM_BYTES;
	out->reg_cnum = out->reg - saved;
	out->func_cnum = out->func - MAX_BPF_REG * saved;
	out->stack_slot_cnum = out->stack_slot - saved;
	return 0;
}
