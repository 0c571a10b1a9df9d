/* main.c — the rangebench command line: dispatch to a subcommand. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli/commands.h"
#include "guest/child.h"
#include "util/array_size.h"

static const struct rb_command commands[] = {
	{"trackers", cmd_trackers, "list the tracker registry: names, roles, sizes, build flags"},
	{"ops", cmd_ops, "soundness and precision census of every tracker operation"},
	{"extract", cmd_extract, "write the BPF ELF objects embedded in executables as .o files"},
	{"load", cmd_load, "open BPF objects and list their programs and maps as the kernel would get them"},
	{"opdiff", cmd_opdiff, "compare the old tracker with the running kernel on random short programs"},
	{"progdiff", cmd_progdiff, "random programs of every feature family: the engine (old) vs the running kernel, state by state"},
	{"verify", cmd_verify, "verify programs with a tracker or the running kernel, veristat-style"},
	{"helpers", cmd_helpers, "the running kernel's helper set per program type against the compiled-in 6.18 sets"},
	{"kdiff", cmd_kdiff, "first difference between the engine and the running kernel on one program"},
	{"attribute", cmd_attribute, "why two kernels of a run differ: tracker (the engine reproduces it) or other, with where their logs part"},
	{"explain", cmd_explain, "why two trackers explore a program differently: deciding instruction, cause, counterfactual"},
	{"execcheck", cmd_execcheck, "run accepted programs concretely and check every value against the explored states"},
	{"run", cmd_run, "verify a corpus with every tracker into the results database"},
	{"merge", cmd_merge, "merge results databases (shards of a run from several machines) into one"},
	{"compare", cmd_compare, "compare two runs, or two trackers of one run, program by program"},
	{"query", cmd_query, "run a ready-made SQL query (db/queries/) on the results database"},
	{"plot", cmd_plot, "render the charts (plots/*.gp) from the results database"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'rangebench COMMAND --help' describes one command; 'rangebench --version' names the libbpf linked.\n");
}

/* Output lost on a full disk, a closed pipe or /dev/full must not end
 * with exit 0: every buffered byte is flushed and stdout closed here, and
 * any write error (now or earlier, seen by ferror) is reported and turns
 * the exit code into 2 (a command's own non-zero code is kept). */
static int close_stdout(const char *cmd, int rc)
{
	int e = 0;
	if (fflush(stdout) != 0)
		e = errno;
	bool bad = ferror(stdout) || e;
	if (fclose(stdout) != 0) {
		bad = true;
		if (!e)
			e = errno;
	}
	if (!bad)
		return rc;
	fprintf(stderr, "rangebench %s: cannot write the standard output%s%s: output lost\n", cmd, e ? ": " : "",
		e ? strerror(e) : "");
	return rc ? rc : 2;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return close_stdout("--help", 0);
	}
	/* the libbpf linked in (README, "Which libbpf"): scripts and tests
	 * that need a current libbpf read it here */
	if (!strcmp(argv[1], "--version")) {
		printf("rangebench, libbpf %u.%u\n", libbpf_major_version(), libbpf_minor_version());
		return close_stdout("--version", 0);
	}
	/* inside a guest: one object through the guest's kernel (src/guest/) */
	if (!strcmp(argv[1], "guest-verify"))
		return rb_guest_child_main(argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return close_stdout(commands[i].name, commands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "rangebench: unknown command '%s' (try 'rangebench --help')\n", argv[1]);
	return 2;
}
