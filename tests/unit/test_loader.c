/* test_loader.c — the loader (src/loader/) on our own small BPF objects
 * (tests/objects/NAME.bpf.c, built by make into build/test/objects/):
 * BTF-defined maps and the sizes the loader picks, global data contents,
 * sub-programs appended, CO-RE against the host BTF and against a BTF file
 * made here, legacy SEC("maps") objects of both layouts, map references in
 * index form, SEC("?...") and unknown sections. Where bpf() works, every
 * program is also loaded into the running kernel exactly as the loader
 * gives it (maps from the map table, fd_array), and the instruction
 * streams are compared with what plain libbpf hands the real kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader/object.h"
#include "loader_fixture.h"
#include "util/array_size.h"

static struct rb_object *open_test(const char *name, const char *btf)
{
	struct rb_load_opts opts = {.btf_path = btf};
	return lf_open(name, &opts);
}

static int map_idx(const struct rb_object *o, const char *suffix)
{
	for (size_t i = 0; i < o->map_cnt; i++) {
		size_t n = strlen(o->maps[i].name), s = strlen(suffix);
		if (n >= s && !strcmp(o->maps[i].name + n - s, suffix))
			return (int)i;
	}
	fail_msg("no map *%s", suffix);
	return -1;
}

/* every map reference is in index form and in range; returns a bitmask of
 * referenced map indexes (maps < 64) */
static uint64_t check_map_refs(const struct rb_object *o, const struct rb_prog *p)
{
	uint64_t seen = 0;
	for (size_t i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		assert_true(i + 1 < p->insn_cnt);
		assert_int_not_equal(in->src_reg, BPF_PSEUDO_MAP_FD);
		assert_int_not_equal(in->src_reg, BPF_PSEUDO_MAP_VALUE);
		if (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) {
			assert_in_range(in->imm, 0, (long)o->map_cnt - 1);
			if (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
				assert_true((uint32_t)in[1].imm < o->maps[in->imm].value_size);
			if (in->imm < 64)
				seen |= 1ull << in->imm;
		}
		i++;
	}
	return seen;
}

/* every BPF-to-BPF call lands inside the program */
static unsigned check_calls(const struct rb_prog *p)
{
	unsigned calls = 0;
	for (size_t i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) {
			long t = (long)i + 1 + in->imm;
			assert_in_range(t, 0, (long)p->insn_cnt - 1);
			calls++;
		}
	}
	return calls;
}

static void test_btf_maps(void **state)
{
	(void)state;
	struct rb_object *o = open_test("btf_maps", NULL);
	assert_false(o->legacy_maps);
	assert_non_null(o->btf);
	assert_int_equal(o->prog_cnt, 4);
	assert_string_equal(o->sha256 + 64, "");
	const struct rb_prog *p = lf_prog(o, "use_maps");
	assert_int_equal(p->prog_type, BPF_PROG_TYPE_XDP);
	assert_true(p->type_known && p->autoload);
	assert_string_equal(p->section, "xdp");
	assert_string_equal(p->license, "GPL");
	uint64_t refs = check_map_refs(o, p);
	for (const char *const *m = (const char *const[]){"counts", "unsized", "events", "rb", "pinned", "outer", NULL};
	     *m; m++)
		assert_true(refs & (1ull << map_idx(o, *m)));
	const struct rb_prog *q = lf_prog(o, "not_autoloaded");
	assert_false(q->autoload);
	assert_int_equal(q->prog_type, BPF_PROG_TYPE_XDP);
	assert_int_equal(q->insn_cnt, 2);
	const struct rb_prog *u = lf_prog(o, "unknown_type");
	assert_false(u->type_known);
	assert_int_equal(u->prog_type, BPF_PROG_TYPE_UNSPEC);
	assert_int_equal(u->insn_cnt, 2);
	assert_string_equal(u->error, "");
	assert_int_equal(lf_prog(o, "stack_user")->prog_type, BPF_PROG_TYPE_KPROBE);
	/* sizes the loader picks */
	const struct rb_map *m = &o->maps[map_idx(o, "unsized")];
	assert_int_equal(m->max_entries, 1024);
	assert_int_equal(m->fixups, RB_MAP_FIX_MAX_ENTRIES);
	m = &o->maps[map_idx(o, "stacks")];
	assert_int_equal(m->key_size, 4);
	assert_int_equal(m->value_size, 127 * 8);
	assert_int_equal(m->fixups, RB_MAP_FIX_MAX_ENTRIES | RB_MAP_FIX_KEY_SIZE | RB_MAP_FIX_VALUE_SIZE);
	m = &o->maps[map_idx(o, "rb")];
	assert_int_equal(m->type, BPF_MAP_TYPE_RINGBUF);
	assert_int_equal(m->max_entries, 256 * 1024);
	m = &o->maps[map_idx(o, "events")];
	assert_int_equal(m->max_entries, (unsigned)libbpf_num_possible_cpus());
	m = &o->maps[map_idx(o, "counts")];
	assert_int_equal(m->fixups, 0);
	assert_int_equal(m->max_entries, 128);
	assert_int_equal(m->value_size, 8);
	assert_true(m->btf_key_type_id && m->btf_value_type_id);
	/* map-in-map: the inner template is in the table */
	m = &o->maps[map_idx(o, "outer")];
	assert_int_equal(m->type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	assert_in_range(m->inner_map_idx, 0, (long)o->map_cnt - 1);
	const struct rb_map *in = &o->maps[m->inner_map_idx];
	assert_true(in->inner_template);
	assert_int_equal(in->max_entries, 4);
	assert_int_equal(in->value_size, 8);
	rb_object_free(o);
}

static void test_global_data(void **state)
{
	(void)state;
	struct rb_object *o = open_test("global_data", NULL);
	const struct rb_map *ro = &o->maps[map_idx(o, ".rodata")];
	assert_true(ro->frozen && ro->global_data);
	assert_true(ro->map_flags & BPF_F_RDONLY_PROG);
	assert_int_equal(ro->value_size, 16);
	assert_non_null(ro->init);
	uint32_t limit;
	uint64_t mask;
	memcpy(&limit, ro->init, 4);
	memcpy(&mask, ro->init + 8, 8);
	assert_int_equal(limit, 0x11223344);
	assert_int_equal(mask, 0xff00ff00ff00ff00ull);
	const struct rb_map *d = &o->maps[map_idx(o, ".data")];
	assert_false(d->frozen);
	uint32_t hits;
	memcpy(&hits, d->init, 4);
	assert_int_equal(hits, 7);
	const struct rb_map *b = &o->maps[map_idx(o, ".bss")];
	assert_int_equal(b->value_size, 32);
	/* .bss: zero, its bytes not copied (a large one costs no memory) */
	assert_false(b->frozen);
	assert_null(b->init);
	assert_int_equal(b->init_size, 0);
	const struct rb_prog *p = lf_prog(o, "read_globals");
	assert_int_equal(p->prog_type, BPF_PROG_TYPE_SOCKET_FILTER);
	assert_string_equal(p->license, "Dual BSD/GPL");
	uint64_t refs = check_map_refs(o, p);
	assert_true(refs & (1ull << map_idx(o, ".rodata")));
	assert_true(refs & (1ull << map_idx(o, ".data")));
	assert_true(refs & (1ull << map_idx(o, ".bss")));
	/* the .rodata reference reads offset 0 (limit) or 8 (mask) */
	bool ro_off_ok = false;
	for (size_t i = 0; i + 1 < p->insn_cnt; i++)
		if (p->insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) && p->insns[i].src_reg == BPF_PSEUDO_MAP_IDX_VALUE &&
		    p->insns[i].imm == map_idx(o, ".rodata"))
			ro_off_ok = p->insns[i + 1].imm == 0 || p->insns[i + 1].imm == 8;
	assert_true(ro_off_ok);
	rb_object_free(o);
}

static void test_subprog(void **state)
{
	(void)state;
	char path[512];
	size_t sz;
	uint8_t *img = lf_read(lf_obj_path("subprog", path, sizeof(path)), &sz);
	assert_non_null(img);
	long first = lf_func_insns(img, "first"), second = lf_func_insns(img, "second");
	long add_one = lf_func_insns(img, "add_one"), twice = lf_func_insns(img, "twice");
	free(img);
	assert_true(first > 0 && second > 0 && add_one > 0 && twice > 0);
	struct rb_object *o = open_test("subprog", NULL);
	const struct rb_prog *p = lf_prog(o, "first");
	assert_int_equal(p->insn_cnt, first + add_one + twice);
	assert_int_equal(check_calls(p), 2); /* first -> add_one -> twice */
	assert_int_equal(p->func_info_cnt, 3);
	assert_non_null(p->func_info);
	assert_true(p->line_info_cnt > 0);
	const struct rb_prog *q = lf_prog(o, "second");
	assert_int_equal(q->insn_cnt, second + twice);
	assert_int_equal(check_calls(q), 1);
	assert_int_equal(q->func_info_cnt, 2);
	rb_object_free(o);
}

/* offset CO-RE gives task_struct.pid: clang emits "rX = <offset>" (the
 * relocated instruction) followed by "task += rX" */
static long pid_offset_in(const struct rb_prog *p)
{
	for (size_t i = 0; i + 1 < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i], *nx = &p->insns[i + 1];
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_K) && nx->code == (BPF_ALU64 | BPF_ADD | BPF_X) &&
		    nx->src_reg == in->dst_reg)
			return in->imm;
	}
	return -1;
}

static void test_core_host(void **state)
{
	(void)state;
	struct btf *vm = btf__load_vmlinux_btf();
	if (!vm)
		skip();
	int id = btf__find_by_name_kind(vm, "task_struct", BTF_KIND_STRUCT);
	assert_true(id > 0);
	const struct btf_type *t = btf__type_by_id(vm, id);
	long want = -1;
	const struct btf_member *mb = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(vm, mb[i].name_off), "pid"))
			want = btf_member_bit_offset(t, i) / 8;
	int tp = btf__find_by_name_kind(vm, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	btf__free(vm);
	assert_true(want > 0);
	struct rb_object *o = open_test("core", NULL);
	assert_int_equal(pid_offset_in(lf_prog(o, "read_pid")), want);
	const struct rb_prog *sw = lf_prog(o, "on_switch");
	assert_int_equal(sw->prog_type, BPF_PROG_TYPE_TRACING);
	assert_int_equal(sw->expected_attach_type, BPF_TRACE_RAW_TP);
	assert_int_equal(sw->attach_btf_id, tp);
	assert_string_equal(sw->attach_name, "sched_switch");
	rb_object_free(o);
}

/* b written to a new file named after the template path (mkstemp), then freed */
static void write_btf(struct btf *b, char *path)
{
	uint32_t sz;
	const void *raw = btf__raw_data(b, &sz);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, sz), (ssize_t)sz);
	close(fd);
	btf__free(b);
}

static void test_core_custom_btf(void **state)
{
	(void)state;
	/* a vmlinux BTF of our own where task_struct.pid sits at byte 1234 */
	struct btf *b = btf__new_empty();
	assert_non_null(b);
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int ts = btf__add_struct(b, "task_struct", 2048);
	assert_true(i32 > 0 && ts > 0);
	assert_int_equal(btf__add_field(b, "tgid", i32, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "pid", i32, 1234 * 8, 0), 0);
	/* the tp_btf target, at an id of this BTF (libbpf reads it as the
	 * vmlinux BTF: bpf_standin.c, __wrap_btf__load_vmlinux_btf) */
	int tp = btf__add_typedef(b, "btf_trace_sched_switch", i32);
	assert_true(tp > 0);
	char path[] = "/tmp/rb_test_btf_XXXXXX";
	write_btf(b, path);
	struct rb_object *o = open_test("core", path);
	assert_int_equal(pid_offset_in(lf_prog(o, "read_pid")), 1234);
	/* libbpf resolved the attach target in this BTF, whatever the host has */
	assert_int_equal(lf_prog(o, "on_switch")->attach_btf_id, tp);
	rb_object_free(o);
	/* a missing BTF file is a clean error naming the object */
	char p[512];
	struct rb_err err = {{0}};
	struct rb_load_opts opts = {.btf_path = "/nonexistent/btf"};
	assert_int_equal(rb_object_open(lf_obj_path("core", p, sizeof(p)), &opts, &o, &err), -1);
	assert_null(o);
	assert_memory_equal(err.msg, p, strlen(p));
	unlink(path);
}

/* with --btf, a struct_ops program's member index (expected_attach_type)
 * is the index of its member of that name in the given BTF's struct, not
 * the running kernel's: 7.2.13's tcp_congestion_ops has a member 6.18.44's
 * lacks. libbpf reads the struct_ops types from the given BTF
 * (__wrap_btf__load_vmlinux_btf), so a struct the running kernel does not
 * have (sched_ext_ops on 6.18) is found too: here a BTF of our own, which
 * the running kernel's never matches. */
static void test_struct_ops_member_remap(void **state)
{
	(void)state;
	struct btf *b = btf__new_empty();
	assert_non_null(b);
	int u32 = btf__add_int(b, "unsigned int", 4, 0);
	int proto = btf__add_func_proto(b, u32);
	int fp = btf__add_ptr(b, proto);
	int chr = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	int name = btf__add_array(b, u32, chr, 16);
	int ops = btf__add_struct(b, "tcp_congestion_ops", 64);
	assert_true(u32 > 0 && proto > 0 && fp > 0 && chr > 0 && name > 0 && ops > 0);
	/* two members before the object's three, and undo_cwnd before cong_avoid */
	static const char *const members[] = {"first", "second", "ssthresh", "undo_cwnd", "cong_avoid"};
	for (int i = 0; i < 5; i++)
		assert_int_equal(btf__add_field(b, members[i], fp, (uint32_t)i * 64, 0), 0);
	assert_int_equal(btf__add_field(b, "name", name, 5 * 64, 0), 0);
	/* the kernel's value type of a struct_ops map (bpf_struct_ops_NAME) */
	int val = btf__add_struct(b, "bpf_struct_ops_tcp_congestion_ops", 72);
	assert_true(val > 0);
	assert_int_equal(btf__add_field(b, "refcnt", u32, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "data", ops, 64, 0), 0);
	char path[] = "/tmp/rb_test_btf_XXXXXX";
	write_btf(b, path);
	struct rb_object *o = open_test("struct_ops_remap", path);
	assert_int_equal(lf_prog(o, "rb_ssthresh")->attach_btf_id, ops);
	assert_int_equal(lf_prog(o, "rb_ssthresh")->expected_attach_type, 2);
	assert_int_equal(lf_prog(o, "rb_undo_cwnd")->expected_attach_type, 3);
	assert_int_equal(lf_prog(o, "rb_cong_avoid")->expected_attach_type, 4);
	rb_object_free(o);
	unlink(path);
}

static void test_legacy_bpf_map_def(void **state)
{
	(void)state;
	char path[512];
	size_t sz;
	uint8_t *img = lf_read(lf_obj_path("legacy_maps", path, sizeof(path)), &sz);
	assert_non_null(img);
	long main_n = lf_func_insns(img, "legacy_prog"), cls_n = lf_func_insns(img, "legacy_cls");
	long bump = lf_func_insns(img, "bump");
	free(img);
	struct rb_object *o = open_test("legacy_maps", NULL);
	assert_true(o->legacy_maps);
	assert_null(o->btf);
	int h = map_idx(o, "legacy_hash"), a = map_idx(o, "legacy_array");
	assert_int_equal(h, 0);
	assert_int_equal(a, 1);
	assert_int_equal(o->maps[h].type, BPF_MAP_TYPE_HASH);
	assert_int_equal(o->maps[h].value_size, 8);
	assert_int_equal(o->maps[h].max_entries, 64);
	assert_int_equal(o->maps[a].max_entries, 1024);
	assert_int_equal(o->maps[a].fixups, RB_MAP_FIX_MAX_ENTRIES);
	const struct rb_prog *p = lf_prog(o, "legacy_prog");
	assert_int_equal(p->prog_type, BPF_PROG_TYPE_SOCKET_FILTER);
	assert_string_equal(p->license, "GPL");
	assert_int_equal(p->insn_cnt, main_n + bump);
	assert_int_equal(check_calls(p), 1);
	uint64_t refs = check_map_refs(o, p);
	assert_true(refs & (1ull << h));
	assert_true(refs & (1ull << a));
	const struct rb_prog *c = lf_prog(o, "legacy_cls");
	assert_int_equal(c->prog_type, BPF_PROG_TYPE_SCHED_CLS);
	assert_int_equal(c->insn_cnt, cls_n + bump);
	assert_int_equal(check_calls(c), 1);
	assert_true(check_map_refs(o, c) & (1ull << h));
	/* the call lands on the first instruction of the appended bump() */
	for (size_t i = 0; i < c->insn_cnt; i++)
		if (c->insns[i].code == (BPF_JMP | BPF_CALL) && c->insns[i].src_reg == BPF_PSEUDO_CALL)
			assert_int_equal((long)i + 1 + c->insns[i].imm, cls_n);
	rb_object_free(o);
}

static void test_legacy_elf_map(void **state)
{
	(void)state;
	struct rb_object *o = open_test("legacy_elf_map", NULL);
	assert_true(o->legacy_maps);
	int in = map_idx(o, "inner_tpl"), out = map_idx(o, "outer_map");
	assert_int_equal(o->maps[out].type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	assert_int_equal(o->maps[out].inner_map_idx, in);
	assert_int_equal(o->maps[in].inner_map_idx, -1);
	assert_int_equal(o->maps[out].max_entries, 8);
	const struct rb_prog *p = lf_prog(o, "tc_ingress");
	assert_int_equal(p->prog_type, BPF_PROG_TYPE_SCHED_CLS);
	assert_true(check_map_refs(o, p) & (1ull << out));
	rb_object_free(o);
}

static void test_missing_kernel_symbol(void **state)
{
	(void)state;
	struct rb_object *o = open_test("missing_ksym", NULL);
	const struct rb_prog *bad = lf_prog(o, "calls_missing"), *ok = lf_prog(o, "fine");
	assert_non_null(strstr(bad->error, "rb_no_such_kfunc"));
	assert_null(bad->insns);
	assert_int_equal(bad->insn_cnt, 0);
	assert_string_equal(ok->error, "");
	assert_non_null(ok->insns);
	assert_true(ok->insn_cnt > 0);
	assert_int_equal(ok->prog_type, BPF_PROG_TYPE_SCHED_CLS);
	rb_object_free(o);
}

static void test_missing_and_bad_files(void **state)
{
	(void)state;
	struct rb_object *o = (struct rb_object *)1;
	struct rb_err err = {{0}};
	assert_int_equal(rb_object_open("/nonexistent/x.o", NULL, &o, &err), -1);
	assert_null(o);
	assert_non_null(strstr(err.msg, "/nonexistent/x.o: cannot open"));
	assert_int_equal(rb_object_open("/tmp", NULL, &o, &err), -1);
	assert_string_equal(err.msg, "/tmp: not a regular file (a directory)");
	assert_int_equal(rb_object_open_mem("text.o", "hello world", 11, NULL, &o, &err), -1);
	assert_string_equal(err.msg, "text.o: not an ELF file (only 11 bytes)");
}

/* ---- the verifier-tests raw format (open_rbvt.c) ---- */

struct rbvt_buf {
	uint8_t b[1024];
	size_t n;
};

static void rbvt_put(struct rbvt_buf *w, const void *p, size_t n)
{
	assert_true(w->n + n <= sizeof(w->b));
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void rbvt_u32(struct rbvt_buf *w, uint32_t v) { rbvt_put(w, &v, 4); }

static void rbvt_str(struct rbvt_buf *w, const char *s, size_t n)
{
	char f[128] = {0};
	assert_true(n <= sizeof(f));
	snprintf(f, n, "%s", s);
	rbvt_put(w, f, n);
}

/* one test: r1 = map[0] (hash); r0 = 0; exit; with map_cnt maps */
static void rbvt_make(struct rbvt_buf *w, uint32_t map_cnt, int32_t map_ref)
{
	w->n = 0;
	rbvt_put(w, "RBVTEST1", 8);
	uint32_t h[8] = {BPF_PROG_TYPE_SCHED_CLS, 0, BPF_F_TEST_RND_HI32, 0, 4, map_cnt, 0, 0};
	for (int i = 0; i < 8; i++)
		rbvt_u32(w, h[i]);
	rbvt_str(w, "map_access_test", 128);
	rbvt_str(w, "verifier/value.c", 64);
	rbvt_str(w, "", 64);
	for (uint32_t i = 0; i < map_cnt; i++) {
		rbvt_str(w, "hash_8b", 16);
		uint32_t f[8] = {BPF_MAP_TYPE_HASH, 8, 8, 1, 0, 0, 0, (uint32_t)-1};
		for (int k = 0; k < 8; k++)
			rbvt_u32(w, f[k]);
	}
	struct bpf_insn in[4] = {
		{.code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_IDX, .imm = map_ref},
		{0},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	rbvt_put(w, in, sizeof(in));
}

static void test_rbvt_format(void **state)
{
	(void)state;
	struct rbvt_buf w;
	struct rb_object *o = NULL;
	struct rb_err err = {{0}};
	rbvt_make(&w, 1, 0);
	assert_int_equal(rb_object_open_mem("t.rbvt", w.b, w.n, NULL, &o, &err), 0);
	assert_int_equal(o->prog_cnt, 1);
	assert_string_equal(o->progs[0].name, "map_access_test");
	assert_string_equal(o->progs[0].section, "verifier/value.c");
	assert_int_equal(o->progs[0].prog_type, BPF_PROG_TYPE_SCHED_CLS);
	assert_int_equal(o->progs[0].prog_flags, BPF_F_TEST_RND_HI32);
	assert_int_equal(o->progs[0].insn_cnt, 4);
	assert_true(o->progs[0].type_known && o->progs[0].autoload);
	assert_int_equal(o->map_cnt, 1);
	assert_int_equal(o->maps[0].type, BPF_MAP_TYPE_HASH);
	assert_int_equal(o->maps[0].inner_map_idx, -1);
	rb_object_free(o);
	/* a map reference past the map table */
	rbvt_make(&w, 1, 1);
	assert_int_equal(rb_object_open_mem("t.rbvt", w.b, w.n, NULL, &o, &err), -1);
	assert_null(o);
	assert_string_equal(err.msg, "t.rbvt: insn 0 refers to map 1 of 1");
	/* every truncation is an error naming the file, never a crash */
	rbvt_make(&w, 1, 0);
	for (size_t n = 8; n < w.n; n++) {
		assert_int_equal(rb_object_open_mem("t.rbvt", w.b, n, NULL, &o, &err), -1);
		assert_null(o);
		assert_memory_equal(err.msg, "t.rbvt: ", 8);
	}
}

/* a kfunc call named in the file's kfunc table is resolved again by name
 * in the BTF of the kernel the object is opened for (open_rbvt.c) */
static void rbvt_kfunc_file(struct rbvt_buf *w, const char *name, uint32_t at, bool garbage)
{
	w->n = 0;
	rbvt_put(w, "RBVTEST1", 8);
	uint32_t h[8] = {BPF_PROG_TYPE_SCHED_CLS, 0, 0, 0, 3, 0, 0, 0};
	for (int i = 0; i < 8; i++)
		rbvt_u32(w, h[i]);
	rbvt_str(w, "kfunc_test", 128);
	rbvt_str(w, "verifier/calls.c", 64);
	rbvt_str(w, "", 64);
	struct bpf_insn in[3] = {
		{.code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = 99999},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	rbvt_put(w, in, sizeof(in));
	rbvt_put(w, "RBVTKF01", 8);
	rbvt_u32(w, 1);
	rbvt_u32(w, at);
	rbvt_str(w, name, 64);
	if (garbage)
		rbvt_u32(w, 7);
}

static void test_rbvt_kfunc_names(void **state)
{
	(void)state;
	/* a BTF with one FUNC, rb_test_kfunc */
	struct btf *b = btf__new_empty();
	assert_non_null(b);
	int int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int proto = btf__add_func_proto(b, int_id);
	int fn = btf__add_func(b, "rb_test_kfunc", BTF_FUNC_GLOBAL, proto);
	assert_true(int_id > 0 && proto > 0 && fn > 0);
	uint32_t sz;
	const void *raw = btf__raw_data(b, &sz);
	char path[] = "/tmp/rb-test-btf-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, sz), (ssize_t)sz);
	close(fd);
	btf__free(b);
	struct rb_load_opts lo = {.btf_path = path};
	struct rbvt_buf w;
	struct rb_object *o = NULL;
	struct rb_err err = {{0}};
	rbvt_kfunc_file(&w, "rb_test_kfunc", 0, false);
	assert_int_equal(rb_object_open_mem("k.rbvt", w.b, w.n, &lo, &o, &err), 0);
	assert_int_equal(o->progs[0].insns[0].imm, fn);
	rb_object_free(o);
	/* a kernel without that function: 0, as test_verifier's fixup leaves it */
	rbvt_kfunc_file(&w, "rb_missing_kfunc", 0, false);
	assert_int_equal(rb_object_open_mem("k.rbvt", w.b, w.n, &lo, &o, &err), 0);
	assert_int_equal(o->progs[0].insns[0].imm, 0);
	rb_object_free(o);
	/* an entry naming an instruction that is no kfunc call */
	rbvt_kfunc_file(&w, "rb_test_kfunc", 1, false);
	assert_int_equal(rb_object_open_mem("k.rbvt", w.b, w.n, &lo, &o, &err), -1);
	assert_string_equal(err.msg, "k.rbvt: kfunc 0 (rb_test_kfunc) names insn 1, not a kfunc call");
	/* bytes after the table */
	rbvt_kfunc_file(&w, "rb_test_kfunc", 0, true);
	assert_int_equal(rb_object_open_mem("k.rbvt", w.b, w.n, &lo, &o, &err), -1);
	assert_string_equal(err.msg, "k.rbvt: 4 bytes after the kfunc table");
	/* every truncation is an error or the file without its table */
	rbvt_kfunc_file(&w, "rb_test_kfunc", 0, false);
	for (size_t n = 8; n < w.n; n++) {
		int rc = rb_object_open_mem("k.rbvt", w.b, n, &lo, &o, &err);
		if (rc == 0)
			rb_object_free(o);
		else
			assert_memory_equal(err.msg, "k.rbvt: ", 8);
	}
	unlink(path);
}

/* ---- against the running kernel (skipped where bpf() is refused) ---- */

static long sys_bpf(int cmd, union bpf_attr *a) { return syscall(__NR_bpf, cmd, a, sizeof(*a)); }

static bool bpf_usable(void)
{
	struct bpf_insn insns[] = {{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0}, {.code = BPF_JMP | BPF_EXIT}};
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uintptr_t) "GPL";
	long fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

/* load program pi into the kernel as the loader gives it; returns the
 * program fd or -errno, log in log */
static int kernel_load(const struct rb_object *o, size_t pi, char *log, size_t logsz)
{
	int fds[64], ret = -EINVAL;
	assert_true(o->map_cnt <= 64);
	for (size_t i = 0; i < o->map_cnt; i++)
		fds[i] = -1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < o->map_cnt; i++) {
			const struct rb_map *m = &o->maps[i];
			if ((m->inner_map_idx >= 0) != (pass == 1))
				continue;
			union bpf_attr a;
			memset(&a, 0, sizeof(a));
			a.map_type = m->type;
			a.key_size = m->key_size;
			a.value_size = m->value_size;
			a.max_entries = m->max_entries;
			a.map_flags = m->map_flags;
			a.map_extra = m->map_extra;
			if (m->inner_map_idx >= 0)
				a.inner_map_fd = fds[m->inner_map_idx];
			fds[i] = (int)sys_bpf(BPF_MAP_CREATE, &a);
			if (fds[i] < 0) {
				snprintf(log, logsz, "map %s: %s", m->name, strerror(errno));
				goto out;
			}
			if (m->init) {
				uint32_t zero = 0;
				memset(&a, 0, sizeof(a));
				a.map_fd = fds[i];
				a.key = (uintptr_t)&zero;
				a.value = (uintptr_t)m->init;
				assert_int_equal(sys_bpf(BPF_MAP_UPDATE_ELEM, &a), 0);
			}
			if (m->frozen) {
				memset(&a, 0, sizeof(a));
				a.map_fd = fds[i];
				assert_int_equal(sys_bpf(BPF_MAP_FREEZE, &a), 0);
			}
		}
	int btf_fd = -1;
	union bpf_attr a;
	if (o->btf) {
		memset(&a, 0, sizeof(a));
		a.btf = (uintptr_t)o->btf;
		a.btf_size = (uint32_t)o->btf_size;
		btf_fd = (int)sys_bpf(BPF_BTF_LOAD, &a);
		assert_true(btf_fd >= 0);
	}
	const struct rb_prog *p = &o->progs[pi];
	memset(&a, 0, sizeof(a));
	a.prog_type = p->prog_type;
	a.expected_attach_type = p->expected_attach_type;
	a.attach_btf_id = p->attach_btf_id;
	a.insns = (uintptr_t)p->insns;
	a.insn_cnt = (uint32_t)p->insn_cnt;
	a.license = (uintptr_t)p->license;
	a.kern_version = p->kern_version;
	a.prog_flags = p->prog_flags;
	a.fd_array = (uintptr_t)fds;
	a.log_buf = (uintptr_t)log;
	a.log_size = (uint32_t)logsz;
	a.log_level = 1;
	log[0] = 0;
	if (btf_fd >= 0 && p->func_info) {
		a.prog_btf_fd = btf_fd;
		a.func_info = (uintptr_t)p->func_info;
		a.func_info_cnt = p->func_info_cnt;
		a.func_info_rec_size = p->func_info_rec_size;
		a.line_info = (uintptr_t)p->line_info;
		a.line_info_cnt = p->line_info_cnt;
		a.line_info_rec_size = p->line_info_rec_size;
	}
	ret = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (ret < 0)
		ret = -errno;
	if (btf_fd >= 0)
		close(btf_fd);
out:
	for (size_t i = 0; i < o->map_cnt; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret;
}

static void test_kernel_accepts(void **state)
{
	(void)state;
	if (!bpf_usable())
		skip();
	static const char *const objs[] = {"btf_maps", "global_data", "subprog", "core", "legacy_maps", "legacy_elf_map"};
	static char log[1 << 16];
	unsigned loaded = 0;
	for (size_t k = 0; k < ARRAY_SIZE(objs); k++) {
		struct rb_object *o = open_test(objs[k], NULL);
		for (size_t i = 0; i < o->prog_cnt; i++) {
			if (!o->progs[i].type_known)
				continue;
			int fd = kernel_load(o, i, log, sizeof(log));
			if (fd < 0)
				fail_msg("%s:%s refused (%d): %s", objs[k], o->progs[i].name, fd, log);
			close(fd);
			loaded++;
		}
		rb_object_free(o);
	}
	assert_int_equal(loaded, 11); /* every program of a known type */
}

/* the loader's instructions equal those plain libbpf gives the real
 * kernel, map fds aside */
static void test_same_insns_as_libbpf(void **state)
{
	(void)state;
	if (!bpf_usable())
		skip();
	static const char *const objs[] = {"global_data", "subprog", "core"};
	for (size_t k = 0; k < ARRAY_SIZE(objs); k++) {
		char path[512];
		struct rb_object *o = open_test(objs[k], NULL);
		struct bpf_object *bo = bpf_object__open_file(lf_obj_path(objs[k], path, sizeof(path)), NULL);
		assert_non_null(bo);
		assert_int_equal(bpf_object__load(bo), 0);
		int mfd[64], nm = 0;
		struct bpf_map *m;
		bpf_object__for_each_map(m, bo) if (bpf_map__fd(m) >= 0) mfd[nm++] = bpf_map__fd(m);
		struct bpf_program *bp;
		bpf_object__for_each_program(bp, bo) {
			const struct rb_prog *p = lf_prog(o, bpf_program__name(bp));
			const struct bpf_insn *ri = bpf_program__insns(bp);
			assert_int_equal(bpf_program__insn_cnt(bp), p->insn_cnt);
			for (size_t i = 0; i < p->insn_cnt; i++) {
				struct bpf_insn r = ri[i], l = p->insns[i];
				if (r.code == (BPF_LD | BPF_IMM | BPF_DW) &&
				    (r.src_reg == BPF_PSEUDO_MAP_FD || r.src_reg == BPF_PSEUDO_MAP_VALUE)) {
					assert_int_equal(l.src_reg, r.src_reg == BPF_PSEUDO_MAP_FD ? BPF_PSEUDO_MAP_IDX
												    : BPF_PSEUDO_MAP_IDX_VALUE);
					assert_in_range(l.imm, 0, nm - 1);
					assert_int_equal(mfd[l.imm], r.imm);
					continue;
				}
				assert_memory_equal(&r, &l, sizeof(r));
			}
		}
		bpf_object__close(bo);
		rb_object_free(o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_btf_maps),
		cmocka_unit_test(test_global_data),
		cmocka_unit_test(test_subprog),
		cmocka_unit_test(test_core_host),
		cmocka_unit_test(test_core_custom_btf),
		cmocka_unit_test(test_struct_ops_member_remap),
		cmocka_unit_test(test_legacy_bpf_map_def),
		cmocka_unit_test(test_legacy_elf_map),
		cmocka_unit_test(test_missing_kernel_symbol),
		cmocka_unit_test(test_missing_and_bad_files),
		cmocka_unit_test(test_rbvt_format),
		cmocka_unit_test(test_rbvt_kfunc_names),
		cmocka_unit_test(test_kernel_accepts),
		cmocka_unit_test(test_same_insns_as_libbpf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
