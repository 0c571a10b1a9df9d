/* run_summary.h — what `run` prints at its end: per tracker, how many
 * programs were accepted, rejected or neither, read back from the
 * database (so the figures are what was stored, not what was meant to be). */
#ifndef RB_REPORT_RUN_SUMMARY_H
#define RB_REPORT_RUN_SUMMARY_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "report/table.h"
#include "util/err.h"

/* tracker, programs, success, failure, other, insns, states; *rows gets
 * the run's result rows (the table's program column summed) */
int rb_run_summary_table(sqlite3 *db, int64_t run_id, struct rb_table *out, int64_t *rows,
			 struct rb_err *err);

/* Print (to f, one "prefix: message" line each) why the objects of the
 * run that could not be opened failed, at most `max` of them, then how
 * many more. Objects that hold no program at all (maps or data only, or
 * only .text sub-programs: the loader's "no programs: ..." error) are no
 * failure: they are left out and counted in *noprog (may be NULL).
 * Returns the number of failed objects or -1. */
int64_t rb_run_failed_objects(sqlite3 *db, int64_t run_id, FILE *f, const char *prefix, unsigned max,
			      int64_t *noprog, struct rb_err *err);

#endif
