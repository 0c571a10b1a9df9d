/* cmd_trackers.c — `rangebench trackers`: the tracker registry
 * (src/tracker/registry.c) and its kernel rows (src/kernels/) as one
 * table: name, kind, role, representation size, build flags (a kernel's:
 * backend and memory), what it follows (a kernel's: its version). */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli/commands.h"
#include "kernels/kernels.h"
#include "tracker/tracker.h"

static void row(bool csv, const char *name, const char *kind, const char *role, const char *bytes,
		const char *flags, const char *follows)
{
	if (csv)
		printf("%s,%s,%s,%s,%s,\"%s\"\n", name, kind, role, bytes, flags, follows);
	else
		printf("%-14s %-7s %-10s %6s  %-26s %s\n", name, kind, role, bytes, flags, follows);
}

/* a kernel's version: the running one's release, an image's cached
 * version file (written by `make kernels`), or why there is none */
static void kernel_version(const struct rb_kernel *k, char *out, size_t len)
{
	if (k->backend == RB_KBACK_RUNNING) {
		struct utsname u;
		snprintf(out, len, "running kernel %s, through bpf()", uname(&u) == 0 ? u.release : "?");
		return;
	}
	char dir[4096], path[4200], img[4096], ver[200] = "";
	rb_kernel_dir(k, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/version", dir);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(ver, sizeof(ver), f))
			ver[0] = 0;
		ver[strcspn(ver, "\n")] = 0;
		fclose(f);
	}
	if (rb_kernel_image(k, img, sizeof(img), NULL) < 0)
		snprintf(out, len, "not downloaded: make kernels (%s)", k->image);
	else if (ver[0])
		snprintf(out, len, "%s (%s)", ver, k->image);
	else
		snprintf(out, len, "%s", k->image);
}

int cmd_trackers(int argc, char **argv)
{
	bool csv = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv")) {
			csv = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: rangebench trackers [--csv]\n"
			       "  Lists every name --tracker/--trackers/--baseline/--candidate accept:\n"
			       "  the engine's trackers (kind engine: default role, bytes of the\n"
			       "  representation at 64 bits, extra build flags, what it follows), then\n"
			       "  the kernels (kind kernel: the running kernel, and each line of\n"
			       "  kernels.conf with its backend, memory and version).\n");
			return 0;
		} else {
			fprintf(stderr, "rangebench trackers: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	struct rb_kernel ks[RB_KERNELS_MAX];
	size_t nk = 0;
	struct rb_err err = {{0}};
	if (rb_kernels_list(ks, RB_KERNELS_MAX, &nk, &err) < 0) {
		fprintf(stderr, "rangebench trackers: %s\n", err.msg);
		return 2;
	}
	if (csv)
		printf("name,kind,role,val_bytes,build_flags,follows\n");
	else
		printf("%-14s %-7s %-10s %6s  %-26s %s\n", "name", "kind", "role", "bytes", "build flags", "follows");
	for (const struct rb_tracker *const *t = rb_trackers(64); t && *t; t++) {
		const char *role = !strcmp((*t)->name, RB_ROLE_BASELINE)    ? "baseline"
				   : !strcmp((*t)->name, RB_ROLE_CANDIDATE) ? "candidate"
									    : "";
		const char *flags = (*t)->build_flags && *(*t)->build_flags ? (*t)->build_flags : "-";
		char bytes[32];
		snprintf(bytes, sizeof(bytes), "%zu", (*t)->val_size);
		row(csv, (*t)->name, "engine", role, bytes, flags, (*t)->follows);
	}
	for (size_t i = 0; i < nk; i++) {
		char flags[64], ver[900];
		if (ks[i].backend == RB_KBACK_RUNNING)
			snprintf(flags, sizeof(flags), "bpf()");
		else
			snprintf(flags, sizeof(flags), "qemu %uM", ks[i].mem_mib);
		kernel_version(&ks[i], ver, sizeof(ver));
		row(csv, ks[i].name, "kernel", "", "-", flags, ver);
	}
	return 0;
}
