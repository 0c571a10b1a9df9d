/* memo.h — the content hashes of the runner's two big files (the kernel
 * image, the rangebench executable) remembered by the files' identity.
 *
 * Every `run`, `verify`, `kdiff` or `progdiff` that starts the guest
 * runner needs both hashes (the result cache's key); computing them read
 * and hashed some 22 MB per command, about 0.5 s of CPU in the sanitizer
 * build (perf: 63% of a cached progdiff). DIR/sha256-memo keeps the hash
 * of a file with its path, device, inode, size, modification and
 * status-change times (nanoseconds): a file written since (its ctime
 * moves) or another file at the path is hashed again. */
#ifndef RB_GUEST_MEMO_H
#define RB_GUEST_MEMO_H

#include <stdbool.h>
#include <sys/stat.h>

/* path's hash from DIR's memo, if its identity is the one recorded */
bool rb_gst_memo_get(const char *dir, const char *path, char hex[65]);
/* record hex as the hash of path, read while its identity was *before
 * (nothing recorded if the file has changed since) */
void rb_gst_memo_put(const char *dir, const char *path, const struct stat *before, const char hex[65]);

#endif
