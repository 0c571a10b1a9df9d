/* stack_live72_int.h — the parts of the 7.2 static stack liveness
 * (stack_live72.c) shared by its files: the arg tracking lattice and
 * transfer (stack_live72_track.c) and the bytes a call reads or writes
 * through a stack pointer (stack_live72_bytes.c). */
#ifndef RB_ENGINE_STACK_LIVE72_INT_H
#define RB_ENGINE_STACK_LIVE72_INT_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

#define L72_NOFF 4    /* MAX_ARG_OFFSETS */
#define L72_NSPILL 64 /* MAX_ARG_SPILL_SLOTS */
#define L72_NAT 11    /* R0..R10 */
#define L72_STACK_MAX 512
#define L72_UNKNOWN INT64_MIN /* an access of unknown size */
/* uapi values newer than the build's headers */
#define RB_LOAD_ACQ 0x100
#define RB_STORE_REL 0x110

enum { L72_NONE = -1, L72_UNVISITED = -2, L72_IMPRECISE = -3 };

/* struct arg_track: frame >= 0 with cnt offsets (cnt 0: offset unknown),
 * or L72_IMPRECISE with the mask of frames it may point into */
struct l72_at {
	union {
		int16_t off[L72_NOFF];
		uint16_t mask;
	};
	int8_t frame, cnt;
};

extern const struct l72_at l72_none, l72_unvisited;

#define L72_SPIS_ALL (~(rb_spis)0)

/* per instruction and frame of an instance (per_frame_masks) */
struct pfm {
	rb_spis may_read, must_write, live_before;
};

struct inst {
	int callsite, depth, sub, start, len;
	bool mw_init;
	struct pfm *frames[RB_MAX_FRAMES];
};

struct rb_live72 {
	struct inst **inst;
	int ninst, cap;
	int calls;
	uint32_t max_key, max_value; /* l72_maps_max */
	struct l72_at **cs_stack;          /* per call insn: the caller's spill slots at the call */
	struct l72_at (**sub_in)[L72_NAT]; /* per subprogram: at_in of its last analysis (NULL: never analysed) */
};

/* accumulate may_read / must_write of frame at idx: 0 or RB_E_NOMEM */
int l72_mark_read(struct inst *f, int frame, int idx, rb_spis m);
int l72_mark_write(struct inst *f, int frame, int idx, rb_spis m);
/* record_load_store_access / record_call_access of the insn at idx with
 * its entry state regs */
int l72_record_load_store(struct rb_env *env, struct inst *f, const struct l72_at *regs, int idx);
int l72_record_call(struct rb_env *env, struct inst *f, const struct l72_at *regs, int idx);

struct l72_at l72_single(int frame, int off);
bool l72_visited(const struct l72_at *a);
bool l72_is_fp(const struct l72_at *a);
/* join the value out into *in; true when *in changed */
bool l72_join_into(struct l72_at *in, struct l72_at out);
/* arg_add: off + delta as an s16, true on overflow */
bool l72_add_off(int16_t off, int64_t delta, int16_t *out);
int l72_size_bytes(uint8_t code);
/* arg_track_xfer: o (registers) and stk (this frame's spill slots) after
 * insn in, in a frame at depth; parents[f]: frame f's spill slots at its
 * call (f < depth) */
void l72_xfer(const struct bpf_insn *in, struct l72_at *o, struct l72_at *stk, int depth,
	      const struct l72_at *const *parents);

/* bpf_helper_stack_access_bytes / bpf_kfunc_stack_access_bytes: bytes
 * read (> 0) or written (< 0) through argument arg (0-based) of the call
 * at idx, 0 none, L72_UNKNOWN */
int64_t l72_helper_bytes(struct rb_env *env, const struct bpf_insn *in, int arg, int idx);
int64_t l72_kfunc_bytes(struct rb_env *env, const struct bpf_insn *in, int arg, int idx);
/* the largest key (or value) size of the program's maps: computed
 * (l72_used_maps_max), and kept for the analysis (l72_maps_max) */
uint32_t l72_used_maps_max(const struct rb_env *env, bool key);
uint32_t l72_maps_max(const struct rb_env *env, bool key);
/* bpf_get_call_summary's num_params, 5 when unknown */
int l72_call_params(struct rb_env *env, const struct bpf_insn *in);
/* find_callback_subprog: the callback's subprogram (-1 none, -2 not one
 * known constant) and which caller register becomes which callback one */
int l72_callback_sub(struct rb_env *env, const struct bpf_insn *in, int idx, int *caller_reg, int *callee_reg);

#endif
