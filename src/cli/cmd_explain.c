/* cmd_explain.c — `rangebench explain [--baseline X] [--candidate Y]
 * [--no-counterfactual] OBJ[:PROG]...`: why two engine trackers explore a
 * program differently; a side may also be a kernel, and --db explains a
 * run's rows (cmd_explain_sides.c) (src/explain/explain.h): where the explorations
 * part, the deciding register, the instruction where its value sets first
 * differ with both sides' values, the cause class and the counterfactual
 * check. Without :PROG, every program of the object whose verdict or
 * instruction count changes. Exit 0 when every change shown is explained
 * (cause found, class, counterfactual vanished), 1 when one is not, 2 on
 * bad input. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/explain_sides.h"
#include "cli/type_opts.h"
#include "engine/vmlinux.h"
#include "kernels/kernels.h"
#include "explain/explain.h"
#include "explain/switches.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "store/runinfo.h"
#include "tracker/tracker.h"
#include "util/root.h"
#include "verify/verify.h"
#include "verify/row.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench explain [--baseline TRACKER] [--candidate TRACKER] [--no-counterfactual]\n"
		   "                          [--prog-type TYPE [--attach-type TYPE]] [--kernel-inputs DIR|none]\n"
		   "                          OBJ[:PROG]...\n"
		   "  Run the engine with two trackers (default baseline old, candidate cnum) on a\n"
		   "  program and explain the change: the first instruction where the explorations\n"
		   "  part (a branch decided differently, a prune by one side only, a different\n"
		   "  verdict), the deciding register, and walking back its history (def-use along\n"
		   "  the path) the instruction where its value sets first differ, both sides'\n"
		   "  values in their own terms, the source line, a cause class, and a\n"
		   "  counterfactual: the candidate re-run with the baseline's value set there (or\n"
		   "  the reverse) must lose the change. OBJ alone: every program that changes.\n"
		   "  Exit 1 when a change is left unexplained.\n"
		   "  A side may be a kernel (kernel, the running one; a kernels.conf image, in its\n"
		   "  guest): each kernel side is stood in for by the first engine row of\n"
		   "  --stand-ins LIST (default " RB_XS_STAND_INS ")\n"
		   "  with its verdict, instructions and states, and the engine explains the change\n"
		   "  between the stand-ins; with no such row the change stays unexplained (where\n"
		   "  the kernels' logs part is printed).\n"
		   "  --db FILE [--run RUN] without OBJ: every program whose verdict, instructions\n"
		   "  or states differ between the two sides' rows of the run (default the newest\n"
		   "  with both), each explained as above (the logs' parting point from\n"
		   "  `rangebench attribute` where stored), stored in the run's explanations\n"
		   "  (--no-store: not), a summary by cause class; -q: the summary only.\n"
		   "  --run-b RUN: the candidate's rows from another run (two runs, perhaps made by\n"
		   "  another build: an engine row side this build does not reproduce is stood in\n"
		   "  for by the engine row with its figures, as a kernel is); not stored.\n"
		   "  Each engine row's object is opened with the inputs of the kernel it stands\n"
		   "  for, as run opens it (a row of a profile after 6.18: --kernel-inputs DIR, else\n"
		   "  the kernel cache's inputs of kernel-PROFILE; none: the running kernel's). Two\n"
		   "  rows with different inputs: the change is the kernel inputs' when the\n"
		   "  baseline row with the candidate's inputs gives the candidate's figures and\n"
		   "  the candidate row with the baseline's gives the baseline's (the input, BTF,\n"
		   "  config or uname, named when one alone does it); else the engine's change and\n"
		   "  the inputs' are explained as two steps.\n");
}

/* a side: an engine row (tracker, or tracker@profile) or a kernel */
static int side_arg(const char *opt, const char *v)
{
	if (rb_row_known(v, false) || rb_kernel_known(v))
		return 0;
	char names[256];
	rb_tracker_names(names, sizeof(names), ", ", false);
	fprintf(stderr, "rangebench explain: --%s names an engine tracker (%s, or NAME@PROFILE) or a kernel "
			"(rangebench trackers), not '%s'\n",
		opt, names, v);
	return 2;
}

static int explain_one(const struct rb_object *obj, size_t i, const struct rb_explain_opts *eo, bool all, int *bad)
{
	struct rb_explain x;
	struct rb_err err = {{0}};
	if (rb_explain_prog(obj, i, eo, &x, &err) < 0) {
		fprintf(stderr, "explain: %s:%s: %s\n", obj->path, obj->progs[i].name, err.msg);
		return -1;
	}
	if (all && !x.changed)
		return 0;
	rb_explain_print(stdout, obj, i, &x);
	bool ok = rb_explain_ok(&x);
	/* a profile step (old -> old@7.2): the profile switches that make it */
	struct rb_switch_cause sc;
	if (x.changed && !eo->no_counterfactual && rb_explain_switches(obj, i, eo, x.names[0], x.names[1], &sc, &err) == 0 &&
	    sc.profile_step) {
		rb_switch_cause_print(stdout, &sc, x.names[0], x.names[1]);
		ok = ok || rb_switch_cause_ok(&sc);
	}
	printf("\n");
	if (x.changed && !ok)
		*bad = 1;
	return 0;
}

int cmd_explain(int argc, char **argv)
{
	struct rb_explain_opts eo = {.baseline = RB_ROLE_BASELINE, .candidate = RB_ROLE_CANDIDATE};
	struct rb_load_opts lopts = {0};
	struct rb_xs_opts xo = {.stand_ins = RB_XS_STAND_INS, .store = true, .eo = &eo, .lo = &lopts};
	static const struct option lo[] = {{"baseline", required_argument, NULL, 'b'},
					   {"candidate", required_argument, NULL, 'c'},
					   {"no-counterfactual", no_argument, NULL, 'n'},
					   {"stand-ins", required_argument, NULL, 's'},
					   {"db", required_argument, NULL, 'd'},
					   {"run", required_argument, NULL, 'r'},
					   {"run-b", required_argument, NULL, 'R'},
					   {"no-store", no_argument, NULL, 'N'},
					   {"kernel-inputs", required_argument, NULL, RB_OPT_KERNEL_INPUTS},
					   RB_CLI_TYPE_LONGOPTS,
					   {"help", no_argument, NULL, 'h'},
					   {NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hq", lo, NULL)) != -1) {
		if (rb_cli_type_opt(c, optarg, &lopts))
			continue;
		switch (c) {
		case 'b':
		case 'c':
			if (side_arg(c == 'b' ? "baseline" : "candidate", optarg))
				return 2;
			*(c == 'b' ? &eo.baseline : &eo.candidate) = optarg;
			break;
		case 's':
			xo.stand_ins = optarg;
			break;
		case 'd':
			xo.db = optarg;
			break;
		case 'r':
			xo.run = optarg;
			break;
		case 'R':
			xo.run_b = optarg;
			break;
		case 'N':
			xo.store = false;
			break;
		case 'q':
			xo.quiet = true;
			break;
		case 'n':
			eo.no_counterfactual = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc && !xo.db) {
		usage(stderr);
		return 2;
	}
	if (rb_cli_check_type_opts("explain", &lopts))
		return 2;
	xo.side[0] = eo.baseline;
	xo.side[1] = eo.candidate;
	bool engine = rb_row_known(eo.baseline, false) && rb_row_known(eo.candidate, false);
	if (xo.db && optind < argc) {
		fprintf(stderr, "rangebench explain: --db explains a run's rows: give no OBJ\n");
		return 2;
	}
	/* which tree these trackers were built from (provenance, as runs record it) */
	char root[4096];
	struct rb_runinfo ri;
	rb_project_root(root, sizeof(root));
	rb_runinfo_read(&ri, root);
	if (ri.git_commit[0] && ri.diff)
		printf("tree: commit %.12s + uncommitted diff sha256 %.16s (%zu bytes)\n\n", ri.git_commit, ri.diff_sha256,
		       ri.diff_len);
	else if (ri.git_commit[0])
		printf("tree: commit %.12s (clean)\n\n", ri.git_commit);
	rb_runinfo_free(&ri);
	/* each engine row's object opened with the inputs of the kernel it
	 * stands for, as run opens it (verify.h rb_verify_row_inputs): two
	 * rows with different inputs are explained as sides are, the inputs'
	 * part told apart (explain_inputs.h) */
	char in[2][4096], btf[4200];
	const char *ins[2] = {rb_verify_row_inputs(eo.baseline, lopts.kernel_inputs, in[0], sizeof(in[0])),
			      rb_verify_row_inputs(eo.candidate, lopts.kernel_inputs, in[1], sizeof(in[1]))};
	bool apart = (ins[0] || ins[1]) && (!ins[0] || !ins[1] || strcmp(ins[0], ins[1]));
	snprintf(btf, sizeof(btf), "%s/btf", ins[0] ? ins[0] : "");
	struct rb_vmlinux *vmlinux = !xo.db && engine && !apart && ins[0] ? rb_vmlinux_new_file(btf) : rb_vmlinux_new();
	static struct rb_helper_probe hp;
	rb_helper_probe_init(&hp, true);
	eo.vmlinux = vmlinux;
	eo.helpers = &hp.src;
	if (xo.db || !engine || apart) {
		int r = xo.db ? rb_explain_sides_run(&xo) : rb_explain_sides_live(&xo, argc - optind, argv + optind);
		rb_vmlinux_free(vmlinux);
		return r;
	}
	int rc = 0, bad = 0;
	lopts.kernel_inputs = ins[0];
	for (int a = optind; a < argc && rc == 0; a++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s", argv[a]);
		const char *pname = rb_cli_split_prog(path);
		struct rb_object *obj = NULL;
		struct rb_err err = {{0}};
		if (rb_object_open(path, &lopts, &obj, &err) < 0) {
			fprintf(stderr, "explain: %s\n", err.msg);
			rc = 2;
			break;
		}
		bool any = false;
		for (size_t i = 0; i < obj->prog_cnt && rc == 0; i++) {
			if (pname && strcmp(obj->progs[i].name, pname))
				continue;
			any = true;
			if (explain_one(obj, i, &eo, !pname, &bad) < 0)
				rc = 2;
		}
		if (pname && !any) {
			fprintf(stderr, "explain: %s: no program '%s'\n", path, pname);
			rc = 2;
		}
		rb_object_free(obj);
	}
	rb_vmlinux_free(vmlinux);
	return rc ? rc : bad;
}
