/* fuzz_verify.c — libFuzzer target: the loader with the engine behind it.
 * Any byte string is opened as a BPF object; every program that loads is
 * verified with the old and the cnum tracker under a small instruction
 * budget and a time limit. The result must be a verdict with its
 * invariants (a rejection names its instruction, counts within the
 * budget), within bounded time and memory, with no sanitizer report.
 * `make fuzz [FUZZ_TIME=seconds]` runs it. CO-RE relocations resolve
 * against a tiny BTF written at start-up (fuzz_btf.h); the engine
 * reads the running kernel's vmlinux BTF once per process.
 *
 * Built with -DRB_FUZZ_REPLAY (by `make test`, with gcc) it is a plain
 * program instead: `fuzz_verify FILE...` runs the same checks on each file
 * (the seed objects, crash reproducers kept in tests/fuzz/regress/), so the
 * target cannot rot and fixed crashes stay fixed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/vmlinux.h"
#include "fuzz_btf.h"
#include "loader/object.h"
#include "verify/verify.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INSN_BUDGET 20000 /* per program and tracker */
#define TIME_LIMIT_S 2.0
#define MAX_PROGS 16      /* programs verified per input */

static char btf_path[64];
static struct rb_vmlinux *vmlinux;

static void cleanup(void)
{
	unlink(btf_path);
	rb_vmlinux_free(vmlinux);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_write_btf(btf_path, sizeof(btf_path), "rb_fuzz_vbtf");
	vmlinux = rb_vmlinux_new();
	if (!vmlinux)
		abort();
	atexit(cleanup);
	return 0;
}

static void check(bool ok, const char *what, const char *prog, const char *tracker)
{
	if (ok)
		return;
	fprintf(stderr, "fuzz_verify: %s: program %s, tracker %s\n", what, prog, tracker);
	__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	struct rb_load_opts opts = {.btf_path = btf_path};
	if (rb_object_open_mem("fuzz.o", data, size, &opts, &obj, &err) != 0) {
		check(!strncmp(err.msg, "fuzz.o: ", 8), "an open error that does not name the input", "-", "-");
		return 0;
	}
	static const char *const trackers[] = {"old", "cnum"};
	for (size_t i = 0; i < obj->prog_cnt && i < MAX_PROGS; i++) {
		const struct rb_prog *p = &obj->progs[i];
		for (size_t t = 0; t < 2; t++) {
			struct rb_verify_opts vo = {.tracker = trackers[t], .insn_limit = INSN_BUDGET,
						    .time_limit_s = TIME_LIMIT_S, .vmlinux = vmlinux};
			struct rb_result res;
			memset(&res, 0, sizeof(res));
			struct rb_err verr = {{0}};
			check(rb_verify(obj, i, &vo, &res, &verr) == 0, "rb_verify refused a loaded program", p->name,
			      trackers[t]);
			/* refused: a kernel symbol missing from vmlinux BTF */
			check(res.verdict == RB_ACCEPT || res.verdict == RB_REJECT || res.verdict == RB_UNSUPPORTED ||
				      res.verdict == RB_LIMIT || res.verdict == RB_LOAD_ERROR || res.verdict == RB_REFUSED,
			      "a verdict the engine never gives", p->name, trackers[t]);
			check(memchr(res.msg, 0, sizeof(res.msg)) != NULL, "an unterminated message", p->name,
			      trackers[t]);
			check(res.verdict == RB_ACCEPT || res.msg[0], "a verdict other than success without a message",
			      p->name, trackers[t]);
			/* (a rejection before any instruction is processed has none, as
			 * 6.18's check_map_prog_compatibility has none; nor has the
			 * refusal after verification, bpf_check_tail_call's EINVAL) */
			check(res.verdict != RB_REJECT || (res.err_insn == -1 && res.insns_processed == 0) ||
				      (res.err_insn == -1 && !strcmp(res.msg, "rejected (Invalid argument)")) ||
				      (res.err_insn >= 0 && (size_t)res.err_insn < p->insn_cnt),
			      "a rejection without an instruction of the program", p->name, trackers[t]);
			/* the kernel's budget check comes after the instruction that
			 * reaches it: one instruction over at most */
			check(res.insns_processed <= INSN_BUDGET + 1, "more instructions processed than the budget",
			      p->name, trackers[t]);
		}
	}
	rb_object_free(obj);
	return 0;
}

#ifdef RB_FUZZ_REPLAY
#include "util/file.h"
int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fuzz_verify FILE...\n");
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	int n = 0;
	for (int a = 1; a < argc; a++) {
		uint8_t *buf = NULL;
		size_t len = 0;
		struct rb_err err = {{0}};
		if (rb_read_file(argv[a], 512u << 20, &buf, &len, &err)) {
			fprintf(stderr, "fuzz_verify: %s\n", err.msg);
			return 2;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("fuzz_verify: %d inputs, no failure\n", n);
	return 0;
}
#endif
