/* runinfo.h — what a run records about where it ran: the checkout's git
 * commit and dirty flag, kernel release, host; and where the project's
 * files (db/, plots/, programs/) are. */
#ifndef RB_DRIVER_RUNINFO_H
#define RB_DRIVER_RUNINFO_H

#include <stddef.h>

struct rb_runinfo {
	char git_commit[64]; /* "" if unknown */
	int git_dirty;       /* -1 unknown */
	char kernel_release[128];
	char host[256];
};

/* The top of the rangebench checkout: the nearest of the executable's
 * ancestor directories (up to three levels) holding db/schema.sql, else
 * the current directory ("."). */
void rb_project_root(char *out, size_t len);

/* Fill info; git is asked in `root` (skipped when git is missing). */
void rb_runinfo_read(struct rb_runinfo *info, const char *root);

#endif
