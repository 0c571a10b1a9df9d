/* fuzz_loader.c — libFuzzer target: any byte string handed to the loader
 * must give either an object or a clean error naming the input, within
 * bounded time and memory, with no sanitizer report. Build and run:
 * make fuzz [FUZZ_TIME=seconds]. CO-RE relocations resolve against a tiny
 * BTF written at start-up (fuzz_btf.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_btf.h"
#include "loader/object.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char btf_path[64];
/* reads of the loaded object go here, so they are not optimised away */
static volatile uint64_t sink;

static void remove_btf(void) { unlink(btf_path); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_write_btf(btf_path, sizeof(btf_path), "rb_fuzz_btf");
	atexit(remove_btf);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	struct rb_load_opts opts = {.btf_path = btf_path};
	if (rb_object_open_mem("fuzz.o", data, size, &opts, &obj, &err) == 0) {
		/* touch everything the engine would read */
		for (size_t i = 0; i < obj->prog_cnt; i++) {
			for (size_t k = 0; k < obj->progs[i].insn_cnt; k++)
				sink += obj->progs[i].insns[k].code;
			if (obj->progs[i].insns && obj->progs[i].error[0])
				__builtin_trap(); /* contract: a program with an error has no insns */
		}
		for (size_t i = 0; i < obj->map_cnt; i++) {
			if (obj->maps[i].init && obj->maps[i].init_size)
				sink += obj->maps[i].init[obj->maps[i].init_size - 1];
			if (obj->maps[i].inner_map_idx >= (int32_t)obj->map_cnt)
				__builtin_trap();
		}
		rb_object_free(obj);
	} else if (strncmp(err.msg, "fuzz.o: ", 8) != 0) {
		__builtin_trap(); /* every error names the input */
	}
	return 0;
}
