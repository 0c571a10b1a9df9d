/* cmd_extract.c — `rangebench extract [-o DIR] [--list] FILE...`: write each
 * BPF ELF object embedded in FILE (a libbpf skeleton in an executable or
 * shared object, or a plain .o) as DIR/<basename of FILE>.<n>.o, n = 0, 1, ...
 * in file order (<basename>~2.<n>.o, ~3, ... when an earlier FILE of the
 * same invocation has the same base name). Sizes come from the embedded ELF headers and are checked
 * against the bytes present (src/corpus/embedded.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "corpus/embedded.h"
#include "util/file.h"

#define EXTRACT_MAX_FILE ((size_t)1 << 30) /* refuse inputs over 1 GiB */

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench extract [-o DIR] [--list] FILE...\n"
		   "  Writes every BPF ELF object embedded in FILE as DIR/<FILE basename>.<n>.o\n"
		   "  (DIR defaults to '.'); FILEs sharing a base name get <basename>~2.<n>.o, ~3, ...\n"
		   "  --list only prints what would be written.\n"
		   "  Prints one line per object: FILE, index, offset, size, output path.\n"
		   "  Exit 0 ok, 2 bad usage, unreadable input or malformed embedded object.\n");
}

/* path gets the n bytes at p whole or not at all: they go to a
 * temporary file beside it, renamed to path once written and closed
 * without error (a full disk leaves neither a cut nor an empty
 * .o, and an older path stays as it was) */
static int write_file(const char *path, const uint8_t *p, size_t n, struct rb_err *err)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.partial-%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return rb_errf(err, "%s: cannot create: %s", path, strerror(errno));
	int e = 0;
	for (size_t done = 0; done < n && !e;) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno != EINTR)
			e = errno;
		else if (w > 0)
			done += (size_t)w;
	}
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		return rb_errf(err, "%s: write failed: %s (nothing written)", path, strerror(e));
	}
	return 0;
}

/* the output names of this invocation, so that two inputs with the same
 * base name never write the same file */
struct used_names {
	char **v;
	size_t n, cap;
};

static bool name_used(const struct used_names *u, const char *name)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->v[i], name))
			return true;
	return false;
}

static int name_add(struct used_names *u, const char *name)
{
	if (u->n == u->cap) {
		size_t nc = u->cap ? 2 * u->cap : 16;
		char **n = realloc(u->v, nc * sizeof(*n));
		if (!n)
			return -1;
		u->v = n;
		u->cap = nc;
	}
	if (!(u->v[u->n] = strdup(name)))
		return -1;
	u->n++;
	return 0;
}

/* Returns 0 ok, 2 on any error with this file. */
static int extract_one(const char *path, const char *dir, int list_only, struct used_names *used)
{
	struct rb_err err = {{0}};
	uint8_t *buf = NULL;
	size_t len = 0;
	if (rb_read_file(path, EXTRACT_MAX_FILE, &buf, &len, &err) < 0) {
		fprintf(stderr, "rangebench extract: %s\n", err.msg);
		return 2;
	}
	struct rb_embedded_list l;
	if (rb_embedded_scan(buf, len, path, &l, &err) < 0) {
		fprintf(stderr, "rangebench extract: %s\n", err.msg);
		free(buf);
		return 2;
	}
	int rc = 0;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < l.bad_cnt; i++) {
		fprintf(stderr, "rangebench extract: %s: malformed embedded BPF object at offset 0x%zx: %s\n", path,
			l.bad[i].offset, l.bad[i].reason);
		rc = 2;
	}
	/* another input of this invocation with the same base name already
	 * wrote <base>.<n>.o: this one becomes <base>~2.<n>.o (~3, ...) */
	char stem[1024];
	snprintf(stem, sizeof(stem), "%s", base);
	for (unsigned k = 2; l.cnt; k++) {
		char probe[4200];
		snprintf(probe, sizeof(probe), "%s/%s.0.o", dir, stem);
		if (!name_used(used, probe))
			break;
		snprintf(stem, sizeof(stem), "%.1000s~%u", base, k);
	}
	if (strcmp(stem, base))
		fprintf(stderr, "rangebench extract: note: %s: an earlier input has the base name '%s'; "
				"writing %s.<n>.o instead\n",
			path, base, stem);
	for (size_t i = 0; i < l.cnt; i++) {
		char out[4096];
		int n = snprintf(out, sizeof(out), "%s/%s.%zu.o", dir, stem, i);
		if (n < 0 || (size_t)n >= sizeof(out)) {
			fprintf(stderr, "rangebench extract: %s: output path too long\n", path);
			rc = 2;
			break;
		}
		if (name_add(used, out) < 0) {
			fprintf(stderr, "rangebench extract: out of memory\n");
			rc = 2;
			break;
		}
		if (!list_only && write_file(out, buf + l.objs[i].offset, l.objs[i].size, &err) < 0) {
			fprintf(stderr, "rangebench extract: %s\n", err.msg);
			rc = 2;
			continue;
		}
		printf("%s\t%zu\t0x%zx\t%zu\t%s\n", path, i, l.objs[i].offset, l.objs[i].size, out);
	}
	rb_embedded_list_free(&l);
	free(buf);
	return rc;
}

int cmd_extract(int argc, char **argv)
{
	const char *dir = ".";
	int list_only = 0, i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "rangebench extract: -o needs a directory\n");
				return 2;
			}
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--list")) {
			list_only = 1;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rangebench extract: unknown option '%s'\n", argv[i]);
			return 2;
		} else {
			break;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	struct stat st;
	if (!list_only && (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "rangebench extract: %s: not a directory\n", dir);
		return 2;
	}
	int rc = 0;
	struct used_names used = {0};
	for (; i < argc; i++)
		if (extract_one(argv[i], dir, list_only, &used))
			rc = 2;
	for (size_t k = 0; k < used.n; k++)
		free(used.v[k]);
	free(used.v);
	return rc;
}
