/* test_progdiff_batch.c — what progdiff against a kernel image is built
 * from, without a guest: progen batch files (written, opened into an
 * object whose programs are the generated ones with their own maps, bad
 * files refused with the reason), log summaries (a trace differs when the
 * instructions walked do, not when only states or 7.2's preamble do),
 * the per-program comparison and the default tracker of a reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "loader/object.h"
#include "progen/batch.h"
#include "progen/progen.h"
#include "verify/progdiff.h"
#include "verify/progdiff_impl.h"
#include "verify/verify.h"

static void tmpfile_path(char *out, size_t len)
{
	const char *t = getenv("TMPDIR");
	snprintf(out, len, "%s/test_progdiff_batch.%d.rbpg", t && *t ? t : "/tmp", (int)getpid());
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* a batch opens into the generated programs, each with its own maps */
static void test_batch_round_trip(void **state)
{
	(void)state;
	char path[512];
	tmpfile_path(path, sizeof(path));
	struct rb_progen_prog *p = malloc(sizeof(*p));
	assert_non_null(p);
	const char *fams[] = {"ptr", "ringbuf", "range"};
	for (size_t fi = 0; fi < 3; fi++) {
		int f = rb_progen_family_find(fams[fi]);
		assert_true(f >= 0);
		struct rb_err err = {{0}};
		assert_int_equal(rb_progen_write_batch(path, f, 9, 3, 6, &err), 0);
		struct rb_object *obj = NULL;
		assert_int_equal(rb_object_open(path, NULL, &obj, &err), 0);
		assert_int_equal(obj->prog_cnt, 6);
		size_t maps_seen = 0;
		for (size_t i = 0; i < 6; i++) {
			assert_int_equal(rb_progen_generate(f, 9, 3 + i, p), 0);
			const struct rb_prog *q = &obj->progs[i];
			char name[64];
			snprintf(name, sizeof(name), "%s_%zu", fams[fi], 3 + i);
			assert_string_equal(q->name, name);
			assert_int_equal(q->prog_type, p->prog_type);
			assert_int_equal(q->insn_cnt, p->insn_cnt);
			for (size_t k = 0; k < p->insn_cnt; k++) {
				const struct bpf_insn *a = &p->insns[k], *b = &q->insns[k];
				bool map_ref = a->code == (BPF_LD | BPF_IMM | BPF_DW) &&
					       (a->src_reg == BPF_PSEUDO_MAP_IDX || a->src_reg == BPF_PSEUDO_MAP_IDX_VALUE);
				if (!map_ref) {
					assert_memory_equal(a, b, sizeof(*a));
					continue;
				}
				/* the object's map at the shifted index is this program's map */
				assert_true(b->imm >= 0 && (size_t)b->imm < obj->map_cnt);
				const struct rb_map *m = &obj->maps[b->imm];
				const struct rb_progen_map *pm = &p->maps[a->imm];
				assert_string_equal(m->name, pm->name);
				assert_int_equal(m->type, pm->type);
				assert_int_equal(m->value_size, pm->value_size);
				assert_int_equal(m->max_entries, pm->max_entries);
				k++;
			}
			maps_seen += p->map_cnt;
			/* the engine sees the same program as progdiff's own object */
			struct rb_progen_object *h = malloc(sizeof(*h));
			assert_non_null(h);
			rb_progen_object(p, h);
			struct rb_verify_opts vo = {.tracker = "cnum-mainline@7.2"};
			struct rb_result r1, r2;
			assert_int_equal(rb_verify(&h->obj, 0, &vo, &r1, &err), 0);
			assert_int_equal(rb_verify(obj, i, &vo, &r2, &err), 0);
			assert_int_equal(r1.verdict, r2.verdict);
			assert_int_equal(r1.insns_processed, r2.insns_processed);
			assert_string_equal(r1.msg, r2.msg);
			free(h);
		}
		assert_int_equal(obj->map_cnt, maps_seen);
		if (!strcmp(fams[fi], "range"))
			assert_int_equal(maps_seen, 0);
		else
			assert_true(maps_seen >= 6);
		rb_object_free(obj);
	}
	unlink(path);
	free(p);
}

static void expect_refused(const char *path, const char *text, const char *why)
{
	write_text(path, text);
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	assert_int_equal(rb_object_open(path, NULL, &obj, &err), -1);
	assert_null(obj);
	if (!strstr(err.msg, why) || !strstr(err.msg, path))
		fail_msg("'%s': expected '%s' naming the file, got '%s'", text, why, err.msg);
}

static void test_batch_refused(void **state)
{
	(void)state;
	char path[512];
	tmpfile_path(path, sizeof(path));
	struct rb_err err = {{0}};
	assert_int_equal(rb_progen_write_batch(path, rb_progen_family_find("jset"), 1, 0, 2, &err), 0);
	FILE *f = fopen(path, "r");
	char line[160];
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	/* the file's own digest is the last word: change one digit */
	char *d = strrchr(line, ' ') + 1;
	d[0] = d[0] == '0' ? '1' : '0';
	expect_refused(path, line, "generates other programs");
	expect_refused(path, "RBPROGEN1 nosuch 1 0 2 0000000000000000\n", "no progen family 'nosuch'");
	expect_refused(path, "RBPROGEN1 jset 1 0 0 0000000000000000\n", "1..20000 in a batch");
	expect_refused(path, "RBPROGEN1 jset 1 0 20001 0000000000000000\n", "1..20000 in a batch");
	expect_refused(path, "RBPROGEN1 jset 1 18446744073709551615 2 0000000000000000\n", "in a batch");
	expect_refused(path, "RBPROGEN1 jset 1 0 2\n", "not a progen batch line");
	expect_refused(path, "RBPROGEN1 jset 1 0 2 0000000000000000\nmore\n", "not a progen batch line");
	expect_refused(path, "RBPROGEN1 jset x 0 2 0000000000000000\n", "not a progen batch line");
	char longline[400];
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "RBPROGEN1 ", 10);
	longline[sizeof(longline) - 1] = 0;
	expect_refused(path, longline, "one short line");
	assert_int_equal(rb_progen_write_batch(path, rb_progen_family_count(), 1, 0, 2, &err), -1);
	unlink(path);
}

static const char log618[] = "func#0 @0\n"
			     "0: R1=ctx() R10=fp0\n"
			     "0: (85) call bpf_get_prandom_u32#7 ; R0=scalar()\n"
			     "1: (bf) r6 = r0 ; R0=scalar(id=1) R6=scalar(id=1)\n"
			     "2: (25) if r6 > 0x8 goto pc+1 ; R6=scalar(id=1,smin=smin32=0,smax=umax=smax32=umax32=8)\n"
			     "3: (b7) r0 = 0 ; R0=0\n"
			     "4: (95) exit\n"
			     "from 2 to 4: R0=scalar(id=1) R6=scalar(id=1,umin=9) R10=fp0\n"
			     "4: R0=scalar(id=1) R6=scalar(id=1,umin=9) R10=fp0\n"
			     "4: (95) exit\n"
			     "processed 6 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 "
			     "mark_read 0\n";

static void edit(const char *in, const char *from, const char *to, char *out, size_t len)
{
	const char *at = strstr(in, from);
	assert_non_null(at);
	snprintf(out, len, "%.*s%s%s", (int)(at - in), in, to, at + strlen(from));
}

static void test_summary(void **state)
{
	(void)state;
	struct rb_progdiff_sum a, b, c;
	assert_int_equal(rb_progdiff_summarise(log618, &a), 0);
	assert_int_equal(a.ntrace, 7); /* 5 instruction lines, "from 2 to 4", the exit after it */
	assert_int_equal(a.nstates, 7); /* the first line, 4 after ";", the two at the branch */
	char line[160];
	rb_progdiff_sum_format(&a, line, sizeof(line));
	assert_int_equal(rb_progdiff_sum_parse(line, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_int_equal(rb_progdiff_sum_parse("not a summary", &b), -1);
	assert_int_equal(rb_progdiff_sum_parse(NULL, &b), -1);

	char other[2048];
	/* another state, the same walk: the states differ, the trace does not */
	edit(log618, "R6=scalar(id=1,umin=9) R10=fp0\n4: R0", "R6=scalar(umin=9) R10=fp0\n4: R0", other,
	     sizeof(other));
	assert_int_equal(rb_progdiff_summarise(other, &c), 0);
	assert_true(c.trace == a.trace && c.ntrace == a.ntrace);
	assert_true(c.states != a.states);
	/* 7.2's preamble (listing, stack use/def) is not part of the trace */
	snprintf(other, sizeof(other), "topo_order[0] =\nsubprog#0: analyzing (depth 0)...\nsubprog#0:\n"
				       "  0: (85) call bpf_get_prandom_u32#7\n  1: (bf) r6 = r0\n%s",
		 log618);
	assert_int_equal(rb_progdiff_summarise(other, &c), 0);
	assert_true(c.trace == a.trace && c.ntrace == a.ntrace);
	/* a pruning where the other explored: the trace differs */
	edit(log618, "from 2 to 4: R0=scalar(id=1) R6=scalar(id=1,umin=9) R10=fp0\n4: R0=scalar(id=1) "
		     "R6=scalar(id=1,umin=9) R10=fp0\n4: (95) exit\n",
	     "from 2 to 4: safe\n", other, sizeof(other));
	assert_int_equal(rb_progdiff_summarise(other, &c), 0);
	assert_true(c.trace != a.trace);
	assert_int_equal(c.ntrace, 6);
}

static void test_classify(void **state)
{
	(void)state;
	struct rb_progdiff_counts c;
	memset(&c, 0, sizeof(c));
	struct rb_result k = {.verdict = RB_ACCEPT, .err_insn = -1}, e = k;
	k.insns_processed = 10;
	e.insns_processed = 10;
	assert_null(rb_progdiff_classify(&c, &k, &e));
	e.insns_processed = 12;
	assert_string_equal(rb_progdiff_classify(&c, &k, &e), "processed instructions differ");
	e.verdict = RB_REJECT;
	assert_string_equal(rb_progdiff_classify(&c, &k, &e), "verdicts differ");
	k.verdict = RB_REJECT;
	k.insns_processed = e.insns_processed;
	snprintf(k.msg, sizeof(k.msg), "R1 invalid mem access 'scalar'");
	snprintf(e.msg, sizeof(e.msg), "R1 invalid mem access 'inv'");
	assert_string_equal(rb_progdiff_classify(&c, &k, &e), "messages differ");
	e.verdict = RB_UNSUPPORTED;
	assert_string_equal(rb_progdiff_classify(&c, &k, &e), "the engine gave no verdict");
	k.verdict = e.verdict = RB_LIMIT;
	assert_null(rb_progdiff_classify(&c, &k, &e));
	assert_int_equal(c.programs, 6);
	assert_int_equal(c.kernel_accepts, 3);
	assert_int_equal(c.insn_diffs, 2);
	assert_int_equal(c.verdict_diffs, 1);
	assert_int_equal(c.ref_only, 1);
	assert_int_equal(c.tracker_only, 0);
	assert_int_equal(c.message_diffs, 1);
	assert_int_equal(c.engine_other, 1);
	assert_true(rb_progdiff_differs(&c));
	struct rb_progdiff_counts z;
	memset(&z, 0, sizeof(z));
	z.programs = 5;
	assert_false(rb_progdiff_differs(&z));
	z.no_reference = 1;
	assert_true(rb_progdiff_differs(&z));
}

static void test_default_tracker(void **state)
{
	(void)state;
	char conf[512];
	tmpfile_path(conf, sizeof(conf));
	write_text(conf, "kernel-7.2 debian:sid/linux-image-7.2.13+deb14-cloud-amd64 qemu 2G\n"
			 "kernel-6.1 debian:bookworm/linux-image-6.1.0-50-cloud-amd64 qemu 2G\n");
	setenv("RB_KERNELS_CONF", conf, 1);
	char buf[64];
	assert_string_equal(rb_progdiff_default_tracker("kernel", buf, sizeof(buf)), "old");
	assert_string_equal(rb_progdiff_default_tracker(NULL, buf, sizeof(buf)), "old");
	assert_string_equal(rb_progdiff_default_tracker("cnum", buf, sizeof(buf)), "old");
	assert_string_equal(rb_progdiff_default_tracker("kernel-7.2", buf, sizeof(buf)), "cnum-mainline@7.2");
	/* an image of a kernel the engine has no profile for */
	assert_string_equal(rb_progdiff_default_tracker("kernel-6.1", buf, sizeof(buf)), "old");
	unsetenv("RB_KERNELS_CONF");
	unlink(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_round_trip), cmocka_unit_test(test_batch_refused),
		cmocka_unit_test(test_summary),          cmocka_unit_test(test_classify),
		cmocka_unit_test(test_default_tracker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
