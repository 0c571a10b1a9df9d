/* timers.c — struct bpf_timer in map values, following Linux 6.18
 * (kernel/bpf/verifier.c: process_timer_func / check_map_field_pointer,
 * the BPF_TIMER parts of check_map_prog_compatibility and
 * check_map_access; kernel/bpf/helpers.c: bpf_timer_init/set_callback/
 * start/cancel protos). The timer is found from the map's BTF value type
 * (locks.c reads it); a helper's ARG_PTR_TO_TIMER is the map value
 * pointer at exactly the timer's offset; bpf_timer_init's map must be the
 * timer's own map; loads and stores may not touch the timer; maps with a
 * timer are refused to the tracing program types before verification. The
 * callback of bpf_timer_set_callback is verified as an async callback
 * (callbacks.c). */
#include "engine/locks.h"
#include "engine/log.h"
#include "engine/profile.h"
#include "engine/timers.h"

/* sizeof(struct bpf_timer) */
#define TIMER_SIZE 16

int32_t rb_map_timer_off(struct rb_env *env, int map_idx)
{
	return rb_map_field_off(env, map_idx, RB_FIELD_TIMER);
}

bool rb_map_has_async(struct rb_env *env, int map_idx)
{
	return rb_map_timer_off(env, map_idx) >= 0 || rb_map_field_off(env, map_idx, RB_FIELD_WQ) >= 0 ||
	       rb_map_field_off(env, map_idx, RB_FIELD_TASK_WORK) >= 0;
}

int rb_check_timer_arg(struct rb_env *env, int regno, int *map_idx, int32_t *map_uid)
{
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	rb_rtype_str(reg, tn, sizeof(tn));
	if (reg->type != RT_MAP_VALUE || reg->flags)
		return rb_reject(env, "R%d type=%s expected=map_value", regno, tn);
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d doesn't have constant offset. bpf_timer has to be at the constant offset",
				 regno);
	const struct rb_map *m = &env->obj->maps[reg->map_idx];
	int32_t off = rb_map_timer_off(env, reg->map_idx);
	if (!m->btf_value_type_id)
		return rb_reject(env, "map '%.15s' has to have BTF in order to use bpf_timer", m->name);
	if (off < 0)
		return rb_reject(env, "map '%.15s' has no valid bpf_timer", m->name);
	int64_t val = (int64_t)rb_reg_const_val(env, reg) + reg->off;
	if (val != off)
		return rb_reject(env, "off %lld doesn't point to 'struct bpf_timer' that is at %d", (long long)val, off);
	*map_idx = reg->map_idx;
	*map_uid = RB_MAP_UID(reg);
	return 0;
}

int rb_timer_check_access(struct rb_env *env, const struct rb_reg *reg, int off, int size)
{
	int32_t timer_off = rb_map_timer_off(env, reg->map_idx);
	if (timer_off < 0)
		return 0;
	struct rb_bounds b;
	rb_reg_bounds(env, reg, &b);
	int64_t lo = (int64_t)b.smin + off, hi = (int64_t)b.umax + off + size;
	if (lo < timer_off + TIMER_SIZE && timer_off < hi)
		return rb_reject(env, "bpf_timer cannot be accessed directly by load/store");
	return 0;
}

bool rb_map_timer_refused(struct rb_env *env, int map_idx)
{
	uint32_t t = env->prog->prog_type;
	bool tracing = t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT || t == BPF_PROG_TYPE_PERF_EVENT ||
		       t == BPF_PROG_TYPE_RAW_TRACEPOINT || t == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE;
	/* 7.2 check_map_prog_compatibility no longer refuses timers in
	 * tracing programs (profile.h timers_in_tracing) */
	return tracing && !env->prof->timers_in_tracing && rb_map_timer_off(env, map_idx) >= 0;
}
