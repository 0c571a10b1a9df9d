/* test_vmlinux.c — the running kernel's BTF is parsed once per shared
 * handle: verifying a tp_btf program several times, with both trackers,
 * through one rb_vmlinux parses /sys/kernel/btf/vmlinux once and gives
 * the same results as verifying with a private parse each time; libbpf
 * borrows the handle's parse when the handle is lent to the loader; a
 * handle's remembered name lookups answer as libbpf's search does. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

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

/* a lender that counts its calls */
struct counted {
	struct rb_btf_lend inner;
	unsigned calls;
};

static const struct btf *counted_get(void *ctx)
{
	struct counted *c = ctx;
	c->calls++;
	return c->inner.get(c->inner.ctx);
}

static void assert_same_object(const struct rb_object *a, const struct rb_object *b)
{
	assert_string_equal(a->sha256, b->sha256);
	assert_int_equal(a->prog_cnt, b->prog_cnt);
	for (size_t i = 0; i < a->prog_cnt; i++) {
		assert_string_equal(a->progs[i].name, b->progs[i].name);
		assert_string_equal(a->progs[i].error, b->progs[i].error);
		assert_int_equal(a->progs[i].insn_cnt, b->progs[i].insn_cnt);
		if (a->progs[i].insn_cnt)
			assert_memory_equal(a->progs[i].insns, b->progs[i].insns,
					    a->progs[i].insn_cnt * sizeof(*a->progs[i].insns));
		assert_int_equal(a->progs[i].attach_btf_id, b->progs[i].attach_btf_id);
	}
}

/* libbpf borrows the handle's parse (rb_load_opts.lend_btf): opening an
 * object whose CO-RE relocations need the kernel's BTF twice, then
 * verifying it, parses the file once, and gives the object libbpf's own
 * parse gives; libbpf's frees leave the lent BTF alone (the verification
 * after the opens reads it: AddressSanitizer would report a freed one).
 * A lender of another file is not used for the running kernel. */
static void test_lent_to_libbpf(void **state)
{
	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		skip();
		return;
	}
	char path[512];
	lf_obj_path("core", path, sizeof(path));
	struct rb_err err = {{0}};
	struct rb_object *own = NULL, *lent = NULL, *again = NULL, *other = NULL;
	assert_int_equal(rb_object_open(path, NULL, &own, &err), 0);
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	struct counted c = {.inner = rb_vmlinux_lend(v)};
	struct rb_btf_lend lend = {.path = NULL, .get = counted_get, .ctx = &c};
	struct rb_load_opts lo = {.lend_btf = &lend};
	assert_int_equal(rb_object_open(path, &lo, &lent, &err), 0);
	assert_true(c.calls >= 1);
	assert_int_equal(rb_vmlinux_loads(v), 1);
	assert_int_equal(rb_object_open(path, &lo, &again, &err), 0);
	assert_int_equal(rb_vmlinux_loads(v), 1);
	assert_same_object(own, lent);
	assert_same_object(own, again);
	struct rb_result res;
	struct rb_verify_opts vo = {.tracker = "old", .vmlinux = v};
	assert_int_equal(rb_verify(lent, find_prog(lent, "on_switch"), &vo, &res, &err), 0);
	assert_int_equal(res.verdict, RB_ACCEPT);
	assert_int_equal(rb_vmlinux_loads(v), 1);
	/* a lender of another file: libbpf parses the running kernel's itself */
	unsigned before = c.calls;
	lend.path = "/nonexistent/btf";
	assert_int_equal(rb_object_open(path, &lo, &other, &err), 0);
	assert_int_equal(c.calls, before);
	assert_same_object(own, other);
	rb_object_free(own);
	rb_object_free(lent);
	rb_object_free(again);
	rb_object_free(other);
	rb_vmlinux_free(v);
}

/* rb_vmlinux_find answers btf__find_by_name_kind's answer, asked first and
 * again (remembered), for ~100 names of the BTF (more than the first table
 * holds: it grows), a name under a kind it does not have, a missing name,
 * "void"; and the id found has that name and kind. An unreadable file: -1. */
static void test_find_remembered(void **state)
{
	(void)state;
	struct rb_vmlinux *bad = rb_vmlinux_new_file("/nonexistent/btf");
	assert_non_null(bad);
	assert_int_equal(rb_vmlinux_find(bad, "task_struct", BTF_KIND_STRUCT), -1);
	rb_vmlinux_free(bad);
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		skip();
		return;
	}
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	const struct btf *b = rb_vmlinux_get(v);
	assert_non_null(b);
	uint32_t n = btf__type_cnt(b);
	const char *names[128];
	int kinds[128], cnt = 0;
	for (uint32_t id = 1; id < n && cnt < 100; id += n / 120) {
		const struct btf_type *t = btf__type_by_id(b, id);
		const char *name = btf__name_by_offset(b, t->name_off);
		if (name && name[0]) {
			names[cnt] = name;
			kinds[cnt++] = btf_kind(t);
		}
	}
	assert_true(cnt > 40);
	names[cnt] = "task_struct", kinds[cnt++] = BTF_KIND_FUNC;
	names[cnt] = "task_struct", kinds[cnt++] = BTF_KIND_STRUCT;
	names[cnt] = "rb_no_such_type", kinds[cnt++] = BTF_KIND_STRUCT;
	names[cnt] = "void", kinds[cnt++] = BTF_KIND_INT;
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < cnt; i++) {
			int32_t want = btf__find_by_name_kind(b, names[i], (uint32_t)kinds[i]);
			int32_t got = rb_vmlinux_find(v, names[i], kinds[i]);
			if (got != want)
				fail_msg("%s (kind %d): %d, libbpf %d", names[i], kinds[i], got, want);
			if (got > 0) {
				const struct btf_type *t = btf__type_by_id(b, (uint32_t)got);
				assert_string_equal(btf__name_by_offset(b, t->name_off), names[i]);
				assert_int_equal(btf_kind(t), kinds[i]);
			}
		}
	}
	assert_true(rb_vmlinux_find(v, "task_struct", BTF_KIND_STRUCT) > 0);
	assert_true(rb_vmlinux_find(v, "task_struct", BTF_KIND_FUNC) <= 0);
	assert_true(rb_vmlinux_find(v, "rb_no_such_type", BTF_KIND_STRUCT) < 0);
	assert_int_equal(rb_vmlinux_find(v, "void", BTF_KIND_INT), 0);
	assert_int_equal(rb_vmlinux_loads(v), 1);
	rb_vmlinux_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handle_loads_once),
		cmocka_unit_test(test_shared_across_programs),
		cmocka_unit_test(test_lent_to_libbpf),
		cmocka_unit_test(test_find_remembered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
