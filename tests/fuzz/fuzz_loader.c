/* fuzz_loader.c — libFuzzer target: any byte string handed to the loader
 * must give either an object or a clean error, within bounded time and
 * memory, with no sanitizer report. Build and run: make fuzz. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "loader/object.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	/* CO-RE against a BTF file that does not exist: fuzzing must not
	 * depend on (or spend time parsing) the host's vmlinux BTF */
	struct rb_load_opts opts = {.btf_path = "/nonexistent/vmlinux.btf"};
	if (rb_object_open_mem("fuzz.o", data, size, &opts, &obj, &err) == 0) {
		/* touch everything the engine would read */
		volatile uint64_t sum = 0;
		for (size_t i = 0; i < obj->prog_cnt; i++)
			for (size_t k = 0; k < obj->progs[i].insn_cnt; k++)
				sum += obj->progs[i].insns[k].code;
		for (size_t i = 0; i < obj->map_cnt; i++)
			if (obj->maps[i].init && obj->maps[i].init_size)
				sum += obj->maps[i].init[obj->maps[i].init_size - 1];
		rb_object_free(obj);
	} else if (strncmp(err.msg, "fuzz.o: ", 8) != 0) {
		__builtin_trap(); /* every error names the input */
	}
	return 0;
}
