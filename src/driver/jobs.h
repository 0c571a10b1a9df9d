/* jobs.h — the objects a run verifies, from corpus directories and files.
 *
 * A directory with a manifest.tsv lists its objects there (tab-separated,
 * a header line naming the columns; the object path column is "object",
 * "path" or "file": absolute, or relative to the manifest's directory, to
 * its parent directory, or to the current directory, whichever exists; an
 * optional "source" column names the corpus source, an optional
 * "prog_type" column the type of programs whose section libbpf does not
 * know, "-" for none). A directory without
 * one is walked recursively for *.o files. A file argument is one object.
 * Objects are deduplicated by real path and sorted by path. An object
 * found in a directory or a manifest whose path cannot be opened at all
 * (longer than PATH_MAX) is an entry with an error, never a failure of
 * the whole collection: one object costs one row. */
#ifndef RB_DRIVER_JOBS_H
#define RB_DRIVER_JOBS_H

#include <stddef.h>

#include "util/err.h"

struct rb_job_obj {
	char *path;   /* as found (relative paths stay relative) */
	char *source; /* corpus source, "" if unknown */
	char *prog_type; /* the object's program type from the manifest's optional
	                  * prog_type column (loader/prog_type.h), "" if none */
	char *error;     /* found but unusable (a path longer than PATH_MAX):
	                  * the reason, stored as this object's load_error row
	                  * so that the other objects are verified; NULL if none */
};

struct rb_joblist {
	struct rb_job_obj *objs;
	size_t n, cap;
};

int rb_jobs_collect(const char *const *inputs, size_t n, struct rb_joblist *out,
		    struct rb_err *err);
void rb_jobs_free(struct rb_joblist *l);

/* The corpus source of an object found outside any manifest: the
 * directory under ".../corpus/" (skipping "default"), else the name of
 * the object's directory. Writes "" when nothing fits. */
void rb_jobs_guess_source(const char *path, char *out, size_t len);

#endif
