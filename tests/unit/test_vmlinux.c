/* test_vmlinux.c — the running kernel's BTF is parsed once per shared
 * handle: verifying a tp_btf program several times, with both trackers,
 * through one rb_vmlinux parses /sys/kernel/btf/vmlinux once and gives
 * the same results as verifying with a private parse each time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "engine/vmlinux.h"
#include "loader/object.h"
#include "loader_fixture.h"
#include "verify/verify.h"

static size_t find_prog(const struct rb_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, name))
			return i;
	fail_msg("no program %s", name);
	return 0;
}

static void test_handle_loads_once(void **state)
{
	(void)state;
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	assert_int_equal(rb_vmlinux_loads(v), 0); /* lazy: nothing parsed yet */
	const struct btf *a = rb_vmlinux_get(v), *b = rb_vmlinux_get(v);
	assert_ptr_equal(a, b);
	assert_int_equal(rb_vmlinux_loads(v), 1);
	rb_vmlinux_free(v);
	rb_vmlinux_free(NULL);
}

static void test_shared_across_programs(void **state)
{
	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		skip(); /* no kernel BTF on this machine */
		return;
	}
	char path[512];
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	assert_int_equal(rb_object_open(lf_obj_path("core", path, sizeof(path)), NULL, &obj, &err), 0);
	size_t p = find_prog(obj, "on_switch");
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	const char *trackers[] = {"old", "cnum"};
	for (int round = 0; round < 3; round++) {
		for (int t = 0; t < 2; t++) {
			struct rb_result shared, own;
			struct rb_verify_opts so = {.tracker = trackers[t], .vmlinux = v};
			struct rb_verify_opts oo = {.tracker = trackers[t]};
			assert_int_equal(rb_verify(obj, p, &so, &shared, &err), 0);
			assert_int_equal(rb_verify(obj, p, &oo, &own, &err), 0);
			assert_int_equal(shared.verdict, RB_ACCEPT);
			assert_int_equal(own.verdict, RB_ACCEPT);
			assert_int_equal(shared.insns_processed, own.insns_processed);
			assert_int_equal(shared.total_states, own.total_states);
			assert_int_equal(shared.peak_state_mem, own.peak_state_mem);
		}
	}
	assert_int_equal(rb_vmlinux_loads(v), 1);
	rb_vmlinux_free(v);
	rb_object_free(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handle_loads_once),
		cmocka_unit_test(test_shared_across_programs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
