/* cmd_verify.c — `rangebench verify [--tracker old|cnum|kernel]... [--log]
 * [--csv] [--btf FILE] OBJ[:PROG]...`: verify programs and print one row
 * per program in veristat's layout and column names (File, Program,
 * Verdict, Duration (us), Insns, States, Peak states), plus the error
 * message and instruction index of a rejection. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "verify/row.h"
#include "cli/commands.h"
#include "oracle/bpf_sys.h"
#include "cli/type_opts.h"
#include "driver/fault.h"
#include "driver/scan.h"
#include "guest/guest.h"
#include "kernels/kernels.h"
#include "loader/prog_type.h"
#include "tracker/tracker.h"
#include "loader/object.h"
#include "report/rowfilter.h"
#include "report/table.h"
#include "oracle/helper_probe.h"
#include "oracle/ksample.h"
#include "verify/verify.h"
#include "util/grow.h"
#include "util/pool.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench verify [--tracker NAME]... [--log] [--csv | --veristat] [--emit LIST] [--btf FILE]\n"
		"                         [--kernel-inputs DIR|none]\n"
		"                         [-f EXPR]... [--sort SPEC] [--top N]\n"
		"                         [--prog-type TYPE [--attach-type TYPE]] [--license LICENSE]\n"
		"                         [--compiled-helpers] [--explore-time] OBJ[:PROG]...\n"
		"  Verify every program of each object (or only PROG) with the userspace engine\n"
		"  and the named tracker (default old), or with the running kernel (--tracker\n"
		"  kernel), or with a kernel image of kernels.conf booted in QEMU (--tracker\n"
		"  kernel-7.2; one boot for all the objects; rangebench trackers lists them),\n"
		"  and print veristat-style rows. Several --tracker: each object verified with\n"
		"  each tracker in turn, in one process, each tracker's rows as alone, with a\n"
		"  tracker column after the program (not with --veristat nor a kernel image).\n"
		"  --log: the per-instruction verifier\n"
		"  log of each program first (to stderr with --csv). --btf: vmlinux BTF for CO-RE\n"
		"  and the engine. --tracker NAME@PROFILE: the engine following another kernel\n"
		"  (cnum-mainline@7.2: Linux 7.2.13; a bare NAME follows 6.18.44; README \"Kernel\n"
		"  profiles\"), its objects prepared with that kernel's inputs (BTF, kernel\n"
		"  configuration, uname: --kernel-inputs DIR, or 'none' for the running kernel's;\n"
		"  default: the kernel cache's inputs of image kernel-PROFILE when it has them).\n"
		"  --prog-type/--attach-type: the type of programs whose section libbpf does not\n"
		"  know (see rangebench load --help; the directory's rangebench.types rules come\n"
		"  next). --license: the license of an object without a license section (default:\n"
		"  empty, as libbpf loads it). An object without programs is an error.\n"
		"  Which helpers a program type may call follows the running kernel where bpf()\n"
		"  can measure it (rangebench helpers); --compiled-helpers: the compiled-in 6.18\n"
		"  sets, as where bpf() is refused.\n"
		"  --emit LIST: the metric columns, as veristat's -e (names of src/result/metrics.h,\n"
		"  e.g. insns,states,pruned; all: every metric; default: veristat's columns).\n"
		"  --veristat: CSV in exactly veristat's columns and verdict words, which\n"
		"  `veristat -C` and `rangebench compare A.csv B.csv` read (programs with another\n"
		"  verdict are left out, and counted on stderr).\n"
		"  -f, --filter EXPR: veristat's filters, repeatable: a glob on PROG or FILE/PROG,\n"
		"  or KEY OP VALUE (OP = == != <> < <= > >=; KEY a metric, |KEY| its absolute\n"
		"  value, or verdict, file, prog, error with = or != and a glob); '!' first: a\n"
		"  deny filter. -s, --sort SPEC: keys (name, verdict, a metric), comma-separated,\n"
		"  '^' after one: ascending. --top N: the first N rows.\n"
		"  --explore-time (--tracker kernel): the kernel's exploration alone timed,\n"
		"  sampled with perf (root; --emit explore,explore_cpu shows it beside the\n"
		"  engine's): the log's Duration also holds its rewrites and subprogram JIT.\n");
}

struct row {
	char file[256], prog[RB_PROG_NAME_MAX];
	const char *tracker; /* the row's --tracker */
	bool kernel;         /* a kernel's row: engine-only figures n/a */
	struct rb_result res;
};

static void error_text(const struct rb_result *r, char *buf, size_t len)
{
	buf[0] = 0;
	if (r->verdict == RB_ACCEPT)
		return;
	if (r->err_insn >= 0)
		snprintf(buf, len, "insn %d: %s", r->err_insn, r->msg);
	else
		snprintf(buf, len, "%s", r->msg);
}

static int add_row(struct row **rows, size_t *n, size_t *cap)
{
	if (RB_GROW(*rows, *n + 1, cap, 16) < 0)
		return -1;
	memset(&(*rows)[*n], 0, sizeof(**rows));
	(*n)++;
	return 0;
}

/* verify's metric columns: by default veristat's (result/metrics.h rows
 * with a verify title), the one marked RB_MF_VERIFY_FIRST first (Duration),
 * then the others in registry order; with --emit LIST the metrics named
 * (registry names, "all": every metric, in registry order). Returns how
 * many, or -1 naming an unknown metric in *bad. */
static int verify_metrics(const char *emit, enum rb_metric *out, char *bad, size_t badlen)
{
	size_t n = 0;
	if (!emit) {
		for (int m = 0; m < RB_METRIC_COUNT; m++)
			if (rb_metrics[m].vtitle && (rb_metrics[m].flags & RB_MF_VERIFY_FIRST))
				out[n++] = (enum rb_metric)m;
		for (int m = 0; m < RB_METRIC_COUNT; m++)
			if (rb_metrics[m].vtitle && !(rb_metrics[m].flags & RB_MF_VERIFY_FIRST))
				out[n++] = (enum rb_metric)m;
		return (int)n;
	}
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", emit);
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int m = rb_metric_parse(t);
		if (!strcmp(t, "all")) {
			for (int k = 0; k < RB_METRIC_COUNT && n < RB_METRIC_COUNT; k++)
				out[n++] = (enum rb_metric)k;
			continue;
		}
		if (m < 0) {
			snprintf(bad, badlen, "%s", t);
			return -1;
		}
		if (n < RB_METRIC_COUNT)
			out[n++] = (enum rb_metric)m;
	}
	return (int)n;
}

/* --emit LIST names only metrics; else false after the message */
static bool emit_known(const char *list)
{
	enum rb_metric ms[RB_METRIC_COUNT];
	char bad[64], names[512];
	if (verify_metrics(list, ms, bad, sizeof(bad)) >= 0)
		return true;
	size_t o = 0;
	names[0] = 0;
	for (int m = 0; m < RB_METRIC_COUNT && o < sizeof(names); m++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s, ", rb_metrics[m].name);
	fprintf(stderr, "rangebench verify: --emit: unknown metric '%s' (%sall)\n", bad, names);
	return false;
}

/* verify's output: table or CSV (--csv), veristat's exact CSV
 * (--veristat), the metric columns (--emit), filters, sort and top */
struct verify_out {
	bool csv, veristat;
	bool trackers; /* several --tracker: a tracker column after the program */
	const char *emit;
	struct rb_rowfilter filter;
	struct rb_sortspec sort; /* n == 0: the order verified */
	long top;
};

static void rf_row(const struct row *r, struct rb_rf_row *out)
{
	memset(out, 0, sizeof(*out));
	out->file = r->file;
	out->prog = r->prog;
	out->source = "";
	out->nsides = 1;
	out->present[0] = true;
	out->verdict[0] = rb_verdict_name(r->res.verdict);
	out->error[0] = r->res.verdict == RB_ACCEPT ? "" : r->res.msg;
	for (int m = 0; m < RB_METRIC_COUNT; m++)
		out->v[0][m] = rb_metric_get(&r->res, (enum rb_metric)m);
}

struct shaped {
	const struct row *row;
	struct rb_rf_row rf;
};

static int shaped_cmp(const void *a, const void *b, void *spec)
{
	return rb_sortspec_cmp(spec, &((const struct shaped *)a)->rf, &((const struct shaped *)b)->rf);
}

/* the rows to print, in order: filtered, sorted, cut to --top; NULL when
 * out of memory */
static const struct row **shape_rows(const struct row *rows, size_t *n, const struct verify_out *o)
{
	struct shaped *sh = calloc(*n ? *n : 1, sizeof(*sh));
	const struct row **out = calloc(*n ? *n : 1, sizeof(*out));
	size_t k = 0, skipped = 0;
	for (size_t i = 0; sh && out && i < *n; i++) {
		sh[k].row = &rows[i];
		rf_row(&rows[i], &sh[k].rf);
		if (!rb_rowfilter_match(&o->filter, &sh[k].rf))
			continue;
		/* veristat knows two verdicts: the others cannot be written */
		if (o->veristat && rows[i].res.verdict != RB_ACCEPT && rows[i].res.verdict != RB_REJECT) {
			skipped++;
			continue;
		}
		k++;
	}
	if (sh && out && o->sort.n)
		qsort_r(sh, k, sizeof(*sh), shaped_cmp, (void *)&o->sort);
	if (o->top > 0 && k > (size_t)o->top)
		k = (size_t)o->top;
	for (size_t i = 0; sh && out && i < k; i++)
		out[i] = sh[i].row;
	if (skipped)
		fprintf(stderr, "rangebench verify: --veristat: %zu program%s left out: veristat's verdicts are success "
				"and failure only\n", skipped, skipped == 1 ? "" : "s");
	free(sh);
	if (!sh) {
		free(out);
		return NULL;
	}
	*n = k;
	return out;
}

/* veristat's CSV columns: the metrics it knows (RB_MF_VERISTAT), Duration
 * first as veristat prints them */
static int veristat_metrics(enum rb_metric *out)
{
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int m = 0; m < RB_METRIC_COUNT; m++)
			if ((rb_metrics[m].flags & RB_MF_VERISTAT) && (int)!(rb_metrics[m].flags & RB_MF_VERIFY_FIRST) == pass)
				out[n++] = (enum rb_metric)m;
	return n;
}

/* one row per program: veristat's column names in CSV, its headers on screen */
static int print_rows(const struct row *all, size_t n, const struct verify_out *o)
{
	enum rb_metric ms[RB_METRIC_COUNT];
	char bad[64];
	bool csv = o->csv;
	int got = o->veristat ? veristat_metrics(ms) : verify_metrics(o->emit, ms, bad, sizeof(bad));
	size_t nm = got < 0 ? 0 : (size_t)got;
	const char *hdr[RB_METRIC_COUNT + 6];
	size_t nc = 0;
	hdr[nc++] = csv ? "file_name" : "File";
	hdr[nc++] = csv ? "prog_name" : "Program";
	if (o->trackers)
		hdr[nc++] = csv ? "tracker" : "Tracker";
	hdr[nc++] = csv ? "verdict" : "Verdict";
	for (size_t j = 0; j < nm; j++)
		hdr[nc++] = csv ? (rb_metrics[ms[j]].vcsv ? rb_metrics[ms[j]].vcsv : rb_metrics[ms[j]].column)
			    : (rb_metrics[ms[j]].vtitle ? rb_metrics[ms[j]].vtitle : rb_metrics[ms[j]].title);
	if (csv && !o->veristat)
		hdr[nc++] = "err_insn";
	if (!o->veristat)
		hdr[nc++] = csv ? "error" : "Error";
	struct rb_table t;
	const struct row **rows = shape_rows(all, &n, o);
	if (!rows || rb_table_init(&t, nc, hdr) < 0) {
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rb_result *r = &rows[i]->res;
		char num[RB_METRIC_COUNT + 1][32], error[320];
		const char *cells[RB_METRIC_COUNT + 6];
		size_t k = 0;
		cells[k++] = rows[i]->file;
		cells[k++] = rows[i]->prog;
		if (o->trackers)
			cells[k++] = rows[i]->tracker;
		cells[k++] = rb_verdict_name(r->verdict);
		for (size_t j = 0; j < nm; j++) {
			double v = rb_metric_get(r, ms[j]);
			/* a figure the kernel does not measure: n/a, not 0 */
			if (rows[i]->kernel && (rb_metrics[ms[j]].flags & RB_MF_ENGINE_ONLY))
				snprintf(num[j], sizeof(num[j]), "%s", csv ? "" : "n/a");
			else if (rb_metrics[ms[j]].fmt == RB_MFMT_US)
				snprintf(num[j], sizeof(num[j]), "%.0f", v);
			else
				snprintf(num[j], sizeof(num[j]), "%llu", (unsigned long long)v);
			cells[k++] = num[j];
		}
		if (csv && !o->veristat) {
			snprintf(num[nm], sizeof(num[nm]), "%d", r->verdict == RB_ACCEPT ? -1 : r->err_insn);
			cells[k++] = num[nm];
			snprintf(error, sizeof(error), "%s", r->verdict == RB_ACCEPT ? "" : r->msg);
		} else {
			error_text(r, error, sizeof(error));
		}
		if (!o->veristat)
			cells[k++] = error;
		if (rb_table_add(&t, cells) < 0) {
			rb_table_free(&t);
			free(rows);
			return -1;
		}
	}
	rb_table_print(&t, stdout, csv);
	rb_table_free(&t);
	free(rows);
	return 0;
}

/* each object is first opened in a child process (src/driver/scan.h):
 * one the loader crashes on is reported and skipped, never opened here */
struct probe {
	struct rb_scan *scan;
	bool unavailable; /* no child could be started: opened here only */
};

/* true when the object is done with (reported, *rc set): the loader
 * crashed on it or refused it in the child; last: the last object, whose
 * child ends once it has answered, not after the verifications here */
static bool opened_apart(struct probe *pr, const char *path, const struct rb_load_opts *lo, bool last, int *rc)
{
	if (pr->unavailable)
		return false;
	if (!pr->scan && !(pr->scan = rb_scan_new("/proc/self/exe", NULL, NULL, 0))) {
		pr->unavailable = true;
		return false;
	}
	struct rb_scan_obj so;
	struct rb_err err = {{0}};
	if (last)
		rb_scan_last(pr->scan);
	int r = rb_scan_object(pr->scan, path, lo, &so, &err);
	if (r == RB_SCAN_OK) {
		rb_scan_obj_free(&so);
		return false;
	}
	if (r < 0) {
		fprintf(stderr, "rangebench verify: note: %s; objects are opened without that isolation\n", err.msg);
		pr->unavailable = true;
		return false;
	}
	fprintf(stderr, "rangebench verify: %s\n", err.msg);
	*rc = 2;
	return true;
}

struct guest_rows {
	struct row *rows;
	size_t n, cap;
	FILE *logf;
	const char *tracker;
	bool oom;
};

static int guest_row(void *ctx, const struct rb_result_row *row, const char *log)
{
	struct guest_rows *g = ctx;
	if (add_row(&g->rows, &g->n, &g->cap)) {
		g->oom = true;
		return -1;
	}
	struct row *r = &g->rows[g->n - 1];
	const char *b = strrchr(row->prog.obj_path, '/');
	b = b ? b + 1 : row->prog.obj_path;
	if (snprintf(r->file, sizeof(r->file), "%s", b) >= (int)sizeof(r->file))
		r->file[sizeof(r->file) - 1] = 0; /* a long name cut, as basename() rows are */
	snprintf(r->prog, sizeof(r->prog), "%s", row->prog.name);
	r->res = row->res;
	r->tracker = g->tracker;
	r->kernel = true;
	if (log)
		fprintf(g->logf, "=== %s:%s (%s) ===\n%s", r->file, r->prog, g->tracker, log);
	return 0;
}

/* --tracker NAME of a kernel image: every OBJ[:PROG] in one guest */
static int verify_in_guest(const char *tracker, int argc, char **argv, const struct rb_load_opts *lopts,
			   bool want_log, struct verify_out *out)
{
	struct rb_kernel k;
	struct rb_err err = {{0}};
	if (rb_kernel_find(tracker, &k, &err) < 0) {
		fprintf(stderr, "rangebench verify: %s\n", err.msg);
		return 2;
	}
	struct rb_guest_obj *objs = calloc((size_t)argc, sizeof(*objs));
	char(*paths)[4096] = calloc((size_t)argc, sizeof(*paths));
	if (!objs || !paths) {
		free(objs);
		free(paths);
		fprintf(stderr, "rangebench verify: out of memory\n");
		return 2;
	}
	for (int a = 0; a < argc; a++) {
		snprintf(paths[a], sizeof(paths[a]), "%s", argv[a]);
		struct stat sb;
		char *colon = strrchr(paths[a], ':');
		if (stat(paths[a], &sb) != 0 && colon) {
			*colon = 0;
			objs[a].prog = colon + 1;
		}
		objs[a].path = paths[a];
		objs[a].prog_type = lopts->prog_type;
	}
	struct guest_rows g = {.logf = out->csv ? stderr : stdout, .tracker = tracker};
	struct rb_guest_opts go = {.want_log = want_log};
	struct rb_guest_stats gs;
	int rc = rb_guest_run(&k, objs, (size_t)argc, &go, guest_row, &g, &gs, &err) < 0 ? 2 : 0;
	if (rc)
		fprintf(stderr, "rangebench verify: %s\n", g.oom ? "out of memory" : err.msg);
	else if ((out->csv || g.n) && print_rows(g.rows, g.n, out) < 0)
		rc = 2;
	for (size_t i = 0; i < g.n; i++)
		if (!strcmp(g.rows[i].prog, "(object)"))
			rc = 2;
	free(g.rows);
	free(objs);
	free(paths);
	return rc;
}

/* verify's output options (print_rows) */
static int out_opt(int c, const char *arg, struct verify_out *o)
{
	struct rb_err err = {{0}};
	switch (c) {
	case 'c': o->csv = true; return 1;
	case 'V': o->csv = o->veristat = true; return 1;
	case 'e': return emit_known(o->emit = arg) ? 1 : -1;
	case 'f':
		if (rb_rowfilter_add(&o->filter, arg, false, &err) < 0)
			break;
		return 1;
	case 's':
		if (rb_sortspec_parse(&o->sort, arg, false, &err) < 0)
			break;
		return 1;
	case 'n': {
		char *end;
		o->top = strtol(arg, &end, 10);
		if (!*end && o->top > 0)
			return 1;
		rb_errf(&err, "--top wants a positive number, not '%s'", arg);
		break;
	}
	default: return 0;
	}
	fprintf(stderr, "rangebench verify: %s\n", err.msg);
	return -1;
}

/* the rows verify prints, of every tracker */
struct rows {
	struct row *v;
	size_t n, cap;
};

/* what every tracker of one verify shares: the running kernel's helper
 * sets, probed once; the scan child (one for all, ended after the last
 * tracker's last object has been answered) */
struct shared {
	struct rb_helper_probe *hp;
	struct probe probe;
};

/* verify every OBJ[:PROG] of args here (engine or the running kernel) with
 * one tracker, its rows added to *out; the exit code so far. last: the
 * last tracker of the call. */
static int verify_here(const char *tracker, int argc, char **argv, const struct rb_load_opts *lopts, bool want_log,
		       FILE *logf, struct shared *sh, bool last, const struct rb_ksyms *ksyms, struct rows *out)
{
	struct row *rows = out->v;
	size_t n = out->n, cap = out->cap;
	int rc = 0;
	bool kernel = rb_kernel_is_running(tracker);
	/* vmlinux BTF parsed once for every program verified here: --btf's
	 * file when given (another kernel's, e.g. for a @7.2 profile) */
	char kbtf[4200];
	if (lopts->kernel_inputs)
		snprintf(kbtf, sizeof(kbtf), "%s/btf", lopts->kernel_inputs);
	struct rb_vmlinux *vmlinux =
		rb_vmlinux_new_file(lopts->btf_path ? lopts->btf_path : lopts->kernel_inputs ? kbtf : NULL);
	if (!vmlinux) {
		fprintf(stderr, "rangebench verify: out of memory\n");
		return 2;
	}
	/* libbpf prepares the objects against that same parse */
	struct rb_btf_lend lend = rb_vmlinux_lend(vmlinux);
	struct rb_load_opts lo = *lopts;
	lo.lend_btf = &lend;
	/* the engine's state memory, kept from one verification to the next
	 * (util/pool.h; out of memory: NULL, one per verification) */
	struct rb_pool *pool = rb_pool_new();
	for (int a = 0; a < argc; a++) {
		char path[4096];
		const char *want = NULL;
		snprintf(path, sizeof(path), "%s", argv[a]);
		struct stat sb;
		char *colon = strrchr(path, ':');
		if (stat(path, &sb) != 0 && colon) {
			*colon = 0;
			want = colon + 1;
		}
		struct rb_object *obj = NULL;
		struct rb_err err = {{0}};
		if (opened_apart(&sh->probe, path, lopts, last && a == argc - 1, &rc))
			continue;
		if (rb_object_open(path, &lo, &obj, &err) < 0) {
			fprintf(stderr, "rangebench verify: %s\n", err.msg);
			rc = 2;
			continue;
		}
		rb_cli_object_notes("verify", obj);
		char base[4096];
		snprintf(base, sizeof(base), "%s", path);
		const char *file = basename(base);
		bool found = false;
		for (size_t p = 0; p < obj->prog_cnt; p++) {
			if (want && strcmp(obj->progs[p].name, want))
				continue;
			found = true;
			if (add_row(&rows, &n, &cap)) {
				fprintf(stderr, "rangebench verify: out of memory\n");
				rc = 2;
				break;
			}
			struct row *r = &rows[n - 1];
			snprintf(r->file, sizeof(r->file), "%s", file);
			snprintf(r->prog, sizeof(r->prog), "%s", obj->progs[p].name);
			r->tracker = tracker;
			r->kernel = kernel;
			if (want_log) {
				struct rb_err head; /* names escaped (rb_errf) */
				rb_errf(&head, "=== %s:%s (%s) ===", file, obj->progs[p].name, tracker);
				fprintf(logf, "%s\n", head.msg);
			}
			struct rb_verify_opts vo = {
				.tracker = tracker, .log = want_log ? logf : NULL, .vmlinux = vmlinux, .helpers = &sh->hp->src, .ksyms = ksyms,
				.pool = pool};
			int vr = rb_verify(obj, p, &vo, &r->res, &err);
			if (want_log)
				fflush(logf);
			/* test builds: RB_TEST_FAULT verify-log:crash dies here, the
			 * first program's log printed (fault.h) */
			if (want_log && rb_fault_named(rb_fault_env(), "verify-log:crash"))
				abort();
			if (vr < 0) {
				fprintf(stderr, "rangebench verify: %s\n", err.msg);
				rc = 2;
				n--;
			} else if (obj->progs[p].undefined_calls[0]) {
				char why[512];
				rb_prog_undefined_note(&obj->progs[p], why, sizeof(why));
				rb_errf(&err, "%s: %s: %s", path, obj->progs[p].name, why);
				fprintf(stderr, "rangebench verify: %s\n", err.msg);
			}
		}
		if (want && !found) {
			rb_errf(&err, "%s: no program named '%s'", path, want);
			fprintf(stderr, "rangebench verify: %s\n", err.msg);
			rc = 2;
		}
		rb_object_free(obj);
	}
	rb_vmlinux_free(vmlinux);
	rb_pool_delete(pool);
	if (last) {
		char why[128];
		if (!rb_scan_end(sh->probe.scan, why, sizeof(why)))
			fprintf(stderr,
				"rangebench verify: warning: the scan child ended badly after answering (%s); "
				"the objects were opened before that\n",
				why);
		rb_scan_free(sh->probe.scan);
		sh->probe.scan = NULL;
	}
	out->v = rows;
	out->n = n;
	out->cap = cap;
	return rc;
}

/* one tracker's part of cmd_verify (an engine row or the running kernel,
 * which bpf() has been found to let run): its rows added to *out; the exit
 * code */
static int verify_tracker(const char *tracker, int argc, char **argv, struct rb_load_opts lopts, bool want_log,
			  FILE *logf, struct shared *sh, bool last, const struct rb_ksyms *ksyms, struct rows *out)
{
	/* an engine row of a later profile: that kernel's inputs */
	char kin[4096];
	lopts.kernel_inputs = rb_verify_row_inputs(tracker, lopts.kernel_inputs, kin, sizeof(kin));
	return verify_here(tracker, argc, argv, &lopts, want_log, logf, sh, last,
			   rb_kernel_is_running(tracker) ? ksyms : NULL, out);
}

/* verify --tracker, repeated: at most this many rows */
#define RB_VERIFY_TRACKERS_MAX 16

static int tracker_index(const char *const *trackers, int n, const char *name)
{
	for (int t = 0; t < n; t++)
		if (!strcmp(trackers[t], name))
			return t;
	return -1;
}

/* a kernel image of kernels.conf, verified in a guest (verify_in_guest) */
static bool is_guest(const char *tracker)
{
	return !rb_tracker_get(tracker, 64) && !rb_kernel_is_running(tracker) && rb_kernel_known(tracker);
}

int cmd_verify(int argc, char **argv)
{
	static const struct option lo[] = {
		{"tracker", required_argument, NULL, 't'}, {"log", no_argument, NULL, 'l'},
		{"csv", no_argument, NULL, 'c'},           {"btf", required_argument, NULL, 'b'},
		{"help", no_argument, NULL, 'h'},          {"compiled-helpers", no_argument, NULL, 'H'},
		{"emit", required_argument, NULL, 'e'},    {"veristat", no_argument, NULL, 'V'},
		{"filter", required_argument, NULL, 'f'},  {"sort", required_argument, NULL, 's'},
		{"top", required_argument, NULL, 'n'},     {"explore-time", no_argument, NULL, 'X'},
		RB_CLI_TYPE_LONGOPTS,
		{"kernel-inputs", required_argument, NULL, RB_OPT_KERNEL_INPUTS},
		{NULL, 0, NULL, 0},
	};
	/* the --tracker rows, in the order given (a name once) */
	const char *trackers[RB_VERIFY_TRACKERS_MAX] = {RB_ROLE_BASELINE};
	int ntr = 0;
	bool want_log = false, compiled_helpers = false, explore_time = false;
	struct verify_out out = {0};
	struct rb_load_opts lopts = {0};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:lcb:hf:s:e:", lo, NULL)) != -1) {
		int r = out_opt(c, optarg, &out);
		if (r < 0)
			return 2;
		if (r)
			continue;
		if (rb_cli_type_opt(c, optarg, &lopts))
			continue;
		switch (c) {
		case 't':
			if (!rb_row_known(optarg, true)) {
				char names[384];
				rb_row_names(names, sizeof(names), ", ", true);
				fprintf(stderr, "rangebench verify: unknown tracker '%s' (%s)\n", optarg, names);
				return 2;
			}
			if (tracker_index(trackers, ntr, optarg) >= 0)
				break;
			if (ntr == RB_VERIFY_TRACKERS_MAX) {
				fprintf(stderr, "rangebench verify: at most %d --tracker\n", RB_VERIFY_TRACKERS_MAX);
				return 2;
			}
			trackers[ntr++] = optarg;
			break;
		case 'l': want_log = true; break;
		case 'b': lopts.btf_path = optarg; break;
		case 'H': compiled_helpers = true; break;
		case 'X': explore_time = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "rangebench verify: no object given\n");
		usage(stderr);
		return 2;
	}
	if (rb_cli_check_type_opts("verify", &lopts))
		return 2;
	ntr = ntr ? ntr : 1;
	out.trackers = ntr > 1;
	for (int t = 0; t < ntr && ntr > 1; t++) {
		const char *why = out.veristat ? "--veristat's CSV has no tracker column"
				  : is_guest(trackers[t]) ? "a kernel image is verified in a guest of its own"
							 : NULL;
		if (why) {
			fprintf(stderr, "rangebench verify: one --tracker only: %s ('%s' and '%s' given)\n", why,
				trackers[0], trackers[1]);
			return 2;
		}
	}
	if (is_guest(trackers[0]))
		return verify_in_guest(trackers[0], argc - optind, argv + optind, &lopts, want_log, &out);
	/* the running kernel as a tracker: one line saying why it cannot run,
	 * rather than a row "unavailable" per program (and exit 0); the
	 * other trackers' rows printed */
	int kt = -1;
	for (int t = 0; t < ntr && kt < 0; t++)
		kt = rb_kernel_is_running(trackers[t]) ? t : -1;
	char why[256];
	bool kernel_ok = kt < 0 || rb_bpf_available_why(why, sizeof(why));
	if (!kernel_ok) {
		fprintf(stderr, "rangebench verify: the kernel tracker cannot run: %s\n", why);
		if (ntr == 1)
			return 2;
	}
	/* the kernel's exploration sampled: the functions' addresses once */
	struct rb_ksyms ksyms;
	if (explore_time && kt >= 0 && kernel_ok) {
		struct rb_err e = {{0}};
		if (rb_ksyms_read(&ksyms, NULL, &e)) {
			fprintf(stderr, "rangebench verify: --explore-time: %s\n", e.msg);
			return 2;
		}
	}
	/* helper sets: the running kernel's, probed when a program needs them
	 * (static: a table of every program type's sets) */
	static struct rb_helper_probe hp;
	rb_helper_probe_init(&hp, !compiled_helpers);
	struct shared sh = {.hp = &hp};
	struct rows rows = {0};
	/* --log --csv: the log goes to stderr, which is unbuffered (a write
	 * per piece: 5 million for a program at the 1M-instruction limit);
	 * buffered while the programs are verified, flushed after each */
	char *logbuf = want_log && out.csv ? malloc(1 << 16) : NULL;
	if (logbuf)
		setvbuf(stderr, logbuf, _IOFBF, 1 << 16);
	int rc = kernel_ok ? 0 : 2;
	int last = ntr - 1; /* the last tracker verified */
	while (last > 0 && !kernel_ok && rb_kernel_is_running(trackers[last]))
		last--;
	for (int t = 0; t < ntr; t++) {
		if (!kernel_ok && rb_kernel_is_running(trackers[t]))
			continue;
		int r = verify_tracker(trackers[t], argc - optind, argv + optind, lopts, want_log,
				       out.csv ? stderr : stdout, &sh, t == last, explore_time ? &ksyms : NULL, &rows);
		rc = r > rc ? r : rc;
	}
	if (logbuf) {
		fflush(stderr);
		setvbuf(stderr, NULL, _IONBF, 0);
		free(logbuf);
	}
	if ((out.csv || rows.n) && print_rows(rows.v, rows.n, &out) < 0) {
		fprintf(stderr, "rangebench verify: out of memory\n");
		rc = 2;
	}
	free(rows.v);
	return rc;
}
