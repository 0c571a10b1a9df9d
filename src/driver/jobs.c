/* jobs.c — collecting the objects of a run (see jobs.h). */
#include "driver/jobs.h"
#include "util/file.h"
#include "util/grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/sort.h"

static int add_entry(struct rb_joblist *l, const char *path, const char *source, const char *prog_type,
		     const char *error, struct rb_err *err)
{
	if (RB_GROW(l->objs, l->n + 1, &l->cap, 64) < 0)
		return rb_errf(err, "%s: out of memory", path);
	/* "corpus/default/../x/y.o" (a sub-corpus manifest): the plain path */
	char clean[PATH_MAX];
	if (strstr(path, "/../") && realpath(path, clean))
		path = clean;
	char src[64];
	if (source && *source)
		snprintf(src, sizeof(src), "%s", source);
	else
		rb_jobs_guess_source(path, src, sizeof(src));
	l->objs[l->n].path = strdup(path);
	l->objs[l->n].source = strdup(src);
	/* "-" in a manifest column means none */
	l->objs[l->n].prog_type = strdup(prog_type && strcmp(prog_type, "-") ? prog_type : "");
	l->objs[l->n].error = error ? strdup(error) : NULL;
	if (!l->objs[l->n].path || !l->objs[l->n].source || !l->objs[l->n].prog_type ||
	    (error && !l->objs[l->n].error)) {
		free(l->objs[l->n].path);
		free(l->objs[l->n].source);
		free(l->objs[l->n].prog_type);
		free(l->objs[l->n].error);
		return rb_errf(err, "%s: out of memory", path);
	}
	l->n++;
	return 0;
}

static int add(struct rb_joblist *l, const char *path, const char *source, const char *prog_type,
	       struct rb_err *err)
{
	return add_entry(l, path, source, prog_type, NULL, err);
}

/* an object whose path (a + "/" + b) is too long to open: an entry with
 * the reason, the path kept whole (on the heap) so that its row's key is
 * its own */
static int add_too_long(struct rb_joblist *l, const char *a, const char *b, const char *source,
			struct rb_err *err)
{
	size_t n = strlen(a) + 1 + strlen(b) + 1;
	char *p = malloc(n);
	if (!p)
		return rb_errf(err, "%s: out of memory", a);
	snprintf(p, n, "%s/%s", a, b);
	char why[64];
	snprintf(why, sizeof(why), "path longer than %d bytes (File name too long)", PATH_MAX - 1);
	int rc = add_entry(l, p, source, NULL, why, err);
	free(p);
	return rc;
}

void rb_jobs_guess_source(const char *path, char *out, size_t len)
{
	char real[PATH_MAX];
	const char *p = realpath(path, real) ? real : path;
	out[0] = 0;
	/* the last ".../corpus/<source>/..." component that is not "default" */
	for (const char *c = strstr(p, "/corpus/"); c; c = strstr(c + 1, "/corpus/")) {
		const char *s = c + strlen("/corpus/");
		const char *e = strchr(s, '/');
		if (e && (size_t)(e - s) < len && strncmp(s, "default/", 8) != 0) {
			memcpy(out, s, (size_t)(e - s));
			out[e - s] = 0;
		}
	}
	if (out[0])
		return;
	const char *slash = strrchr(p, '/');
	if (!slash || slash == p)
		return;
	const char *d = slash - 1;
	while (d > p && *d != '/')
		d--;
	if (*d == '/')
		d++;
	size_t k = (size_t)(slash - d);
	if (k < len) {
		memcpy(out, d, k);
		out[k] = 0;
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* directories already walked, by device and inode: a symlink to an
 * ancestor (or any directory reached twice) is walked once */
struct visited {
	struct {
		dev_t dev;
		ino_t ino;
	} *v;
	size_t n, cap;
};

static int visit(struct visited *vs, const struct stat *sb)
{
	for (size_t i = 0; i < vs->n; i++)
		if (vs->v[i].dev == sb->st_dev && vs->v[i].ino == sb->st_ino)
			return 0;
	if (vs->n == vs->cap) {
		size_t nc = vs->cap ? 2 * vs->cap : 32;
		void *n = realloc(vs->v, nc * sizeof(*vs->v));
		if (!n)
			return -1;
		vs->v = n;
		vs->cap = nc;
	}
	vs->v[vs->n].dev = sb->st_dev;
	vs->v[vs->n].ino = sb->st_ino;
	vs->n++;
	return 1;
}

/* how deep below a corpus directory the walk goes; a directory deeper
 * than this (only a tree built to be hostile: links back up are walked
 * once, see visit) is an entry with its reason, never skipped silently */
#define WALK_MAX_DEPTH 64

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + 1 + strlen(b) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", a, b);
	return p;
}

/* Walk the open directory fd (named dir, which may be longer than
 * PATH_MAX: everything below is reached relative to fd, so depth costs
 * no path length). Takes fd. */
static int walk(struct rb_joblist *l, int fd, const char *dir, int depth, struct visited *vs,
		struct rb_err *err)
{
	char sb1[256];
	struct stat ds;
	if (fstat(fd, &ds) < 0) {
		int e = errno;
		close(fd);
		return rb_errf(err, "%s: cannot read directory: %s", rb_path_shown(dir, sb1, sizeof(sb1)), strerror(e));
	}
	int fresh = visit(vs, &ds);
	if (fresh <= 0) {
		close(fd);
		return fresh < 0 ? rb_errf(err, "%s: out of memory", rb_path_shown(dir, sb1, sizeof(sb1))) : 0;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return rb_errf(err, "%s: cannot read directory: %s", rb_path_shown(dir, sb1, sizeof(sb1)), strerror(e));
	}
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		bool is_obj = ends_with(e->d_name, ".o") || ends_with(e->d_name, ".rbvt");
		struct stat sb;
		if (fstatat(dirfd(d), e->d_name, &sb, 0) < 0) {
			if (errno == ENOENT)
				continue; /* dangling link */
			char *p = join(dir, e->d_name);
			rc = rb_errf(err, "%s: %s", p ? rb_path_shown(p, sb1, sizeof(sb1)) : e->d_name, strerror(errno));
			free(p);
			break;
		}
		if (!S_ISDIR(sb.st_mode) && !(S_ISREG(sb.st_mode) && is_obj))
			continue;
		char *p = join(dir, e->d_name);
		if (!p) {
			rc = rb_errf(err, "%s: out of memory", rb_path_shown(dir, sb1, sizeof(sb1)));
			break;
		}
		if (S_ISDIR(sb.st_mode) && depth >= WALK_MAX_DEPTH) {
			char why[96];
			snprintf(why, sizeof(why), "a directory more than %d levels below the corpus: not walked",
				 WALK_MAX_DEPTH);
			rc = add_entry(l, p, NULL, NULL, why, err);
		} else if (S_ISDIR(sb.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			rc = sub < 0 ? rb_errf(err, "%s: cannot read directory: %s", rb_path_shown(p, sb1, sizeof(sb1)),
					       strerror(errno))
				     : walk(l, sub, p, depth + 1, vs, err);
		} else if (strlen(p) >= PATH_MAX) {
			/* found, but no call can open it by this name */
			rc = add_too_long(l, dir, e->d_name, NULL, err);
		} else {
			rc = add(l, p, NULL, NULL, err);
		}
		free(p);
	}
	closedir(d);
	return rc;
}

/* split line at tabs in place; returns the number of fields */
static int split_tabs(char *line, char **f, int max)
{
	int n = 0;
	line[strcspn(line, "\r\n")] = 0;
	while (n < max) {
		f[n++] = line;
		char *t = strchr(line, '\t');
		if (!t)
			break;
		*t = 0;
		line = t + 1;
	}
	return n;
}

static int read_manifest(struct rb_joblist *l, const char *dir, const char *mpath,
			 struct rb_err *err)
{
	FILE *f = fopen(mpath, "r");
	if (!f)
		return rb_errf(err, "%s: cannot open: %s", mpath, strerror(errno));
	char *line = NULL;
	size_t linecap = 0;
	int col_obj = -1, col_src = -1, col_type = -1, lineno = 0, rc = 0;
	while (rc == 0 && getline(&line, &linecap, f) >= 0) {
		lineno++;
		char *fld[64];
		char *start = line;
		if (col_obj < 0) {
			/* the header: "#" optional */
			if (*start == '#')
				start++;
			int n = split_tabs(start, fld, 64);
			for (int i = 0; i < n; i++) {
				char *name = fld[i];
				while (*name == ' ')
					name++;
				if (!strcmp(name, "object") || !strcmp(name, "path") || !strcmp(name, "file"))
					col_obj = i;
				else if (!strcmp(name, "source"))
					col_src = i;
				else if (!strcmp(name, "prog_type"))
					col_type = i;
			}
			if (col_obj < 0) {
				rc = rb_errf(err, "%s:%d: the header names no object/path/file column",
					     mpath, lineno);
			}
			continue;
		}
		if (*start == '#' || *start == '\n')
			continue;
		int n = split_tabs(start, fld, 64);
		if (col_obj >= n || !*fld[col_obj])
			continue;
		/* relative paths: to the manifest's directory, to its parent (a
		 * sub-corpus listing objects of the whole corpus), or as given */
		char p[PATH_MAX];
		const char *obj = fld[col_obj];
		struct stat sb;
		if (obj[0] == '/')
			snprintf(p, sizeof(p), "%s", obj);
		else if (snprintf(p, sizeof(p), "%s/%s", dir, obj) < (int)sizeof(p) && stat(p, &sb) == 0)
			;
		else if (snprintf(p, sizeof(p), "%s/../%s", dir, obj) < (int)sizeof(p) && stat(p, &sb) == 0)
			;
		else if (stat(obj, &sb) == 0)
			snprintf(p, sizeof(p), "%s", obj);
		else
			snprintf(p, sizeof(p), "%s/%s", dir, obj);
		const char *src = col_src >= 0 && col_src < n ? fld[col_src] : NULL;
		if (obj[0] == '/' ? strlen(obj) >= sizeof(p) : strlen(obj) >= sizeof(p) - strlen(dir) - 4) {
			rc = obj[0] == '/' ? add_too_long(l, "", obj + 1, src, err) : add_too_long(l, dir, obj, src, err);
			continue;
		}
		rc = add(l, p, src,
			 col_type >= 0 && col_type < n ? fld[col_type] : NULL, err);
	}
	free(line);
	fclose(f);
	return rc;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct rb_job_obj *)a)->path, ((const struct rb_job_obj *)b)->path);
}

/* by real path, then by the order found (so the first name is kept) */
static int cmp_real(const void *a, const void *b)
{
	const struct keyed_hdr {
		char *real;
		size_t idx;
	} *x = a, *y = b;
	int c = strcmp(x->real ? x->real : "", y->real ? y->real : "");
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

int rb_jobs_collect(const char *const *inputs, size_t n, struct rb_joblist *out, struct rb_err *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		if (stat(inputs[i], &sb) < 0) {
			rb_errf(err, "%s: %s", inputs[i], strerror(errno));
			goto fail;
		}
		int rc;
		if (S_ISDIR(sb.st_mode)) {
			char m[PATH_MAX];
			snprintf(m, sizeof(m), "%s/manifest.tsv", inputs[i]);
			if (stat(m, &sb) == 0)
				rc = read_manifest(out, inputs[i], m, err);
			else {
				struct visited vs = {0};
				int fd = open(inputs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				rc = fd < 0 ? rb_errf(err, "%s: cannot read directory: %s", inputs[i], strerror(errno))
					    : walk(out, fd, inputs[i], 0, &vs, err);
				free(vs.v);
			}
		} else {
			rc = add(out, inputs[i], NULL, NULL, err);
		}
		if (rc < 0)
			goto fail;
	}
	/* drop the same object named twice (same real path), keep path order */
	struct keyed {
		char *real;
		size_t idx;
	} *keys = calloc(out->n ? out->n : 1, sizeof(*keys));
	if (!keys) {
		rb_errf(err, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < out->n; i++) {
		char r[PATH_MAX];
		keys[i].real = strdup(realpath(out->objs[i].path, r) ? r : out->objs[i].path);
		keys[i].idx = i;
	}
	rb_sort(keys, out->n, sizeof(*keys), cmp_real);
	for (size_t i = 1; i < out->n; i++)
		if (keys[i].real && keys[i - 1].real && !strcmp(keys[i].real, keys[i - 1].real)) {
			struct rb_job_obj *o = &out->objs[keys[i].idx];
			free(o->path);
			free(o->source);
			free(o->prog_type);
			free(o->error);
			o->path = NULL;
		}
	for (size_t i = 0; i < out->n; i++)
		free(keys[i].real);
	free(keys);
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++)
		if (out->objs[i].path)
			out->objs[k++] = out->objs[i];
	out->n = k;
	rb_sort(out->objs, out->n, sizeof(out->objs[0]), cmp_path);
	return 0;
fail:
	rb_jobs_free(out);
	return -1;
}

void rb_jobs_free(struct rb_joblist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->objs[i].path);
		free(l->objs[i].source);
		free(l->objs[i].prog_type);
		free(l->objs[i].error);
	}
	free(l->objs);
	memset(l, 0, sizeof(*l));
}
