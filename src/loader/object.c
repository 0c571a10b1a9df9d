/* object.c — rb_object_open(): read the file, check its structure
 * (elf_view.c), then open it with libbpf (open_libbpf.c) or, for legacy
 * SEC("maps") objects that libbpf 1.x refuses, with our own ELF path
 * (open_legacy.c). */
#include "loader/object.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "loader/bpf_standin.h"
#include "loader/elf_view.h"
#include "loader/open_paths.h"
#include "loader/sha256.h"
#include "util/file.h"

int rb_object_open_mem(const char *path, const void *buf, size_t size, const struct rb_load_opts *opts,
		       struct rb_object **out, struct rb_err *err)
{
	*out = NULL;
	struct rb_object *obj = calloc(1, sizeof(*obj));
	if (!obj)
		return rb_errf(err, "%s: out of memory", path);
	snprintf(obj->path, sizeof(obj->path), "%s", path);
	obj->file_size = size;
	rb_sha256_hex(buf, size, obj->sha256);
	/* a scratch context for the whole open, so that libbpf messages from
	 * calls outside a load (section-name lookups) are captured too */
	struct rb_standin scratch = {0};
	libbpf_set_print(rb_standin_libbpf_print);
	struct rb_standin *prev = rb_standin_begin(&scratch);
	struct rb_elf elf;
	int ret = rb_elf_parse(&elf, path, buf, size, err);
	if (ret == 0) {
		if (elf.legacy_maps) {
			obj->legacy_maps = true;
			ret = rb_open_legacy(&elf, obj, err);
		} else {
			ret = rb_open_libbpf(&elf, opts, obj, err);
		}
		rb_elf_free(&elf);
	}
	rb_standin_end(prev);
	rb_standin_free(&scratch);
	if (ret) {
		rb_object_free(obj);
		return -1;
	}
	*out = obj;
	return 0;
}

int rb_object_open(const char *path, const struct rb_load_opts *opts, struct rb_object **out,
		   struct rb_err *err)
{
	*out = NULL;
	uint8_t *buf = NULL;
	size_t size = 0;
	if (rb_read_file(path, RB_MAX_FILE_SIZE, &buf, &size, err))
		return -1;
	int ret = rb_object_open_mem(path, buf, size, opts, out, err);
	free(buf);
	return ret;
}

void rb_object_free(struct rb_object *obj)
{
	if (!obj)
		return;
	for (size_t i = 0; i < obj->map_cnt; i++)
		free(obj->maps[i].init);
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		free(obj->progs[i].insns);
		free(obj->progs[i].func_info);
		free(obj->progs[i].line_info);
	}
	free(obj->maps);
	free(obj->progs);
	free(obj->btf);
	free(obj);
}
