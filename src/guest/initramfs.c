/* initramfs.c — building a guest's initramfs (see initramfs.h). */
#include "guest/initramfs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/cpio.h"
#include "util/array_size.h"

int rb_initramfs_busybox(char *out, size_t len, struct rb_err *err)
{
	static const char *const where[] = {"/bin/busybox", "/usr/bin/busybox"};
	for (size_t i = 0; i < ARRAY_SIZE(where); i++)
		if (access(where[i], X_OK) == 0) {
			snprintf(out, len, "%s", where[i]);
			return 0;
		}
	return rb_errf(err, "no busybox (/bin/busybox): install Debian's busybox-static");
}

/* every directory above `path` (absolute), once: the archive keeps a list */
struct dirs {
	char **v;
	size_t n;
};

static int mkdirs(struct rb_cpio *c, struct dirs *d, const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path[0] == '/' ? path + 1 : path);
	for (char *s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		bool seen = false;
		for (size_t i = 0; i < d->n && !seen; i++)
			seen = !strcmp(d->v[i], buf);
		if (!seen) {
			char **nv = realloc(d->v, (d->n + 1) * sizeof(*nv));
			if (!nv)
				return -1;
			d->v = nv;
			if (!(d->v[d->n] = strdup(buf)))
				return -1;
			d->n++;
			if (rb_cpio_dir(c, buf) < 0)
				return -1;
		}
		*s = '/';
	}
	return 0;
}

/* the libraries the dynamic linker would load for exe, each at its own
 * path (ldd's "name => /path (addr)" and "/lib64/ld-linux... (addr)") */
static int add_libs(struct rb_cpio *c, struct dirs *d, const char *exe, struct rb_err *err)
{
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>/dev/null", exe);
	FILE *p = popen(cmd, "r");
	if (!p)
		return rb_errf(err, "ldd %s: %s", exe, strerror(errno));
	char line[1024];
	int rc = 0, nlibs = 0;
	while (rc == 0 && fgets(line, sizeof(line), p)) {
		char *path = strstr(line, "=> /");
		path = path ? path + 3 : strchr(line, '/');
		if (!path)
			continue;
		path[strcspn(path, " \t\n(")] = 0;
		if (mkdirs(c, d, path) < 0 || rb_cpio_file(c, path + 1, path, 0755, err) < 0)
			rc = -1;
		nlibs++;
	}
	int st = pclose(p);
	if (rc == 0 && (st != 0 || nlibs == 0))
		rc = rb_errf(err, "ldd %s found no libraries (is it a dynamic executable?)", exe);
	return rc;
}

/* the object's name inside the guest: its basename, with only characters
 * the init script can pass unquoted */
static void guest_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	snprintf(out, len, "%s", b ? b + 1 : path);
	for (char *s = out; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
		      *s == '_' || *s == '-'))
			*s = '_';
	if (!out[0] || out[0] == '-' || out[0] == '.')
		snprintf(out, len, "obj");
}

static bool word_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
		      *s == '_' || *s == '-' || *s == ':' || *s == '/'))
			return false;
	return true;
}

/* The init script: one `guest-verify --list /o/list` (lines "IDX PATH
 * ARGS...") runs a child process per object, one at a time on each port
 * ttyS1..ttySW (a port per vCPU), each object to the first free port; the
 * kernel console (ttyS0) gets the processes' stderr. */
static char *init_script(const struct rb_initramfs_spec *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fprintf(f, "#!/bin/sh\n"
		   "# rangebench guest init (src/guest/initramfs.c)\n"
		   "B=/bin/busybox\n"
		   "$B mount -t proc proc /proc\n"
		   "$B mount -t sysfs sys /sys\n"
		   "$B mount -t devtmpfs dev /dev\n"
		   "$B mount -t tmpfs tmp /tmp\n"
		   "for p in /dev/ttyS1 /dev/ttyS2 /dev/ttyS3; do $B stty -F $p raw -echo 2>/dev/null; done\n"
		   "[ -f /boot/config ] && $B mv /boot/config /boot/config-$($B uname -r)\n"
		   "printf 'RBG\\tuname\\t%%s\\n' \"$($B uname -r)\" > /dev/ttyS1\n");
	if (s->dump_inputs)
		fprintf(f, "dump() { printf 'RBF\\t%%s\\tbegin\\n' $1; $B gzip -c $2 | $B base64; printf "
			   "'RBF\\t%%s\\tend\\n' $1; }\n"
			   "{ dump btf /sys/kernel/btf/vmlinux; dump kallsyms /proc/kallsyms;\n"
			   "  [ -e /proc/config.gz ] && { printf 'RBF\\tconfig\\tbegin\\n'; $B base64 /proc/config.gz;\n"
			   "  printf 'RBF\\tconfig\\tend\\n'; }; $B uname -a > /tmp/uname; dump uname /tmp/uname; } > /dev/ttyS1\n");
	fprintf(f, "/bin/rangebench guest-verify --list /o/list --ports ");
	for (unsigned w = 0; w < s->workers; w++)
		fprintf(f, "%s/dev/ttyS%u", w ? "," : "", w + 1);
	fprintf(f, " 2>/dev/console\n");
	fprintf(f, "wait\n"
		   "printf 'RBG\\tdone\\n' > /dev/ttyS1\n"
		   "$B sync\n"
		   "$B poweroff -f\n");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int rb_initramfs_write(const char *path, const struct rb_initramfs_spec *s, struct rb_err *err)
{
	char bb[PATH_MAX];
	if (rb_initramfs_busybox(bb, sizeof(bb), err) < 0)
		return -1;
	struct rb_cpio c;
	if (rb_cpio_open(&c, path, err) < 0)
		return -1;
	struct dirs d = {0};
	int rc = 0;
	static const char *const top[] = {"bin", "dev", "proc", "sys", "tmp", "o"};
	for (size_t i = 0; i < ARRAY_SIZE(top); i++)
		rc |= rb_cpio_dir(&c, top[i]);
	rc |= rb_cpio_chardev(&c, "dev/console", 5, 1);
	if (s->config && rb_cpio_dir(&c, "boot") == 0 && rb_cpio_file(&c, "boot/config", s->config, 0644, err) < 0) {
		rb_cpio_close(&c, NULL);
		goto fail;
	}
	rc |= rb_cpio_symlink(&c, "bin/sh", "busybox");
	if (rc < 0 || rb_cpio_file(&c, "bin/busybox", bb, 0755, err) < 0 ||
	    rb_cpio_file(&c, "bin/rangebench", s->exe, 0755, err) < 0 || add_libs(&c, &d, s->exe, err) < 0) {
		rb_cpio_close(&c, NULL);
		goto fail;
	}
	/* the objects, and the list the guest's workers take them from */
	char *list = NULL;
	size_t llen = 0;
	FILE *f = open_memstream(&list, &llen);
	if (!f)
		rc = -1;
	for (size_t j = 0; rc == 0 && j < s->nbatch; j++) {
		size_t i = s->batch[j];
		const struct rb_guest_obj *o = &s->objs[i];
		char name[256], dir[64], gp[400];
		guest_name(o->path, name, sizeof(name));
		snprintf(dir, sizeof(dir), "o/%zu", i);
		snprintf(gp, sizeof(gp), "%s/%s", dir, name);
		if (rb_cpio_dir(&c, dir) < 0 || rb_cpio_file(&c, gp, o->path, 0644, err) < 0) {
			rc = -2;
			break;
		}
		fprintf(f, "%zu /%s", i, gp);
		if (o->prog_type && *o->prog_type && word_ok(o->prog_type))
			fprintf(f, " --prog-type %s", o->prog_type);
		if (o->prog && *o->prog && word_ok(o->prog))
			fprintf(f, " --prog %s", o->prog);
		if (s->want_log)
			fprintf(f, s->log_digest ? " --log-digest" : " --log");
		if (s->want_log && s->log_head)
			fprintf(f, " --log-head %zu", s->log_head);
		fputc('\n', f);
	}
	if (f && fclose(f) != 0)
		rc = rc ? rc : -1;
	if (rc == 0 && rb_cpio_data(&c, "o/list", 0644, list, llen) < 0)
		rc = -1;
	free(list);
	char *init = rc == 0 ? init_script(s) : NULL;
	if (rc == 0 && (!init || rb_cpio_data(&c, "init", 0755, init, strlen(init)) < 0))
		rc = -1;
	free(init);
	if (rc == -1)
		rb_errf(err, "%s: cannot write the initramfs (out of memory or disk)", path);
	if (rb_cpio_close(&c, rc ? NULL : err) < 0 || rc)
		goto fail;
	for (size_t i = 0; i < d.n; i++)
		free(d.v[i]);
	free(d.v);
	return 0;
fail:
	for (size_t i = 0; i < d.n; i++)
		free(d.v[i]);
	free(d.v);
	unlink(path);
	return -1;
}
