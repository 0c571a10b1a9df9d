/* cmd_explain.c — `rangebench explain [--baseline X] [--candidate Y]
 * [--no-counterfactual] OBJ[:PROG]...`: why two engine trackers explore a
 * program differently (src/explain/explain.h): where the explorations
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
#include "cli/type_opts.h"
#include "engine/vmlinux.h"
#include "explain/explain.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "store/runinfo.h"
#include "tracker/tracker.h"
#include "util/root.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench explain [--baseline TRACKER] [--candidate TRACKER] [--no-counterfactual]\n"
		   "                          [--prog-type TYPE [--attach-type TYPE]] OBJ[:PROG]...\n"
		   "  Run the engine with two trackers (default baseline old, candidate cnum) on a\n"
		   "  program and explain the change: the first instruction where the explorations\n"
		   "  part (a branch decided differently, a prune by one side only, a different\n"
		   "  verdict), the deciding register, and walking back its history (def-use along\n"
		   "  the path) the instruction where its value sets first differ, both sides'\n"
		   "  values in their own terms, the source line, a cause class, and a\n"
		   "  counterfactual: the candidate re-run with the baseline's value set there (or\n"
		   "  the reverse) must lose the change. OBJ alone: every program that changes.\n"
		   "  Exit 1 when a change is left unexplained.\n");
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
	printf("\n");
	if (x.changed && !rb_explain_ok(&x))
		*bad = 1;
	return 0;
}

int cmd_explain(int argc, char **argv)
{
	struct rb_explain_opts eo = {.baseline = RB_ROLE_BASELINE, .candidate = RB_ROLE_CANDIDATE};
	struct rb_load_opts lopts = {0};
	static const struct option lo[] = {{"baseline", required_argument, NULL, 'b'},
					   {"candidate", required_argument, NULL, 'c'},
					   {"no-counterfactual", no_argument, NULL, 'n'},
					   RB_CLI_TYPE_LONGOPTS,
					   {"help", no_argument, NULL, 'h'},
					   {NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (rb_cli_type_opt(c, optarg, &lopts))
			continue;
		switch (c) {
		case 'b':
		case 'c':
			if (!rb_tracker_known(optarg, false)) {
				char names[256];
				rb_tracker_names(names, sizeof(names), ", ", false);
				fprintf(stderr, "rangebench explain: --%s names an engine tracker (%s), not '%s'\n",
					c == 'b' ? "baseline" : "candidate", names, optarg);
				return 2;
			}
			*(c == 'b' ? &eo.baseline : &eo.candidate) = optarg;
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
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (rb_cli_check_type_opts("explain", &lopts))
		return 2;
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
	struct rb_vmlinux *vmlinux = rb_vmlinux_new();
	static struct rb_helper_probe hp;
	rb_helper_probe_init(&hp, true);
	eo.vmlinux = vmlinux;
	eo.helpers = &hp.src;
	int rc = 0, bad = 0;
	for (int a = optind; a < argc && rc == 0; a++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s", argv[a]);
		char *colon = strrchr(path, ':');
		const char *pname = NULL;
		if (colon && colon[1] && !strchr(colon, '/')) {
			*colon = 0;
			pname = colon + 1;
		}
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
