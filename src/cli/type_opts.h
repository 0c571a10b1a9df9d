/* type_opts.h — the --prog-type / --attach-type options that load,
 * verify, kdiff and run share (see loader/prog_type.h). */
#ifndef RB_CLI_TYPE_OPTS_H
#define RB_CLI_TYPE_OPTS_H

#include <getopt.h>

#include "loader/object.h"

/* getopt_long keys of the shared options (above every short option) */
enum { RB_OPT_PROG_TYPE = 0x100, RB_OPT_ATTACH_TYPE, RB_OPT_LICENSE, RB_OPT_KERNEL_INPUTS };

/* the long options of a command that loads objects with libbpf's typing:
 * put in its struct option table */
#define RB_CLI_TYPE_LONGOPTS                                                  \
	{"prog-type", required_argument, NULL, RB_OPT_PROG_TYPE},            \
	{"attach-type", required_argument, NULL, RB_OPT_ATTACH_TYPE},        \
	{"license", required_argument, NULL, RB_OPT_LICENSE}

/* Apply one key getopt_long returned: 1 when it was a type option (stored
 * in opts, checked later by rb_cli_check_type_opts), 0 otherwise. */
int rb_cli_type_opt(int key, const char *arg, struct rb_load_opts *opts);

/* RB_OPT_KERNEL_INPUTS (verify's --kernel-inputs DIR|none, stored as given
 * in opts->kernel_inputs): the inputs of the kernel an engine row of a
 * profile after 6.18 stands for (verify/verify.h rb_verify_row_inputs). */
/* Check the type options in opts, the --kernel-inputs directory and the --btf file (once, before any
 * object is opened); on a bad one print "rangebench CMD: reason" and
 * return -1. */
int rb_cli_check_type_opts(const char *cmd, const struct rb_load_opts *opts);

/* On stderr, one line each when they say something: which rule typed each
 * program of obj (rb_object_types_line) and how an object without a
 * license section was loaded (rb_object_license_note). */
void rb_cli_object_notes(const char *cmd, const struct rb_object *obj);

/* "OBJ:PROG" split in place: path keeps OBJ, the return is PROG; NULL
 * (path untouched) when there is no ':' followed by a name without '/' */
const char *rb_cli_split_prog(char *path);

#endif
