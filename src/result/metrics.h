/* metrics.h — every per-program figure a verification yields, one row each
 * (as veristat's stat_defs[]). A row is the whole of a metric: the member
 * of struct rb_result it lives in, the results table's column (added to an
 * older database when it is opened: no migration per metric), the pair
 * view's base_NAME/cand_NAME columns (db: tracker_pairs), compare's
 * columns, sort keys and filters, verify's column, the chart data, and the
 * key the kernel's verifier log prints it under.
 *
 * Adding a metric: a row here, and the code that measures it (the engine
 * setting res->FIELD, or the kernel's log key). Nothing else.
 *
 * X(id, field, type, column, name, title, vtitle, vcsv, fmt, flags, klog)
 *   id      RB_M_<id>
 *   field   struct rb_result's member
 *   type    u64 or f64 (its C type: RB_MTYPE_u64 ...)
 *   column  the results table's column
 *   name    the CLI name (compare --stats, --sort NAME_pct, filters) and
 *           the pair view's base_NAME / cand_NAME
 *   title   compare's header ("Insns (A)")
 *   vtitle  verify's header, NULL: not a verify column
 *   vcsv    verify --csv's column (veristat's name), NULL: none
 *   fmt     RB_MFMT_COUNT (an integer) or RB_MFMT_US (microseconds)
 *   flags   RB_MF_*
 *   klog    the kernel log's key: the number printed after it (the
 *           last such line) is the figure; NULL: the kernel prints none
 *
 * verify prints the metric with RB_MF_VERIFY_FIRST first (veristat's
 * Duration), then the other verify columns in this order. */
#ifndef RB_RESULT_METRICS_H
#define RB_RESULT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RB_MTYPE_u64 uint64_t
#define RB_MTYPE_f64 double

enum rb_metric_fmt {
	RB_MFMT_COUNT, /* verify "%llu", compare "%.0f" */
	RB_MFMT_US,    /* verify "%.0f", compare "%.1f" */
};

enum {
	RB_MF_CHANGED = 1 << 0,      /* a difference makes a compare row "changed" */
	RB_MF_COMPARE = 1 << 1,      /* one of compare's default columns */
	RB_MF_GMEAN = 1 << 2,        /* its geometric mean B/A in compare's summary */
	RB_MF_ENGINE_ONLY = 1 << 3,  /* the kernel does not measure it: verify shows n/a */
	RB_MF_NULL_ZERO = 1 << 4,    /* 0 means not measured: stored as NULL */
	RB_MF_SAME_CLOCK = 1 << 5,   /* compared only when both sides ran on one clock (results.clock) */
	RB_MF_VERIFY_FIRST = 1 << 6, /* verify's first metric column */
	RB_MF_VERISTAT = 1 << 7,     /* veristat has the column (its name: vcsv, else column): verify --veristat */
};

/* clang-format off */
#define RB_METRICS(X)                                                                               \
	/* instructions processed (the kernel's "processed N insns") */                             \
	X(INSNS, insns_processed, u64, "insns_processed", "insns", "Insns", "Insns", "total_insns", \
	  RB_MFMT_COUNT, RB_MF_CHANGED | RB_MF_COMPARE | RB_MF_GMEAN | RB_MF_VERISTAT, "processed") \
	/* states stored (total_states), the most alive at once (peak_states) */                    \
	X(STATES, total_states, u64, "total_states", "states", "States", "States", "total_states",  \
	  RB_MFMT_COUNT, RB_MF_CHANGED | RB_MF_COMPARE | RB_MF_GMEAN | RB_MF_VERISTAT, "total_states") \
	X(PEAK_STATES, peak_states, u64, "peak_states", "peak_states", "Peak states", "Peak states", \
	  "peak_states", RB_MFMT_COUNT, RB_MF_CHANGED | RB_MF_GMEAN | RB_MF_VERISTAT, "peak_states") \
	/* verification time in microseconds: the median over `run --repeat` */                     \
	X(TIME, verify_us, f64, "verify_us", "time", "Time (us)", "Duration (us)", "duration", RB_MFMT_US, \
	  RB_MF_COMPARE | RB_MF_GMEAN | RB_MF_SAME_CLOCK | RB_MF_VERIFY_FIRST | RB_MF_VERISTAT,     \
	  "verification time")                                                                      \
	/* the exploration alone, median over `run --repeat`: wall and CPU time.     \
	 * The engine: its main program's and global subprograms' exploration     \
	 * (engine.c). The running kernel: do_check_common() (do_check_main and    \
	 * do_check_subprogs), sampled (oracle/ksample.h, verify/run             \
	 * --explore-time): its log's time also holds the rewrites and JIT */      \
	X(EXPLORE, explore_us, f64, "explore_us", "explore", "Explore (us)", NULL, NULL, RB_MFMT_US, \
	  RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)                                                 \
	X(EXPLORE_CPU, explore_cpu_us, f64, "explore_cpu_us", "explore_cpu", "Explore CPU (us)", NULL, \
	  NULL, RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)                                \
	/* the spread of the three times over `run --repeat`: least and most */  \
	X(TIME_MIN, verify_us_min, f64, "verify_us_min", "time_min", "Time min (us)", NULL, NULL,   \
	  RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)                                      \
	X(TIME_MAX, verify_us_max, f64, "verify_us_max", "time_max", "Time max (us)", NULL, NULL,   \
	  RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)                                      \
	X(EXPLORE_MIN, explore_us_min, f64, "explore_us_min", "explore_min", "Explore min (us)", NULL, \
	  NULL, RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)                                \
	X(EXPLORE_MAX, explore_us_max, f64, "explore_us_max", "explore_max", "Explore max (us)", NULL, \
	  NULL, RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)                                \
	X(EXPLORE_CPU_MIN, explore_cpu_us_min, f64, "explore_cpu_us_min", "explore_cpu_min",        \
	  "Explore CPU min (us)", NULL, NULL, RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)  \
	X(EXPLORE_CPU_MAX, explore_cpu_us_max, f64, "explore_cpu_us_max", "explore_cpu_max",        \
	  "Explore CPU max (us)", NULL, NULL, RB_MFMT_US, RB_MF_NULL_ZERO | RB_MF_SAME_CLOCK, NULL)  \
	/* sizeof one register state; sizeof one stored state (one frame) */                        \
	X(REG_BYTES, reg_state_bytes, u64, "reg_state_bytes", "reg_bytes", "Reg state (B)", "Reg state (B)", \
	  "reg_state_bytes", RB_MFMT_COUNT, 0, NULL)                                                \
	X(STATE_BYTES, state_bytes, u64, "state_bytes", "state_bytes", "State (B)", "State (B)",    \
	  "state_bytes", RB_MFMT_COUNT, 0, NULL)                                                    \
	/* peak bytes of verifier states alive at once, as allocated */                             \
	X(MEM, peak_state_mem, u64, "peak_state_mem", "mem", "Peak mem (B)", "Peak mem (B)",        \
	  "peak_state_mem", RB_MFMT_COUNT, RB_MF_ENGINE_ONLY, NULL)                                 \
	/* the most states stored at one instruction; read marks (0 since 6.18) */                  \
	X(MAX_STATES_PER_INSN, max_states_per_insn, u64, "max_states_per_insn", "max_states_per_insn", \
	  "Max states/insn", NULL, NULL, RB_MFMT_COUNT, RB_MF_VERISTAT, "max_states_per_insn")      \
	X(MARK_READ, mark_read, u64, "mark_read", "mark_read", "Mark read", NULL, NULL, RB_MFMT_COUNT, \
	  RB_MF_VERISTAT, "mark_read")                                                              \
	/* the process's peak RSS during the verification (0: not measured) */                      \
	X(RSS, peak_rss_kib, u64, "peak_rss_kib", "rss", "Peak RSS (KiB)", NULL, NULL, RB_MFMT_COUNT, \
	  RB_MF_NULL_ZERO, NULL)                                                                    \
	/* paths pruned: hits of the engine's state-equivalence check (engine/prune.c) */           \
	X(PRUNED, states_pruned, u64, "states_pruned", "pruned", "Pruned", NULL, NULL, RB_MFMT_COUNT, \
	  RB_MF_COMPARE | RB_MF_GMEAN | RB_MF_ENGINE_ONLY, NULL)
/* clang-format on */

enum rb_metric {
#define RB_M_ENUM(id, ...) RB_M_##id,
	RB_METRICS(RB_M_ENUM)
#undef RB_M_ENUM
	RB_METRIC_COUNT
};

struct rb_metric_def {
	const char *column, *name, *title, *vtitle, *vcsv, *klog;
	enum rb_metric_fmt fmt;
	unsigned flags;
	bool real; /* f64: stored as REAL */
};

extern const struct rb_metric_def rb_metrics[RB_METRIC_COUNT];

struct rb_result;
/* metric m of a result, as a double (every u64 figure fits below 2^53) */
double rb_metric_get(const struct rb_result *r, enum rb_metric m);
void rb_metric_set(struct rb_result *r, enum rb_metric m, double v);
/* by CLI name; -1 if unknown */
int rb_metric_parse(const char *name);
/* The metrics the kernel's log prints (klog keys) into r: for each key,
 * the number after its last occurrence followed by a space. Returns true
 * if the instruction count's key was found. */
bool rb_metrics_from_klog(const char *log, struct rb_result *r);

#endif
