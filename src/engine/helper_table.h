/* helper_table.h — the helpers as data: one row per helper (the kernel's
 * struct bpf_func_proto, Linux 6.18): id, name, return and argument types,
 * flags, and which classes of program types may call it. Program types
 * with a measured helper set (prog_types.c) use that set instead of the
 * classes. Adding a helper: one row in helper_table.c (plus a test). */
#ifndef RB_ENGINE_HELPER_TABLE_H
#define RB_ENGINE_HELPER_TABLE_H

#include <stdbool.h>
#include <stdint.h>

/* argument types (the kernel's enum bpf_arg_type with its flags) */
enum rb_helper_arg {
	A_NONE = 0,
	A_ANY,
	A_CTX,
	A_MAP,
	A_KEY,
	A_VALUE,
	A_MEM_RO,         /* ARG_PTR_TO_MEM | MEM_RDONLY: read [p, p+size) */
	A_MEM_RO_OR_NULL, /* the same, or NULL with size 0 */
	A_MEM_UNINIT,     /* ARG_PTR_TO_UNINIT_MEM: the helper writes [p, p+size) */
	A_SIZE,           /* ARG_CONST_SIZE */
	A_SIZE_OR_ZERO,   /* ARG_CONST_SIZE_OR_ZERO */
	A_ALLOC_SIZE,     /* ARG_CONST_ALLOC_SIZE_OR_ZERO */
	A_RINGBUF_REL,    /* ARG_PTR_TO_RINGBUF_MEM | OBJ_RELEASE */
	A_BTF,            /* ARG_PTR_TO_BTF_ID (any BTF pointer accepted: the id is not checked) */
	A_U32_OUT,        /* ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_ALIGNED, 4 bytes written */
	A_CTX_OR_NULL,    /* ARG_PTR_TO_CTX_OR_NULL */
	A_SOCK_COMMON,    /* ARG_PTR_TO_BTF_ID_SOCK_COMMON (sock, sock_common, tcp_sock; BTF pointers: unsupported) */
	A_VALUE_OR_NULL,  /* ARG_PTR_TO_MAP_VALUE_OR_NULL */
	A_SOCKET_OR_NULL, /* ARG_PTR_TO_SOCKET_OR_NULL */
	A_SOCK_RELEASE,   /* ARG_PTR_TO_BTF_ID_SOCK_COMMON | OBJ_RELEASE */
	A_LONG_OUT,       /* ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_WRITE | MEM_ALIGNED, 8 bytes written */
	A_MEM_WRITE,      /* ARG_PTR_TO_MEM | MEM_WRITE: clobbered in place (no byte-wise writes, nothing scratched) */
	A_SOCK_PTR,       /* ARG_PTR_TO_SOCK_COMMON: sock_common, sock, tcp_sock, xdp_sock (no BTF pointers) */
	A_SPIN_LOCK,      /* ARG_PTR_TO_SPIN_LOCK: the bpf_spin_lock of a map value (locks.c) */
	A_BTF_TASK,       /* ARG_PTR_TO_BTF_ID to a task_struct (ptr_, trusted_ptr_, rcu_ptr_) */
	A_BTF_TASK_OR_NULL, /* the same, or NULL */
	A_FUNC,           /* ARG_PTR_TO_FUNC: a callback (callbacks.c) */
	A_STACK_OR_NULL,  /* ARG_PTR_TO_STACK_OR_NULL: a callback's context */
	/* ARG_PTR_TO_DYNPTR (dynptr.c) */
	A_DYNPTR_LOCAL_UNINIT,   /* | DYNPTR_TYPE_LOCAL | MEM_UNINIT: builds a local dynptr */
	A_DYNPTR_RINGBUF_UNINIT, /* | DYNPTR_TYPE_RINGBUF | MEM_UNINIT: builds a ringbuf dynptr (a reference) */
	A_DYNPTR_RDONLY,         /* | MEM_RDONLY: an initialised dynptr of any type */
	A_DYNPTR_RINGBUF_RELEASE, /* | DYNPTR_TYPE_RINGBUF | OBJ_RELEASE: releases a ringbuf dynptr */
	A_VALUE_UNINIT,   /* ARG_PTR_TO_MAP_VALUE | MEM_UNINIT | MEM_WRITE: value_size bytes written */
	A_BTF_STRUCT,     /* ARG_PTR_TO_BTF_ID of the struct rb_helper_arg_struct names */
	A_MEM_WRITE_OR_NULL, /* ARG_PTR_TO_MEM_OR_NULL | MEM_WRITE */
	A_CONST_STR,      /* ARG_PTR_TO_CONST_STR: a NUL-terminated string in a read-only map value (const_str.c) */
	A_FIXED_RO,       /* ARG_PTR_TO_FIXED_SIZE_MEM | MEM_RDONLY: rb_helper_arg_size bytes read */
	A_TIMER,          /* ARG_PTR_TO_TIMER: the struct bpf_timer of a map value (timers.c) */
	A_KPTR_XCHG_DEST, /* ARG_KPTR_XCHG_DEST: a referenced kptr field of a map value (kptrs.c) */
	A_KPTR_XCHG_SRC,  /* ARG_PTR_TO_BTF_ID_OR_NULL | OBJ_RELEASE of the kptr's type (kptrs.c) */
	A_BTF_STRUCT_OR_NULL, /* ARG_PTR_TO_BTF_ID_OR_NULL of the struct rb_helper_arg_struct names */
	A_PERCPU_BTF,     /* ARG_PTR_TO_PERCPU_BTF_ID: a per-CPU BTF pointer (a percpu ksym, a
			   * loaded percpu kptr) */
};

/* return types (the kernel's enum bpf_return_type; refinements of RET_INTEGER
 * that do_refine_retval_range applies are kinds of their own) */
enum rb_helper_ret {
	R_INT,
	R_VOID,
	R_MAP_VALUE_OR_NULL,
	R_RINGBUF_OR_NULL,
	R_BTF_TASK,
	R_MAP_VALUE,
	R_SOCKET_OR_NULL, /* RET_PTR_TO_SOCKET_OR_NULL from an acquiring lookup */
	R_SIZE_OR_ERR,    /* RET_INTEGER in [-MAX_ERRNO, the size argument's umax] (string reads, get_stack) */
	R_CPU_ID,         /* RET_INTEGER in [0, nr_cpu_ids - 1] */
	R_KPTR,           /* RET_PTR_TO_BTF_ID_OR_NULL of bpf_kptr_xchg: the kptr's type, acquired (kptrs.c) */
	R_SOCK_COMMON_OR_NULL, /* RET_PTR_TO_SOCK_COMMON_OR_NULL (acquiring lookup) */
	R_SOCK_OR_NULL,   /* RET_PTR_TO_SOCKET_OR_NULL of a cast or a listener (not acquired) */
	R_TCP_SOCK_OR_NULL, /* RET_PTR_TO_TCP_SOCK_OR_NULL */
	R_BTF_SOCK_OR_NULL, /* RET_PTR_TO_BTF_ID_OR_NULL of the skc_to_* casts (struct: rb_helper_ret_struct) */
	R_DYNPTR_MEM_OR_NULL, /* RET_PTR_TO_DYNPTR_MEM_OR_NULL: a slice of the dynptr argument (dynptr.c) */
	R_BTF_PTR,        /* RET_PTR_TO_BTF_ID (struct: rb_helper_ret_struct), untrusted, never NULL */
	R_PERCPU_MEM,     /* RET_PTR_TO_MEM_OR_BTF_ID | MEM_RDONLY of the A_PERCPU_BTF argument's type */
	R_PERCPU_MEM_OR_NULL, /* the same | PTR_MAYBE_NULL */
};

/* flags */
#define HF_PKT_CHANGES 0x1 /* bpf_helper_changes_pkt_data: packet pointers are invalid afterwards */
#define HF_PKT_ACCESS 0x2  /* .pkt_access: may take packet pointers as memory arguments */
#define HF_NAME_ONLY 0x4   /* no prototype modelled: the name is for the log only */
#define HF_PTR_CAST 0x8    /* is_ptr_cast_function: R0 keeps the argument's reference */
#define HF_MIGHT_SLEEP 0x10 /* .might_sleep: only sleepable programs may call it */
#define HF_SET_ONLY 0x20   /* available only where a measured set says so (the 7.2 profile's sets,
			    * helper_sets72.c), never through the classes below */

/* classes of program types without a measured helper set (prog_types.c) */
#define HC_TRACE 0x1          /* kprobe, tracepoint, raw tracepoint, perf_event, tracing */
#define HC_XDP 0x4            /* xdp */
#define HC_TC 0x8             /* sched_cls, sched_act */
#define HC_CGROUP_SKB 0x10    /* cgroup_skb: the socket-related subset of tc's helpers */
#define HC_SOCKET_FILTER 0x20 /* socket_filter: the same without socket lookups */
#define HC_ALL 0x3f
#define HC_LSM 0x40           /* lsm only (6.18 bpf_lsm_func_proto's own helpers); not in HC_ALL */

struct rb_helper {
	int32_t id;
	const char *name; /* without the bpf_ prefix */
	uint8_t ret;      /* enum rb_helper_ret */
	uint8_t args[5];  /* enum rb_helper_arg, A_NONE after the last */
	uint8_t classes;  /* HC_* */
	uint8_t flags;    /* HF_* */
};

/* the prototype of helper id, NULL when it is not modelled */
const struct rb_helper *rb_helper_proto(int32_t id);
/* the prototype a program of this type (and attach type) gets: a
 * per-type variant where 6.18 has one, else rb_helper_proto; *variant
 * tells which */
const struct rb_helper *rb_helper_proto_for(int32_t id, uint32_t prog_type, uint32_t attach_type, bool *variant);
/* the struct an A_BTF_STRUCT argument a of helper id points to */
const char *rb_helper_arg_struct(int32_t id, int a);
/* the size an A_FIXED_RO argument a of helper id reads */
uint32_t rb_helper_arg_size(int32_t id, int a);
/* the argument count of a modelled helper, -1 when not modelled */
int rb_helper_nargs(int32_t id);
bool rb_helper_changes_pkt(int32_t id);
/* the struct a RET_PTR_TO_BTF_ID helper returns (its ret_btf_id), NULL when none */
const char *rb_helper_ret_struct(int32_t id);
/* the table's prototype of id is not the one this program type gets (a socket
 * argument instead of the ctx, no ctx argument): not modelled */
bool rb_helper_proto_differs(int32_t id, uint32_t prog_type);

#endif
