/* interp.c — execcheck's concrete BPF machine: memory regions, program
 * inputs, one instruction at a time (Linux 6.18 runtime semantics; the
 * ALU and jump semantics are the project's concrete specification in
 * tracker/concrete.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/machine.h"

#define BASE_ADDR 0x100000000000ull
#define REGION_SPAN 0x1000000ull

uint64_t xm_rand_value(struct xm *m)
{
	uint64_t r = xm_rand(m);
	switch (r % 8) {
	case 0: return 0;
	case 1: return (r >> 8) % 16;
	case 2: return (uint64_t)-(int64_t)((r >> 8) % 4096);
	case 3: return (uint32_t)(r >> 8);
	case 4: return (r >> 8) % 256;
	case 5: {
		static const uint64_t edge[] = {0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
						0x7fffffffffffffffull, 0x8000000000000000ull, UINT64_MAX, 1};
		return edge[(r >> 8) % 8];
	}
	default: return xm_rand(m);
	}
}

int xm_new_region(struct xm *m, int kind, int idx, int64_t lo, int64_t hi)
{
	if (m->nrg >= XM_MAX_REGIONS)
		return -1;
	if (m->nrg == m->cap_rg) {
		int cap = m->cap_rg ? 2 * m->cap_rg : 16;
		struct xregion *v = realloc(m->rg, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		m->rg = v;
		m->cap_rg = cap;
	}
	int i = m->nrg;
	struct xregion *r = &m->rg[i];
	size_t n = (size_t)(hi - lo);
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->idx = idx;
	r->base = BASE_ADDR + (uint64_t)i * REGION_SPAN + REGION_SPAN / 2;
	r->lo = lo;
	r->hi = hi;
	r->mem = calloc(n ? n : 1, 1);
	r->taint = calloc(n ? n : 1, 1);
	r->tag = malloc(sizeof(int16_t) * (n ? n : 1));
	if (!r->mem || !r->taint || !r->tag) {
		free(r->mem);
		free(r->taint);
		free(r->tag);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		r->tag[k] = -1;
	m->nrg++;
	return i;
}

static void fill_random(struct xm *m, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)xm_rand(m);
}

void xm_mem_write_random(struct xm *m, int rg, int64_t off, uint64_t size)
{
	struct xregion *r = &m->rg[rg];
	for (uint64_t i = 0; i < size; i++) {
		int64_t o = off + (int64_t)i - r->lo;
		r->mem[o] = (uint8_t)xm_rand(m);
		r->taint[o] = 0;
		r->tag[o] = -1;
		/* a write inside a spilled pointer breaks it */
		for (int k = 1; k < 8 && o - k >= 0; k++)
			r->tag[o - k] = -1;
	}
}

static int fault(struct xm *m, const char *why)
{
	snprintf(m->why, sizeof(m->why), "%s", why);
	return XS_FAULT;
}

static int abort_run(struct xm *m, const char *why)
{
	snprintf(m->why, sizeof(m->why), "%s", why);
	return XS_ABORT;
}

int xm_mem_check(struct xm *m, const struct cval *p, int64_t off, int size, bool write)
{
	if (p->rg < 0) {
		snprintf(m->why, sizeof(m->why), "%s through a scalar (0x%llx%+lld)", write ? "write" : "read",
			 (unsigned long long)p->v, (long long)off);
		return XS_FAULT;
	}
	const struct xregion *r = &m->rg[p->rg];
	int64_t o = (int64_t)(p->v - r->base) + off;
	if (o < r->lo || o + size > r->hi || size < 0) {
		static const char *const kinds[] = {"stack", "ctx", "packet", "map value", "map", "memory"};
		snprintf(m->why, sizeof(m->why), "%s of %d bytes at %s offset %lld outside [%lld, %lld)",
			 write ? "write" : "read", size, kinds[r->kind], (long long)o, (long long)r->lo, (long long)r->hi);
		return XS_FAULT;
	}
	return XS_NEXT;
}

/* ---------- inputs ---------- */

static bool is_skb_type(uint32_t pt)
{
	return pt == BPF_PROG_TYPE_SOCKET_FILTER || pt == BPF_PROG_TYPE_SCHED_CLS || pt == BPF_PROG_TYPE_SCHED_ACT ||
	       pt == BPF_PROG_TYPE_CGROUP_SKB;
}

bool rb_exec_prog_type_ok(uint32_t pt);
bool rb_exec_prog_type_ok(uint32_t pt)
{
	/* ctx as bytes (scalars), except the packet pointers of skb and xdp;
	 * tracing's u64 arguments may be BTF pointers (see base_unmodelled) */
	return is_skb_type(pt) || pt == BPF_PROG_TYPE_XDP || pt == BPF_PROG_TYPE_KPROBE ||
	       pt == BPF_PROG_TYPE_TRACEPOINT || pt == BPF_PROG_TYPE_RAW_TRACEPOINT ||
	       pt == BPF_PROG_TYPE_PERF_EVENT || pt == BPF_PROG_TYPE_TRACING;
}

/* a random packet: half of them plausible Ethernet/IPv4/TCP-or-UDP frames
 * so that parsers get past their first checks */
static void make_packet(struct xm *m)
{
	uint64_t r = xm_rand(m);
	int64_t len;
	switch (r % 4) {
	case 0: len = (int64_t)((r >> 8) % 15); break;
	case 1: len = 14 + (int64_t)((r >> 8) % 60); break;
	default: len = 34 + (int64_t)((r >> 8) % 200); break;
	}
	m->pkt_len = len;
	m->pkt_rg = xm_new_region(m, XR_PKT, 0, 0, len);
	if (m->pkt_rg < 0)
		return;
	uint8_t *p = m->rg[m->pkt_rg].mem;
	fill_random(m, p, (size_t)len);
	if ((r >> 40) & 1 && len >= 34) {
		p[12] = 0x08;
		p[13] = 0x00;
		p[14] = 0x45;
		p[20] = 0;
		p[21] = 0; /* not a fragment */
		p[23] = ((r >> 41) & 1) ? 6 : 17;
	}
}

static int make_ctx(struct xm *m)
{
	uint32_t pt = m->prog->prog_type;
	int64_t size = 512;
	if (is_skb_type(pt))
		size = sizeof(struct __sk_buff);
	else if (pt == BPF_PROG_TYPE_XDP)
		size = sizeof(struct xdp_md);
	else if (pt == BPF_PROG_TYPE_TRACEPOINT)
		size = 4096;
	m->ctx_rg = xm_new_region(m, XR_CTX, 0, 0, size);
	if (m->ctx_rg < 0)
		return -1;
	fill_random(m, m->rg[m->ctx_rg].mem, (size_t)size);
	if (is_skb_type(pt) || pt == BPF_PROG_TYPE_XDP)
		make_packet(m);
	if (is_skb_type(pt) && m->pkt_rg >= 0) {
		uint32_t len = (uint32_t)m->pkt_len;
		memcpy(m->rg[m->ctx_rg].mem + offsetof(struct __sk_buff, len), &len, 4);
	}
	return 0;
}

static bool array_like(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

static int make_maps(struct xm *m)
{
	size_t n = m->obj->map_cnt;
	m->mapval_rg = calloc(n ? n : 1, sizeof(int));
	m->mapptr_rg = calloc(n ? n : 1, sizeof(int));
	if (!m->mapval_rg || !m->mapptr_rg)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct rb_map *mp = &m->obj->maps[i];
		m->mapptr_rg[i] = xm_new_region(m, XR_MAPPTR, (int)i, 0, 0);
		m->mapval_rg[i] = -1;
		if (m->mapptr_rg[i] < 0)
			return -1;
		if (!mp->value_size)
			continue;
		int rg = xm_new_region(m, XR_MAPVAL, (int)i, 0, mp->value_size);
		if (rg < 0)
			return -1;
		m->mapval_rg[i] = rg;
		uint8_t *mem = m->rg[rg].mem;
		if (mp->global_data || mp->init) {
			if (mp->init)
				memcpy(mem, mp->init, mp->init_size < mp->value_size ? mp->init_size : mp->value_size);
		} else if (xm_rand(m) & 1) {
			fill_random(m, mem, mp->value_size);
		}
	}
	(void)array_like;
	return 0;
}

int xm_init(struct xm *m, const struct rb_object *obj, size_t prog_idx, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	m->obj = obj;
	m->prog = &obj->progs[prog_idx];
	m->insns = m->prog->insns;
	m->ninsns = (int)m->prog->insn_cnt;
	m->cc = rb_concrete_get(64);
	m->rng = seed;
	m->ctx_rg = m->pkt_rg = -1;
	/* 2 regions per map at most, then ctx, packet, stack frames and a
	 * few helper buffers */
	if (m->obj->map_cnt > (size_t)(XM_MAX_REGIONS - 64) / 2) {
		snprintf(m->why, sizeof(m->why), "%zu maps: more than the %d the concrete machine models",
			 m->obj->map_cnt, (XM_MAX_REGIONS - 64) / 2);
		return -2;
	}
	/* a map value is modelled byte by byte (contents, taint, tags: 4
	 * bytes each), so a huge one (a large .bss) is beyond the model */
	for (size_t i = 0; i < m->obj->map_cnt; i++)
		if (m->obj->maps[i].value_size > XM_MAX_VALUE) {
			snprintf(m->why, sizeof(m->why), "map %zu: a %u-byte value, more than the %u bytes modelled", i,
				 m->obj->maps[i].value_size, XM_MAX_VALUE);
			return -2;
		}
	if (make_maps(m) || make_ctx(m))
		return -1;
	int st = xm_new_region(m, XR_STACK, 0, -XM_STACK, 0);
	if (st < 0)
		return -1;
	fill_random(m, m->rg[st].mem, XM_STACK);
	struct xframe *f = &m->fr[0];
	for (int i = 0; i < 11; i++)
		f->regs[i] = (struct cval){xm_rand(m), -1, 0};
	f->stack_rg = st;
	f->regs[1] = (struct cval){m->rg[m->ctx_rg].base, (int16_t)m->ctx_rg, 0};
	f->regs[10] = (struct cval){m->rg[st].base, (int16_t)st, 0};
	m->cur = 0;
	m->pc = 0;
	return 0;
}

void xm_free(struct xm *m)
{
	for (int i = 0; i < m->nrg; i++) {
		free(m->rg[i].mem);
		free(m->rg[i].taint);
		free(m->rg[i].tag);
	}
	free(m->rg);
	free(m->mapval_rg);
	free(m->mapptr_rg);
	memset(m, 0, sizeof(*m));
}

/* ---------- memory ---------- */

static int size_bytes(const struct bpf_insn *in)
{
	switch (BPF_SIZE(in->code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

/* ctx fields that are pointers at run time (the kernel rewrites their loads) */
static bool ctx_pointer_load(struct xm *m, int64_t o, struct cval *out)
{
	uint32_t pt = m->prog->prog_type;
	if (m->pkt_rg < 0)
		return false;
	const struct xregion *pk = &m->rg[m->pkt_rg];
	int64_t at;
	if (is_skb_type(pt)) {
		if (o == offsetof(struct __sk_buff, data) || o == offsetof(struct __sk_buff, data_meta))
			at = 0;
		else if (o == offsetof(struct __sk_buff, data_end))
			at = m->pkt_len;
		else if (o == offsetof(struct __sk_buff, sk)) {
			*out = (struct cval){0, -1, 0}; /* no socket */
			return true;
		} else
			return false;
	} else if (pt == BPF_PROG_TYPE_XDP) {
		if (o == offsetof(struct xdp_md, data) || o == offsetof(struct xdp_md, data_meta))
			at = 0;
		else if (o == offsetof(struct xdp_md, data_end))
			at = m->pkt_len;
		else
			return false;
	} else {
		return false;
	}
	*out = (struct cval){pk->base + (uint64_t)at, (int16_t)m->pkt_rg, 0};
	return true;
}

static int load(struct xm *m, const struct cval *p, int64_t off, int size, bool sext, struct cval *out)
{
	if (m->base_unmodelled && p->rg < 0) {
		uint64_t v = xm_rand(m) & (size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1);
		if (sext && size < 8) {
			unsigned sh = 64 - 8 * (unsigned)size;
			v = (uint64_t)((int64_t)(v << sh) >> sh);
		}
		*out = (struct cval){v, -1, 0};
		return XS_NEXT;
	}
	int rc = xm_mem_check(m, p, off, size, false);
	if (rc)
		return rc;
	struct xregion *r = &m->rg[p->rg];
	int64_t o = (int64_t)(p->v - r->base) + off;
	if (r->kind == XR_CTX && ctx_pointer_load(m, o, out))
		return XS_NEXT;
	uint64_t v = 0;
	uint8_t taint = 0;
	for (int i = 0; i < size; i++) {
		v |= (uint64_t)r->mem[o - r->lo + i] << (8 * i);
		taint |= r->taint[o - r->lo + i];
	}
	if (sext && size < 8) {
		unsigned sh = 64 - 8 * (unsigned)size;
		v = (uint64_t)((int64_t)(v << sh) >> sh);
	}
	int16_t rg = -1;
	if (size == 8 && r->tag[o - r->lo] >= 0)
		rg = r->tag[o - r->lo];
	*out = (struct cval){v, rg, taint};
	return XS_NEXT;
}

static int store(struct xm *m, const struct cval *p, int64_t off, int size, const struct cval *val)
{
	if (m->base_unmodelled && p->rg < 0)
		return XS_NEXT;
	int rc = xm_mem_check(m, p, off, size, true);
	if (rc)
		return rc;
	struct xregion *r = &m->rg[p->rg];
	int64_t o = (int64_t)(p->v - r->base) + off - r->lo;
	if (r->kind == XR_MAPPTR)
		return fault(m, "write to a map pointer");
	for (int i = 0; i < size; i++) {
		r->mem[o + i] = (uint8_t)(val->v >> (8 * i));
		r->taint[o + i] = val->taint;
		r->tag[o + i] = -1;
	}
	for (int k = 1; k < 8 && o - k >= 0; k++)
		r->tag[o - k] = -1;
	if (size == 8 && val->rg >= 0 && ((o + r->lo) & 7) == 0)
		r->tag[o] = val->rg;
	return XS_NEXT;
}

/* ---------- instructions ---------- */

static struct cval *R(struct xm *m, int i)
{
	return &m->fr[m->cur].regs[i];
}

static int do_alu(struct xm *m, const struct bpf_insn *in)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	uint8_t op = BPF_OP(in->code);
	struct cval *d = R(m, in->dst_reg);
	struct cval s;
	if (op == BPF_END || op == BPF_NEG)
		s = (struct cval){0, -1, 0};
	else if (BPF_SRC(in->code) == BPF_X)
		s = *R(m, in->src_reg);
	else
		s = (struct cval){is64 ? (uint64_t)(int64_t)in->imm : (uint64_t)(uint32_t)in->imm, -1, 0};
	struct rb_alu a = {.code = in->code, .off = in->off, .imm = in->imm};
	if (op == BPF_MOV) {
		if (BPF_SRC(in->code) == BPF_X && is64 && in->off == 0) {
			*d = s;
			return XS_NEXT;
		}
		uint8_t t = BPF_SRC(in->code) == BPF_X ? s.taint : 0;
		*d = (struct cval){m->cc->alu(d->v, s.v, &a), -1, t};
		return XS_NEXT;
	}
	uint8_t taint = d->taint | (BPF_SRC(in->code) == BPF_X ? s.taint : 0);
	if (is64 && (op == BPF_ADD || op == BPF_SUB) && (d->rg >= 0 || s.rg >= 0)) {
		if (op == BPF_ADD) {
			int16_t rg = d->rg >= 0 ? d->rg : s.rg;
			if (d->rg >= 0 && s.rg >= 0)
				rg = -1;
			*d = (struct cval){d->v + s.v, rg, taint};
		} else {
			int16_t rg = (d->rg >= 0 && s.rg < 0) ? d->rg : -1;
			*d = (struct cval){d->v - s.v, rg, taint};
		}
		return XS_NEXT;
	}
	*d = (struct cval){m->cc->alu(d->v, s.v, &a), -1, taint};
	return XS_NEXT;
}

static int do_jmp(struct xm *m, const struct bpf_insn *in)
{
	bool is32 = BPF_CLASS(in->code) == BPF_JMP32;
	const struct cval *d = R(m, in->dst_reg);
	struct cval s;
	if (BPF_SRC(in->code) == BPF_X)
		s = *R(m, in->src_reg);
	else
		s = (struct cval){is32 ? (uint64_t)(uint32_t)in->imm : (uint64_t)(int64_t)in->imm, -1, 0};
	m->jmp_tainted = d->taint || (BPF_SRC(in->code) == BPF_X && s.taint);
	bool taken = m->cc->jmp(d->v, s.v, BPF_OP(in->code), is32);
	m->pc += 1 + (taken ? in->off : 0);
	return XS_NEXT;
}

static int call_subprog(struct xm *m, const struct bpf_insn *in)
{
	if (m->cur + 1 >= XM_FRAMES)
		return abort_run(m, "call stack too deep");
	int depth = m->cur + 1;
	struct xframe *caller = &m->fr[m->cur], *f = &m->fr[depth];
	int st = -1;
	for (int i = 0; i < m->nrg; i++)
		if (m->rg[i].kind == XR_STACK && m->rg[i].idx == depth)
			st = i;
	if (st < 0 && (st = xm_new_region(m, XR_STACK, depth, -XM_STACK, 0)) < 0)
		return abort_run(m, "out of regions");
	struct xregion *r = &m->rg[st];
	fill_random(m, r->mem, XM_STACK);
	memset(r->taint, 0, XM_STACK);
	for (int k = 0; k < XM_STACK; k++)
		r->tag[k] = -1;
	for (int i = 0; i < 11; i++)
		f->regs[i] = (struct cval){xm_rand(m), -1, 0};
	for (int i = 1; i <= 5; i++)
		f->regs[i] = caller->regs[i];
	f->regs[10] = (struct cval){r->base, (int16_t)st, 0};
	f->stack_rg = st;
	f->ret_pc = m->pc + 1;
	m->cur = depth;
	m->pc = m->pc + 1 + in->imm;
	return XS_NEXT;
}

static int do_exit(struct xm *m)
{
	if (m->cur == 0)
		return XS_EXIT;
	struct cval r0 = m->fr[m->cur].regs[0];
	int ret = m->fr[m->cur].ret_pc;
	m->cur--;
	struct xframe *f = &m->fr[m->cur];
	f->regs[0] = r0;
	for (int i = 1; i <= 5; i++)
		f->regs[i] = (struct cval){xm_rand(m), -1, 0};
	m->pc = ret;
	return XS_NEXT;
}

static int do_atomic(struct xm *m, const struct bpf_insn *in)
{
	int size = size_bytes(in);
	struct cval *p = R(m, in->dst_reg), *s = R(m, in->src_reg);
	struct cval old;
	if (size != 4 && size != 8)
		return abort_run(m, "atomic of this size");
	if (in->imm == 0x100) { /* load_acquire: src = *(dst + off) */
		int rc = load(m, s, in->off, size, false, &old);
		if (!rc)
			*p = old;
		return rc;
	}
	if (in->imm == 0x110) /* store_release */
		return store(m, p, in->off, size, s);
	int rc = load(m, p, in->off, size, false, &old);
	if (rc)
		return rc;
	uint64_t mask = size == 8 ? UINT64_MAX : 0xffffffffull;
	uint64_t o = old.v & mask, v = s->v & mask, nv;
	switch (in->imm & ~BPF_FETCH) {
	case BPF_ADD: nv = o + v; break;
	case BPF_OR: nv = o | v; break;
	case BPF_AND: nv = o & v; break;
	case BPF_XOR: nv = o ^ v; break;
	default:
		if (in->imm == BPF_XCHG) {
			nv = v;
		} else if (in->imm == BPF_CMPXCHG) {
			struct cval *r0 = R(m, 0);
			nv = (o == (r0->v & mask)) ? v : o;
			struct cval w = {nv & mask, -1, old.taint | s->taint | r0->taint};
			if ((rc = store(m, p, in->off, size, &w)))
				return rc;
			*r0 = (struct cval){o, -1, old.taint};
			return XS_NEXT;
		} else {
			return abort_run(m, "unknown atomic operation");
		}
	}
	struct cval w = {nv & mask, -1, old.taint | s->taint};
	if ((rc = store(m, p, in->off, size, &w)))
		return rc;
	if (in->imm & BPF_FETCH)
		*s = (struct cval){o, -1, old.taint};
	return XS_NEXT;
}

static int do_ld_abs(struct xm *m, const struct bpf_insn *in)
{
	int size = size_bytes(in);
	int64_t off = in->imm;
	if (BPF_MODE(in->code) == BPF_IND)
		off = (int64_t)(int32_t)((uint32_t)R(m, in->src_reg)->v + (uint32_t)in->imm);
	for (int i = 1; i <= 5; i++)
		*R(m, i) = (struct cval){xm_rand(m), -1, 0};
	if (m->pkt_rg < 0 || off < 0 || off + size > m->pkt_len) {
		*R(m, 0) = (struct cval){0, -1, 0};
		return XS_EXIT; /* the program ends returning 0 */
	}
	uint64_t v = 0;
	for (int i = 0; i < size; i++)
		v = (v << 8) | m->rg[m->pkt_rg].mem[off + i];
	*R(m, 0) = (struct cval){v, -1, 0};
	m->pc++;
	return XS_NEXT;
}

int xm_step(struct xm *m)
{
	if (m->pc < 0 || m->pc >= m->ninsns)
		return fault(m, "jump out of the program");
	const struct bpf_insn *in = &m->insns[m->pc];
	uint8_t cls = BPF_CLASS(in->code);
	int rc;
	m->jmp_tainted = false;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		rc = do_alu(m, in);
		m->pc++;
		return rc;
	case BPF_LDX: {
		struct cval v;
		bool sx = BPF_MODE(in->code) == 0x80; /* BPF_MEMSX */
		rc = load(m, R(m, in->src_reg), in->off, size_bytes(in), sx, &v);
		if (rc)
			return rc;
		*R(m, in->dst_reg) = v;
		m->pc++;
		return XS_NEXT;
	}
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC)
			rc = do_atomic(m, in);
		else
			rc = store(m, R(m, in->dst_reg), in->off, size_bytes(in), R(m, in->src_reg));
		m->pc++;
		return rc;
	case BPF_ST: {
		struct cval v = {(uint64_t)(int64_t)in->imm, -1, 0};
		rc = store(m, R(m, in->dst_reg), in->off, size_bytes(in), &v);
		m->pc++;
		return rc;
	}
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (m->pc + 1 >= m->ninsns)
				return fault(m, "truncated ld_imm64");
			const struct bpf_insn *nx = in + 1;
			struct cval *d = R(m, in->dst_reg);
			if (in->src_reg == 0) {
				*d = (struct cval){(uint64_t)(uint32_t)in->imm | ((uint64_t)(uint32_t)nx->imm << 32), -1, 0};
			} else if ((in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) &&
				   in->imm >= 0 && (size_t)in->imm < m->obj->map_cnt) {
				int rg = in->src_reg == BPF_PSEUDO_MAP_IDX ? m->mapptr_rg[in->imm] : m->mapval_rg[in->imm];
				if (rg < 0)
					return abort_run(m, "map without a value");
				int64_t off = in->src_reg == BPF_PSEUDO_MAP_IDX ? 0 : (int64_t)(uint32_t)nx->imm;
				*d = (struct cval){m->rg[rg].base + (uint64_t)off, (int16_t)rg, 0};
			} else {
				return abort_run(m, "ld_imm64 of this kind");
			}
			m->pc += 2;
			return XS_NEXT;
		}
		if (BPF_MODE(in->code) == BPF_ABS || BPF_MODE(in->code) == BPF_IND)
			return do_ld_abs(m, in);
		return abort_run(m, "unknown BPF_LD");
	case BPF_JMP:
	case BPF_JMP32: {
		uint8_t op = BPF_OP(in->code);
		if (op == BPF_JA) {
			m->pc += 1 + (cls == BPF_JMP ? in->off : in->imm);
			return XS_NEXT;
		}
		if (op == BPF_EXIT)
			return do_exit(m);
		if (op == BPF_CALL) {
			if (in->src_reg == BPF_PSEUDO_CALL)
				return call_subprog(m, in);
			if (in->src_reg != 0)
				return abort_run(m, "kfunc call");
			rc = xm_helper(m, in->imm);
			m->pc++;
			return rc;
		}
		if (op == 0xe0)
			return abort_run(m, "may_goto");
		return do_jmp(m, in);
	}
	}
	return abort_run(m, "unknown instruction class");
}
