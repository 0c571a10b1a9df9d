/* bpf_standin.c — libbpf loads objects against this stand-in for bpf().
 *
 * Why this design: libbpf 1.1 only produces the final instruction stream
 * (sub-programs appended, CO-RE applied, map references filled in) inside
 * bpf_object__load(), which creates maps and loads programs through bpf().
 * Re-implementing that pipeline would duplicate CO-RE and relocation logic;
 * bpf_object__gen_loader() leaves CO-RE to the kernel. So we let libbpf run
 * unchanged and answer its bpf() calls in-process: the binary is linked
 * with -Wl,--wrap=syscall, which routes libbpf's syscall(__NR_bpf, ...) to
 * __wrap_syscall below. The answers reproduce what Linux 6.18 answers
 * (every feature probe "supported"), and each answer is recorded: map
 * creations (attributes), map updates (global-data contents), freezes, BTF
 * loads and program loads (final instructions and attributes). The result
 * needs no kernel and no privileges.
 *
 * Why a _Thread_local pointer: syscall() has a fixed C signature, so the
 * per-load recording context cannot travel through libbpf to us as an
 * argument; libbpf has no user-data hook on its syscalls. The pointer is
 * set only for the duration of one rb_object_open() on the calling thread
 * (rb_standin_begin/end), so concurrent loads on other threads, and any
 * bpf() made outside a load (the kernel oracle uses the real bpf() in the
 * same binary), are untouched: every other system call, and every bpf()
 * while no context is active (or one that only lends a kernel BTF: real),
 * is forwarded to the real syscall(). This is
 * the project's only mutable global, and it is per-thread and scoped.
 *
 * Pitfalls handled (docs/kernel-facts.md, "libbpf without the kernel"):
 * attribute blocks are read only up to the caller's size; handed-back fds
 * are real closable fds (memfd_create), identified later by inode since
 * libbpf may dup them.
 */
#include "loader/bpf_standin.h"
#include "loader/kernel_inputs.h"
#include "loader/object.h"
#include "util/grow.h"

#include <bpf/btf.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#define REC_MAX_BYTES (64u << 20)
#define REC_MAX_INSNS (4u << 20)         /* one program load */
#define REC_MAX_TOTAL_INSNS (16u << 20)  /* all program loads of one object */

static _Thread_local struct rb_standin *current;

long __real_syscall(long number, ...);
long __wrap_syscall(long number, ...);

struct rb_standin *rb_standin_begin(struct rb_standin *st)
{
	struct rb_standin *prev = current;
	current = st;
	return prev;
}

void rb_standin_end(struct rb_standin *prev) { current = prev; }

static ino_t fd_ino(int fd)
{
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb))
		return 0;
	return sb.st_ino;
}

static long fail(int e)
{
	errno = e;
	return -1;
}

/* a fresh, closable fd standing for a kernel object */
static int new_fd(const char *what, ino_t *ino)
{
	int fd = memfd_create(what, MFD_CLOEXEC);
	if (fd >= 0)
		*ino = fd_ino(fd);
	return fd;
}

static void *dup_mem(uint64_t ptr, uint64_t len)
{
	if (!ptr || !len || len > REC_MAX_BYTES)
		return NULL;
	void *p = malloc(len);
	if (p)
		memcpy(p, (const void *)(uintptr_t)ptr, len);
	return p;
}

#define FIND_BY_INO(arr, cnt, key)                          \
	do {                                                \
		if (!(key))                                 \
			return NULL;                        \
		for (size_t i = (cnt); i-- > 0;)            \
			if ((arr)[i].ino == (key))          \
				return &(arr)[i];           \
		return NULL;                                \
	} while (0)

struct rb_rec_map *rb_standin_map_by_fd(struct rb_standin *st, int fd) { FIND_BY_INO(st->maps, st->map_cnt, fd_ino(fd)); }
struct rb_rec_prog *rb_standin_prog_by_fd(struct rb_standin *st, int fd) { FIND_BY_INO(st->progs, st->prog_cnt, fd_ino(fd)); }
struct rb_rec_btf *rb_standin_btf_by_fd(struct rb_standin *st, int fd) { FIND_BY_INO(st->btfs, st->btf_cnt, fd_ino(fd)); }

#define RB_MAP_TYPE_ARENA 33 /* BPF_MAP_TYPE_ARENA (Linux 6.9), after the 6.1 UAPI headers */
#define RB_ARENA_MAX_BYTES (4ull << 30) /* 6.18 kernel/bpf/arena.c: at most 4 GiB of user VM */

/* the bytes a kernel map of these attributes lets user space mmap (6.18:
 * arena_map_mmap, array_map_mmap), 0 when it cannot be mmap-ed, -1 when
 * the kernel would refuse the size */
static off_t mmap_len(const union bpf_attr *a)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), len;
	if (a->map_type == RB_MAP_TYPE_ARENA)
		len = (uint64_t)a->max_entries * page;
	else if (a->map_type == BPF_MAP_TYPE_ARRAY && (a->map_flags & BPF_F_MMAPABLE))
		len = ((uint64_t)a->value_size * a->max_entries + page - 1) / page * page;
	else
		return 0;
	return len > RB_ARENA_MAX_BYTES ? -1 : (off_t)len;
}

static long map_create(struct rb_standin *st, const union bpf_attr *a)
{
	if (RB_GROW(st->maps, st->map_cnt + 1, &st->map_cap, 16) < 0)
		return st->oom = true, fail(ENOMEM);
	struct rb_rec_map *m = &st->maps[st->map_cnt];
	memset(m, 0, sizeof(*m));
	m->attr = *a;
	m->inner = -1;
	if (a->inner_map_fd) {
		struct rb_rec_map *in = rb_standin_map_by_fd(st, (int)a->inner_map_fd);
		if (in)
			m->inner = in - st->maps;
	}
	int fd = new_fd("rb-bpf-map", &m->ino);
	if (fd < 0)
		return -1;
	/* libbpf >= 1.4 maps an arena (and an mmap-able array) through its fd
	 * and copies initial data into it (.addr_space.1's variables):
	 * memory must be behind the fd, else that copy dies of SIGBUS. The
	 * memfd is sparse: only what libbpf writes takes memory. */
	off_t len = mmap_len(a);
	if (len < 0 || (len && ftruncate(fd, len))) {
		close(fd);
		return fail(len < 0 ? E2BIG : errno);
	}
	st->map_cnt++;
	return fd;
}

static long map_update(struct rb_standin *st, const union bpf_attr *a)
{
	struct rb_rec_map *m = rb_standin_map_by_fd(st, (int)a->map_fd);
	if (!m)
		return fail(EBADF);
	/* keep the value written at key 0 of an array map: that is how libbpf
	 * hands over the contents of .data/.rodata/.kconfig */
	if (m->attr.map_type == BPF_MAP_TYPE_ARRAY && m->attr.key_size == 4 && a->key && a->value) {
		uint32_t key;
		memcpy(&key, (const void *)(uintptr_t)a->key, 4);
		if (key == 0 && m->attr.value_size) {
			void *v = dup_mem(a->value, m->attr.value_size);
			if (!v)
				return st->oom = true, fail(ENOMEM);
			free(m->value);
			m->value = v;
		}
	}
	return 0;
}

static long prog_load(struct rb_standin *st, const union bpf_attr *a)
{
	if (a->insn_cnt == 0 || a->insn_cnt > REC_MAX_INSNS || !a->insns ||
	    st->total_insns + a->insn_cnt > REC_MAX_TOTAL_INSNS)
		return fail(E2BIG);
	st->total_insns += a->insn_cnt;
	if (RB_GROW(st->progs, st->prog_cnt + 1, &st->prog_cap, 16) < 0)
		return st->oom = true, fail(ENOMEM);
	struct rb_rec_prog *p = &st->progs[st->prog_cnt];
	memset(p, 0, sizeof(*p));
	p->attr = *a;
	p->insns = malloc((size_t)a->insn_cnt * sizeof(struct bpf_insn));
	if (!p->insns)
		return st->oom = true, fail(ENOMEM);
	memcpy(p->insns, (const void *)(uintptr_t)a->insns, (size_t)a->insn_cnt * sizeof(struct bpf_insn));
	if (a->license) {
		const char *l = (const char *)(uintptr_t)a->license;
		snprintf(p->license, sizeof(p->license), "%.*s", (int)strnlen(l, sizeof(p->license) - 1), l);
	}
	if (a->func_info_cnt)
		p->func_info = dup_mem(a->func_info, (uint64_t)a->func_info_rec_size * a->func_info_cnt);
	if (a->line_info_cnt)
		p->line_info = dup_mem(a->line_info, (uint64_t)a->line_info_rec_size * a->line_info_cnt);
	int fd = new_fd("rb-bpf-prog", &p->ino);
	if (fd < 0) {
		free(p->insns);
		free(p->func_info);
		free(p->line_info);
		return -1;
	}
	st->prog_cnt++;
	return fd;
}

static long btf_load(struct rb_standin *st, const union bpf_attr *a)
{
	if (RB_GROW(st->btfs, st->btf_cnt + 1, &st->btf_cap, 16) < 0)
		return st->oom = true, fail(ENOMEM);
	struct rb_rec_btf *b = &st->btfs[st->btf_cnt];
	memset(b, 0, sizeof(*b));
	b->data = dup_mem(a->btf, a->btf_size);
	if (!b->data)
		return a->btf_size > REC_MAX_BYTES ? fail(E2BIG) : (st->oom = true, fail(ENOMEM));
	b->size = a->btf_size;
	int fd = new_fd("rb-bpf-btf", &b->ino);
	if (fd < 0) {
		free(b->data);
		return -1;
	}
	st->btf_cnt++;
	return fd;
}

static long standin_bpf(struct rb_standin *st, long cmd, const void *uattr, unsigned long size)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	if (!uattr)
		return fail(EFAULT);
	memcpy(&a, uattr, size < sizeof(a) ? size : sizeof(a));
	switch (cmd) {
	case BPF_MAP_CREATE:
		return map_create(st, &a);
	case BPF_MAP_UPDATE_ELEM:
		return map_update(st, &a);
	case BPF_MAP_FREEZE: {
		struct rb_rec_map *m = rb_standin_map_by_fd(st, (int)a.map_fd);
		if (!m)
			return fail(EBADF);
		m->frozen = true;
		return 0;
	}
	case BPF_PROG_LOAD:
		return prog_load(st, &a);
	case BPF_BTF_LOAD:
		return btf_load(st, &a);
	case BPF_PROG_BIND_MAP:
	case BPF_OBJ_GET_INFO_BY_FD: /* module-BTF probe: "name" field supported */
		return 0;
	case BPF_LINK_CREATE: /* perf-link probe expects EBADF for target fd -1 */
		return fail(EBADF);
	case BPF_BTF_GET_NEXT_ID: /* no kernel modules' BTF */
	case BPF_PROG_GET_NEXT_ID:
	case BPF_MAP_GET_NEXT_ID:
	case BPF_OBJ_GET:
		return fail(ENOENT);
	default:
		return fail(EINVAL);
	}
}

/* syscall() is variadic and we cannot know how many arguments a given
 * system call takes, so, like the C library's own syscall() (which loads
 * the sixth argument from the caller's stack unconditionally), we read six
 * argument words and pass them all on; unused ones are whatever the caller
 * left in registers / on its stack. The sixth read can land in a caller's
 * stack redzone, so AddressSanitizer is off for this one function. */
__attribute__((no_sanitize("address"))) long __wrap_syscall(long number, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	struct rb_standin *st = current;
	if (st && st->real)
		st = NULL; /* only lending: every call is the kernel's */
	if (st && number == __NR_bpf)
		return standin_bpf(st, a[0], (const void *)a[1], (unsigned long)a[2]);
	if (st && number == __NR_perf_event_open) {
		/* libbpf's syscall-wrapper probe opens a kprobe on __x64_sys_bpf;
		 * 6.18 on x86-64 has syscall wrappers: answer "it exists" */
		ino_t ino;
		return new_fd("rb-perf-event", &ino);
	}
	return __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* libbpf reads the vmlinux BTF through btf__load_vmlinux_btf() (libbpf.c
 * calls it in btf.c: another object file of libbpf.a, so -Wl,--wrap routes
 * the call here). Under a context with a vmlinux BTF file (--btf), that
 * file is the kernel's BTF for everything libbpf resolves — not only CO-RE
 * (btf_custom_path) — so an object is prepared as on the kernel that owns
 * the file: attach targets, kfunc and typed-ksym ids, struct_ops types the
 * running kernel may not have (sched_ext on 6.18). */
struct btf *__real_btf__load_vmlinux_btf(void);
struct btf *__wrap_btf__load_vmlinux_btf(void);
struct btf *__wrap_btf__load_vmlinux_btf(void)
{
	struct rb_standin *st = current;
	/* the caller's parse of that same file, when it lends one: libbpf
	 * only reads the kernel BTF (CO-RE candidates, attach targets, kfunc
	 * and ksym ids, struct_ops types), so the instance the engine
	 * verifies against serves it too, and btf__free below spares it. The
	 * lender is called outside the context: its first parse goes through
	 * this wrapper again, to the real loader. */
	if (st && st->lend &&
	    (st->lend->path ? st->vmlinux_btf && !strcmp(st->lend->path, st->vmlinux_btf) : !st->vmlinux_btf)) {
		rb_standin_begin(NULL);
		const struct btf *b = st->lend->get(st->lend->ctx);
		rb_standin_begin(st);
		if (b) {
			st->lent = b;
			return (struct btf *)b; /* libbpf's field is not const; it never writes through it */
		}
	}
	if (st && st->vmlinux_btf)
		return btf__parse(st->vmlinux_btf, NULL);
	return __real_btf__load_vmlinux_btf();
}

/* libbpf frees the kernel BTF at the end of a load and when the object is
 * closed (the object's close runs in its context: open_libbpf.c): a lent
 * one is the lender's (-Wl,--wrap=btf__free: libbpf.c's references) */
void __real_btf__free(struct btf *btf);
void __wrap_btf__free(struct btf *btf);
void __wrap_btf__free(struct btf *btf)
{
	struct rb_standin *st = current;
	if (btf && st && btf == st->lent)
		return;
	__real_btf__free(btf);
}

/* libbpf's uname() (LINUX_KERNEL_VERSION, the /boot/config-RELEASE it
 * opens) and its gzopen() of the kernel configuration: under a context
 * with another kernel's inputs, that kernel's (-Wl,--wrap=uname,
 * --wrap=gzopen64: libbpf.a's references, built with 64-bit file
 * offsets; kernel_inputs.h) */
int __real_uname(struct utsname *u);
int __wrap_uname(struct utsname *u);
int __wrap_uname(struct utsname *u)
{
	struct rb_standin *st = current;
	if (st && st->kinputs && st->kinputs->have_uts) {
		*u = st->kinputs->uts;
		return 0;
	}
	return __real_uname(u);
}

gzFile __real_gzopen64(const char *path, const char *mode);
gzFile __wrap_gzopen64(const char *path, const char *mode);
gzFile __wrap_gzopen64(const char *path, const char *mode)
{
	struct rb_standin *st = current;
	if (st && st->kinputs && (!strncmp(path, "/boot/config-", 13) || !strcmp(path, "/proc/config.gz"))) {
		if (!st->kinputs->config[0]) {
			errno = ENOENT; /* that kernel has no configuration to read */
			return NULL;
		}
		path = st->kinputs->config;
	}
	return __real_gzopen64(path, mode);
}

int rb_standin_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	struct rb_standin *st = current;
	if (!st)
		return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
	if (level != LIBBPF_WARN)
		return 0;
	char line[400];
	vsnprintf(line, sizeof(line), fmt, ap);
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = 0;
	if (!st->warn_cnt++)
		memcpy(st->first_warn, line, sizeof(line));
	memcpy(st->last_warn, line, sizeof(line));
	return 0;
}

void rb_standin_free(struct rb_standin *st)
{
	for (size_t i = 0; i < st->map_cnt; i++)
		free(st->maps[i].value);
	for (size_t i = 0; i < st->prog_cnt; i++) {
		free(st->progs[i].insns);
		free(st->progs[i].func_info);
		free(st->progs[i].line_info);
	}
	for (size_t i = 0; i < st->btf_cnt; i++)
		free(st->btfs[i].data);
	free(st->maps);
	free(st->progs);
	free(st->btfs);
	memset(st, 0, sizeof(*st));
}
