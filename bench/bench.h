/* bench.h — micro-benchmarks of the tracker operations, written in C.
 *
 * Each benchmark is one operation (an ALU op at 64 or 32 bits, the bounds
 * sync, a branch refinement, branch_taken, the subset test, printing,
 * intersection, the value of an N-byte load) of
 * one registry tracker (64-bit build), applied to a fixed pool of
 * realistic abstract values (constants, small and large ranges, ranges
 * crossing the signed and unsigned boundaries, tnum-shaped sets, 32-bit
 * ranges). Only src/tracker/tracker.h is used. bench/shim.cc registers
 * them with Google Benchmark. */
#ifndef RB_BENCH_H
#define RB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rb_bench_ctx;

/* the operations, e.g. "alu64_add", "refine32_jsgt", "sync" */
unsigned rb_bench_count(void);
const char *rb_bench_op(unsigned i);

/* inputs for operation i on a registry tracker (by name); NULL if unknown */
struct rb_bench_ctx *rb_bench_setup(unsigned i, const char *tracker);
/* perform the operation n times: the next n iterations of one sequence
 * (each call goes on where the last one stopped) */
void rb_bench_body(struct rb_bench_ctx *c, uint64_t n);
void rb_bench_teardown(struct rb_bench_ctx *c);

/* one measured result */
struct rb_bench_result {
	char op[48];
	char tracker[16];
	double ns_per_op;
	uint64_t iterations;
	double ns_min, ns_max; /* fastest and slowest repetition */
};

/* Several measurements of one (operation, tracker) pair (Google
 * Benchmark's --benchmark_repetitions=N) become one: the median ns/op,
 * the fastest and slowest repetition's in ns_min and ns_max, iterations
 * summed, in the order of the operations and of the registry;
 * rows of unknown operations or trackers are dropped. Returns the new
 * count. */
size_t rb_bench_median(struct rb_bench_result *r, size_t n);
/* print "op  old ns  cnum ns  cnum/old" for every op measured on both */
void rb_bench_print(const struct rb_bench_result *r, size_t n);
/* The results database side: rb_bench_db_begin() opens the database at
 * path and starts a run of kind "bench" (label) before measuring;
 * rb_bench_db_finish() stores the results in one transaction, marks the
 * run complete (or incomplete when ok is 0) and closes. 0 or -1 with a
 * one-line message in msg. */
struct rb_bench_db;
int rb_bench_db_begin(const char *path, const char *label, const char *options,
		      struct rb_bench_db **out, char *msg, size_t msglen);
int rb_bench_db_finish(struct rb_bench_db *b, const struct rb_bench_result *r, size_t n, int ok,
		       char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
