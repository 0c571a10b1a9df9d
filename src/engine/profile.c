/* profile.c — the engine's kernel profiles (see profile.h). */
#include "engine/profile.h"
#include "util/array_size.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct rb_profile profiles[] = {
	{.name = "6.18", .kernel = "6.18.44", .max_call_frames = 8},
	{
		.name = "7.2",
		.kernel = "7.2.13",
		.max_call_frames = 16,
		.null_check_keeps_id = true,
		.stack_live_half_slots = true,
		.const_fold_branches = true,
		.helper_sets_72 = true,
		.linked_regs_max_5 = true,
		.insn_fields_static = true,
		.recursion_static = true,
		.stacksafe_half_scalars = true,
		.ptr_cast_branch = true,
		.timers_in_tracing = true,
		.sched_ext = true,
		.kfunc_trusted_default = true,
		.walk_plain_ptr = true,
		.arena_kfuncs = true,
		.buffer_const_var_off = true,
		.global_call_resets_frames = true,
		.ptr_off_in_var = true,
		.res_lock_err_s64 = true,
		.kfunc_sets_72 = true,
		.safe_fields_72 = true,
		.graph_kfuncs_72 = true,
		.acquire_sets_id = true,
		.log_ptr_whole = true,
		.static_stack_liveness = true,
		.clear_singular_ids = true,
		.widen_ignores_ids = true,
		.fill_assigns_id = true,
		.subprog_stack_args = true,
		.global_void_return = true,
		.dynptr_parent_ids = true,
		.linked_regs_first = true,
		.rcu_nested = true,
		.obj_drop_nmi_fields = true,
		.kptr_xchg_in_lock = true,
	},
};

const struct rb_profile *rb_profile_default(void)
{
	return &profiles[0];
}

const struct rb_profile *rb_profile_get(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct rb_profile *rb_profile_split(const char *row, char *base, size_t len)
{
	if (!row || !len)
		return NULL;
	const char *at = strchr(row, '@');
	size_t n = at ? (size_t)(at - row) : strlen(row);
	if (n >= len)
		return NULL;
	memcpy(base, row, n);
	base[n] = '\0';
	return at ? rb_profile_get(at + 1) : rb_profile_default();
}

int rb_profile_names(char *buf, size_t len, const char *sep)
{
	int n = 0;
	const char *s = "";
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++, s = sep) {
		int k = snprintf(len > (size_t)n ? buf + n : NULL, len > (size_t)n ? len - (size_t)n : 0, "%s%s", s,
				 profiles[i].name);
		n += k > 0 ? k : 0;
	}
	return n;
}

/* every switch of struct rb_profile: where it lives and its kind (the
 * int max_call_frames, the rest bool). test_profile checks that copying
 * all of them makes 6.18 into 7.2, so a switch missing here fails there. */
#define SW_BOOL(f) {#f, offsetof(struct rb_profile, f), false}
static const struct {
	const char *name;
	size_t off;
	bool is_int;
} switches[] = {
	{"max_call_frames", offsetof(struct rb_profile, max_call_frames), true},
	SW_BOOL(null_check_keeps_id),
	SW_BOOL(stack_live_half_slots),
	SW_BOOL(const_fold_branches),
	SW_BOOL(helper_sets_72),
	SW_BOOL(linked_regs_max_5),
	SW_BOOL(insn_fields_static),
	SW_BOOL(recursion_static),
	SW_BOOL(stacksafe_half_scalars),
	SW_BOOL(ptr_cast_branch),
	SW_BOOL(timers_in_tracing),
	SW_BOOL(sched_ext),
	SW_BOOL(kfunc_trusted_default),
	SW_BOOL(walk_plain_ptr),
	SW_BOOL(arena_kfuncs),
	SW_BOOL(buffer_const_var_off),
	SW_BOOL(global_call_resets_frames),
	SW_BOOL(ptr_off_in_var),
	SW_BOOL(res_lock_err_s64),
	SW_BOOL(kfunc_sets_72),
	SW_BOOL(safe_fields_72),
	SW_BOOL(graph_kfuncs_72),
	SW_BOOL(acquire_sets_id),
	SW_BOOL(log_ptr_whole),
	SW_BOOL(static_stack_liveness),
	SW_BOOL(clear_singular_ids),
	SW_BOOL(widen_ignores_ids),
	SW_BOOL(fill_assigns_id),
	SW_BOOL(subprog_stack_args),
	SW_BOOL(global_void_return),
	SW_BOOL(dynptr_parent_ids),
	SW_BOOL(linked_regs_first),
	SW_BOOL(rcu_nested),
	SW_BOOL(obj_drop_nmi_fields),
	SW_BOOL(kptr_xchg_in_lock),
};

size_t rb_profile_switch_count(void)
{
	return ARRAY_SIZE(switches);
}

const char *rb_profile_switch_name(size_t i)
{
	return i < ARRAY_SIZE(switches) ? switches[i].name : NULL;
}

bool rb_profile_switch_differs(const struct rb_profile *a, const struct rb_profile *b, size_t i)
{
	if (i >= ARRAY_SIZE(switches))
		return false;
	const char *pa = (const char *)a + switches[i].off, *pb = (const char *)b + switches[i].off;
	return memcmp(pa, pb, switches[i].is_int ? sizeof(int) : sizeof(bool)) != 0;
}

void rb_profile_switch_copy(struct rb_profile *dst, const struct rb_profile *src, size_t i)
{
	if (i < ARRAY_SIZE(switches))
		memcpy((char *)dst + switches[i].off, (const char *)src + switches[i].off,
		       switches[i].is_int ? sizeof(int) : sizeof(bool));
}
