/* kstruct.h — the running kernel's verifier state sizes, read from its
 * BTF (/sys/kernel/btf/vmlinux), and the same structs with the eight
 * min/max bounds replaced by mainline's struct cnum64 + struct cnum32. */
#ifndef RB_ORACLE_KSTRUCT_H
#define RB_ORACLE_KSTRUCT_H

#include <stdint.h>

struct btf;

struct rb_kstruct_sizes {
	/* sizeof in the running kernel (Linux 6.18.44 here: 112, 1280, 120, 168) */
	uint32_t reg, func, stack_slot, vstate;
	/* bytes of smin_value .. u32_max_value in struct bpf_reg_state (48) */
	uint32_t bounds;
	/* the same structs holding one cnum64 and one cnum32 (16 + 8 bytes)
	 * in place of the eight bounds, as mainline (2026) does: 88, 1016, 96 */
	uint32_t reg_cnum, func_cnum, stack_slot_cnum;
};

/* 0, or -1 when the BTF lacks a struct or a bounds field */
int rb_kstruct_sizes(const struct btf *vmlinux, struct rb_kstruct_sizes *out);

#endif
