/* cmd_kdiff.c — `rangebench kdiff [--tracker old|cnum] [-C N] OBJ[:PROG]...`
 * verify a program with the running kernel and with the engine, both
 * with a level-2 log, and show where they first differ: the first log
 * line (with context), then verdicts and counts. Exit 0 when logs,
 * verdicts and counts agree, 1 when they differ, 2 on bad input; with
 * several programs, each report framed by "== OBJ:PROG" lines and the
 * highest of their exit codes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/row.h"
#include "cli/commands.h"
#include "cli/kdiff_trace.h"
#include "guest/guest.h"
#include "kernels/kernels.h"
#include "cli/opt_num.h"
#include "cli/type_opts.h"
#include "oracle/kdiff.h"
#include "loader/object.h"
#include "tracker/tracker.h"
#include "oracle/helper_probe.h"
#include "verify/verify.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench kdiff [--kernel NAME] [--tracker NAME] [-C LINES] [--prog-type TYPE [--attach-type TYPE]] OBJ[:PROG]...\n"
		   "  Run a kernel (default the running one; --kernel kernel-7.2: a kernel image\n"
		   "  of kernels.conf, in a guest) and the engine (default tracker old; or\n"
		   "  another kernel) on one program with level-2 logs; print the first\n"
		   "  differing log line with context, verdicts and counts. Exit 1 when they\n"
		   "  differ. Several programs: one process for all, each report between\n"
		   "  '== OBJ:PROG' and '== OBJ:PROG: agree' (differ, error); the exit code\n"
		   "  is the highest.\n"
		   "  --trace OBJ:PROG...: for each program, one line: both sides' verdict and\n"
		   "  insns/states, and the first entry where the paths they explored part\n"
		   "  (instruction lines, branch switches, pruning points; the state formats\n"
		   "  of two kernels need not match). A kernel image verifies them all in one\n"
		   "  guest.\n");
}

static int run_one(const struct rb_object *obj, size_t idx, const char *tracker, char **text, size_t *len,
		   struct rb_result *res)
{
	FILE *m = open_memstream(text, len);
	if (!m)
		return -1;
	/* the engine with the running kernel's helper sets: it is compared with that kernel */
	static struct rb_helper_probe hp;
	if (!hp.src.set)
		rb_helper_probe_init(&hp, true);
	struct rb_verify_opts o = {.tracker = tracker, .log = m, .helpers = &hp.src};
	struct rb_err err = {{0}};
	int rc = rb_verify(obj, idx, &o, res, &err);
	fclose(m);
	if (rc < 0)
		fprintf(stderr, "kdiff: %s\n", err.msg);
	return rc;
}

struct guest_side {
	char **text;
	size_t *len;
	struct rb_result *res;
	bool got;
};

static int guest_row(void *ctx, const struct rb_result_row *row, const char *log)
{
	struct guest_side *g = ctx;
	*g->res = row->res;
	free(*g->text);
	*g->text = strdup(log ? log : "");
	*g->len = *g->text ? strlen(*g->text) : 0;
	g->got = true;
	return 0;
}

/* one side: an engine tracker or the running kernel here, or a kernel
 * image in a guest (its log through the serial port) */
static int run_side(const struct rb_object *obj, size_t idx, const char *path, const struct rb_load_opts *lo,
		    const char *name, char **text, size_t *len, struct rb_result *res)
{
	struct rb_kernel k;
	if (rb_tracker_get(name, 64) || rb_kernel_is_running(name) || rb_kernel_find(name, &k, NULL) < 0)
		return run_one(obj, idx, name, text, len, res);
	struct rb_guest_obj go = {.path = path, .prog_type = lo->prog_type, .prog = obj->progs[idx].name};
	struct rb_guest_opts opts = {.want_log = true};
	struct guest_side g = {.text = text, .len = len, .res = res};
	struct rb_guest_stats gs;
	struct rb_err err = {{0}};
	if (rb_guest_run(&k, &go, 1, &opts, guest_row, &g, &gs, &err) < 0 || !g.got) {
		fprintf(stderr, "kdiff: %s\n", g.got ? err.msg : "the guest gave no row");
		return -1;
	}
	return 0;
}

/* the program PROG (or the only one): its index, or prog_cnt (said why) */
static size_t find_prog(const struct rb_object *obj, const char *path, const char *pname)
{
	size_t idx = obj->prog_cnt;
	if (!pname && obj->prog_cnt == 1)
		idx = 0;
	for (size_t i = 0; pname && i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, pname))
			idx = i;
	if (idx == obj->prog_cnt && pname)
		fprintf(stderr, "kdiff: %s: no program '%s'\n", path, pname);
	else if (idx == obj->prog_cnt)
		fprintf(stderr, "kdiff: %s holds %zu programs: give OBJ:PROG\n", path, obj->prog_cnt);
	return idx;
}

/* an object kept open for the next argument naming the same file */
struct open_obj {
	char path[4096];
	struct rb_object *obj;
};

/* one program (ARG = OBJ:PROG, or OBJ holding one program): both sides'
 * logs, the first difference, verdicts and counts; 0 when they agree, 1
 * when they differ, 2 on bad input. With oo, the object is taken from
 * (and left in) it. */
static int kdiff_prog(const char *arg, const char *kname, const char *tracker, const struct rb_load_opts *lopts,
		      int ctx, struct open_obj *oo)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s", arg);
	/* OBJ:PROG, or OBJ alone when the object holds one program */
	const char *pname = rb_cli_split_prog(path);
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	if (oo && oo->obj && !strcmp(oo->path, path)) {
		obj = oo->obj;
	} else {
		if (oo) {
			rb_object_free(oo->obj);
			oo->obj = NULL;
		}
		if (rb_object_open(path, lopts, &obj, &err) < 0) {
			fprintf(stderr, "kdiff: %s\n", err.msg);
			return 2;
		}
		if (oo) {
			snprintf(oo->path, sizeof(oo->path), "%s", path);
			oo->obj = obj;
		}
	}
	size_t idx = find_prog(obj, path, pname);
	if (idx == obj->prog_cnt) {
		if (!oo)
			rb_object_free(obj);
		return 2;
	}
	char *kt = NULL, *et = NULL;
	size_t kl = 0, el = 0;
	struct rb_result kr, er;
	if (run_side(obj, idx, path, lopts, kname, &kt, &kl, &kr) < 0 ||
	    run_side(obj, idx, path, lopts, tracker, &et, &el, &er) < 0) {
		free(kt);
		free(et);
		if (!oo)
			rb_object_free(obj);
		return 2;
	}
	struct rb_kdiff_lines ka, ea;
	int rc = 0;
	if (rb_kdiff_lines(kt ? kt : "", &ka) < 0 || rb_kdiff_lines(et ? et : "", &ea) < 0) {
		fprintf(stderr, "kdiff: out of memory\n");
		rc = 2;
		goto out;
	}
	long d = rb_kdiff_first(&ka, &ea);
	if (d >= 0) {
		rc = 1;
		printf("first difference at log line %ld (of %zu %s, %zu %s):\n", d, ka.n, kname, ea.n, tracker);
		long from = d - ctx > 0 ? d - ctx : 0;
		for (long i = from; i < d && i < (long)ka.n; i++)
			printf("  = %s\n", ka.line[i]);
		for (long i = d; i < d + 3 && i < (long)ka.n; i++)
			printf("  %s: %s\n", kname, ka.line[i]);
		for (long i = d; i < d + 3 && i < (long)ea.n; i++)
			printf("  %s: %s\n", tracker, ea.line[i]);
	} else {
		printf("logs agree (%zu lines)\n", ka.n);
	}
	printf("verdict  %s %s / %s %s\n", kname, rb_verdict_name(kr.verdict), tracker, rb_verdict_name(er.verdict));
	if (kr.verdict != RB_ACCEPT || er.verdict != RB_ACCEPT)
		printf("message  %s [insn %d] %s / %s [insn %d] %s\n", kname, kr.err_insn, kr.msg, tracker, er.err_insn,
		       er.msg);
	printf("insns    %s %llu / %s %llu\n", kname, (unsigned long long)kr.insns_processed, tracker,
	       (unsigned long long)er.insns_processed);
	printf("states   %s total %llu peak %llu max/insn %llu / %s total %llu peak %llu max/insn %llu\n",
	       kname, (unsigned long long)kr.total_states, (unsigned long long)kr.peak_states,
	       (unsigned long long)kr.max_states_per_insn, tracker, (unsigned long long)er.total_states,
	       (unsigned long long)er.peak_states, (unsigned long long)er.max_states_per_insn);
	if (kr.verdict != er.verdict || kr.insns_processed != er.insns_processed || kr.total_states != er.total_states ||
	    kr.peak_states != er.peak_states)
		rc = 1;
out:
	rb_kdiff_lines_free(&ka);
	rb_kdiff_lines_free(&ea);
	free(kt);
	free(et);
	if (!oo)
		rb_object_free(obj);
	return rc;
}

int cmd_kdiff(int argc, char **argv)
{
	const char *tracker = RB_ROLE_BASELINE, *kname = RB_KERNEL_RUNNING;
	bool trace = false;
	int ctx = 6;
	struct rb_load_opts lopts = {0};
	static const struct option lo[] = {{"tracker", required_argument, NULL, 't'},
					   {"kernel", required_argument, NULL, 'k'},
					   {"trace", no_argument, NULL, 'r'},
					   {"help", no_argument, NULL, 'h'},
					   RB_CLI_TYPE_LONGOPTS,
					   {NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:k:C:h", lo, NULL)) != -1) {
		if (rb_cli_type_opt(c, optarg, &lopts))
			continue;
		switch (c) {
		case 't':
			/* the kernel is the other side of the comparison */
			if (!rb_row_known(optarg, true)) {
				char names[384];
				rb_row_names(names, sizeof(names), ", ", false);
				fprintf(stderr, "rangebench kdiff: --tracker names the engine's tracker to compare with the "
						"kernel (%s) or another kernel, not '%s'\n",
					names, optarg);
				return 2;
			}
			tracker = optarg;
			break;
		case 'k':
			if (!rb_kernel_known(optarg)) {
				fprintf(stderr, "rangebench kdiff: --kernel names a kernel (rangebench trackers), not '%s'\n",
					optarg);
				return 2;
			}
			kname = optarg;
			break;
		case 'C': {
			unsigned long long v;
			if (rb_opt_uint(optarg, 0, 1000, false, &v) < 0) {
				fprintf(stderr, "rangebench kdiff: -C wants lines of context, 0..1000, not '%s'\n", optarg);
				return 2;
			}
			ctx = (int)v;
			break;
		}
		case 'r':
			trace = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!strcmp(tracker, kname)) {
		fprintf(stderr, "rangebench kdiff: --tracker names the engine's tracker (or another kernel) to compare "
				"with the kernel, not '%s', the kernel side already (--kernel NAME sets it)\n",
			tracker);
		return 2;
	}
	if (trace && optind < argc)
		return rb_kdiff_trace(kname, tracker, argc - optind, argv + optind, &lopts);
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (rb_cli_check_type_opts("kdiff", &lopts))
		return 2;
	if (optind + 1 == argc)
		return kdiff_prog(argv[optind], kname, tracker, &lopts, ctx, NULL);
	/* several programs: each report between "== OBJ:PROG" and
	 * "== OBJ:PROG: agree|differ|error"; an object named again in the
	 * next argument is opened once */
	struct open_obj oo = {0};
	int worst = 0;
	for (int a = optind; a < argc; a++) {
		printf("== %s\n", argv[a]);
		fflush(stdout);
		int rc = kdiff_prog(argv[a], kname, tracker, &lopts, ctx, &oo);
		printf("== %s: %s\n", argv[a], rc == 0 ? "agree" : rc == 1 ? "differ" : "error");
		fflush(stdout);
		if (rc > worst)
			worst = rc;
	}
	rb_object_free(oo.obj);
	return worst;
}
