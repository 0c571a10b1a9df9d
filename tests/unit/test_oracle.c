/* test_oracle.c — the kernel oracle against the running kernel: raw
 * programs with known verdicts, statistics parsed from the log, the log
 * buffer growing past its first size, opdiff's generated programs all
 * loadable, objects opened by the loader (maps, frozen .rodata, a refused
 * trampoline program), and agreement with plain libbpf's
 * bpf_object__load(). Every test is skipped where bpf() is not permitted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>

#include "engine/vmlinux.h"
#include "loader/bpf_standin.h"
#include "loader/object.h"
#include "oracle/bpf_sys.h"
#include "oracle/helper_probe.h"
#include "oracle/kload.h"
#include "oracle/opdiff.h"
#include "oracle/opgen.h"
#include "oracle/vlog.h"
#include "verify/verify.h"

#include "insn_macros.h"

static void need_bpf(void)
{
	const char *why;
	if (!rb_bpf_available(&why)) {
		print_message("skipping: %s\n", why);
		skip();
	}
}

static const char *obj_path(const char *name, char *buf, size_t sz)
{
	const char *dir = getenv("RB_TEST_OBJECTS");
	snprintf(buf, sz, "%s/%s.bpf.o", dir ? dir : "build/test/objects", name);
	return buf;
}

static int load(const struct bpf_insn *p, size_t n, uint32_t level, struct rb_klog *log, struct rb_result *res)
{
	struct rb_kload_args a = {.prog_type = BPF_PROG_TYPE_SOCKET_FILTER, .insns = p, .insn_cnt = n,
				  .prog_btf_fd = -1, .log_level = level};
	int e = 0;
	int fd = rb_kload_raw(&a, log, &e);
	rb_kload_classify(fd, e, log->buf, a.prog_type, 0, res);
	if (fd >= 0)
		close(fd);
	return fd;
}

static void test_accepted(void **state)
{
	(void)state;
	need_bpf();
	/* r0 = 0; if r0 > 1 goto +0 (never); exit */
	const struct bpf_insn p[] = {I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_JGT | BPF_K, 0, 0, 0, 1), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	struct rb_klog log = {0};
	struct rb_result r;
	assert_true(load(p, 3, RB_LOG_STATS, &log, &r) >= 0);
	assert_int_equal(r.verdict, RB_ACCEPT);
	assert_int_equal(r.insns_processed, 3);
	assert_int_equal(r.total_states, 0);
	assert_int_equal(r.err_insn, -1);
	assert_non_null(strstr(log.buf, "verification time"));
	rb_klog_free(&log);
}

static void test_rejected_out_of_bounds(void **state)
{
	(void)state;
	need_bpf();
	/* r1 = 0; *(u64 *)(r10 - 8) = r1; r0 = *(u64 *)(r10 + 0): above the stack */
	const struct bpf_insn p[] = {I(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0),
				     I(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -8, 0),
				     I(BPF_LDX | BPF_MEM | BPF_DW, 0, 10, 0, 0), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	struct rb_klog log = {0};
	struct rb_result r;
	assert_true(load(p, 4, RB_LOG_STATS, &log, &r) < 0);
	assert_int_equal(r.verdict, RB_REJECT);
	assert_int_equal(r.sys_errno, EACCES);
	assert_non_null(strstr(r.msg, "invalid read from stack"));
	assert_int_equal(r.insns_processed, 3);
	assert_int_equal(r.err_insn, -1); /* level 4 alone does not print instructions */
	assert_true(load(p, 4, RB_LOG_LEVEL1 | RB_LOG_STATS, &log, &r) < 0);
	assert_int_equal(r.err_insn, 2);
	rb_klog_free(&log);
}

/* the state the kernel prints after a range check (level 2), parsed */
static void test_level2_states(void **state)
{
	(void)state;
	need_bpf();
	/* call get_prandom_u32; if r0 > 8 goto +1; exit; exit */
	const struct bpf_insn p[] = {I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32),
				     I(BPF_JMP | BPF_JGT | BPF_K, 0, 0, 1, 8), I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
				     I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};
	struct rb_klog log = {0};
	struct rb_result r;
	assert_true(load(p, 4, RB_LOG_LEVEL2 | RB_LOG_STATS, &log, &r) >= 0);
	struct rb_vlog v;
	assert_int_equal(rb_vlog_parse(log.buf, &v, NULL), 0);
	const struct rb_vlog_state *s = rb_vlog_find(&v, RB_VLOG_AFTER, 1, -1);
	assert_non_null(s);
	const struct rb_vlog_reg *r0 = rb_vlog_state_reg(s, 0);
	assert_non_null(r0);
	assert_int_equal(r0->b.umax, 8);
	assert_int_equal(r0->b.smin, 0);
	assert_int_equal(r0->b.var_off.mask, 0xf);
	s = rb_vlog_find(&v, RB_VLOG_BRANCH, 3, 1);
	assert_non_null(s);
	r0 = rb_vlog_state_reg(s, 0);
	assert_non_null(r0);
	assert_int_equal(r0->b.umin, 9);
	assert_int_equal(v.visits[2], 1);
	assert_int_equal(v.visits[3], 1);
	rb_vlog_free(&v);
	rb_klog_free(&log);
}

/* a level-2 log of about 2 MiB: more than the first buffer (1 MiB) */
static void test_log_grows(void **state)
{
	(void)state;
	need_bpf();
	enum { N = 40000 };
	struct bpf_insn *p = calloc(N + 2, sizeof(*p));
	assert_non_null(p);
	p[0] = I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	for (int i = 1; i <= N; i++)
		p[i] = I(BPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 1);
	p[N + 1] = I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	struct rb_klog log = {0};
	struct rb_result r;
	assert_true(load(p, N + 2, RB_LOG_LEVEL2 | RB_LOG_STATS, &log, &r) >= 0);
	assert_true(strlen(log.buf) > ((size_t)1 << 20));
	assert_int_equal(r.verdict, RB_ACCEPT);
	assert_int_equal(r.insns_processed, N + 2);
	rb_klog_free(&log);
	free(p);
}

/* a rejection after a long path: the level-1 log is cut to its last 64 KiB
 * (rotated by the kernel, ENOSPC), which still names the failing insn */
static void test_rejection_log_tail(void **state)
{
	(void)state;
	need_bpf();
	enum { N = 20000 };
	struct bpf_insn *p = calloc(N + 3, sizeof(*p));
	assert_non_null(p);
	p[0] = I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	for (int i = 1; i <= N; i++)
		p[i] = I(BPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 1);
	p[N + 1] = I(BPF_LDX | BPF_MEM | BPF_DW, 0, 10, 8, 0); /* above the stack */
	p[N + 2] = I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	struct rb_kload_args a = {.prog_type = BPF_PROG_TYPE_SOCKET_FILTER, .insns = p, .insn_cnt = N + 3,
				  .prog_btf_fd = -1, .log_level = RB_LOG_LEVEL1 | RB_LOG_STATS,
				  .log_fixed = 64 << 10};
	struct rb_klog log = {0};
	int e = 0;
	assert_true(rb_kload_raw(&a, &log, &e) < 0);
	assert_int_equal(e, ENOSPC); /* the log did not fit */
	assert_int_equal(log.size, 64 << 10);
	char msg[256];
	int insn;
	rb_vlog_last_message(log.buf, true, msg, sizeof(msg), &insn);
	assert_non_null(strstr(msg, "invalid read from stack"));
	assert_int_equal(insn, N + 1);
	rb_klog_free(&log);
	free(p);
}

/* every program opdiff generates is one the kernel takes */
static void test_opgen_programs_load(void **state)
{
	(void)state;
	need_bpf();
	struct rb_opgen_case c;
	struct rb_klog log = {0};
	for (uint64_t k = 0; k < 300; k++) {
		rb_opgen_case(42, k, &c);
		struct rb_result r;
		int fd = load(c.insns, c.insn_cnt, RB_LOG_STATS, &log, &r);
		if (fd < 0)
			fail_msg("case %llu (%s) rejected: %s", (unsigned long long)k, c.what, r.msg);
	}
	rb_klog_free(&log);
}

/* opdiff runs through: nothing rejected, everything replayable, states compared */
static void test_opdiff_runs(void **state)
{
	(void)state;
	need_bpf();
	struct rb_opdiff_opts o = {.seed = 3, .cases = 100, .tracker = "old"};
	struct rb_opdiff_stats *st = malloc(sizeof(*st));
	struct rb_err err;
	assert_non_null(st);
	assert_int_equal(rb_opdiff_run(&o, st, &err), 0);
	assert_false(st->skipped);
	assert_int_equal(st->cases, 100);
	assert_int_equal(st->rejected, 0);
	assert_int_equal(st->unreplayable, 0);
	assert_int_equal(st->mismatches, 0); /* the old tracker follows this kernel */
	assert_true(st->states > 500);
	assert_true(st->branches > 200);
	free(st);
}

/* a tracker that forgets everything about the result of ADD */
static void add_forgets(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	const struct rb_tracker *old = rb_tracker_get("old", 64);
	if (BPF_OP(op->code) == BPF_ADD)
		old->unknown(dst);
	else
		old->alu(dst, src, op);
}

/* a tracker that learns nothing from JSGT/JSLE (both outcomes) */
static bool jsgt_learns_nothing(rb_val *a, rb_val *b, uint8_t jop, bool is32)
{
	const struct rb_tracker *old = rb_tracker_get("old", 64);
	if (BPF_OP(jop) == BPF_JSGT || BPF_OP(jop) == BPF_JSLE)
		return true;
	return old->branch_refine(a, b, jop, is32);
}

/* opdiff finds a broken tracker and names what is broken */
static void test_opdiff_catches_broken_tracker(void **state)
{
	(void)state;
	need_bpf();
	struct rb_tracker broken = *rb_tracker_get("old", 64);
	broken.alu = add_forgets;
	broken.branch_refine = jsgt_learns_nothing;
	struct rb_opdiff_opts o = {.seed = 3, .cases = 300, .impl = &broken};
	struct rb_opdiff_stats *st = malloc(sizeof(*st));
	struct rb_err err;
	assert_non_null(st);
	assert_int_equal(rb_opdiff_run(&o, st, &err), 0);
	assert_true(st->mismatches > 0);
	bool add = false, jsgt = false;
	for (unsigned i = 0; i < st->ncats; i++) {
		if (strstr(st->cats[i].key, "op alu64 add") || strstr(st->cats[i].key, "op alu32 add"))
			add = true;
		if (strstr(st->cats[i].key, "jsgt") &&
		    (strstr(st->cats[i].key, "taken:") || strstr(st->cats[i].key, "fall-through:")))
			jsgt = true;
	}
	assert_true(add);
	assert_true(jsgt);
	free(st);
}

static struct rb_object *open_obj(const char *name)
{
	char path[512];
	struct rb_object *o = NULL;
	struct rb_err err;
	if (rb_object_open(obj_path(name, path, sizeof(path)), NULL, &o, &err) < 0)
		fail_msg("%s", err.msg);
	return o;
}

static const struct rb_result *verdict_of(struct rb_object *o, const char *prog, struct rb_result *r)
{
	for (size_t i = 0; i < o->prog_cnt; i++)
		if (!strcmp(o->progs[i].name, prog)) {
			struct rb_verify_opts vo = {.tracker = "kernel"};
			struct rb_err err;
			assert_int_equal(rb_verify(o, i, &vo, r, &err), 0);
			return r;
		}
	fail_msg("no program %s", prog);
	return NULL;
}

static void test_object_verdicts(void **state)
{
	(void)state;
	need_bpf();
	struct rb_object *o = open_obj("oracle_verdicts");
	struct rb_result r;
	verdict_of(o, "ok_bounded", &r);
	assert_int_equal(r.verdict, RB_ACCEPT);
	assert_true(r.insns_processed > 5);
	verdict_of(o, "bad_oob", &r);
	assert_int_equal(r.verdict, RB_REJECT);
	assert_true(r.err_insn > 0);
	assert_non_null(strstr(r.msg, "outside of the allowed memory range"));
	/* only accepted when .rodata holds cfg_bad = 0 and is frozen */
	verdict_of(o, "ok_rodata", &r);
	assert_int_equal(r.verdict, RB_ACCEPT);
	verdict_of(o, "ok_data", &r);
	assert_int_equal(r.verdict, RB_ACCEPT);
	verdict_of(o, "refused_fentry", &r);
	assert_true(r.verdict == RB_REFUSED || r.verdict == RB_ACCEPT);
	if (r.verdict == RB_REFUSED)
		assert_non_null(strstr(r.msg, "EPERM"));
	rb_object_free(o);
}

/* log_head: the log's first bytes only, the verdict and figures those of
 * the whole verification (oracle/kload.h) */
static void test_log_head(void **state)
{
	(void)state;
	need_bpf();
	struct rb_object *o = open_obj("oracle_verdicts");
	for (size_t i = 0; i < o->prog_cnt; i++) {
		if (strcmp(o->progs[i].name, "ok_bounded") && strcmp(o->progs[i].name, "bad_oob"))
			continue;
		struct rb_result whole, head;
		char *wt = NULL, *ht = NULL;
		size_t wl = 0, hl = 0;
		FILE *wf = open_memstream(&wt, &wl), *hf = open_memstream(&ht, &hl);
		assert_non_null(wf);
		assert_non_null(hf);
		struct rb_verify_opts vw = {.tracker = "kernel", .log = wf};
		struct rb_verify_opts vh = {.tracker = "kernel", .log = hf, .log_head = 200};
		struct rb_err err;
		assert_int_equal(rb_verify(o, i, &vw, &whole, &err), 0);
		assert_int_equal(rb_verify(o, i, &vh, &head, &err), 0);
		fclose(wf);
		fclose(hf);
		assert_int_equal(head.verdict, whole.verdict);
		assert_int_equal(head.insns_processed, whole.insns_processed);
		assert_int_equal(head.total_states, whole.total_states);
		assert_string_equal(head.msg, whole.msg);
		assert_true(wl > 400); /* the whole level-2 log is longer than the head */
		assert_true(hl > 0 && hl < 200);
		assert_memory_equal(ht, wt, hl); /* the head is the log's start */
		free(wt);
		free(ht);
	}
	rb_object_free(o);
}

/* ---- agreement with plain libbpf ---- */

static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l, (void)f, (void)ap;
	return 0;
}

/* a lender that counts the calls made by libbpf's loads into the kernel */
struct lent_count {
	struct rb_btf_lend inner;
	unsigned real_calls;
	bool in_real;
};

static const struct btf *count_get(void *ctx)
{
	struct lent_count *c = ctx;
	c->real_calls += c->in_real;
	return c->inner.get(c->inner.ctx);
}

/* libbpf's verdict on one program: 1 the verifier accepted it, 0 the
 * verifier rejected it, -1 libbpf did not get as far as the verifier */
static int libbpf_verdict_in(const char *path, const char *prog)
{
	libbpf_set_print(quiet); /* the loader may have installed its own */
	struct bpf_object *bo = bpf_object__open_file(path, NULL);
	if (!bo)
		return -1;
	struct bpf_program *p, *want = NULL;
	bpf_object__for_each_program(p, bo)
	{
		bool me = !strcmp(bpf_program__name(p), prog);
		bpf_program__set_autoload(p, me);
		if (me)
			want = p;
	}
	static char logbuf[1 << 16];
	int rc = -1;
	if (want) {
		logbuf[0] = 0;
		bpf_program__set_log_buf(want, logbuf, sizeof(logbuf));
		bpf_program__set_log_level(want, RB_LOG_STATS);
		int err = bpf_object__load(bo);
		if (!err)
			rc = 1;
		else if (strstr(logbuf, "processed ")) {
			/* the verifier ran: a message before the statistics is its
			 * "no"; without one it said yes and libbpf failed later (e.g.
			 * filling a program array with programs not loaded) */
			char msg[256];
			int insn;
			rb_vlog_last_message(logbuf, false, msg, sizeof(msg), &insn);
			struct rb_vlog_stats st;
			rb_vlog_parse_stats(logbuf, &st);
			if (msg[0])
				rc = 0;
			else if (st.insns_processed > 0)
				rc = 1;
			/* else refused before verification: not a verdict */
		}
	}
	bpf_object__close(bo);
	return rc;
}

/* libbpf_verdict_in, loading into the kernel as plain libbpf does, but
 * for the kernel's BTF, which libbpf borrows from `lend` (a parse of the
 * same file by libbpf's btf__load_vmlinux_btf, made once) instead of
 * parsing it again for each program: 156 parses of 5.4 MB, about 26 ms of
 * CPU each under the sanitizers (a stand-in context that only lends:
 * bpf_standin.h, real) */
static int libbpf_verdict(const char *path, const char *prog, const struct rb_btf_lend *lend)
{
	struct rb_standin ctx = {.lend = lend, .real = true};
	struct lent_count *lc = lend->ctx;
	lc->in_real = true;
	struct rb_standin *prev = rb_standin_begin(&ctx);
	int rc = libbpf_verdict_in(path, prog);
	rb_standin_end(prev);
	lc->in_real = false;
	return rc;
}

struct agree_count {
	unsigned both, agree;
	char first_diff[1400];
};

static void agree_object(const char *path, const struct rb_btf_lend *lend, struct agree_count *c)
{
	struct rb_object *o = NULL;
	struct rb_err err;
	if (rb_object_open(path, &(struct rb_load_opts){.lend_btf = lend}, &o, &err) < 0)
		return; /* not loadable by our loader: not a program both can load */
	for (size_t i = 0; i < o->prog_cnt; i++) {
		struct rb_result r;
		struct rb_verify_opts vo = {.tracker = "kernel"};
		assert_int_equal(rb_verify(o, i, &vo, &r, &err), 0);
		if (r.verdict != RB_ACCEPT && r.verdict != RB_REJECT && r.verdict != RB_LIMIT)
			continue;
		int lb = libbpf_verdict(path, o->progs[i].name, lend);
		if (lb < 0)
			continue;
		c->both++;
		if ((lb == 1) == (r.verdict == RB_ACCEPT))
			c->agree++;
		else {
			print_message("disagree: %s:%s oracle %s (%s) libbpf %s\n", path, o->progs[i].name,
				      rb_verdict_name(r.verdict), r.msg, lb ? "accepted" : "rejected");
			if (!c->first_diff[0])
				snprintf(c->first_diff, sizeof(c->first_diff), "%s:%.200s oracle %s libbpf %s", path,
					 o->progs[i].name, rb_verdict_name(r.verdict), lb ? "accepted" : "rejected");
		}
	}
	rb_object_free(o);
}

static void test_agrees_with_libbpf(void **state)
{
	(void)state;
	need_bpf();
	libbpf_print_fn_t old = libbpf_set_print(quiet);
	struct agree_count c = {0};
	/* the running kernel's BTF, parsed once for the loader and libbpf */
	struct rb_vmlinux *v = rb_vmlinux_new();
	assert_non_null(v);
	struct lent_count lc = {.inner = rb_vmlinux_lend(v)};
	struct rb_btf_lend lend = {.get = count_get, .ctx = &lc};
	/* RB_AGREE_DIRS (colon-separated) adds directories, e.g. the corpus:
	 *   RB_AGREE_DIRS=programs/corpus/xdp-tools:programs/corpus/pcp build/test/test_oracle */
	const char *dirs[16] = {getenv("RB_TEST_OBJECTS") ? getenv("RB_TEST_OBJECTS") : "build/test/objects",
				"/usr/lib/x86_64-linux-gnu/bpf"};
	size_t ndirs = 2;
	char extra[4096] = "";
	if (getenv("RB_AGREE_DIRS"))
		snprintf(extra, sizeof(extra), "%s", getenv("RB_AGREE_DIRS"));
	for (char *tok = strtok(extra, ":"); tok && ndirs < 16; tok = strtok(NULL, ":"))
		dirs[ndirs++] = tok;
	for (size_t d = 0; d < ndirs; d++) {
		DIR *dir = opendir(dirs[d]);
		if (!dir)
			continue;
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			if (n < 3 || strcmp(e->d_name + n - 2, ".o"))
				continue;
			char path[1024];
			snprintf(path, sizeof(path), "%s/%s", dirs[d], e->d_name);
			agree_object(path, &lend, &c);
		}
		closedir(dir);
	}
	libbpf_set_print(old);
	/* libbpf's loads into the kernel borrowed that parse too (objects
	 * with CO-RE relocations are among them) */
	assert_int_equal(rb_vmlinux_loads(v), 1);
	assert_true(lc.real_calls > 0);
	rb_vmlinux_free(v);
	print_message("oracle vs libbpf: %u programs both loaded or rejected, %u agree\n", c.both, c.agree);
	if (c.agree != c.both)
		fail_msg("disagreement: %s", c.first_diff);
	assert_true(c.both >= 4); /* at least oracle_verdicts' socket programs */
}

/* helper sets probed lazily (rb_helper_probe_has: the ids asked about
 * only) answer as the full probe does: for every id of two pairs, and a
 * pair completed by rb_helper_probe_set() afterwards equals one probed
 * whole from the start */
static void test_helper_probe_lazy(void **state)
{
	(void)state;
	need_bpf();
	static struct rb_helper_probe lazy, whole;
	rb_helper_probe_init(&lazy, true);
	rb_helper_probe_init(&whole, true);
	const uint32_t types[2] = {BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SOCKET_FILTER};
	for (int t = 0; t < 2; t++) {
		const uint64_t *w = rb_helper_probe_set(&whole, types[t], 0);
		assert_non_null(w); /* measured on this kernel */
		/* map_lookup_elem: every type; override_return: kprobes only */
		assert_int_equal(rb_helper_probe_has(&lazy, types[t], 0, BPF_FUNC_map_lookup_elem), 1);
		assert_int_equal(rb_helper_probe_has(&lazy, types[t], 0, BPF_FUNC_override_return), 0);
		assert_true(lazy.e[lazy.n - 1].partial);
		assert_int_equal(lazy.e[lazy.n - 1].known[0],
				 (1ull << BPF_FUNC_map_lookup_elem) | (1ull << BPF_FUNC_override_return));
		for (int id = 1; id < 256; id += 7)
			assert_int_equal(rb_helper_probe_has(&lazy, types[t], 0, id), (int)((w[id / 64] >> (id % 64)) & 1));
		assert_int_equal(rb_helper_probe_has(&lazy, types[t], 0, 256), 0);
		const uint64_t *l = rb_helper_probe_set(&lazy, types[t], 0);
		assert_non_null(l);
		assert_memory_equal(l, w, 4 * sizeof(uint64_t));
		assert_false(lazy.e[lazy.n - 1].partial);
	}
	assert_int_equal(lazy.nmeasured, 2);
	assert_string_equal(rb_helper_probe_source(&lazy), "kernel");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_rejected_out_of_bounds),
		cmocka_unit_test(test_level2_states),
		cmocka_unit_test(test_log_grows),
		cmocka_unit_test(test_rejection_log_tail),
		cmocka_unit_test(test_opgen_programs_load),
		cmocka_unit_test(test_opdiff_runs),
		cmocka_unit_test(test_opdiff_catches_broken_tracker),
		cmocka_unit_test(test_object_verdicts),
		cmocka_unit_test(test_log_head),
		cmocka_unit_test(test_agrees_with_libbpf),
		cmocka_unit_test(test_helper_probe_lazy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
