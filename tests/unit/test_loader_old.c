/* test_loader_old.c — the loader paths for objects libbpf 1.x refuses or
 * sees nothing in, and the program-type resolver (loader/prog_type.h), on
 * test objects built by make (tests/objects/):
 *   iproute2_tc    struct bpf_elf_map maps with tc's pinning values, a
 *                  Cilium-style section, an "N/M" tail-call section, no BTF;
 *   old_toolchain  STT_NOTYPE program symbols, two in one section,
 *                  prefix-matched section names, an unresolved memset call;
 *   em_none        the same with e_machine 0;
 *   static_prog    a static program function;
 *   bad/no_program data only: an error, not an empty object (built into
 *                  build/test/objects-bad/, as tools run objects/ whole);
 *   map_fixups     map sizes the kernel refuses as written, a map-in-map
 *                  without an inner map;
 *   mixed_maps     legacy and BTF-defined maps in one object;
 *   btf_pinning    BTF maps with tc's pinning values (libbpf refuses them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "loader/object.h"
#include "loader/prog_type.h"
#include "loader_fixture.h"
#include "util/array_size.h"

static void test_iproute2_object(void **state)
{
	(void)state;
	struct rb_object *o = lf_open("iproute2_tc", NULL);
	assert_true(o->legacy_maps);
	assert_true(o->iproute2);
	assert_int_equal(o->map_cnt, 2);
	assert_string_equal(o->maps[0].name, "jmp_map");
	assert_int_equal(o->maps[0].type, BPF_MAP_TYPE_PROG_ARRAY);
	assert_string_equal(o->maps[1].name, "counters");
	assert_int_equal(o->maps[1].value_size, 8);
	assert_int_equal(o->prog_cnt, 2);
	const struct rb_prog *m = lf_prog(o, "from_container"), *t = lf_prog(o, "tail_slot0");
	assert_int_equal(m->prog_type, BPF_PROG_TYPE_SCHED_CLS);
	assert_string_equal(m->type_from, "cilium");
	assert_false(m->tail_call);
	assert_int_equal(t->prog_type, BPF_PROG_TYPE_SCHED_CLS);
	assert_string_equal(t->type_from, "object");
	assert_true(t->tail_call);
	assert_int_equal(t->tail_map_id, 1);
	assert_int_equal(t->tail_slot, 0);
	/* the map references of from_container are in index form */
	int refs = 0;
	for (size_t i = 0; i < m->insn_cnt; i++)
		if (m->insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) && m->insns[i].src_reg) {
			assert_int_equal(m->insns[i].src_reg, BPF_PSEUDO_MAP_IDX);
			assert_in_range(m->insns[i].imm, 0, 1);
			refs |= 1 << m->insns[i].imm;
			i++;
		}
	assert_int_equal(refs, 3);
	rb_object_free(o);
}

static void check_old_toolchain(const char *name)
{
	struct rb_object *o = lf_open(name, NULL);
	assert_true(o->own_path);
	assert_false(o->legacy_maps);
	assert_int_equal(o->prog_cnt, 4);
	const struct rb_prog *a = lf_prog(o, "xdp_pass"), *b = lf_prog(o, "xdp_drop"), *s = lf_prog(o, "sock_memset");
	assert_int_equal(lf_prog(o, "sock_memcpy")->insn_cnt, 8);
	/* two NOTYPE symbols in one section: each runs to the next */
	assert_int_equal(a->insn_cnt, 2);
	assert_int_equal(b->insn_cnt, 2);
	assert_int_equal(a->insns[0].imm, 2);
	assert_int_equal(b->insns[0].imm, 1);
	assert_int_equal(a->prog_type, BPF_PROG_TYPE_XDP);
	assert_string_equal(a->type_from, "libbpf<1.0");
	assert_int_equal(s->prog_type, BPF_PROG_TYPE_SOCKET_FILTER);
	assert_string_equal(s->license, "GPL");
	/* the memset call stays as the file has it: pseudo call, imm -1 */
	assert_int_equal(s->insn_cnt, 7);
	assert_int_equal(s->insns[4].code, BPF_JMP | BPF_CALL);
	assert_int_equal(s->insns[4].src_reg, BPF_PSEUDO_CALL);
	assert_int_equal(s->insns[4].imm, -1);
	/* and the loader says which function is missing */
	assert_string_equal(s->undefined_calls, "memset");
	assert_string_equal(a->undefined_calls, "");
	char note[512];
	rb_prog_undefined_note(s, note, sizeof(note));
	assert_non_null(strstr(note, "calls memset, not defined in this object"));
	rb_prog_undefined_note(a, note, sizeof(note));
	assert_string_equal(note, "");
	rb_object_free(o);
}

static void test_notype_programs(void **state)
{
	(void)state;
	check_old_toolchain("old_toolchain");
}

static void test_em_none(void **state)
{
	(void)state;
	check_old_toolchain("em_none");
}

static void test_static_program(void **state)
{
	(void)state;
	struct rb_object *o = lf_open("static_prog", NULL);
	assert_true(o->own_path);
	assert_int_equal(o->prog_cnt, 1);
	assert_string_equal(o->progs[0].name, "xdp_static");
	assert_int_equal(o->progs[0].prog_type, BPF_PROG_TYPE_XDP);
	assert_true(o->progs[0].insn_cnt > 1);
	rb_object_free(o);
}

static void test_no_program_is_an_error(void **state)
{
	(void)state;
	char p[512];
	struct rb_err err = {{0}};
	struct rb_object *o = (struct rb_object *)1;
	const char *dir = getenv("RB_TEST_OBJECTS");
	snprintf(p, sizeof(p), "%s/../objects-bad/no_program.bpf.o", dir ? dir : "build/test/objects");
	assert_int_equal(rb_object_open(p, NULL, &o, &err), -1);
	assert_null(o);
	char want[600];
	snprintf(want, sizeof(want), "%s: no programs: no code section (data or maps only)", p);
	assert_string_equal(err.msg, want);
}

static void test_section_conventions(void **state)
{
	(void)state;
	static const struct {
		const char *sec;
		uint32_t type;
		const char *from; /* NULL: undecided */
	} cases[] = {
		{"xdp", BPF_PROG_TYPE_XDP, "libbpf"},
		{"classifier", BPF_PROG_TYPE_SCHED_CLS, "libbpf"},
		{"action", BPF_PROG_TYPE_SCHED_ACT, "libbpf"},
		{"prog", BPF_PROG_TYPE_XDP, "iproute2"},
		{"ingress", BPF_PROG_TYPE_SCHED_CLS, "iproute2"},
		{"from-netdev", BPF_PROG_TYPE_SCHED_CLS, "cilium"},
		{"to-container", BPF_PROG_TYPE_SCHED_CLS, "cilium"},
		{"tc/ingress", BPF_PROG_TYPE_SCHED_CLS, "libbpf>1.1"},
		{"tcx/egress", BPF_PROG_TYPE_SCHED_CLS, "libbpf>1.1"},
		{"tc/other", BPF_PROG_TYPE_SCHED_CLS, "tcx-like"},
		{"uprobe.multi", BPF_PROG_TYPE_KPROBE, "libbpf>1.1"},
		{"uprobe.multi.s/lib:sym", BPF_PROG_TYPE_KPROBE, "libbpf>1.1"},
		{"usdt/a:b:c", BPF_PROG_TYPE_KPROBE, "libbpf>1.1"},
		{"netfilter", 32, "libbpf>1.1"},
		{"sk_skb/verdict", BPF_PROG_TYPE_SK_SKB, "libbpf>1.1"},
		{"kprobe/x", BPF_PROG_TYPE_KPROBE, "libbpf"},
		{"uprobe.multix", 0, NULL},
		{"netfilter/x", 0, NULL},
		{"xdp_prog", BPF_PROG_TYPE_XDP, "libbpf<1.0"},
		{"socket1", BPF_PROG_TYPE_SOCKET_FILTER, "libbpf<1.0"},
		{"sk_skb_parser", BPF_PROG_TYPE_SK_SKB, "libbpf<1.0"},
		{"sockops_map", BPF_PROG_TYPE_SOCK_OPS, "libbpf<1.0"},
		{"from-", 0, NULL},
		{".text", 0, NULL},
		{"2/7", 0, NULL},
		{"weird_section_name", 0, NULL},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint32_t t = 0, e = 0;
		const char *from = NULL;
		bool ok = rb_section_prog_type(cases[i].sec, &t, &e, &from);
		if (!cases[i].from) {
			assert_false(ok);
			continue;
		}
		assert_true(ok);
		assert_int_equal(t, cases[i].type);
		assert_string_equal(from, cases[i].from);
	}
	uint32_t id, slot;
	assert_true(rb_section_tail_call("2/7", &id, &slot));
	assert_int_equal(id, 2);
	assert_int_equal(slot, 7);
	assert_false(rb_section_tail_call("2/", &id, &slot));
	assert_false(rb_section_tail_call("2/7x", &id, &slot));
	assert_false(rb_section_tail_call("kprobe/7", &id, &slot));
	assert_true(rb_section_tail_call("0xabccba/0", &id, &slot));
	assert_int_equal(id, 0xabccba);
}

static void test_type_options(void **state)
{
	(void)state;
	uint32_t t, e;
	bool has;
	struct rb_err err = {{0}};
	assert_int_equal(rb_prog_type_parse("sched_cls", &t, &e, &has, &err), 0);
	assert_int_equal(t, BPF_PROG_TYPE_SCHED_CLS);
	assert_false(has);
	assert_int_equal(rb_prog_type_parse("cgroup/skb", &t, &e, &has, &err), 0);
	assert_int_equal(t, BPF_PROG_TYPE_CGROUP_SKB);
	assert_true(has);
	assert_int_equal(rb_prog_type_parse("nonsense", &t, &e, &has, &err), -1);
	assert_non_null(strstr(err.msg, "unknown program type 'nonsense'"));
	assert_int_equal(rb_attach_type_parse("cgroup_inet_egress", &e, &err), 0);
	assert_int_equal(e, BPF_CGROUP_INET_EGRESS);
	assert_int_equal(rb_attach_type_parse("nowhere", &e, &err), -1);
	/* names past libbpf 1.1's: mainline's attach and program types */
	assert_int_equal(rb_attach_type_parse("trace_uprobe_multi", &e, &err), 0);
	assert_int_equal(e, 48);
	assert_int_equal(rb_attach_type_parse("netkit_peer", &e, &err), 0);
	assert_int_equal(e, 55);
	assert_int_equal(rb_prog_type_parse("netfilter", &t, &e, &has, &err), 0);
	assert_int_equal(t, 32);
	assert_int_equal(rb_prog_type_parse("uprobe.session", &t, &e, &has, &err), 0);
	assert_int_equal(t, BPF_PROG_TYPE_KPROBE);
	assert_int_equal(e, 57);
	assert_true(has);
	/* what mainline adds at load: the sleepable flag, a BTF attach target */
	struct rb_sec_info si;
	assert_true(rb_section_by_libbpf("uprobe.multi.s/lib:f", &si));
	assert_int_equal(si.prog_flags, BPF_F_SLEEPABLE);
	assert_int_equal(si.eat, 48);
	assert_true(rb_section_by_libbpf("tp_btf.s/sched_switch", &si));
	assert_true(si.attach_btf);
	assert_int_equal(si.eat, BPF_TRACE_RAW_TP);
	assert_true(rb_section_by_libbpf("kprobe/f", &si));
	assert_string_equal(si.from, "libbpf");
	assert_false(rb_section_by_libbpf("xdp_prog", &si));

	/* the unknown section of btf_maps: unknown without an option, then the
	 * option's type; the option does not touch what libbpf typed */
	struct rb_object *o = lf_open("btf_maps", NULL);
	const struct rb_prog *u = lf_prog(o, "unknown_type");
	assert_false(u->type_known);
	char why[256];
	rb_prog_type_unknown_msg(u, why, sizeof(why));
	assert_string_equal(why, "section 'weird_section_name' names no program type: set one with --prog-type "
				 "TYPE (or a prog_type column in the corpus manifest, or a rule in the directory's "
				 "rangebench.types)");
	rb_object_free(o);
	struct rb_load_opts lo = {.prog_type = "cgroup_skb", .attach_type = "cgroup_inet_egress"};
	o = lf_open("btf_maps", &lo);
	u = lf_prog(o, "unknown_type");
	assert_true(u->type_known);
	assert_int_equal(u->prog_type, BPF_PROG_TYPE_CGROUP_SKB);
	assert_int_equal(u->expected_attach_type, BPF_CGROUP_INET_EGRESS);
	assert_string_equal(u->type_from, "user");
	assert_true(u->insn_cnt > 0);
	const struct rb_prog *x = lf_prog(o, "use_maps");
	assert_int_equal(x->prog_type, BPF_PROG_TYPE_XDP);
	assert_string_equal(x->type_from, "libbpf");
	rb_object_free(o);
	/* a bad option is an open error */
	struct rb_load_opts bad = {.prog_type = "nonsense"};
	char p[512];
	struct rb_object *n = NULL;
	assert_int_equal(rb_object_open(lf_obj_path("btf_maps", p, sizeof(p)), &bad, &n, &err), -1);
	assert_null(n);
}

static const struct rb_map *map(const struct rb_object *o, const char *name)
{
	for (size_t i = 0; i < o->map_cnt; i++)
		if (!strcmp(o->maps[i].name, name))
			return &o->maps[i];
	fail_msg("no map %s", name);
	return NULL;
}

static void test_map_fixups(void **state)
{
	(void)state;
	struct rb_object *o = lf_open("map_fixups", NULL);
	const struct rb_map *rb = map(o, "events"), *pe = map(o, "perf_out"), *out = map(o, "outer");
	assert_int_equal(rb->key_size, 0);
	assert_int_equal(rb->value_size, 0);
	assert_int_equal(rb->max_entries, 8192);
	assert_int_equal(rb->fixups, RB_MAP_FIX_KEY_SIZE | RB_MAP_FIX_VALUE_SIZE | RB_MAP_FIX_MAX_ENTRIES);
	assert_int_equal(pe->key_size, 4);
	assert_int_equal(pe->value_size, 4);
	assert_true(pe->max_entries > 0);
	assert_true(out->fixups & RB_MAP_FIX_INNER);
	assert_in_range(out->inner_map_idx, 0, (long)o->map_cnt - 1);
	const struct rb_map *in = &o->maps[out->inner_map_idx];
	assert_string_equal(in->name, "outer.inner");
	assert_true(in->inner_template);
	assert_int_equal(in->type, BPF_MAP_TYPE_ARRAY);
	assert_int_equal(in->value_size, 4);
	/* the engine verifies it with these maps */
	assert_int_equal(o->prog_cnt, 1);
	rb_object_free(o);
}

static void test_mixed_legacy_and_btf_maps(void **state)
{
	(void)state;
	struct rb_object *o = lf_open("mixed_maps", NULL);
	assert_true(o->legacy_maps);
	const struct rb_map *lh = map(o, "legacy_hash"), *bh = map(o, "btf_hash"), *out = map(o, "btf_outer");
	assert_int_equal(lh->value_size, 8);
	assert_int_equal(bh->type, BPF_MAP_TYPE_HASH);
	assert_int_equal(bh->key_size, 4);
	assert_int_equal(bh->value_size, 4);
	assert_int_equal(bh->max_entries, 8);
	assert_int_equal(out->type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	assert_in_range(out->inner_map_idx, 0, (long)o->map_cnt - 1);
	const struct rb_map *in = &o->maps[out->inner_map_idx];
	assert_true(in->inner_template);
	assert_int_equal(in->type, BPF_MAP_TYPE_ARRAY);
	assert_int_equal(in->value_size, 8);
	assert_int_equal(in->max_entries, 2);
	assert_false(out->fixups & RB_MAP_FIX_INNER);
	/* the program refers to all three maps, in index form */
	const struct rb_prog *p = lf_prog(o, "use_both");
	assert_string_equal(p->error, "");
	unsigned seen = 0;
	for (size_t i = 0; i + 1 < p->insn_cnt; i++)
		if (p->insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) && p->insns[i].src_reg == BPF_PSEUDO_MAP_IDX) {
			const char *n = o->maps[p->insns[i].imm].name;
			seen |= (strcmp(n, "legacy_hash") ? 0u : 1u) | (strcmp(n, "btf_hash") ? 0u : 2u) |
				(strcmp(n, "btf_outer") ? 0u : 4u);
			i++;
		}
	assert_int_equal(seen, 7);
	rb_object_free(o);
}

static void test_tc_pinning_values(void **state)
{
	(void)state;
	struct rb_object *o = lf_open("btf_pinning", NULL);
	assert_true(o->own_path);
	assert_int_equal(o->map_cnt, 2);
	const struct rb_map *g = map(o, "global_ns"), *c = map(o, "custom_pin");
	assert_int_equal(g->type, BPF_MAP_TYPE_HASH);
	assert_int_equal(g->value_size, 8);
	assert_int_equal(c->type, BPF_MAP_TYPE_ARRAY);
	assert_int_equal(c->max_entries, 4);
	const struct rb_prog *p = lf_prog(o, "pinned_maps");
	assert_int_equal(p->prog_type, BPF_PROG_TYPE_SCHED_CLS);
	assert_string_equal(p->type_from, "libbpf");
	assert_string_equal(p->error, "");
	rb_object_free(o);
}

/* v4l-utils' bpf_load.c conventions (ir-keytable): maps in
 * "lirc_mode2/maps", global variables patched in as immediates */
static void test_lirc_params(void **state)
{
	(void)state;
	struct rb_object *o = lf_open("lirc_params", NULL);
	assert_true(o->own_path);
	const struct rb_prog *p = lf_prog(o, "decode");
	assert_int_equal(p->prog_type, BPF_PROG_TYPE_LIRC_MODE2);
	assert_string_equal(p->error, "");
	int maps = 0, v200 = 0, v0 = 0, values = 0;
	for (size_t i = 0; i + 1 < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_IDX)
			maps++;
		else if (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
			values++;
		else if (in->src_reg == 0 && in->imm == 200 && in[1].imm == 0)
			v200++;
		else if (in->src_reg == 0 && in->imm == 0 && in[1].imm == 0)
			v0++;
		i++;
	}
	assert_int_equal(maps, 1);
	assert_int_equal(values, 0);
	assert_true(v200 >= 1);
	assert_true(v0 >= 1);
	rb_object_free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iproute2_object),
		cmocka_unit_test(test_notype_programs),
		cmocka_unit_test(test_em_none),
		cmocka_unit_test(test_static_program),
		cmocka_unit_test(test_no_program_is_an_error),
		cmocka_unit_test(test_section_conventions),
		cmocka_unit_test(test_type_options),
		cmocka_unit_test(test_map_fixups),
		cmocka_unit_test(test_mixed_legacy_and_btf_maps),
		cmocka_unit_test(test_tc_pinning_values),
		cmocka_unit_test(test_lirc_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
