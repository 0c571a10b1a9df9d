/* type_opts.h — the --prog-type / --attach-type options that load,
 * verify, kdiff and run share (see loader/prog_type.h). */
#ifndef RB_CLI_TYPE_OPTS_H
#define RB_CLI_TYPE_OPTS_H

#include "loader/object.h"

/* Check the type options in opts and the --btf file (once, before any
 * object is opened); on a bad one print "rangebench CMD: reason" and
 * return -1. */
int rb_cli_check_type_opts(const char *cmd, const struct rb_load_opts *opts);

#endif
