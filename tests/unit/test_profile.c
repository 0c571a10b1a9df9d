/* test_profile.c — the engine's kernel profiles (src/engine/profile.h):
 * the rows NAME@PROFILE split into tracker and profile, and the switch
 * table that explain's switch attribution (src/explain/switches.h) builds
 * profiles between two with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/profile.h"

/* every switch of struct rb_profile is in the table: 6.18 with each of
 * them copied from 7.2 is 7.2, field for field (a switch added to the
 * struct but not to the table stays 6.18's and fails here) */
static void test_switch_table_complete(void **state)
{
	(void)state;
	const struct rb_profile *a = rb_profile_get("6.18"), *b = rb_profile_get("7.2");
	assert_non_null(a);
	assert_non_null(b);
	struct rb_profile p;
	memcpy(&p, a, sizeof(p));
	for (size_t i = 0; i < rb_profile_switch_count(); i++)
		rb_profile_switch_copy(&p, b, i);
	p.name = b->name;
	p.kernel = b->kernel;
	assert_memory_equal(&p, b, sizeof(p));
}

/* each switch differs between 6.18 and 7.2 (a switch that does not is no
 * difference between the kernels); names are unique; copying one switch
 * changes that switch only */
static void test_switch_one_at_a_time(void **state)
{
	(void)state;
	const struct rb_profile *a = rb_profile_get("6.18"), *b = rb_profile_get("7.2");
	size_t n = rb_profile_switch_count();
	assert_true(n >= 18);
	assert_null(rb_profile_switch_name(n));
	for (size_t i = 0; i < n; i++) {
		const char *name = rb_profile_switch_name(i);
		assert_non_null(name);
		assert_true(rb_profile_switch_differs(a, b, i));
		assert_false(rb_profile_switch_differs(a, a, i));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(name, rb_profile_switch_name(j));
		struct rb_profile p = *a;
		rb_profile_switch_copy(&p, b, i);
		for (size_t j = 0; j < n; j++)
			assert_int_equal(rb_profile_switch_differs(&p, a, j), j == i);
		assert_false(rb_profile_switch_differs(&p, b, i));
	}
	assert_true(rb_profile_switch_differs(a, b, 0) && !strcmp(rb_profile_switch_name(0), "max_call_frames"));
	struct rb_profile p = *a;
	rb_profile_switch_copy(&p, b, 0);
	assert_int_equal(p.max_call_frames, 16);
	assert_int_equal(a->max_call_frames, 8);
}

static void test_split(void **state)
{
	(void)state;
	char base[16];
	assert_ptr_equal(rb_profile_split("old", base, sizeof(base)), rb_profile_default());
	assert_string_equal(base, "old");
	assert_ptr_equal(rb_profile_split("cnum-mainline@7.2", base, sizeof(base)), rb_profile_get("7.2"));
	assert_string_equal(base, "cnum-mainline");
	assert_null(rb_profile_split("old@9", base, sizeof(base)));
	assert_null(rb_profile_split("a-name-longer-than-sixteen@7.2", base, sizeof(base)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_table_complete),
		cmocka_unit_test(test_switch_one_at_a_time),
		cmocka_unit_test(test_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
