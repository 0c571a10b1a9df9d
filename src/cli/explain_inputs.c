/* explain_inputs.c — explain's objects per kernel inputs (explain_inputs.h) */
#include "cli/explain_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/profile.h"
#include "engine/vmlinux.h"
#include "loader/kernel_inputs.h"
#include "verify/verify.h"

/* the three files of an inputs directory (kernel_inputs.h) */
static const char *const parts[3] = {"btf", "config", "uname"};
static const char *const part_names[3] = {"BTF", "config", "uname"};

void rb_xi_init(struct rb_xi *x, const struct rb_load_opts *lo, const struct rb_explain_opts *eo)
{
	memset(x, 0, sizeof(*x));
	x->lo = lo;
	x->eo = eo;
	x->n = 1;
	x->vm[0] = eo->vmlinux;
}

void rb_xi_program(struct rb_xi *x, const char *path, const char *prog, const char *prog_type)
{
	for (int d = 0; d < x->n; d++) {
		rb_object_free(x->obj[d]);
		x->obj[d] = NULL;
		x->tried[d] = false;
	}
	x->path = path;
	x->prog = prog;
	x->prog_type = prog_type;
}

static void rm_mixes(struct rb_xi *x)
{
	if (!x->tmp[0])
		return;
	char p[PATH_MAX + 64];
	for (int m = 0; m < x->nmix; m++)
		for (int k = 0; k < 3; k++) {
			snprintf(p, sizeof(p), "%s/%d/%s", x->tmp, m, parts[k]);
			unlink(p);
		}
	for (int m = 0; m < x->nmix; m++) {
		snprintf(p, sizeof(p), "%s/%d", x->tmp, m);
		rmdir(p);
	}
	rmdir(x->tmp);
}

void rb_xi_fini(struct rb_xi *x)
{
	rb_xi_program(x, NULL, NULL, NULL);
	for (int d = 1; d < x->n; d++)
		if (x->own_vm[d])
			rb_vmlinux_free(x->vm[d]);
	rm_mixes(x);
}

/* the index of inputs directory dir ("": the running kernel's), added
 * (with the engine's BTF vm when given, else its own) */
static int dir_index(struct rb_xi *x, const char *dir, struct rb_vmlinux *vm)
{
	for (int d = 0; d < x->n; d++)
		if (!strcmp(x->dir[d], dir))
			return d;
	if (x->n == RB_XI_MAX)
		return -1;
	char btf[PATH_MAX + 8];
	snprintf(btf, sizeof(btf), "%s/btf", dir);
	x->own_vm[x->n] = !vm;
	if (!(x->vm[x->n] = vm ? vm : rb_vmlinux_new_file(btf)))
		return -1;
	snprintf(x->dir[x->n], sizeof(x->dir[0]), "%s", dir);
	return x->n++;
}

int rb_xi_row(struct rb_xi *x, const char *row)
{
	char in[PATH_MAX], base[64];
	const char *d = rb_verify_row_inputs(row, x->lo->kernel_inputs, in, sizeof(in));
	int i = dir_index(x, d ? d : "", NULL);
	/* the kernel cache's inputs of the profile's own kernel (not given) */
	const struct rb_profile *p = rb_profile_split(row, base, sizeof(base));
	if (i > 0 && !x->lo->kernel_inputs && p && !x->label[i][0])
		snprintf(x->label[i], sizeof(x->label[i]), "kernel-%s", p->name);
	return i;
}

const struct rb_object *rb_xi_obj(struct rb_xi *x, int d, size_t *idx)
{
	if (d < 0 || d >= x->n || !x->path)
		return NULL;
	if (!x->tried[d]) {
		x->tried[d] = true;
		struct rb_load_opts lo = *x->lo;
		lo.kernel_inputs = d ? x->dir[d] : NULL;
		if (x->prog_type)
			lo.prog_type = x->prog_type;
		struct rb_err err = {{0}};
		if (rb_object_open(x->path, &lo, &x->obj[d], &err) < 0) {
			fprintf(stderr, "explain: %s (inputs: %s)\n", err.msg, rb_xi_name(x, d));
			x->obj[d] = NULL;
		} else {
			size_t i = 0;
			while (i < x->obj[d]->prog_cnt && strcmp(x->obj[d]->progs[i].name, x->prog))
				i++;
			if (i == x->obj[d]->prog_cnt) {
				fprintf(stderr, "explain: %s: no program '%s' (inputs: %s)\n", x->path, x->prog,
					rb_xi_name(x, d));
				rb_object_free(x->obj[d]);
				x->obj[d] = NULL;
			}
			x->idx[d] = i;
		}
	}
	*idx = x->idx[d];
	return x->obj[d];
}

void rb_xi_opts(const struct rb_xi *x, int d, struct rb_explain_opts *out)
{
	*out = *x->eo;
	if (d > 0 && d < x->n)
		out->vmlinux = x->vm[d];
}

int rb_xi_verify(struct rb_xi *x, int d, const char *row, struct rb_result *res)
{
	size_t idx;
	const struct rb_object *obj = rb_xi_obj(x, d, &idx);
	if (!obj)
		return -1;
	struct rb_explain_opts eo;
	rb_xi_opts(x, d, &eo);
	struct rb_verify_opts vo = {
		.tracker = row, .vmlinux = eo.vmlinux, .helpers = eo.helpers, .time_limit_s = eo.time_limit_s};
	struct rb_err err = {{0}};
	return rb_verify(obj, idx, &vo, res, &err) == 0 ? 0 : -1;
}

const char *rb_xi_name(const struct rb_xi *x, int d)
{
	return d <= 0 || d >= x->n ? "the running kernel" : x->label[d][0] ? x->label[d] : x->dir[d];
}

/* ---- which input ---- */

static bool is_file(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* part k of inputs d into the mix directory m (a link to its file, or the
 * running kernel's uname written out); false when it cannot be */
static bool put_part(const struct rb_xi *x, int d, int k, const char *m)
{
	char src[PATH_MAX + 64], dst[PATH_MAX + 64];
	snprintf(dst, sizeof(dst), "%s/%s", m, parts[k]);
	if (d > 0) {
		snprintf(src, sizeof(src), "%s/%s", x->dir[d], parts[k]);
		char *abs = realpath(src, NULL);
		/* config and uname are optional (kernel_inputs.h): absent here too */
		bool ok = abs ? symlink(abs, dst) == 0 : k > 0 && !is_file(src);
		free(abs);
		return ok;
	}
	/* the running kernel's, where libbpf reads them (libbpf 1.7:
	 * btf__load_vmlinux_btf, bpf_object__read_kconfig_file, uname) */
	struct utsname u;
	if (uname(&u))
		return false;
	if (k == 0)
		return symlink("/sys/kernel/btf/vmlinux", dst) == 0;
	if (k == 1) {
		snprintf(src, sizeof(src), "/boot/config-%s", u.release);
		const char *c = is_file(src) ? src : is_file("/proc/config.gz") ? "/proc/config.gz" : NULL;
		return !c || symlink(c, dst) == 0;
	}
	FILE *f = fopen(dst, "we");
	if (!f)
		return false;
	fprintf(f, "%s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
	return fclose(f) == 0;
}

/* the inputs of a with the parts in mask (bit k: parts[k]) of b: an index */
static int mix(struct rb_xi *x, int a, int b, unsigned mask)
{
	unsigned key = 1 + (((unsigned)a * RB_XI_MAX + (unsigned)b) << 3 | mask);
	for (int d = 1; d < x->n; d++)
		if (x->mixkey[d] == key)
			return d;
	if (!x->tmp[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(x->tmp, sizeof(x->tmp), "%s/rb-explain-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(x->tmp)) {
			x->tmp[0] = 0;
			return -1;
		}
	}
	char m[PATH_MAX + 16];
	snprintf(m, sizeof(m), "%s/%d", x->tmp, x->nmix);
	if (mkdir(m, 0700))
		return -1;
	x->nmix++;
	for (int k = 0; k < 3; k++)
		if (!put_part(x, (mask >> k) & 1 ? b : a, k, m))
			return -1;
	int d = dir_index(x, m, x->vm[mask & 1 ? b : a]);
	if (d > 0)
		x->mixkey[d] = key;
	return d;
}

static bool same(const struct rb_result *a, const struct rb_result *b)
{
	return a->verdict == b->verdict && a->insns_processed == b->insns_processed &&
	       a->total_states == b->total_states;
}

/* row on a with b's parts in mask gives want */
static bool gives(struct rb_xi *x, const char *row, int a, int b, unsigned mask, const struct rb_result *want)
{
	int d = mix(x, a, b, mask);
	struct rb_result r;
	return d >= 0 && rb_xi_verify(x, d, row, &r) == 0 && same(&r, want);
}

/* LINUX_HAS_SYSCALL_WRAPPER as libbpf finds it with inputs d (a
 * directory: the running kernel's written out as a mix) */
static bool syscall_wrapper(const struct rb_xi *x, int d)
{
	struct rb_kinputs ki;
	struct rb_err e;
	return d > 0 && d < x->n && rb_kinputs_read(x->dir[d], &ki, &e) == 0 && ki.syscall_wrapper;
}

void rb_xi_which(struct rb_xi *x, const char *row, int a, int b, const struct rb_result *want, char *out,
		 size_t len)
{
	out[0] = 0;
	struct rb_result ra;
	/* the mixes stand for a and b: row on all of a's (b's) parts gives
	 * what it gives on a (b) */
	if (rb_xi_verify(x, a, row, &ra) || !gives(x, row, a, b, 0, &ra) || !gives(x, row, a, b, 7, want))
		return;
	static const unsigned masks[] = {1, 2, 4, 3, 5, 6};
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		if (i == 3 && out[0])
			break; /* single parts suffice */
		if (!gives(x, row, a, b, masks[i], want))
			continue;
		size_t l = strlen(out);
		for (int k = 0, first = 1; k < 3; k++)
			if ((masks[i] >> k) & 1) {
				snprintf(out + l, len - l, "%s%s", first ? (l ? ", " : "") : "+", part_names[k]);
				l = strlen(out);
				first = 0;
			}
		if ((masks[i] & 2) && syscall_wrapper(x, mix(x, a, b, 0)) != syscall_wrapper(x, mix(x, a, b, 7)))
			snprintf(out + l, len - l, " (LINUX_HAS_SYSCALL_WRAPPER)");
	}
	if (!out[0])
		snprintf(out, len, "BTF+config+uname");
}
