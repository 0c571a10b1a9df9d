/* state.c — allocating, copying and freeing verifier states; register
 * constructors (the kernel's mark_reg_* family, Linux 6.18), register
 * read/write checks (check_reg_arg). */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/state.h"
#include "util/grow.h"
#include "util/pool.h"

int rb_reject(struct rb_env *env, const char *fmt, ...)
{
	if (env->done)
		return RB_E_REJECT;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(env->res->msg, sizeof(env->res->msg), fmt, ap);
	va_end(ap);
	env->res->verdict = RB_REJECT;
	env->res->err_insn = env->insn_idx;
	env->done = true;
	rb_log(env, "%s\n", env->res->msg);
	return RB_E_REJECT;
}

int rb_unsupported(struct rb_env *env, const char *fmt, ...)
{
	if (env->done)
		return RB_E_UNSUPP;
	va_list ap;
	va_start(ap, fmt);
	char buf[200];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(env->res->msg, sizeof(env->res->msg), "unsupported: %s at insn %d", buf, env->insn_idx);
	env->res->verdict = RB_UNSUPPORTED;
	env->res->err_insn = env->insn_idx;
	env->done = true;
	rb_log(env, "%s\n", env->res->msg);
	return RB_E_UNSUPP;
}

void rb_log(struct rb_env *env, const char *fmt, ...)
{
	if (!env->log)
		return;
	if (env->line_open) {
		fputc('\n', env->log);
		env->line_open = false;
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(env->log, fmt, ap);
	va_end(ap);
}

size_t rb_vstate_bytes(int max_frames)
{
	return sizeof(struct rb_vstate) + sizeof(struct rb_func *) * (size_t)max_frames;
}

/* a state, its frames and their stack slots come from pool (engine.c:
 * one per verification; NULL: malloc) */
struct rb_vstate *rb_state_new(struct rb_pool *pool, int max_frames)
{
	struct rb_vstate *st = rb_pool_calloc(pool, rb_vstate_bytes(max_frames));
	if (!st)
		return NULL;
	st->max_frames = max_frames;
	st->frame[0] = rb_pool_calloc(pool, sizeof(struct rb_func));
	if (!st->frame[0]) {
		rb_pool_free(st);
		return NULL;
	}
	st->frame[0]->callsite = -1;
	st->branches = 1;
	return st;
}

static struct rb_func *func_copy(struct rb_pool *pool, const struct rb_func *src)
{
	struct rb_func *f = rb_pool_alloc(pool, sizeof(*f));
	if (!f)
		return NULL;
	*f = *src;
	f->stack = NULL;
	if (src->nslots) {
		f->stack = rb_pool_alloc(pool, sizeof(struct rb_slot) * (size_t)src->nslots);
		if (!f->stack) {
			rb_pool_free(f);
			return NULL;
		}
		memcpy(f->stack, src->stack, sizeof(struct rb_slot) * (size_t)src->nslots);
	}
	return f;
}

struct rb_vstate *rb_state_copy(struct rb_pool *pool, const struct rb_vstate *src)
{
	struct rb_vstate *st = rb_pool_calloc(pool, rb_vstate_bytes(src->max_frames));
	if (!st)
		return NULL;
	st->max_frames = src->max_frames;
	st->curframe = src->curframe;
	st->parent = src->parent;
	st->branches = src->branches;
	st->insn_idx = src->insn_idx;
	st->first_insn_idx = src->first_insn_idx;
	st->last_insn_idx = src->last_insn_idx;
	st->dfs_depth = src->dfs_depth;
	st->rec_node = src->rec_node;
	st->lock_map = src->lock_map;
	st->active_rcu = src->active_rcu;
	st->active_preempt = src->active_preempt;
	st->callback_unroll_depth = src->callback_unroll_depth;
	st->may_goto_depth = src->may_goto_depth;
	for (int i = 0; i <= src->curframe; i++) {
		st->frame[i] = func_copy(pool, src->frame[i]);
		if (!st->frame[i])
			goto fail;
	}
	/* references and jump history from the state's pool too (a malloc
	 * per stored checkpoint was a quarter of loops1.008's exploration) */
	if (src->nrefs) {
		st->refs = rb_pool_alloc(pool, sizeof(uint32_t) * (size_t)src->nrefs);
		st->ref_insns = rb_pool_alloc(pool, sizeof(int32_t) * (size_t)src->nrefs);
		if (!st->refs || !st->ref_insns)
			goto fail;
		memcpy(st->refs, src->refs, sizeof(uint32_t) * (size_t)src->nrefs);
		memcpy(st->ref_insns, src->ref_insns, sizeof(int32_t) * (size_t)src->nrefs);
		st->nrefs = src->nrefs;
	}
	if (src->nhist) {
		st->hist = rb_pool_alloc(pool, sizeof(struct rb_hist) * (size_t)src->nhist);
		if (!st->hist)
			goto fail;
		memcpy(st->hist, src->hist, sizeof(struct rb_hist) * (size_t)src->nhist);
		st->nhist = st->cap_hist = src->nhist;
	}
	return st;
fail:
	rb_state_free(st);
	return NULL;
}

void rb_func_free(struct rb_func *f)
{
	if (!f)
		return;
	rb_pool_free(f->stack);
	rb_pool_free(f);
}

void rb_state_free(struct rb_vstate *st)
{
	if (!st)
		return;
	for (int i = 0; i < st->max_frames; i++)
		rb_func_free(st->frame[i]);
	rb_pool_free(st->refs);
	rb_pool_free(st->ref_insns);
	rb_pool_free(st->hist);
	rb_pool_free(st);
}

/* Bytes of verifier state, as allocated: what rb_state_new/rb_state_copy
 * and rb_stack_grow pass to malloc for a state, its frames, their stack
 * slots, references and jump history (the kernel's verifier state
 * allocations: bpf_verifier_state, bpf_func_state, bpf_stack_state[],
 * refs, jmp_history). struct rb_reg holds the tracker value in a slot of
 * sizeof(rb_val) bytes, and the engine is built once per slot size
 * (engine.c), so these are the tracker's true sizes. */
size_t rb_reg_bytes(void)
{
	return sizeof(struct rb_reg);
}

size_t rb_func_bytes(int nslots)
{
	return sizeof(struct rb_func) + (size_t)nslots * sizeof(struct rb_slot);
}

size_t rb_state_bytes(const struct rb_vstate *st)
{
	size_t n = rb_vstate_bytes(st->max_frames) + (sizeof(uint32_t) + sizeof(int32_t)) * (size_t)st->nrefs +
		   sizeof(struct rb_hist) * (size_t)st->cap_hist;
	for (int i = 0; i <= st->curframe; i++)
		n += rb_func_bytes(st->frame[i]->nslots);
	return n;
}

int rb_stack_grow(struct rb_func *f, int nslots)
{
	if (nslots <= f->nslots)
		return 0;
	/* from the frame's own pool (rb_state_new) */
	struct rb_slot *s = rb_pool_realloc(rb_pool_of(f), f->stack, sizeof(struct rb_slot) * (size_t)nslots);
	if (!s)
		return RB_E_NOMEM;
	memset(s + f->nslots, 0, sizeof(struct rb_slot) * (size_t)(nslots - f->nslots));
	f->stack = s;
	f->nslots = nslots;
	return 0;
}

void rb_reg_not_init(struct rb_env *env, struct rb_reg *r)
{
	(void)env;
	memset(r, 0, sizeof(*r));
	r->type = RT_NOT_INIT;
}

/* __mark_reg_unknown: an unknown scalar, not precise when privileged */
void rb_reg_unknown(struct rb_env *env, struct rb_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->type = RT_SCALAR;
	env->t->unknown(&r->val);
}

void rb_reg_const(struct rb_env *env, struct rb_reg *r, uint64_t c)
{
	memset(r, 0, sizeof(*r));
	r->type = RT_SCALAR;
	env->t->constant(&r->val, c);
}

/* a pointer with a zero variable offset */
void rb_reg_ptr(struct rb_env *env, struct rb_reg *r, enum rb_rtype type)
{
	memset(r, 0, sizeof(*r));
	r->type = (uint8_t)type;
	env->t->constant(&r->val, 0);
}

bool rb_reg_is_const(struct rb_env *env, const struct rb_reg *r)
{
	return r->type == RT_SCALAR && env->t->is_const(&r->val);
}

uint64_t rb_reg_const_val(struct rb_env *env, const struct rb_reg *r)
{
	struct rb_bounds b;
	env->t->bounds(&r->val, &b);
	return b.var_off.value;
}

void rb_reg_bounds(struct rb_env *env, const struct rb_reg *r, struct rb_bounds *b)
{
	env->t->bounds(&r->val, b);
}

void rb_ptr_whole_val(struct rb_env *env, const struct rb_reg *r, rb_val *v)
{
	*v = r->val;
	if (!r->off)
		return;
	rb_val c;
	env->t->constant(&c, (uint64_t)(int64_t)r->off);
	struct rb_alu op = {.code = BPF_ALU64 | BPF_ADD | BPF_X};
	env->t->alu(v, &c, &op);
}

void rb_ptr_whole_bounds(struct rb_env *env, const struct rb_reg *r, struct rb_bounds *b)
{
	env->t->bounds(&r->val, b);
	if (!r->off)
		return;
	/* the 64-bit bounds move by the constant when none wraps (7.2's
	 * cnum64_add of a constant, tnum_add), without a tracker operation */
	int64_t c = r->off, s0, s1;
	uint64_t u0 = b->umin + (uint64_t)c, u1 = b->umax + (uint64_t)c;
	bool uwrap = c < 0 ? b->umin < (uint64_t)-c : u0 < b->umin || u1 < b->umax;
	if (!uwrap && !__builtin_add_overflow(b->smin, c, &s0) && !__builtin_add_overflow(b->smax, c, &s1)) {
		uint64_t sv = b->var_off.value + (uint64_t)c, sigma = b->var_off.mask + sv;
		uint64_t mu = (sigma ^ sv) | b->var_off.mask;
		b->umin = u0, b->umax = u1, b->smin = s0, b->smax = s1;
		b->var_off.value = sv & ~mu;
		b->var_off.mask = mu;
		b->u32_min = 0, b->u32_max = UINT32_MAX, b->s32_min = INT32_MIN, b->s32_max = INT32_MAX;
		return;
	}
	rb_val v;
	rb_ptr_whole_val(env, r, &v);
	env->t->bounds(&v, b);
}

bool rb_is_pointer(const struct rb_reg *r)
{
	return r->type != RT_SCALAR && r->type != RT_NOT_INIT;
}

/* push_jmp_history: one entry per processed insn that needs it; a second
 * push for the same insn merges its flags into the first (6.18). */
int rb_push_hist(struct rb_env *env, struct rb_vstate *st, uint32_t flags)
{
	if (env->cur_hist_ent && st == env->cur && env->cur_hist_ent == &st->hist[st->nhist - 1] &&
	    env->cur_hist_ent->idx == env->insn_idx) {
		env->cur_hist_ent->flags |= flags;
		return 0;
	}
	if (st->nhist == st->cap_hist) {
		/* capacity doubling from 16, as RB_GROW (rb_state_bytes counts it) */
		int cap = st->cap_hist ? st->cap_hist * 2 : 16;
		struct rb_hist *h = rb_pool_realloc(rb_pool_of(st), st->hist, sizeof(struct rb_hist) * (size_t)cap);
		if (!h)
			return RB_E_NOMEM;
		st->hist = h;
		st->cap_hist = cap;
	}
	struct rb_hist *e = &st->hist[st->nhist++];
	e->idx = env->insn_idx;
	e->prev_idx = env->prev_insn_idx;
	e->flags = flags;
	e->linked = 0;
	env->cur_hist_ent = e;
	return 0;
}

/* check_reg_arg: a source register must be initialised, r10 is read-only */
int rb_check_reg_read(struct rb_env *env, int regno)
{
	if (regno >= RB_MAX_REG)
		return rb_reject(env, "R%d is invalid", regno);
	rb_scratch_reg(env, regno);
	if (rb_cur_regs(env)[regno].type == RT_NOT_INIT)
		return rb_reject(env, "R%d !read_ok", regno);
	return 0;
}

int rb_check_reg_write(struct rb_env *env, int regno)
{
	if (regno >= RB_MAX_REG)
		return rb_reject(env, "R%d is invalid", regno);
	rb_scratch_reg(env, regno);
	if (regno == RB_REG_FP)
		return rb_reject(env, "frame pointer is read only");
	return 0;
}

void rb_clobber_caller_saved(struct rb_env *env)
{
	struct rb_reg *regs = rb_cur_regs(env);
	for (int i = 0; i <= 5; i++) {
		rb_reg_not_init(env, &regs[i]);
		rb_scratch_reg(env, i);
	}
}

struct rb_reg *rb_vstate_next_reg(struct rb_vstate *st, unsigned mask, int *fr, int *i)
{
	for (; *fr <= st->curframe; (*fr)++, *i = 0) {
		struct rb_func *f = st->frame[*fr];
		while (*i < RB_MAX_REG + f->nslots) {
			int k = (*i)++;
			if (k < RB_MAX_REG)
				return &f->regs[k];
			struct rb_slot *sl = &f->stack[k - RB_MAX_REG];
			if (mask & (1u << sl->type[7]))
				return &sl->spilled;
		}
	}
	return NULL;
}
