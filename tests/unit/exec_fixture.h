/* exec_fixture.h — shared by test_exec.c and test_exec_fault.c: one-program
 * objects built in memory and issue 10's cause-A reproducer. */
#ifndef RB_TEST_EXEC_FIXTURE_H
#define RB_TEST_EXEC_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/gen.h"

#define XI(c, d, s, o, i) ((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})

struct xfixture {
	struct rb_object obj;
	struct rb_prog prog;
	struct rb_map map;
};

static inline void xmkobj(struct xfixture *f, const struct bpf_insn *insns, size_t n, uint32_t flags)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->obj.path, sizeof(f->obj.path), "test");
	snprintf(f->prog.name, sizeof(f->prog.name), "prog");
	snprintf(f->prog.license, sizeof(f->prog.license), "GPL");
	f->prog.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	f->prog.insns = (struct bpf_insn *)insns;
	f->prog.insn_cnt = n;
	f->prog.prog_flags = flags;
	f->map = (struct rb_map){.name = "arr", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
				 .max_entries = 4, .inner_map_idx = -1};
	f->obj.maps = &f->map;
	f->obj.map_cnt = 1;
	f->obj.progs = &f->prog;
	f->obj.prog_cnt = 1;
}

/* issue 10 cause A reproducer (program a3 of tests/objects/engine_fidelity.bpf.c) as instructions: "w6 += 0"
 * must not link r6 to r7 (r7's upper half is 1); with the link, the 32-bit
 * bound on r7 is copied into r6 and the engine believes r6 >> 32 == 1, so
 * the stack read really at fp+8 looks like fp-8 */
static const struct bpf_insn a3_prog[] = {
	XI(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32),
	XI(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0),
	XI(BPF_ALU | BPF_MOV | BPF_X, 7, 7, 0, 0),
	XI(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
	XI(BPF_ALU64 | BPF_LSH | BPF_K, 1, 0, 0, 32),
	XI(BPF_ALU64 | BPF_OR | BPF_X, 7, 1, 0, 0),
	XI(BPF_ALU64 | BPF_MOV | BPF_X, 6, 7, 0, 0),
	XI(BPF_ALU | BPF_ADD | BPF_K, 6, 0, 0, 0),
	XI(BPF_JMP32 | BPF_JGT | BPF_K, 7, 0, 8, 7),
	XI(BPF_ALU64 | BPF_RSH | BPF_K, 6, 0, 0, 32),
	XI(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 1),
	XI(BPF_ALU64 | BPF_SUB | BPF_X, 2, 6, 0, 0),
	XI(BPF_ALU64 | BPF_LSH | BPF_K, 2, 0, 0, 4),
	XI(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
	XI(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),
	XI(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 0, 0),
	XI(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 0, 0),
	XI(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
	XI(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
};

/* count violations of generated programs of one family */
static inline void xrun_family(const char *fam, const char *tracker, unsigned nprogs, unsigned runs,
			       struct rb_exec_stats *st)
{
	struct rb_exec_opts o = {.seed = 1, .runs = runs};
	memset(st, 0, sizeof(*st));
	const struct rb_tracker *t = rb_tracker_get(tracker, 64);
	assert_non_null(t);
	for (unsigned i = 0; i < nprogs; i++) {
		struct rb_object *obj = NULL;
		struct rb_err err = {0};
		assert_int_equal(rb_exec_gen(fam, i, &obj, &err), 0);
		assert_int_equal(rb_exec_check_prog(obj, 0, t, &o, st, &err), 0);
		rb_object_free(obj);
	}
}

#endif
