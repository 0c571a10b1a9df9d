/* fuzz_btf.h — the fuzz targets' shared start-up: a tiny BTF (a
 * task_struct with pid and tgid) written to a temporary file, against
 * which CO-RE relocations resolve, so the targets exercise CO-RE without
 * parsing the host's 5 MB vmlinux BTF each run. */
#ifndef RB_FUZZ_BTF_H
#define RB_FUZZ_BTF_H

#include <bpf/btf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* writes the BTF to /tmp/<stem>_<pid> and that path to path; aborts on failure */
static inline void fuzz_write_btf(char *path, size_t len, const char *stem)
{
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(b, "task_struct", 64);
	btf__add_field(b, "tgid", i32, 0, 0);
	btf__add_field(b, "pid", i32, 32, 0);
	uint32_t sz;
	const void *raw = btf__raw_data(b, &sz);
	snprintf(path, len, "/tmp/%s_%d", stem, (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(raw, 1, sz, f) != sz)
		abort();
	fclose(f);
	btf__free(b);
}

#endif
