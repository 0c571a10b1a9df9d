/* btf_file.h — a BTF file given with --btf (vmlinux BTF for CO-RE),
 * checked once before any object is opened, so that a bad file is one
 * error naming it and the reason rather than a libbpf error number per
 * object. */
#ifndef RB_LOADER_BTF_FILE_H
#define RB_LOADER_BTF_FILE_H

#include "util/err.h"

/* 0 when path is raw BTF (magic 0xeb9f) or an ELF file with a .BTF
 * section, and that BTF is well-formed (btf_check.c); else -1 with err =
 * "PATH: reason". */
int rb_btf_file_check(const char *path, struct rb_err *err);

#endif
