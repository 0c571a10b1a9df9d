/* test_state_size.c — true-size states: a tracker's registers and stored
 * states are allocated at its own representation size (the engine's
 * 40-byte-slot build for cnum, the 64-byte one for old), the memory
 * counters follow, verification itself does not change; the kernel's
 * struct sizes from its BTF; peak RSS per verification (driver/rss.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <cmocka.h>

#include "driver/rss.h"
#include "engine/engine.h"
#include "oracle/kstruct.h"

#include "insn_macros.h"
#include "util/array_size.h"

struct fixture {
	struct rb_object obj;
	struct rb_prog prog;
};

static void verify(struct fixture *f, const char *tracker, const struct bpf_insn *p, size_t n,
		   struct rb_result *res)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->obj.path, sizeof(f->obj.path), "test");
	snprintf(f->prog.name, sizeof(f->prog.name), "prog");
	f->prog.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	f->prog.insns = (struct bpf_insn *)p;
	f->prog.insn_cnt = n;
	snprintf(f->prog.license, sizeof(f->prog.license), "GPL");
	f->obj.progs = &f->prog;
	f->obj.prog_cnt = 1;
	const struct rb_tracker *t = rb_tracker_get(tracker, 64);
	assert_non_null(t);
	struct rb_engine_opts o = {0};
	struct rb_err err = {{0}};
	assert_int_equal(rb_engine_verify(&f->obj, 0, t, &o, res, &err), 0);
}

/* spilled scalars and pending branches: the states hold registers and
 * stack slots */
static const struct bpf_insn prog[] = {
	LDX(BPF_W, 6, 1, 0),
	STX(BPF_DW, 10, 6, -8),
	STX(BPF_DW, 10, 6, -16),
	MOV_K(0, 0),
	JMP_K(BPF_JGT, 6, 100, 2),
	JMP_K(BPF_JGT, 6, 50, 1),
	MOV_K(0, 1),
	LDX(BPF_DW, 7, 10, -8),
	JMP_K(BPF_JLT, 7, 10, 1),
	MOV_K(0, 2),
	EXIT(),
};

static void test_sizes_follow_tracker(void **state)
{
	(void)state;
	struct fixture f;
	struct rb_result o, c;
	const struct rb_tracker *to = rb_tracker_get("old", 64), *tc = rb_tracker_get("cnum", 64);
	verify(&f, "old", prog, ARRAY_SIZE(prog), &o);
	verify(&f, "cnum", prog, ARRAY_SIZE(prog), &c);
	if (o.verdict != RB_ACCEPT)
		printf("old: %s\n", o.msg);
	assert_int_equal(o.verdict, RB_ACCEPT);
	assert_int_equal(c.verdict, RB_ACCEPT);
	/* the same exploration */
	assert_int_equal(o.insns_processed, c.insns_processed);
	assert_int_equal(o.total_states, c.total_states);
	assert_int_equal(o.peak_states, c.peak_states);
	/* a register is smaller by exactly the representation difference */
	size_t diff = to->val_size - tc->val_size;
	assert_true(diff > 0);
	assert_int_equal(o.reg_state_bytes - c.reg_state_bytes, diff);
	/* a one-frame state: 11 registers */
	assert_int_equal(o.state_bytes - c.state_bytes, 11 * diff);
	/* the peak of live states: whole registers and spilled slots, each
	 * smaller by diff (at least two states: the path and a branch) */
	assert_true(o.peak_state_mem > c.peak_state_mem);
	assert_int_equal((o.peak_state_mem - c.peak_state_mem) % diff, 0);
	assert_true(o.peak_state_mem - c.peak_state_mem >= 2 * 11 * diff);
}

/* every binary is linked with -Wl,--wrap=syscall: libbpf's syscalls go to
 * the loader's stand-in, which this test does not otherwise pull in */
long __wrap_syscall(long number, ...);

static void test_kernel_struct_sizes(void **state)
{
	(void)state;
	assert_non_null((void *)&__wrap_syscall);
	struct btf *b = btf__load_vmlinux_btf();
	if (!b) {
		printf("skip: no readable vmlinux BTF\n");
		return;
	}
	struct rb_kstruct_sizes k;
	assert_int_equal(rb_kstruct_sizes(b, &k), 0);
	/* eight bounds: four u64/s64 and four u32/s32 */
	assert_int_equal(k.bounds, 48);
	assert_int_equal(k.reg_cnum, k.reg - 24);
	assert_int_equal(k.func_cnum, k.func - 11 * 24);
	assert_int_equal(k.stack_slot_cnum, k.stack_slot - 24);
	assert_true(k.reg >= 64 && k.func >= 11 * k.reg && k.stack_slot == k.reg + 8);
	btf__free(b);
	assert_int_equal(rb_kstruct_sizes(NULL, &k), -1);
}

static void test_peak_rss(void **state)
{
	(void)state;
	struct rb_rss r = RB_RSS_INIT;
	if (!rb_rss_reset_peak(&r)) {
		printf("skip: /proc/self/clear_refs not writable\n");
		return;
	}
	uint64_t before = rb_rss_peak_kib(&r);
	assert_true(before > 0);
	/* mmap, not malloc: the sanitizer's allocator keeps freed memory */
	size_t n = 64u << 20;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	memset(p, 1, n);
	uint64_t peak = rb_rss_peak_kib(&r);
	munmap(p, n);
	assert_true(peak >= before + 60 * 1024);
	/* freed and reset: the next peak no longer holds it */
	assert_true(rb_rss_reset_peak(&r));
	assert_true(rb_rss_peak_kib(&r) < peak - 30 * 1024);
	rb_rss_close(&r);
	assert_int_equal(r.clear_fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_follow_tracker),
		cmocka_unit_test(test_kernel_struct_sizes),
		cmocka_unit_test(test_peak_rss),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
