/* plotdata.h — the data behind each chart, exported from the results
 * database as tab-separated files (one header line starting with '#')
 * that the gnuplot scripts in plots/ read. */
#ifndef RB_REPORT_PLOTDATA_H
#define RB_REPORT_PLOTDATA_H

#include <sqlite3.h>
#include <stdint.h>

#include "util/err.h"

struct rb_plot_runs {
	int64_t run;          /* the run most charts show (verify) */
	int64_t before, after; /* the before/after pair, or -1 */
	int64_t census;       /* census run, or -1 */
	int64_t bench;        /* bench run, or -1 */
};

/* One exported data file. */
struct rb_plot_file {
	const char *name;   /* file name in the data directory, e.g. "old_vs_cnum.tsv" */
	const char *needs;  /* what fills it, for the "no data" note */
};

/* Write every data file into dir (which must exist). rows[i] receives the
 * number of data rows written to file i of rb_plot_files(). */
int rb_plot_export(sqlite3 *db, const struct rb_plot_runs *runs, const char *dir, uint64_t *rows,
		   struct rb_err *err);
/* the data files, NULL-terminated by name */
extern const struct rb_plot_file rb_plot_files[];

#endif
