/* machine.h — execcheck's concrete BPF machine (internal to src/exec/).
 *
 * Memory is a set of regions (stack frames, ctx, packet, map values, map
 * pointers, helper memory), each at its own synthetic base address; a
 * register is a 64-bit value plus the region it points into (-1: a
 * scalar) and a taint bit (see exec.h). Stack bytes carry taint and
 * 8-byte aligned spills of pointers keep their region. */
#ifndef RB_EXEC_MACHINE_H
#define RB_EXEC_MACHINE_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"
#include "tracker/tracker.h"

#define XM_FRAMES 8
#define XM_STACK 512
/* regions of one machine: every map of the object has one or two, so the
 * array grows as they are made, up to what a region index (int16_t)
 * and the synthetic address space (16 MiB per region) hold; an object
 * with more maps aborts its own runs (xm_init), never the whole check */
#define XM_MAX_REGIONS 32000
/* the largest map value modelled (bytes) */
#define XM_MAX_VALUE (16u << 20)

enum { XR_STACK, XR_CTX, XR_PKT, XR_MAPVAL, XR_MAPPTR, XR_MEM };

struct xregion {
	int kind, idx;   /* idx: frame (stack), map (mapval/mapptr) */
	uint64_t base;   /* address of offset 0 */
	int64_t lo, hi;  /* accessible offsets [lo, hi) */
	uint8_t *mem;    /* hi - lo bytes */
	uint8_t *taint;  /* per byte (stack only) */
	int16_t *tag;    /* per byte: region of a pointer spilled at this 8-byte slot start, or -1 */
};

struct cval {
	uint64_t v;
	int16_t rg;    /* region pointed into, -1: scalar */
	uint8_t taint;
};

struct xframe {
	struct cval regs[11];
	int ret_pc;
	int stack_rg;
};

/* step outcomes */
enum { XS_NEXT = 0, XS_EXIT, XS_ABORT, XS_FAULT };

struct xm {
	const struct rb_object *obj;
	const struct rb_prog *prog;
	const struct bpf_insn *insns;
	int ninsns;
	const struct rb_concrete *cc;
	struct xregion *rg;
	int nrg, cap_rg;
	struct xframe fr[XM_FRAMES];
	int cur;
	int pc;
	uint64_t rng;
	int ctx_rg, pkt_rg;
	int *mapval_rg, *mapptr_rg;
	int64_t pkt_len;
	/* the last step: a conditional jump reading a tainted value */
	bool jmp_tainted;
	/* set by the checker before a step: the engine's type of the insn's
	 * memory base register is one the machine has no region for (BTF
	 * pointers, sockets...): loads through it give random values (the
	 * kernel's PROBE_MEM loads may read anything, faults read 0) and
	 * stores are dropped */
	bool base_unmodelled;
	char why[128]; /* XS_ABORT / XS_FAULT: what happened */
};

static inline uint64_t xm_rand(struct xm *m)
{
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
/* an "interesting" random 64-bit value: small, negative, boundary or any */
uint64_t xm_rand_value(struct xm *m);

/* 0, -1 out of memory, -2 beyond the model (m->why says what) */
int xm_init(struct xm *m, const struct rb_object *obj, size_t prog_idx, uint64_t seed);
void xm_free(struct xm *m);
int xm_step(struct xm *m);
int xm_new_region(struct xm *m, int kind, int idx, int64_t lo, int64_t hi);
/* memory access at address a (region rg) of size bytes; XS_FAULT if outside */
int xm_mem_check(struct xm *m, const struct cval *p, int64_t off, int size, bool write);
void xm_mem_write_random(struct xm *m, int rg, int64_t off, uint64_t size);
int xm_helper(struct xm *m, int32_t id);

#endif
