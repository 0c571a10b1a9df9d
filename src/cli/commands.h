/* commands.h — the rangebench subcommands. Each lives in src/cli/cmd_<name>.c,
 * takes argv with argv[0] = the subcommand name, and returns the process
 * exit code (0 ok, 1 a finding such as an unsound case or a mismatch,
 * 2 bad usage or bad input). */
#ifndef RB_CLI_COMMANDS_H
#define RB_CLI_COMMANDS_H

struct rb_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

int cmd_ops(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_opdiff(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_kdiff(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_progdiff(int argc, char **argv);
int cmd_execcheck(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_trackers(int argc, char **argv);
int cmd_helpers(int argc, char **argv);
int cmd_attribute(int argc, char **argv);

#endif
