/* kdiff_trace.c — `rangebench kdiff --trace --kernel A --tracker B
 * OBJ:PROG...`: for each program, where the paths the two verifiers
 * explored part (oracle/ktrace.h), one line each; every side that is a
 * kernel image verifies all the programs in one guest (src/guest/). Used
 * to attribute the differences between two kernels
 * (db/queries/kernels_diff.sql): the first instruction one explored and
 * the other did not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/kdiff_trace.h"
#include "engine/vmlinux.h"
#include "guest/guest.h"
#include "kernels/kernels.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "oracle/ktrace.h"
#include "tracker/tracker.h"
#include "verify/verify.h"

struct gctx {
	struct rb_kdiff_logs *s;
	const struct rb_guest_obj *objs;
	int n;
};

/* a guest row: the program it answers (same path and name) */
static int put(void *ctx, const struct rb_result_row *row, const char *log)
{
	struct gctx *g = ctx;
	for (int i = 0; i < g->n; i++) {
		if (g->s->got[i] || strcmp(g->objs[i].path, row->prog.obj_path) || strcmp(g->objs[i].prog, row->prog.name))
			continue;
		g->s->res[i] = row->res;
		g->s->log[i] = strdup(log ? log : "");
		g->s->got[i] = true;
		break;
	}
	return 0;
}

int rb_kdiff_logs(const char *name, const struct rb_guest_obj *objs, int n, const struct rb_load_opts *lo,
		  struct rb_kdiff_logs *s)
{
	struct rb_kernel k;
	if (!rb_tracker_get(name, 64) && !rb_kernel_is_running(name) && rb_kernel_find(name, &k, NULL) == 0) {
		struct gctx g = {.s = s, .objs = objs, .n = n};
		struct rb_guest_opts go = {.want_log = true, .log_head = s->log_head, .jobs = s->jobs, .progress = s->progress};
		struct rb_guest_stats gs;
		struct rb_err err = {{0}};
		if (rb_guest_run(&k, objs, (size_t)n, &go, put, &g, &gs, &err) < 0) {
			fprintf(stderr, "kdiff: %s\n", err.msg);
			return -1;
		}
		return 0;
	}
	static struct rb_helper_probe hp;
	if (!hp.src.set)
		rb_helper_probe_init(&hp, true);
	/* an engine row of a later profile: opened with that kernel's inputs,
	 * that kernel's BTF for the engine, as run verifies it (verify.h
	 * rb_verify_row_inputs); the running kernel and 6.18 rows: its own */
	char in[4096], btf[4200];
	const char *dir = rb_verify_row_inputs(name, lo->kernel_inputs, in, sizeof(in));
	snprintf(btf, sizeof(btf), "%s/btf", dir ? dir : "");
	struct rb_vmlinux *vm = dir ? rb_vmlinux_new_file(btf) : rb_vmlinux_new();
	for (int i = 0; i < n; i++) {
		struct rb_object *obj = NULL;
		struct rb_err err = {{0}};
		struct rb_load_opts o = *lo;
		o.prog_type = objs[i].prog_type;
		o.kernel_inputs = dir;
		if (rb_object_open(objs[i].path, &o, &obj, &err) < 0) {
			fprintf(stderr, "kdiff: %s\n", err.msg);
			continue;
		}
		for (size_t p = 0; p < obj->prog_cnt; p++) {
			if (strcmp(obj->progs[p].name, objs[i].prog))
				continue;
			char *text = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&text, &len);
			struct rb_verify_opts vo = {
				.tracker = name, .log = m, .log_head = s->log_head, .vmlinux = vm, .helpers = &hp.src};
			int rc = m ? rb_verify(obj, p, &vo, &s->res[i], &err) : -1;
			if (m)
				fclose(m);
			if (rc == 0) {
				s->log[i] = text;
				s->got[i] = true;
			} else {
				fprintf(stderr, "kdiff: %s:%s: %s\n", objs[i].path, objs[i].prog, err.msg);
				free(text);
			}
			break;
		}
		rb_object_free(obj);
	}
	rb_vmlinux_free(vm);
	return 0;
}

int rb_kdiff_logs_alloc(struct rb_kdiff_logs *s, int n)
{
	s->log = calloc((size_t)n, sizeof(*s->log));
	s->res = calloc((size_t)n, sizeof(*s->res));
	s->got = calloc((size_t)n, sizeof(*s->got));
	return s->log && s->res && s->got ? 0 : -1;
}

void rb_kdiff_logs_free(struct rb_kdiff_logs *s, int n)
{
	for (int i = 0; s->log && i < n; i++)
		free(s->log[i]);
	free(s->log);
	free(s->res);
	free(s->got);
}

int rb_kdiff_trace(const char *a, const char *b, int n, char **args, const struct rb_load_opts *lo)
{
	struct rb_guest_obj *objs = calloc((size_t)n, sizeof(*objs));
	char(*paths)[4096] = calloc((size_t)n, sizeof(*paths));
	struct rb_kdiff_logs sa = {0}, sb = {0};
	int rc = 0;
	if (!objs || !paths || rb_kdiff_logs_alloc(&sa, n) < 0 || rb_kdiff_logs_alloc(&sb, n) < 0) {
		fprintf(stderr, "kdiff: out of memory\n");
		rc = 2;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s", args[i]);
		char *colon = strrchr(paths[i], ':');
		if (!colon || !colon[1]) {
			fprintf(stderr, "kdiff: --trace wants OBJ:PROG, not '%s'\n", args[i]);
			rc = 2;
			goto out;
		}
		*colon = 0;
		objs[i] = (struct rb_guest_obj){.path = paths[i], .prog = colon + 1, .prog_type = lo->prog_type};
	}
	if (rb_kdiff_logs(a, objs, n, lo, &sa) < 0 || rb_kdiff_logs(b, objs, n, lo, &sb) < 0) {
		rc = 2;
		goto out;
	}
	printf("program\t%s\t%s\tparts at\t%s\t%s\n", a, b, a, b);
	for (int i = 0; i < n; i++) {
		if (!sa.got[i] || !sb.got[i]) {
			printf("%s:%s\t%s\t%s\t-\t-\t-\n", objs[i].path, objs[i].prog, sa.got[i] ? "ok" : "no result",
			       sb.got[i] ? "ok" : "no result");
			rc = 2;
			continue;
		}
		struct rb_ktrace_part kp;
		if (rb_ktrace_part(sa.log[i], sb.log[i], &kp) < 0) {
			fprintf(stderr, "kdiff: out of memory\n");
			rc = 2;
			break;
		}
		printf("%s:%s\t%s %llu/%llu\t%s %llu/%llu\t", objs[i].path, objs[i].prog, rb_verdict_name(sa.res[i].verdict),
		       (unsigned long long)sa.res[i].insns_processed, (unsigned long long)sa.res[i].total_states,
		       rb_verdict_name(sb.res[i].verdict), (unsigned long long)sb.res[i].insns_processed,
		       (unsigned long long)sb.res[i].total_states);
		if (kp.index < 0)
			printf("same trace (%zu entries)\t-\t-\n", kp.n_a);
		else
			printf("entry %ld of %zu/%zu\t%s\t%s\n", kp.index, kp.n_a, kp.n_b, kp.a, kp.b);
		if (rc == 0 && (kp.index >= 0 || sa.res[i].verdict != sb.res[i].verdict))
			rc = 1;
	}
out:
	rb_kdiff_logs_free(&sa, n);
	rb_kdiff_logs_free(&sb, n);
	free(objs);
	free(paths);
	return rc;
}
