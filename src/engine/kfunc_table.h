/* kfunc_table.h — the kfuncs as data: one row per kfunc of the running
 * kernel (Linux 6.18.44), with the program types that may call it
 * (measured) and its flags (6.18's BTF_ID_FLAGS in the kernel sources,
 * which BTF does not carry). Prototypes come from vmlinux BTF at run time
 * (kfuncs.c). A kfunc whose semantics go beyond its prototype and flags
 * (iterators, dynptrs, locks, ...) gets a `special` checker in its row:
 * the generic check then leaves the arguments and R0 to it. */
#ifndef RB_ENGINE_KFUNC_TABLE_H
#define RB_ENGINE_KFUNC_TABLE_H

#include <stdbool.h>
#include <stdint.h>

/* kfunc flags, numbered as 6.18's include/linux/btf.h numbers KF_* */
#define KF_ACQUIRE (1u << 0)
#define KF_RELEASE (1u << 1)
#define KF_RET_NULL (1u << 2)
#define KF_TRUSTED_ARGS (1u << 4)
#define KF_SLEEPABLE (1u << 5)
#define KF_DESTRUCTIVE (1u << 6)
#define KF_RCU (1u << 7)
#define KF_ITER_NEW (1u << 8)
#define KF_ITER_NEXT (1u << 9)
#define KF_ITER_DESTROY (1u << 10)
#define KF_RCU_PROTECTED (1u << 11)
#define KF_FASTCALL (1u << 12)
/* 7.2's (include/linux/btf.h), in the 7.2 profile's rows only */
#define KF_ARENA_RET (1u << 13)
#define KF_ARENA_ARG1 (1u << 14)
#define KF_ARENA_ARG2 (1u << 15)
#define KF_IMPLICIT_ARGS (1u << 16)

struct rb_env;
struct bpf_insn;
struct rb_kfunc;

/* what check_kfunc_call has found before the arguments (fetch_kfunc_meta) */
struct rb_kfunc_call {
	const struct rb_kfunc *row;
	const char *name;     /* its name in vmlinux BTF */
	int32_t btf_id;       /* the call's imm: the FUNC's vmlinux BTF id */
	uint32_t proto_id;    /* its FUNC_PROTO (KF_IMPLICIT_ARGS: the "<name>_impl" one's) */
	int insn_idx;
	int nvisible;         /* KF_IMPLICIT_ARGS: arguments the program passes; the rest are implicit */
};

/* Checks the whole call (arguments, state changes, R0) in place of the
 * generic check; returns 0 or the engine's negative error. */
typedef int (*rb_kfunc_special_fn)(struct rb_env *env, const struct bpf_insn *insn,
				   const struct rb_kfunc_call *call);

struct rb_kfunc {
	const char *name;
	uint64_t prog_types; /* bit t: program type t may call it (measured) */
	uint32_t flags;      /* KF_* */
	bool flags_known;    /* false: its BTF_ID_FLAGS are not recorded here */
	rb_kfunc_special_fn special;
};

/* program types whose kfunc availability was measured (bit per type) */
extern const uint64_t rb_kfunc_measured_types;

/* the row of the kfunc called `name`, NULL when this kernel has no such kfunc */
const struct rb_kfunc *rb_kfunc_row(const char *name);
/* rows in name order (for tests) */
const struct rb_kfunc *rb_kfunc_rows(int *n);

#endif
