/* state.h — the engine's verifier state, modelled on Linux 6.18's
 * bpf_reg_state / bpf_func_state / bpf_verifier_state, plus the engine
 * environment (the kernel's bpf_verifier_env).
 *
 * Scalars and the variable part of pointer offsets are tracker values
 * (rb_val); everything else (type, fixed offset, ids, packet range) is
 * kept here as the kernel keeps it. */
#ifndef RB_ENGINE_STATE_H
#define RB_ENGINE_STATE_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"

struct btf;
struct rb_prog_type;

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80 /* sign-extending loads (newer UAPI) */
#endif

#define RB_MAX_REG 11
#define RB_REG_FP 10
#define RB_MAX_STACK 512
/* the deepest call chain of any profile (7.2's MAX_CALL_FRAMES; 6.18: 8,
 * the profile's max_call_frames): sizes the engine's per-chain arrays, never
 * a stored state (rb_vstate's frame[] holds the profile's count) */
#define RB_MAX_FRAMES 16
#define RB_MAX_VAR_OFF (1 << 29)
#define RB_MAX_PACKET_OFF 0xffff
/* a guard, not a kernel rule: stored states alive at once */
#define RB_STATE_BUDGET 1000000
/* the kernel's BPF_ADD_CONST flag on scalar ids (6.11+) */
#define RB_ADD_CONST (1u << 31)
/* the link was made by a 32-bit "wX += const": w = w_known + off, zero-extended */
#define RB_ADD_CONST32 (1u << 30)
#define RB_ID_MASK (~(RB_ADD_CONST | RB_ADD_CONST32))
/* packet range markers after comparisons with pkt_end (6.18) */
#define RB_AT_PKT_END (-1)
#define RB_BEYOND_PKT_END (-2)

/* register types (the kernel's enum bpf_reg_type, base types) */
enum rb_rtype {
	RT_NOT_INIT = 0,
	RT_SCALAR,
	RT_CTX,
	RT_MAP_PTR,   /* CONST_PTR_TO_MAP */
	RT_MAP_VALUE, /* PTR_TO_MAP_VALUE */
	RT_MAP_KEY,
	RT_STACK, /* PTR_TO_STACK */
	RT_PKT,
	RT_PKT_META,
	RT_PKT_END,
	RT_FLOW_KEYS,
	RT_SOCK_COMMON,
	RT_SOCKET,
	RT_TCP_SOCK,
	RT_MEM, /* PTR_TO_MEM (ringbuf reservations, helper memory) */
	RT_TP_BUFFER,
	RT_BTF_ID,
	RT_FUNC,
	RT_XDP_SOCK,
	RT_CONST_DYNPTR, /* CONST_PTR_TO_DYNPTR: a callback's dynptr argument (dynptr.h) */
	RT_ARENA,        /* PTR_TO_ARENA: an addr_space_cast result (arena.c) */
	RT_BUF,          /* PTR_TO_BUF: an iterator's map key or value (btf.c); RF_RDONLY for the key */
};

/* type flags (the kernel's type modifiers) */
#define RF_MAYBE_NULL 0x1
#define RF_RDONLY 0x2
#define RF_RINGBUF 0x4
#define RF_TRUSTED 0x8   /* BTF pointers: PTR_TRUSTED */
#define RF_UNTRUSTED 0x10 /* PTR_UNTRUSTED */
#define RF_RCU 0x20      /* MEM_RCU */
/* a socket from a sockmap/sockhash lookup: 6.18 keeps the map pointer in
 * the register's union, so regsafe's memcmp never finds it equal to a
 * socket from a helper or the context (whose union is zero) */
#define RF_MAP_SOCK 0x40
/* MEM_PERCPU: a per-CPU variable's BTF pointer (a percpu ksym, ksym.c),
 * which only bpf_per_cpu_ptr/bpf_this_cpu_ptr may take */
#define RF_PERCPU 0x80
/* RT_BTF_ID's `range` (unused by BTF pointers otherwise): RB_BTF_ALLOC for
 * an object of a type of the program's own BTF that the program allocated
 * (PTR_TO_BTF_ID | MEM_ALLOC: bpf_obj_new, a local kptr; alloc_obj.c),
 * its map_idx then an id of the object's BTF, not vmlinux's */
#define RB_BTF_ALLOC 1
/* ... a non-owning reference to such an object (NON_OWN_REF: a node in a
 * graph the held lock protects; graph.c) */
#define RB_BTF_ALLOC_NON_OWN 2
/* ... an object of a type of the program's own BTF that is no allocated
 * object (reg->btf the program's, no MEM_ALLOC): a per-CPU or untrusted
 * kptr loaded from a map value (kptr_access.c) */
#define RB_BTF_PROG 3
#define RB_IS_PROG_BTF(r) ((r)->type == RT_BTF_ID && (r)->range >= RB_BTF_ALLOC && (r)->range <= RB_BTF_PROG)
#define RB_IS_ALLOC(r) ((r)->type == RT_BTF_ID && ((r)->range == RB_BTF_ALLOC || (r)->range == RB_BTF_ALLOC_NON_OWN))
#define RB_IS_NON_OWN(r) ((r)->type == RT_BTF_ID && (r)->range == RB_BTF_ALLOC_NON_OWN)

/* stack slot byte types (the kernel's STACK_*) */
enum {
	SLOT_INVALID = 0,
	SLOT_SPILL,
	SLOT_MISC,
	SLOT_ZERO,
	SLOT_ITER,   /* an open-coded iterator (iter.h) */
	SLOT_DYNPTR, /* a bpf_dynptr (dynptr.h) */
	SLOT_IRQ_FLAG, /* saved IRQ flags (irq_flags.h) */
};

struct rb_reg {
	uint8_t type;  /* enum rb_rtype */
	uint8_t flags; /* RF_* */
	uint8_t precise;
	uint8_t frameno; /* for RT_STACK: which frame the pointer points into */
	int32_t off;     /* fixed offset (pointers; linked-scalar delta) */
	uint32_t id;     /* null-check / packet / linked-scalar id */
	uint32_t ref_obj_id;
	int32_t range;     /* packet: bytes known readable from off; mem: size; map pointers,
			    * keys and values: the map_uid (RB_MAP_UID) */
	int32_t map_idx;   /* map pointers, keys and values: index into obj->maps; BTF pointers: vmlinux
			    * type id; RT_FUNC: the subprogram (the kernel's subprogno) */
	rb_val val;        /* scalar value, or the variable offset of a pointer */
};
/* A map pointer's, key's or value's map_uid (6.18 and 7.2.13 struct
 * bpf_reg_state, in the union beside map_ptr as range is here): the id of
 * the map-in-map lookup that gave the inner map, when the inner map's
 * value holds a timer, workqueue or task_work; 0 otherwise. Compared
 * exactly when states are compared (same_nonval), as the kernel's memcmp
 * over the union does. */
#define RB_MAP_UID(r) ((r)->range)

struct rb_slot {
	struct rb_reg spilled;
	uint8_t type[8]; /* SLOT_* per byte, type[7] is the highest address byte */
};

struct rb_func {
	struct rb_reg regs[RB_MAX_REG];
	int callsite;   /* insn index of the call, -1 for the main program */
	int frameno;
	int subprog;
	int nslots;     /* allocated stack slots (8 bytes each, slot i at fp-8*(i+1)) */
	struct rb_slot *stack;
	/* callbacks (callbacks.c): the kernel's callback_depth, in_callback_fn,
	 * in_async_callback_fn, async_entry_cnt, callback_ret_range */
	int callback_depth;
	bool in_callback_fn, in_async_callback_fn;
	int async_entry_cnt;
	int32_t cb_ret_lo, cb_ret_hi;
};

/* one jump history entry (the kernel's bpf_jmp_history_entry) */
struct rb_hist {
	int idx, prev_idx;
	uint32_t flags; /* RB_HF_STACK | frame<<1 | spi<<4 */
	uint64_t linked; /* packed linked registers (unused: 0) */
};
#define RB_HF_STACK 0x1

/* A state is a block of a pool (util/pool.h; rb_pool_of(st) NULL: of
 * malloc), and so are its frames and their stack slots. */
struct rb_pool;

struct rb_vstate {
	int curframe;
	int max_frames; /* entries of frame[]: the profile's max_call_frames */
	struct rb_vstate *parent;
	uint32_t branches;
	int insn_idx, first_insn_idx, last_insn_idx;
	int dfs_depth;
	uint32_t bt_memo_id; /* its precision walks remembered (bt_memo.c), 0: none; in dfs_depth's padding */
	uint32_t *refs; /* acquired reference ids */
	int32_t *ref_insns; /* the instruction that acquired each (for the leak message) */
	int nrefs;
	int32_t lock_map; /* the map whose value's bpf_spin_lock is held (locks.c), -1 none */
	uint32_t active_rcu; /* bpf_rcu_read_lock sections entered (rcu.c; 7.2 active_rcu_locks, 6.18: 0 or 1) */
	uint32_t active_preempt; /* bpf_preempt_disable calls not yet enabled (irq_flags.c; active_preempt_locks) */
	struct rb_hist *hist;
	int nhist, cap_hist;
	/* the list bookkeeping of an explored (checkpoint) state */
	bool in_list, cleaned, in_free_list;
	int32_t all_idx; /* its index in env->all_states (states_store.c) */
	struct rb_vstate *equal_state; /* backedge copies: the state they matched */
	uint32_t hit_cnt, miss_cnt;
	struct rb_vstate *next; /* next in its insn's list */
	uint32_t rec_node; /* the recorder's (engine.h), copied with the state */
	uint32_t callback_unroll_depth; /* callback visits pushed along this path (callbacks.c) */
	uint32_t may_goto_depth;        /* may_goto fall-throughs taken along this path (6.18) */
	size_t acct_bytes; /* bytes this state is counted at in cur_state_mem (states_store.c), 0: not counted */
	/* the frames, [0, curframe] in use; max_frames entries are allocated
	 * (the kernel's frame[MAX_CALL_FRAMES]: 8 in 6.18, 16 in 7.2), so a
	 * 6.18 state is as large as before profiles */
	struct rb_func *frame[];
};

/* a pushed branch (the kernel's bpf_verifier_stack_elem) */
struct rb_branch {
	struct rb_vstate *st;
	int insn_idx, prev_insn_idx;
	uint64_t peak_before; /* peak_state_mem before the push (undone by a drop) */
};

enum { GARG_SCALAR = 1, GARG_CTX, GARG_MEM }; /* global subprogram argument kinds */

struct rb_subprog {
	int start, end; /* [start, end) */
	int stack_depth;
	bool global, called, verified, changes_pkt, ret_not_scalar;
	bool is_cb, is_async_cb; /* called back by a helper (callbacks.c) */
	char name[64];
	int nargs;
	uint8_t arg_kind[5];
	uint32_t arg_size[5]; /* GARG_MEM: bytes of the pointee */
	int bad_arg;          /* >= 0: this argument's pointee has no size (btf_prepare_func_args fails) */
	char bad_type[64];    /* its name, for the log */
	bool unreliable;      /* the main program, global, without the one ctx argument 6.18
			       * expects: every call into it is refused */
	int btf_nargs;        /* parameters of its BTF prototype (0 without func_info) */
	bool ret_void;        /* its BTF prototype returns void */
};

/* per-instruction static data (the kernel's bpf_insn_aux_data) */
struct rb_aux {
	bool prune_point, jmp_point, force_checkpoint, seen;
	bool calls_callback; /* a helper call that calls its callback synchronously (callbacks.c) */
	bool is_iter_next;   /* an iterator's next() kfunc call (iter.c) */
	/* bpf_loop inlining state (6.18 bpf_loop_inline_state, callbacks.c) */
	bool loop_inline_init, loop_fit_for_inline;
	int loop_cb_subprog;
	uint16_t live_regs; /* registers live before the insn */
	int subprog;
	int scc; /* strongly connected component of the CFG (0: none) */
	/* save_aux_ptr_type: the pointer type a load/store first used (mem.c) */
	bool ptr_seen;
	uint8_t ptr_type, ptr_flags;
};

/* stack slot liveness of one call chain (liveness.c; 6.18's func_instance):
 * per frame of the chain and per insn of the innermost subprogram, as
 * [frame * len + insn - start] */
/* stack liveness masks: two bits per 8-byte slot s, bit 2s for its upper
 * four bytes (fp-8s-4..fp-8s-1), bit 2s+1 for its lower four (7.2
 * liveness.c's half slots); the 6.18 profile sets and tests both bits of
 * a slot together */
__extension__ typedef unsigned __int128 rb_spis;
#define RB_SPIS_SLOT(s) ((rb_spis)3 << (2 * (s)))
#define RB_SPIS_HALF(h) ((rb_spis)1 << (h))

/* the stack liveness of one frame at one insn of a call chain (6.18
 * per_frame_masks) */
struct rb_fmasks {
	rb_spis may_read;   /* the frame's slots read at the insn */
	rb_spis must_write; /* fully written by the insn on every visit */
	rb_spis write_acc;  /* written by the insn or on every way after it */
	rb_spis live;       /* live before the insn */
};

struct rb_chain {
	int depth, sub, start, len;
	int callsites[RB_MAX_FRAMES]; /* the call insn entering frame i + 1 */
	int subs[RB_MAX_FRAMES];      /* the subprogram of each frame */
	/* per frame, [insn - start]; NULL (all zero) until the frame's stack
	 * is first read or written at one of the chain's insns, as 6.18
	 * allocates a func instance's per-frame masks (alloc_frame_masks) */
	struct rb_fmasks *fm[RB_MAX_FRAMES];
	struct rb_pool *pool; /* the masks' (env->pool) */
	bool nomem; /* a frame's masks could not be allocated */
	uint8_t *wset;        /* [insn - start]: must_write initialised (1; 2: every frame's empty) */
	uint64_t *dirty;      /* bit insn - start: may_read or must_write changed since the last update */
	bool updated, dropped;
	bool solved; /* updated once: live and write_acc solve the equations but the dirty insns' */
};

/* an active visit of an SCC along one call chain (6.17+ bpf_scc_visit) */
struct rb_scc_visit {
	int callsites[RB_MAX_FRAMES];
	int depth, scc;
	struct rb_vstate *entry_state;
	struct rb_vstate **backedges; /* copies of states that matched a looping state */
	int nbackedges, cap;
};

struct rb_bt_desc;
struct rb_bt_memo;
struct rb_st_ops;
struct rb_st_member;
struct rb_kptr_rec;
struct rb_live72;

/* 7.2 bpf_compute_const_regs' result per instruction
 * (insn_aux_data.const_reg_*): registers holding a known 32-bit constant,
 * a known map's pointer, a known subprogram's address, with the value
 * (the constant, obj->maps index, subprogram index) */
struct rb_const_regs {
	uint16_t cmask, mmask, smask;
	uint32_t val[11];
};

struct rb_env {
	const struct rb_object *obj;
	const struct rb_prog *prog;
	const struct rb_prog_type *ptype; /* the program type's row (prog_types.c) */
	const struct rb_tracker *t;
	const struct rb_engine_opts *opts;
	const struct rb_profile *prof; /* never NULL: the kernel profile followed (profile.h) */
	const struct bpf_insn *insns;
	struct bpf_insn *own_insns; /* insns rewritten by a profile's pass (const_fold.c), or NULL */
	int insn_cnt;
	struct rb_aux *aux;
	struct rb_subprog *subprogs;
	int nsubprogs;

	struct rb_pool *pool; /* the states' blocks (util/pool.h), deleted with the env */
	struct rb_vstate *cur;
	struct rb_branch *stack;
	int nstack, cap_stack;
	struct rb_vstate **explored; /* head per insn */
	struct rb_vstate **all_states; /* every checkpoint not yet freed (states.c) */
	int nall, cap_all;

	int insn_idx, prev_insn_idx;
	uint32_t id_gen;
	uint64_t insn_processed, jmps_processed;
	uint64_t prev_insn_processed, prev_jmps_processed;
	uint64_t total_states, explored_size, peak_states, max_states_per_insn;
	uint64_t cur_state_mem, peak_state_mem;
	double t_start;

	/* logging */
	FILE *log;
	uint32_t scratched_regs;
	uint64_t scratched_stack;
	bool line_open; /* the last logged line is an insn still waiting for its state */
	int insn_print_len;

	/* the outcome */
	struct rb_result *res;
	bool done;
	/* backtracking scratch */
	struct rb_hist *cur_hist_ent;
	/* stack liveness, one table per call chain */
	struct rb_chain *chains;
	int nchains, cap_chains;
	int *chain_slots; /* open-addressing index of chains by call chain: -1 free */
	int nchain_slots; /* a power of 2 above twice nchains; 0: none yet */
	int live_wchain, live_widx; /* the insn whose full writes are collected: its chain + 1 (0: none), index */
	int live_last_chain; /* the chain liveness.c found last + 1 (0: none), tried before the hash */
	rb_spis live_wacc[RB_MAX_FRAMES];
	int live_wacc_n; /* live_wacc[live_wacc_n..] are 0 (liveness.c clears only the others) */
	struct rb_reg unbound; /* an unknown scalar, for misc stack bytes (states.c stacksafe) */
	bool unbound_ready;
	int *live_po, *live_po_start; /* per subprogram: its insns in CFG postorder */
	int *live_succ; /* per insn: its successors (rb_insn_successors), -1 past the last */
	int *live_pos;  /* per insn: its index in its subprogram's postorder, -1 unreached */
	int *live_pred, *live_pred_start; /* per insn: its predecessors, from live_pred_start[i] */
	uint64_t *live_stale; /* update_chain's scratch: per frame, the postorder positions to evaluate */
	size_t live_stale_words;
	/* the 7.2 profile's static stack liveness (stack_live72.c) and what it
	 * reads: the constant registers (const_fold.c) and the subprograms
	 * callees first (subprog_topo.c) */
	struct rb_live72 *live72;
	struct rb_const_regs *const_regs;
	int *subprog_topo;
	/* SCC visits (loops) and the counters peak_states is made of */
	struct rb_scc_visit *visits;
	int nvisits, cap_visits;
	uint64_t free_list_size, num_backedges;
	/* tracing programs: vmlinux BTF and the attach target's arguments */
	const struct btf *vmlinux;        /* NULL until first needed */
	struct rb_vmlinux *vmlinux_src;   /* the caller's shared handle, or own_vmlinux */
	struct rb_vmlinux *own_vmlinux;   /* created when the caller gave none */
	uint32_t arg_type[13];
	char func_name[128];
	int nargs; /* arguments readable through ctx (fexit: plus the return value) */
	/* struct_ops programs (struct_ops.c): the type and member implemented */
	const struct rb_st_ops *st_ops;
	const struct rb_st_member *st_member;
	uint16_t arg_nullable; /* context arguments that may be NULL */
	uint64_t st_helpers[4]; /* the type's helper set when it builds one (rb_st_ops.helper_set) */
	bool ret_void;         /* the attach target returns void: R0 is not read at exit */
	/* an exit range decided by the attach target (lsm.c), on the 32-bit
	 * subregister when ret32 */
	bool ret_set, ret32;
	int32_t ret_lo, ret_hi;
	/* precision backtracking: requested registers and slots per frame */
	uint32_t bt_regs[RB_MAX_FRAMES];
	uint64_t bt_stack[RB_MAX_FRAMES];
	int bt_frame;
	bool bt_changed;
	struct rb_bt_desc *bt_desc; /* per insn, its backtracking step (backtrack.c), built on first use */
	struct rb_bt_memo *bt_memo; /* walks remembered (bt_memo.c), with bt_desc */
	/* the object's BTF (map value types: locks.c), parsed on first use */
	struct btf *obj_btf;
	bool obj_btf_tried;
	/* the kptr fields of each map's value, found on first use (kptrs.c) */
	struct rb_kptr_rec *kptr_recs;
	/* per map, the offsets of the special structs of its value (locks.c
	 * rb_map_struct_field_off), found on first use */
	int32_t *field_offs;
	/* the stored state the last successful prune matched (for the recorder) */
	const struct rb_vstate *prune_hit;
};

/* errors inside the engine: negative returns, with res filled */
#define RB_E_REJECT (-1)
#define RB_E_UNSUPP (-2)
#define RB_E_LIMIT (-3)
#define RB_E_NOMEM (-4)
#define RB_E_INTERNAL (-5) /* the engine's own inconsistency: verdict RB_ENGINE_BUG (verifier_bug()) */

__attribute__((format(printf, 2, 3))) int rb_reject(struct rb_env *env, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) int rb_unsupported(struct rb_env *env, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void rb_log(struct rb_env *env, const char *fmt, ...);

/* state.c */
/* a state with room for max_frames frames (env->prof->max_call_frames) */
struct rb_vstate *rb_state_new(struct rb_pool *pool, int max_frames);
/* bytes of a state without frames, stack, references or history */
size_t rb_vstate_bytes(int max_frames);
struct rb_vstate *rb_state_copy(struct rb_pool *pool, const struct rb_vstate *src);
void rb_state_free(struct rb_vstate *st);
/* a frame of rb_state_new/rb_state_copy's pool, its stack slots with it */
void rb_func_free(struct rb_func *f);
/* The registers of st, frame by frame, each frame's registers and then
 * the registers spilled in its slots whose last byte's type is in mask
 * (1u << SLOT_*): Linux 6.18 and 7.2.13 bpf_for_each_reg_in_vstate_mask.
 * Start with *fr = *i = 0; NULL after the last. */
struct rb_reg *rb_vstate_next_reg(struct rb_vstate *st, unsigned mask, int *fr, int *i);
int rb_stack_grow(struct rb_func *f, int nslots);
/* bytes allocated for a state, a register, a frame with nslots slots */
size_t rb_state_bytes(const struct rb_vstate *st);
size_t rb_reg_bytes(void);
size_t rb_func_bytes(int nslots);
void rb_reg_not_init(struct rb_env *env, struct rb_reg *r);
void rb_reg_unknown(struct rb_env *env, struct rb_reg *r);
void rb_reg_const(struct rb_env *env, struct rb_reg *r, uint64_t c);
void rb_reg_ptr(struct rb_env *env, struct rb_reg *r, enum rb_rtype type);
bool rb_reg_is_const(struct rb_env *env, const struct rb_reg *r);
uint64_t rb_reg_const_val(struct rb_env *env, const struct rb_reg *r);
void rb_reg_bounds(struct rb_env *env, const struct rb_reg *r, struct rb_bounds *b);
/* a pointer's whole offset, its fixed part added to its variable one (7.2's
 * var_off, profile.h ptr_off_in_var): into v, and its bounds */
void rb_ptr_whole_val(struct rb_env *env, const struct rb_reg *r, rb_val *v);
void rb_ptr_whole_bounds(struct rb_env *env, const struct rb_reg *r, struct rb_bounds *b);
bool rb_is_pointer(const struct rb_reg *r);
/* (inline: read at nearly every instruction) */
static inline struct rb_func *rb_cur_frame(struct rb_env *env)
{
	return env->cur->frame[env->cur->curframe];
}
static inline struct rb_reg *rb_cur_regs(struct rb_env *env)
{
	return rb_cur_frame(env)->regs;
}
int rb_push_hist(struct rb_env *env, struct rb_vstate *st, uint32_t flags);
/* registers and slots the log prints after this insn */
static inline void rb_scratch_reg(struct rb_env *env, int regno) { env->scratched_regs |= 1u << regno; }
static inline void rb_scratch_slot(struct rb_env *env, int spi) { if (spi < 64) env->scratched_stack |= 1ull << spi; }
static inline void rb_scratch_all(struct rb_env *env) { env->scratched_regs = ~0u; env->scratched_stack = ~0ull; }
/* check_reg_arg */
int rb_check_reg_read(struct rb_env *env, int regno);
/* a call's end: r0-r5 unreadable (and scratched for the log) */
void rb_clobber_caller_saved(struct rb_env *env);
int rb_check_reg_write(struct rb_env *env, int regno);

#endif
