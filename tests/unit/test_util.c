/* test_util.c — the small shared helpers of src/util: growing arrays
 * (grow.h) and the program filter (filter.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/filter.h"
#include "util/grow.h"

struct pair {
	int a;
	double b;
};

static void test_grow_doubles_from_initial(void **state)
{
	(void)state;
	struct pair *v = NULL;
	size_t n = 0, cap = 0;
	size_t caps[40];
	for (int i = 0; i < 40; i++) {
		assert_int_equal(RB_GROW(v, n + 1, &cap, 8), 0);
		v[n++] = (struct pair){i, i * 0.5};
		caps[i] = cap;
	}
	assert_int_equal(caps[0], 8);
	assert_int_equal(caps[7], 8);
	assert_int_equal(caps[8], 16);
	assert_int_equal(caps[16], 32);
	assert_int_equal(caps[39], 64);
	for (int i = 0; i < 40; i++)
		assert_int_equal(v[i].a, i); /* contents survive every move */
	free(v);
}

static void test_grow_int_capacity(void **state)
{
	(void)state;
	char **v = NULL;
	int n = 0, cap = 0;
	assert_int_equal(RB_GROW(v, n + 1, &cap, 4), 0);
	assert_int_equal(cap, 4);
	assert_int_equal(RB_GROW(v, 3, &cap, 4), 0); /* room already: nothing moves */
	assert_int_equal(cap, 4);
	assert_int_equal(RB_GROW(v, 9, &cap, 4), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(RB_GROW(v, -1, &cap, 4), -1);
	assert_int_equal(cap, 16);
	free(v);
}

static void test_grow_overflow_leaves_array(void **state)
{
	(void)state;
	uint64_t *v = NULL;
	size_t cap = 0;
	assert_int_equal(RB_GROW(v, 2, &cap, 2), 0);
	uint64_t *before = v;
	v[0] = 7;
	assert_int_equal(RB_GROW(v, SIZE_MAX / 4, &cap, 2), -1);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 2);
	assert_int_equal(v[0], 7);
	free(v);
}

static void test_filter(void **state)
{
	(void)state;
	assert_true(rb_filter_match(NULL, "a/b.o", "prog"));
	assert_true(rb_filter_match("pro*", "a/b.o", "prog"));
	assert_true(rb_filter_match("b.o/prog", "dir/sub/b.o", "prog"));
	assert_true(rb_filter_match("b.o/*", "b.o", "prog"));
	assert_false(rb_filter_match("sub/b.o/prog", "dir/sub/b.o", "prog"));
	assert_false(rb_filter_match("x*", "a/b.o", "prog"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles_from_initial),
		cmocka_unit_test(test_grow_int_capacity),
		cmocka_unit_test(test_grow_overflow_leaves_array),
		cmocka_unit_test(test_filter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
