/* kernels.c — the kernel rows: the running kernel and kernels.conf's lines
 * (see kernels.h). */
#include "kernels/kernels.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/conf_default.h"
#include "util/file.h"
#include "util/root.h"

bool rb_kernel_is_running(const char *name)
{
	return name && !strcmp(name, RB_KERNEL_RUNNING);
}

static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 15)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return false;
	return true;
}

/* "2G", "1536M", "2048" (MiB): MiB, or 0 if malformed */
static unsigned parse_mem(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (end == s || v == 0)
		return 0;
	if (*end == 'G' || *end == 'g')
		v *= 1024, end++;
	else if (*end == 'M' || *end == 'm')
		end++;
	return *end || v > 1024 * 1024 ? 0 : (unsigned)v;
}

static int parse_line(char *line, const char *where, int lineno, struct rb_kernel *k, struct rb_err *err)
{
	char *f[5];
	int nf = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (nf == 4)
			return rb_errf(err, "%s:%d: more than 4 fields (name image backend memory)", where, lineno);
		f[nf++] = t;
	}
	if (nf != 4)
		return rb_errf(err, "%s:%d: %d fields, want 4 (name image backend memory)", where, lineno, nf);
	memset(k, 0, sizeof(*k));
	if (!name_ok(f[0]))
		return rb_errf(err, "%s:%d: bad name '%s' (1-15 letters, digits, '.', '-', '_')", where, lineno, f[0]);
	if (rb_kernel_is_running(f[0]))
		return rb_errf(err, "%s:%d: '%s' is the running kernel's name", where, lineno, f[0]);
	snprintf(k->name, sizeof(k->name), "%s", f[0]);
	if (strlen(f[1]) >= sizeof(k->image))
		return rb_errf(err, "%s:%d: image name too long", where, lineno);
	snprintf(k->image, sizeof(k->image), "%s", f[1]);
	if (!strncmp(f[1], "debian:", 7)) {
		const char *s = f[1] + 7, *slash = strchr(s, '/');
		size_t sl = slash ? (size_t)(slash - s) : 0;
		if (!slash || sl == 0 || sl >= sizeof(k->suite) || !slash[1] || strlen(slash + 1) >= sizeof(k->package) ||
		    strchr(slash + 1, '/'))
			return rb_errf(err, "%s:%d: bad image '%s' (debian:SUITE/PACKAGE)", where, lineno, f[1]);
		memcpy(k->suite, s, sl);
		snprintf(k->package, sizeof(k->package), "%s", slash + 1);
	} else if (f[1][0] != '/' && strncmp(f[1], "./", 2) && strncmp(f[1], "../", 3)) {
		return rb_errf(err, "%s:%d: bad image '%s' (debian:SUITE/PACKAGE, or a path to a bzImage)", where,
			       lineno, f[1]);
	}
	if (!strcmp(f[2], "qemu"))
		k->backend = RB_KBACK_QEMU;
	else
		return rb_errf(err, "%s:%d: backend '%s' is not supported (qemu)", where, lineno, f[2]);
	k->mem_mib = parse_mem(f[3]);
	if (k->mem_mib < 256)
		return rb_errf(err, "%s:%d: bad memory '%s' (e.g. 2G or 1536M, at least 256M)", where, lineno, f[3]);
	snprintf(k->where, sizeof(k->where), "%s:%d", where, lineno);
	return 0;
}

static void running(struct rb_kernel *k)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", RB_KERNEL_RUNNING);
	k->backend = RB_KBACK_RUNNING;
	snprintf(k->where, sizeof(k->where), "built in");
}

int rb_kernels_parse(const char *text, const char *where, struct rb_kernel *out, size_t cap, size_t *n,
		     struct rb_err *err)
{
	*n = 0;
	int lineno = 0;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		lineno++;
		char line[1024];
		if (len >= sizeof(line))
			return rb_errf(err, "%s:%d: line too long", where, lineno);
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (eol ? 1 : 0);
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		if (strspn(line, " \t\r") == strlen(line))
			continue;
		if (*n == cap)
			return rb_errf(err, "%s:%d: more than %zu kernels", where, lineno, cap);
		if (parse_line(line, where, lineno, &out[*n], err) < 0)
			return -1;
		for (size_t i = 0; i < *n; i++)
			if (!strcmp(out[i].name, out[*n].name))
				return rb_errf(err, "%s:%d: '%s' defined twice (first at %s)", where, lineno,
					       out[*n].name, out[i].where);
		(*n)++;
	}
	return 0;
}

void rb_kernels_conf_source(char *out, size_t len)
{
	const char *env = getenv("RB_KERNELS_CONF");
	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	char root[PATH_MAX];
	rb_project_root(root, sizeof(root));
	char path[PATH_MAX + 16];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/kernels.conf", root);
	snprintf(out, len, "%s", stat(path, &sb) == 0 ? path : "(embedded)");
}

int rb_kernels_list(struct rb_kernel *out, size_t cap, size_t *n, struct rb_err *err)
{
	if (cap == 0)
		return rb_errf(err, "no room for the kernel list");
	running(&out[0]);
	char src[PATH_MAX];
	rb_kernels_conf_source(src, sizeof(src));
	size_t m = 0;
	int rc;
	if (!strcmp(src, "(embedded)")) {
		rc = rb_kernels_parse(rb_kernels_conf_embedded, "kernels.conf (embedded)", out + 1, cap - 1, &m, err);
	} else {
		uint8_t *buf = NULL;
		size_t len = 0;
		if (rb_read_file(src, 1 << 20, &buf, &len, err) < 0)
			return -1;
		char *text = malloc(len + 1);
		if (!text) {
			free(buf);
			return rb_errf(err, "out of memory");
		}
		memcpy(text, buf, len);
		text[len] = 0;
		free(buf);
		rc = strlen(text) != len ? rb_errf(err, "%s: a NUL byte in the file", src)
					 : rb_kernels_parse(text, src, out + 1, cap - 1, &m, err);
		free(text);
	}
	if (rc < 0)
		return -1;
	*n = m + 1;
	return 0;
}

int rb_kernel_find(const char *name, struct rb_kernel *out, struct rb_err *err)
{
	if (rb_kernel_is_running(name)) {
		running(out);
		return 0;
	}
	struct rb_kernel *all = calloc(RB_KERNELS_MAX, sizeof(*all));
	size_t n = 0;
	if (!all)
		return rb_errf(err, "out of memory");
	int rc = rb_kernels_list(all, RB_KERNELS_MAX, &n, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (name && !strcmp(all[i].name, name)) {
			*out = all[i];
			free(all);
			return 0;
		}
	free(all);
	return rc < 0 ? -1 : rb_errf(err, "'%s' is not a kernel (rangebench trackers lists them)", name ? name : "");
}

bool rb_kernel_known(const char *name)
{
	struct rb_kernel k;
	return rb_kernel_find(name, &k, NULL) == 0;
}

void rb_kernel_cache_dir(char *out, size_t len)
{
	const char *env = getenv("RB_KERNEL_CACHE");
	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	char root[PATH_MAX];
	rb_project_root(root, sizeof(root));
	snprintf(out, len, "%s/build/kernels", root);
}

void rb_kernel_dir(const struct rb_kernel *k, char *out, size_t len)
{
	char cache[PATH_MAX];
	rb_kernel_cache_dir(cache, sizeof(cache));
	if (snprintf(out, len, "%s/%s", cache, k->package[0] ? k->package : k->name) >= (int)len)
		out[0] = 0; /* too long: no such directory */
}

int rb_kernel_image(const struct rb_kernel *k, char *out, size_t len, struct rb_err *err)
{
	struct stat sb;
	if (k->backend == RB_KBACK_RUNNING)
		return rb_errf(err, "%s: the running kernel has no image to boot", k->name);
	if (!k->package[0]) {
		snprintf(out, len, "%s", k->image);
		if (stat(out, &sb) < 0 || !S_ISREG(sb.st_mode))
			return rb_errf(err, "%s: image %s (%s) is not a file", k->name, k->image, k->where);
		return 0;
	}
	char dir[PATH_MAX];
	rb_kernel_dir(k, dir, sizeof(dir));
	snprintf(out, len, "%s/vmlinuz", dir);
	if (stat(out, &sb) < 0 || !S_ISREG(sb.st_mode))
		return rb_errf(err, "%s: %s is not downloaded (no %s): run 'make kernels'", k->name, k->image, out);
	return 0;
}
