/* runinfo.h — what a run records about where it ran: the checkout's git
 * commit, dirty flag and uncommitted diff (its SHA-256 and text, so two
 * patches applied to one commit are told apart), kernel release, host
 * (stored in the runs table). */
#ifndef RB_STORE_RUNINFO_H
#define RB_STORE_RUNINFO_H

#include <stddef.h>
#include <sys/types.h>

struct rb_runinfo {
	char git_commit[64]; /* "" if unknown */
	int git_dirty;       /* -1 unknown */
	char kernel_release[128];
	char host[256];
	char diff_sha256[65]; /* of `git diff HEAD` (binary diffs included); "" when clean or unknown */
	char *diff;           /* its text, at most RB_RUNINFO_DIFF_MAX bytes kept; NULL when clean */
	size_t diff_len;      /* bytes of the whole diff */
};
#define RB_RUNINFO_DIFF_MAX (1u << 20)

/* Fill info; git is asked in `root` (skipped when git is missing). */
void rb_runinfo_read(struct rb_runinfo *info, const char *root);
void rb_runinfo_free(struct rb_runinfo *info);

/* A process's identity on this host, "BOOT_ID:START_TIME" (the kernel's
 * boot id and the process's start time in clock ticks since boot, field 22
 * of /proc/PID/stat): a pid reused by another process, or by a process of
 * a later boot, has another identity. 0, or -1 when there is no such
 * process (or /proc cannot say). */
int rb_proc_identity(pid_t pid, char *out, size_t len);

#endif
