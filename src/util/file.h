/* file.h — read a whole regular file into memory (or open one), with a
 * size limit, so that hostile input costs bounded memory. */
#ifndef RB_UTIL_FILE_H
#define RB_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

/* On success *buf (malloc'ed, free() it) holds the *len bytes of path.
 * Refuses anything that is not a regular file or is over max_size bytes;
 * errors name the file and the reason. */
int rb_read_file(const char *path, size_t max_size, uint8_t **buf, size_t *len, struct rb_err *err);
/* The same checks, the file left open for reading: *fd (close it) and its
 * size *len. */
int rb_open_file(const char *path, size_t max_size, int *fd, size_t *len, struct rb_err *err);

/* A path for a one-line message or a bounded column: whole when it fits
 * (under 240 bytes, or len is smaller than that), else its first 80 bytes,
 * "..." and its last 110, so that a reason printed after it is never cut
 * off (a result row's message holds 255 bytes). Returns path or buf. */
const char *rb_path_shown(const char *path, char *buf, size_t len);

/* The fields of /proc/PID/stat after the command's ")" (so from field 3,
 * the state, on: a command may hold spaces and ')'), read into buf; NULL
 * when the process is gone or the file unreadable. */
char *rb_proc_stat_fields(pid_t pid, char *buf, size_t len);

#endif
