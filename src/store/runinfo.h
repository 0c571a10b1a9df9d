/* runinfo.h — what a run records about where it ran: the checkout's git
 * commit and dirty flag, kernel release, host (stored in the runs table). */
#ifndef RB_STORE_RUNINFO_H
#define RB_STORE_RUNINFO_H

#include <stddef.h>

struct rb_runinfo {
	char git_commit[64]; /* "" if unknown */
	int git_dirty;       /* -1 unknown */
	char kernel_release[128];
	char host[256];
};

/* Fill info; git is asked in `root` (skipped when git is missing). */
void rb_runinfo_read(struct rb_runinfo *info, const char *root);

#endif
