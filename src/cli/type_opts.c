/* type_opts.c — checking --prog-type / --attach-type and --btf (see type_opts.h). */
#include "cli/type_opts.h"

#include <stdio.h>
#include <string.h>

#include "loader/btf_file.h"
#include "loader/kernel_inputs.h"
#include "loader/prog_type.h"

int rb_cli_check_type_opts(const char *cmd, const struct rb_load_opts *opts)
{
	struct rb_err err = {{0}};
	uint32_t t, e;
	bool has;
	if (opts->attach_type && !opts->prog_type) {
		fprintf(stderr, "rangebench %s: --attach-type needs --prog-type\n", cmd);
		return -1;
	}
	if ((opts->prog_type && rb_prog_type_parse(opts->prog_type, &t, &e, &has, &err)) ||
	    (opts->attach_type && rb_attach_type_parse(opts->attach_type, &e, &err))) {
		fprintf(stderr, "rangebench %s: %s\n", cmd, err.msg);
		return -1;
	}
	struct rb_kinputs ki;
	if (opts->kernel_inputs && strcmp(opts->kernel_inputs, "none") && rb_kinputs_read(opts->kernel_inputs, &ki, &err)) {
		fprintf(stderr, "rangebench %s: --kernel-inputs: %s\n", cmd, err.msg);
		return -1;
	}
	if (opts->btf_path && rb_btf_file_check(opts->btf_path, &err)) {
		fprintf(stderr, "rangebench %s: --btf %s\n", cmd, err.msg);
		return -1;
	}
	return 0;
}

int rb_cli_type_opt(int key, const char *arg, struct rb_load_opts *opts)
{
	if (key == RB_OPT_PROG_TYPE)
		opts->prog_type = arg;
	else if (key == RB_OPT_ATTACH_TYPE)
		opts->attach_type = arg;
	else if (key == RB_OPT_LICENSE)
		opts->license = arg;
	else if (key == RB_OPT_KERNEL_INPUTS)
		opts->kernel_inputs = arg;
	else
		return 0;
	return 1;
}

void rb_cli_object_notes(const char *cmd, const struct rb_object *obj)
{
	char line[2048];
	struct rb_err e; /* names escaped (rb_errf) */
	rb_object_types_line(obj, line, sizeof(line));
	if (line[0]) {
		rb_errf(&e, "%s: %s", obj->path, line);
		fprintf(stderr, "rangebench %s: %s\n", cmd, e.msg);
	}
	rb_object_license_note(obj, line, sizeof(line));
	if (line[0]) {
		rb_errf(&e, "%s: %s", obj->path, line);
		fprintf(stderr, "rangebench %s: %s\n", cmd, e.msg);
	}
}

const char *rb_cli_split_prog(char *path)
{
	char *colon = strrchr(path, ':');
	if (!colon || !colon[1] || strchr(colon, '/'))
		return NULL;
	*colon = 0;
	return colon + 1;
}
