/* test_util.c — the small shared helpers of src/util: growing arrays
 * (grow.h), the program filter (filter.h) and the block pool (pool.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/filter.h"
#include "util/grow.h"
#include "util/pool.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

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

/* a freed block is the next one of its size class; blocks of other
 * classes are others; each knows its pool */
static void test_pool_reuses_by_class(void **state)
{
	(void)state;
	struct rb_pool *p = rb_pool_new();
	assert_non_null(p);
	char *a = rb_pool_alloc(p, 100), *b = rb_pool_alloc(p, 100), *c = rb_pool_alloc(p, 1000);
	assert_non_null(a);
	assert_true(a != b && a != c && b != c);
	assert_true(((uintptr_t)a & 15) == 0 && ((uintptr_t)c & 15) == 0);
	assert_ptr_equal(rb_pool_of(a), p);
	memset(a, 1, 100);
	memset(b, 2, 100);
	rb_pool_free(a);
#ifdef __SANITIZE_ADDRESS__
	assert_true(__asan_address_is_poisoned(a)); /* a use after free is caught */
#endif
	assert_ptr_equal(rb_pool_alloc(p, 110), a); /* same 64-byte class */
	assert_int_equal(b[99], 2);
	char *z = rb_pool_calloc(p, 100);
	for (int i = 0; i < 100; i++)
		assert_int_equal(z[i], 0);
	rb_pool_delete(p);
}

/* growing keeps the contents, within a class and across classes, from
 * the block's own pool; many blocks (past the first huge chunk) stay
 * apart */
static void test_pool_realloc_and_many(void **state)
{
	(void)state;
	struct rb_pool *p = rb_pool_new();
	unsigned char *g = rb_pool_realloc(p, NULL, 96);
	for (int i = 0; i < 96; i++)
		g[i] = (unsigned char)i;
	g = rb_pool_realloc(p, g, 100);
	g = rb_pool_realloc(p, g, 6144);
	assert_ptr_equal(rb_pool_of(g), p);
	for (int i = 0; i < 96; i++)
		assert_int_equal(g[i], i);
	enum { N = 3000 };
	int **v = calloc(N, sizeof(*v));
	for (int i = 0; i < N; i++) {
		v[i] = rb_pool_alloc(p, 4000); /* 12 MB: chunks of 64 KiB to 4 MiB */
		assert_non_null(v[i]);
		v[i][0] = i;
		v[i][999] = -i;
	}
	for (int i = 0; i < N; i += 2)
		rb_pool_free(v[i]);
	for (int i = 1; i < N; i += 2)
		assert_true(v[i][0] == i && v[i][999] == -i);
	free(v);
	rb_pool_free(g);
	rb_pool_delete(p);
	/* the deleted pool's huge chunks are unmapped; memory mapped there
	 * next is not poisoned (under ASan it read as such: fuzz_replay.sh) */
	char *m = rb_pool_calloc(NULL, (size_t)12 << 20);
	assert_non_null(m);
	memset(m, 1, (size_t)12 << 20);
	rb_pool_free(m);
}

/* after a reset the same memory is carved again, in the same order; a
 * block of 2 MiB or more is mapped on its own, zero, and grows; a pool
 * keeps it when freed and across a reset, and gives it (zeroed again, for
 * calloc) to the next big block that fits */
static void test_pool_reset_and_big(void **state)
{
	(void)state;
	struct rb_pool *p = rb_pool_new();
	char *first = rb_pool_alloc(p, 500), *later = NULL;
	for (int i = 0; i < 2000; i++) /* 2 MB: past the first chunks */
		later = rb_pool_alloc(p, 1000);
	rb_pool_reset(p);
	assert_ptr_equal(rb_pool_alloc(p, 500), first);
	char *again = NULL;
	for (int i = 0; i < 2000; i++)
		again = rb_pool_alloc(p, 1000);
	assert_ptr_equal(again, later);
	unsigned char *big = rb_pool_calloc(p, (size_t)3 << 20);
	assert_non_null(big);
	assert_ptr_equal(rb_pool_of(big), p);
	assert_int_equal(big[0] | big[(3 << 20) - 1], 0);
	big[12345] = 7;
	big = rb_pool_realloc(p, big, (size_t)5 << 20);
	assert_int_equal(big[12345], 7);
	memset(big, 9, (size_t)5 << 20);
	rb_pool_free(big);
	/* kept: the next big block that fits is the same memory, zero for
	 * calloc; one that does not fit is another */
	unsigned char *again_big = rb_pool_calloc(p, (size_t)4 << 20);
	assert_ptr_equal(again_big, big);
	for (size_t i = 0; i < ((size_t)4 << 20); i += 4093)
		assert_int_equal(again_big[i], 0);
	assert_int_equal(again_big[((size_t)4 << 20) - 1], 0);
	unsigned char *other = rb_pool_calloc(p, (size_t)3 << 20);
	assert_true(other != big);
	assert_int_equal(other[0] | other[(3 << 20) - 1], 0);
	/* a reset frees both, and keeps them */
	memset(other, 5, (size_t)3 << 20);
	rb_pool_reset(p);
	unsigned char *after = rb_pool_alloc(p, (size_t)3 << 20), *after2 = rb_pool_calloc(p, (size_t)3 << 20);
	assert_true((after == big || after == other) && (after2 == big || after2 == other) && after != after2);
	assert_int_equal(after2[0] | after2[(3 << 20) - 1], 0);
	/* a block without a pool is unmapped when freed, a pool of none */
	unsigned char *own = rb_pool_calloc(NULL, (size_t)3 << 20);
	assert_null(rb_pool_of(own));
	rb_pool_free(own);
	rb_pool_release(p);
	rb_pool_delete(p);
}

/* no pool, or a block too big for one: malloc, freed and grown alike */
static void test_pool_heap_blocks(void **state)
{
	(void)state;
	char *a = rb_pool_alloc(NULL, 50);
	assert_null(rb_pool_of(a));
	memset(a, 7, 50);
	a = rb_pool_realloc(NULL, a, 20000);
	assert_int_equal(a[49], 7);
	rb_pool_free(a);
	struct rb_pool *p = rb_pool_new();
	char *big = rb_pool_alloc(p, RB_POOL_MAX_BLOCK + 1);
	assert_null(rb_pool_of(big));
	rb_pool_free(big);
	rb_pool_free(NULL);
	rb_pool_delete(p);
	rb_pool_delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles_from_initial),
		cmocka_unit_test(test_grow_int_capacity),
		cmocka_unit_test(test_grow_overflow_leaves_array),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_pool_reuses_by_class),
		cmocka_unit_test(test_pool_realloc_and_many),
		cmocka_unit_test(test_pool_heap_blocks),
		cmocka_unit_test(test_pool_reset_and_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
