/* compare_csv.h — `compare A.csv B.csv`: two CSV files of `verify --csv`,
 * `verify --veristat` or veristat itself as the two sides of a comparison
 * (report/compare.h), rows joined by file_name and prog_name. Columns are
 * read by name: veristat's (file_name, prog_name, verdict, total_insns,
 * total_states, peak_states, duration, max_states_per_insn, mark_read and
 * their aliases), any metric of result/metrics.h by its name or column,
 * err_insn and error; others are ignored. */
#ifndef RB_REPORT_COMPARE_CSV_H
#define RB_REPORT_COMPARE_CSV_H

#include "report/compare.h"

/* 0, or -1 with err naming the file and line (not a CSV of this kind, a
 * bad verdict, a ragged line) */
int rb_compare_load_csv(const char *path_a, const char *path_b, struct rb_compare *out, struct rb_err *err);

#endif
