/* prog_types.h — the program types as data: one row per program type (the
 * kernel's bpf_types.h + struct bpf_verifier_ops, Linux 6.18): context
 * access, packet rules, helper set, return range and attach rules.
 * Adding a program type: one row in prog_types.c (designated fields, the
 * uapi constants by name: loader/uapi_names.h for those newer than the
 * build's headers), its helper set as a list of helper names in
 * helper_set_lists.h (its bitmap a line in prog_types.c), its ctx rules in a
 * ctx_*.c file, plus a test. */
#ifndef RB_ENGINE_PROG_TYPES_H
#define RB_ENGINE_PROG_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/ctx.h"

typedef int (*rb_ctx_access_fn)(struct rb_env *env, int off, int size, bool write, struct rb_ctx_access *out);

/* flags */
#define PT_LD_ABS 0x1          /* legacy LD_ABS/LD_IND packet loads (may_access_skb) */
#define PT_PKT_WRITE 0x2       /* may_access_direct_pkt_data for writes */
#define PT_PKT_HELPER 0x4      /* packet pointers may go to helpers declared pkt_access */
#define PT_PKT_HELPER_ANY 0x8  /* packet pointers may go to any helper */
#define PT_BTF_CTX 0x10        /* the context is typed by vmlinux BTF (tracing: btf.c) */
#define PT_ATTACH_LISTED 0x20  /* only the attach types listed in .attach are modelled */
#define PT_NO_CONVERT 0x40     /* no convert_ctx_access (bpf_verifier_ops); informational: mem.c
				* lets only syscall pass its ctx to a helper, as 6.18 does */

/* a return-code range (check_return_code); checked false: any value */
struct rb_ret_range {
	bool checked;
	int8_t lo, hi;
};

#define RB_ANY_ATTACH 0xffffffffu

/* the rules of one attach type */
struct rb_attach_rule {
	uint32_t attach;
	struct rb_ret_range ret; /* used when checked */
	const uint64_t *helpers; /* measured helper set (a bit per helper id), NULL: the type's */
};

struct rb_prog_type {
	uint32_t type;
	const char *name;
	const char *ctx_struct;      /* BTF name of the context struct (global subprogram arguments) */
	rb_ctx_access_fn ctx_access; /* is_valid_access; NULL with PT_BTF_CTX */
	uint8_t flags;               /* PT_* */
	uint8_t helper_classes;      /* HC_* of helper_table.h, for types without a measured set */
	struct rb_ret_range ret;
	const uint64_t *helpers; /* measured helper set for every attach type (helper_set_lists.h), or NULL */
	const struct rb_attach_rule *attach;
	int nattach;
};

/* the row of a modelled program type, NULL otherwise */
const struct rb_prog_type *rb_prog_type(uint32_t type);
/* may a program of this type and attach type be verified? */
bool rb_attach_type_supported(const struct rb_prog_type *pt, uint32_t attach_type);
/* the return range of a program of this type and attach type */
struct rb_ret_range rb_prog_ret_range(const struct rb_prog_type *pt, uint32_t attach_type);
/* the measured helper set of this type and attach type, NULL when it has none */
const uint64_t *rb_prog_helper_set(const struct rb_prog_type *pt, uint32_t attach_type);
/* the (program type, attach type) keys of every compiled-in helper set
 * (a type's own set: with the attach type its programs usually carry):
 * up to max pairs into keys, returns how many there are */
size_t rb_prog_helper_set_keys(uint32_t (*keys)[2], size_t max);
/* does this type have a measured helper set at all (for some attach type)? */
bool rb_prog_has_helper_sets(const struct rb_prog_type *pt);
/* the attach type the kernel verifies with when given attach_type (0 ->
 * the type's default, bpf_prog_load_fixup_attach_type) */
uint32_t rb_prog_fixup_attach_type(uint32_t type, uint32_t attach_type);
/* may a program of this type be loaded with this (fixed-up) expected
 * attach type? (6.18 bpf_prog_load_check_attach: BPF_PROG_LOAD answers
 * EINVAL with nothing logged, before the verifier runs, when not) */
bool rb_prog_attach_type_valid(uint32_t type, uint32_t attach_type);
/* the kernel's message refusing a program for its sleepable flag (6.18
 * check_attach_btf_id: syscall programs must be sleepable, and only
 * tracing fentry/fexit/fmod_ret/iter, lsm, kprobe and struct_ops may be),
 * NULL if none */
const char *rb_prog_sleepable_error(uint32_t type, uint32_t attach_type, bool sleepable);

#endif
