/* kptrs.h — the kptr fields of a map value (Linux 6.18 and 7.2.13
 * btf_parse_fields' kptrs) and the arguments of bpf_kptr_xchg
 * (process_kptr_func). See kptrs.c. */
#ifndef RB_ENGINE_KPTRS_H
#define RB_ENGINE_KPTRS_H

#include "engine/state.h"

/* a kptr field's kind (btf_field_type BPF_KPTR_REF, _UNREF, _PERCPU, BPF_UPTR) */
enum { RB_KPTR_REF = 1, RB_KPTR_UNREF, RB_KPTR_PERCPU, RB_KPTR_UPTR };
/* more fields than this: the record fails (BTF_FIELDS_MAX) */
#define RB_KPTR_MAX 11

struct rb_kptr_field {
	int32_t off;    /* byte offset in the map value */
	int8_t kind;    /* RB_KPTR_* */
	bool local;     /* of the program's own type (else vmlinux's) */
	uint32_t ptee;  /* the pointee struct, a type id of the object's BTF */
	int32_t btf_id; /* its type: vmlinux's id (kernel kptr) or ptee (local) */
};

/* the kptr fields of one map's value (env->kptr_recs, filled on first use) */
struct rb_kptr_rec {
	bool done;
	int n;
	struct rb_kptr_field f[RB_KPTR_MAX];
};

/* the kptr fields of map map_idx's value: none when its BTF has none or
 * its record would fail to parse (the map then has no kptr) */
const struct rb_kptr_rec *rb_map_kptrs(struct rb_env *env, int map_idx);
/* the field at byte offset off, NULL when none starts there */
const struct rb_kptr_field *rb_kptr_at(const struct rb_kptr_rec *rec, int64_t off);
void rb_kptrs_free(struct rb_env *env);

struct rb_call_args;
/* ARG_KPTR_XCHG_DEST in register regno: the kptr's type into ca */
int rb_check_kptr_xchg_dest(struct rb_env *env, int regno, struct rb_call_args *ca);
/* bpf_kptr_xchg's second argument (ARG_PTR_TO_BTF_ID_OR_NULL |
 * OBJ_RELEASE against the kptr's type): its reference into ca->release_id */
int rb_check_kptr_xchg_src(struct rb_env *env, int regno, struct rb_call_args *ca);
/* R0 of bpf_kptr_xchg: the old kptr, maybe NULL, acquired */
int rb_kptr_xchg_return(struct rb_env *env, const struct rb_call_args *ca, struct rb_reg *r0);
/* a per-CPU object stored by bpf_kptr_xchg (reference ref): in an RCU
 * critical section the registers and slots still holding it become RCU
 * pointers of the program's type (ref_convert_alloc_rcu_protected); 0 */
int rb_kptr_percpu_stored(struct rb_env *env, uint32_t ref);

#endif
