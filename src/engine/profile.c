/* profile.c — the engine's kernel profiles (see profile.h). */
#include "engine/profile.h"
#include "util/array_size.h"

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
