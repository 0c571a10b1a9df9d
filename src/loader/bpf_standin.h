/* bpf_standin.h — an in-process stand-in for the bpf() system call, used
 * while libbpf loads an object so that nothing reaches the kernel. It
 * records what libbpf would have handed the kernel. */
#ifndef RB_LOADER_BPF_STANDIN_H
#define RB_LOADER_BPF_STANDIN_H

#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rb_kinputs;
struct rb_btf_lend;
struct btf;

struct rb_rec_map {
	ino_t ino;                 /* identity of the fd handed back (survives dup) */
	union bpf_attr attr;       /* BPF_MAP_CREATE attributes (up to the caller's size) */
	long inner;                /* record index of the inner map template, or -1 */
	bool frozen;
	uint8_t *value;            /* last value written at key 0 (value_size bytes), or NULL */
};

struct rb_rec_prog {
	ino_t ino;
	union bpf_attr attr;       /* pointers in it are not valid after the call */
	struct bpf_insn *insns;
	char license[64];
	void *func_info, *line_info;
};

struct rb_rec_btf {
	ino_t ino;
	void *data;
	size_t size;
};

struct rb_standin {
	struct rb_rec_map *maps;
	size_t map_cnt, map_cap;
	struct rb_rec_prog *progs;
	size_t prog_cnt, prog_cap;
	struct rb_rec_btf *btfs;
	size_t btf_cnt, btf_cap;
	bool oom;
	uint64_t total_insns;      /* over all program loads, bounded */
	/* --btf FILE: the vmlinux BTF libbpf resolves everything against
	 * (btf__load_vmlinux_btf: CO-RE, attach targets, kfuncs, typed ksyms,
	 * struct_ops types); NULL: the running kernel's */
	const char *vmlinux_btf;
	/* another kernel's inputs (kernel_inputs.h): libbpf's uname() and
	 * kernel configuration are that kernel's; NULL: the running kernel's */
	const struct rb_kinputs *kinputs;
	/* a kernel BTF to lend libbpf (object.h, rb_load_opts.lend_btf), used
	 * when it is the file vmlinux_btf names (NULL: the running kernel's);
	 * lent: what was handed out, which libbpf's btf__free spares */
	const struct rb_btf_lend *lend;
	const struct btf *lent;
	/* true: nothing is stood in for, bpf() reaches the kernel; only the
	 * lend applies (a caller's own libbpf loads into the running kernel,
	 * e.g. the oracle tests' reference loads, borrow its parse) */
	bool real;
	/* libbpf's messages while this context is active */
	char first_warn[400];
	char last_warn[400];
	size_t warn_cnt;
};

/* Route this thread's bpf() calls (and libbpf's messages) to st until
 * rb_standin_end(prev), where prev is what begin returned (contexts nest). */
struct rb_standin *rb_standin_begin(struct rb_standin *st);
void rb_standin_end(struct rb_standin *prev);
void rb_standin_free(struct rb_standin *st);

/* The newest record behind fd (by inode), or NULL. */
struct rb_rec_map *rb_standin_map_by_fd(struct rb_standin *st, int fd);
struct rb_rec_prog *rb_standin_prog_by_fd(struct rb_standin *st, int fd);
struct rb_rec_btf *rb_standin_btf_by_fd(struct rb_standin *st, int fd);

/* libbpf print callback: captures warnings into the active context, or
 * prints them on stderr (libbpf's default) when none is active. */
int rb_standin_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap);

#endif
