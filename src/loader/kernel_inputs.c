/* kernel_inputs.c — another kernel's inputs to libbpf (kernel_inputs.h) */
#include "loader/kernel_inputs.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "loader/bpf_standin.h"

static bool is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

bool rb_kinputs_parse_uname(const char *line, struct utsname *u)
{
	const char *w[64];
	size_t wl[64], n = 0;
	for (const char *p = line; *p && n < 64;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		w[n] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		wl[n] = (size_t)(p - w[n]);
		n++;
	}
	/* busybox and coreutils end `uname -a` with the operating system */
	if (n >= 6 && wl[n - 1] == 9 && !strncmp(w[n - 1], "GNU/Linux", 9))
		n--;
	if (n < 5)
		return false;
	memset(u, 0, sizeof(*u));
	snprintf(u->sysname, sizeof(u->sysname), "%.*s", (int)wl[0], w[0]);
	snprintf(u->nodename, sizeof(u->nodename), "%.*s", (int)wl[1], w[1]);
	snprintf(u->release, sizeof(u->release), "%.*s", (int)wl[2], w[2]);
	snprintf(u->machine, sizeof(u->machine), "%.*s", (int)wl[n - 1], w[n - 1]);
	/* the version is every word between the release and the machine */
	const char *vb = w[3], *ve = w[n - 2] + wl[n - 2];
	snprintf(u->version, sizeof(u->version), "%.*s", (int)(ve - vb), vb);
	return true;
}

/* CONFIG_ARCH_HAS_SYSCALL_WRAPPER=y and CONFIG_KPROBE_EVENTS=y in the
 * configuration at path (plain or gzip, as libbpf reads it) */
static bool config_has_syscall_wrapper(const char *path)
{
	gzFile f = gzopen(path, "re");
	if (!f)
		return false;
	char line[512];
	bool wrapper = false, kprobes = false;
	while (gzgets(f, line, sizeof(line))) {
		if (!strcmp(line, "CONFIG_ARCH_HAS_SYSCALL_WRAPPER=y\n"))
			wrapper = true;
		else if (!strcmp(line, "CONFIG_KPROBE_EVENTS=y\n"))
			kprobes = true;
	}
	gzclose(f);
	return wrapper && kprobes;
}

int rb_kinputs_read(const char *dir, struct rb_kinputs *ki, struct rb_err *err)
{
	memset(ki, 0, sizeof(*ki));
	if (snprintf(ki->dir, sizeof(ki->dir), "%s", dir) >= (int)sizeof(ki->dir) ||
	    snprintf(ki->btf, sizeof(ki->btf), "%s/btf", dir) >= (int)sizeof(ki->btf) ||
	    snprintf(ki->config, sizeof(ki->config), "%s/config", dir) >= (int)sizeof(ki->config))
		return rb_errf(err, "kernel inputs %.200s: path too long", dir);
	if (!is_file(ki->btf))
		return rb_errf(err, "kernel inputs %.200s: no btf file (the kernel's /sys/kernel/btf/vmlinux)", dir);
	if (!is_file(ki->config))
		ki->config[0] = 0;
	else
		ki->syscall_wrapper = config_has_syscall_wrapper(ki->config);
	char path[PATH_MAX + 8];
	snprintf(path, sizeof(path), "%s/uname", dir);
	FILE *f = fopen(path, "re");
	if (f) {
		char line[1024];
		bool ok = fgets(line, sizeof(line), f) != NULL;
		fclose(f);
		if (!ok || !rb_kinputs_parse_uname(line, &ki->uts))
			return rb_errf(err, "kernel inputs %.200s: uname is not a `uname -a` line", dir);
		ki->have_uts = true;
	}
	return 0;
}

int rb_kinputs_patch_kconfig(const struct rb_kinputs *ki, struct bpf_object *bo, struct rb_standin *st)
{
	const struct btf *b = bpf_object__btf(bo);
	struct bpf_map *m;
	struct rb_rec_map *rec = NULL;
	bpf_object__for_each_map(m, bo) {
		const char *nm = bpf_map__name(m);
		size_t l = strlen(nm);
		if (bpf_map__is_internal(m) && l >= 8 && !strcmp(nm + l - 8, ".kconfig"))
			rec = rb_standin_map_by_fd(st, bpf_map__fd(m));
	}
	int sec = b ? btf__find_by_name_kind(b, ".kconfig", BTF_KIND_DATASEC) : -1;
	if (!rec || !rec->value || sec <= 0)
		return 0;
	/* libbpf rewrote the section's offsets to the externs' places in the
	 * data (bpf_object__collect_externs) */
	const struct btf_type *t = btf__type_by_id(b, (unsigned)sec);
	const struct btf_var_secinfo *vs = btf_var_secinfos(t);
	int set = 0;
	for (unsigned i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(b, vs->type);
		const char *name = v ? btf__name_by_offset(b, v->name_off) : NULL;
		if (!name || strcmp(name, "LINUX_HAS_SYSCALL_WRAPPER"))
			continue;
		if (vs->size == 0 || vs->size > 8 || vs->offset + (uint64_t)vs->size > rec->attr.value_size)
			continue;
		/* a bool or an integer: the value little-endian, as
		 * set_kcfg_value_num stores it on x86-64 */
		memset(rec->value + vs->offset, 0, vs->size);
		rec->value[vs->offset] = ki->syscall_wrapper;
		set++;
	}
	return set;
}
