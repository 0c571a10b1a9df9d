// shim.cc — registers the C benchmark bodies (bench/ops.c) with Google
// Benchmark for every registry tracker, collects ns/op per (operation,
// tracker), prints ns/op and the ratio to the baseline (old) per tracker and, with --db FILE, stores the rows in the results
// database. Everything measured is C; this file is only the glue.
//
//   build/bench/rangebench-bench [--db FILE] [--label TEXT] [google benchmark flags]
//
// With --benchmark_repetitions=N each (operation, tracker) is measured N
// times and the table and the database get the median; adding
// --benchmark_enable_random_interleaving=true spreads the repetitions over
// the run, so that a busy spell of the machine does not land on one
// tracker's measurements only (the ratios are then side by side in time).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <unistd.h>
#include <string>
#include <vector>

#include "bench.h"
extern "C" {
#include "tracker/tracker.h"
}

namespace {

struct Case {
	unsigned op;
	const char *tracker;
};

void run_case(benchmark::State &state, Case c)
{
	rb_bench_ctx *ctx = rb_bench_setup(c.op, c.tracker);
	if (!ctx) {
		state.SkipWithError("no such tracker or operation");
		return;
	}
	const benchmark::IterationCount batch = 64;
	while (state.KeepRunningBatch(batch))
		rb_bench_body(ctx, (uint64_t)batch);
	rb_bench_teardown(ctx);
}

// Colour in the console output? Google Benchmark applies its
// --benchmark_color (default: the BENCHMARK_COLOR environment variable, else
// auto) only to the console reporter it makes itself, not to one passed to
// RunSpecifiedBenchmarks as ours is, whose default is colour: `make bench`'s
// --benchmark_color=false when stdout is no terminal still wrote colour
// codes into the main job's log. The same reading as the library's: auto is
// a terminal whose TERM is not dumb; otherwise false, no, off, 0, n and f
// (any case) are no.
bool want_colour(const char *flag)
{
	if (!flag || !*flag)
		return false;
	if (!strcasecmp(flag, "auto")) {
		const char *term = std::getenv("TERM");
		return isatty(fileno(stdout)) && term && *term && std::strcmp(term, "dumb");
	}
	static const char *const no[] = {"false", "no", "off", "0", "n", "f"};
	for (const char *n : no)
		if (!strcasecmp(flag, n))
			return false;
	return true;
}

// The console output as usual, plus a copy of every measurement.
class Collector : public benchmark::ConsoleReporter {
public:
	explicit Collector(bool colour) : ConsoleReporter(colour ? OO_ColorTabular : OO_Tabular) {}
	std::vector<rb_bench_result> results;

	void ReportRuns(const std::vector<Run> &runs) override
	{
		for (const Run &r : runs) {
			if (r.run_type != Run::RT_Iteration || r.error_occurred || r.iterations == 0)
				continue;
			std::string name = r.benchmark_name(); // "tracker/op"
			size_t slash = name.find('/');
			if (slash == std::string::npos)
				continue;
			rb_bench_result out;
			std::memset(&out, 0, sizeof(out));
			std::snprintf(out.tracker, sizeof(out.tracker), "%s", name.substr(0, slash).c_str());
			std::snprintf(out.op, sizeof(out.op), "%s", name.substr(slash + 1).c_str());
			// CPU time per iteration (one operation), in nanoseconds: on a
			// shared machine wall time also counts other processes' turns
			out.ns_per_op = r.GetAdjustedCPUTime() *
					(1e9 / benchmark::GetTimeUnitMultiplier(r.time_unit));
			out.iterations = (uint64_t)r.iterations;
			results.push_back(out);
		}
		ConsoleReporter::ReportRuns(runs);
	}
};

} // namespace

// --run-body OP TRACKER N: perform operation OP of TRACKER N times, once,
// without timing: the unit bench/insns.sh counts instructions of under
// valgrind (callgrind collecting inside rb_bench_body only)
static int run_body(const char *op, const char *tracker, const char *count)
{
	unsigned i = 0;
	while (i < rb_bench_count() && std::strcmp(rb_bench_op(i), op))
		i++;
	rb_bench_ctx *ctx = rb_bench_setup(i, tracker);
	if (!ctx) {
		std::fprintf(stderr, "no such tracker or operation: %s/%s\n", tracker, op);
		return 2;
	}
	rb_bench_body(ctx, std::strtoull(count, nullptr, 10));
	rb_bench_teardown(ctx);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !std::strcmp(argv[1], "--run-body"))
		return run_body(argv[2], argv[3], argv[4]);
	const char *db = nullptr, *label = "bench";
	const char *colour = std::getenv("BENCHMARK_COLOR");
	if (!colour)
		colour = "auto";
	std::string options = "rangebench-bench";
	// our own flags first; the rest go to Google Benchmark
	std::vector<char *> rest = {argv[0]};
	for (int i = 1; i < argc; i++) {
		options += " ";
		options += argv[i];
		if (!std::strcmp(argv[i], "--db") && i + 1 < argc)
			db = argv[++i];
		else if (!std::strcmp(argv[i], "--label") && i + 1 < argc)
			label = argv[++i];
		else {
			// (read here, and passed on: the library checks it too)
			if (!std::strncmp(argv[i], "--benchmark_color=", 18))
				colour = argv[i] + 18;
			rest.push_back(argv[i]);
		}
	}
	int n = (int)rest.size();
	benchmark::Initialize(&n, rest.data());
	if (benchmark::ReportUnrecognizedArguments(n, rest.data()))
		return 2;
	for (unsigned op = 0; op < rb_bench_count(); op++)
		for (const rb_tracker *const *t = rb_trackers(64); t && *t; t++) {
			std::string name = std::string((*t)->name) + "/" + rb_bench_op(op);
			benchmark::RegisterBenchmark(name.c_str(), run_case, Case{op, (*t)->name});
		}
	// the run is opened first, so its start time is the benchmarks' start
	char msg[600];
	rb_bench_db *bdb = nullptr;
	if (db && rb_bench_db_begin(db, label, options.c_str(), &bdb, msg, sizeof(msg)) < 0) {
		std::fprintf(stderr, "%s\n", msg);
		return 2;
	}
	Collector collector(want_colour(colour));
	benchmark::RunSpecifiedBenchmarks(&collector);
	benchmark::Shutdown();
	// --benchmark_repetitions=N: the median of the N measurements
	collector.results.resize(rb_bench_median(collector.results.data(), collector.results.size()));
	rb_bench_print(collector.results.data(), collector.results.size());
	if (bdb) {
		int rc = rb_bench_db_finish(bdb, collector.results.data(), collector.results.size(), 1, msg,
					    sizeof(msg));
		std::fprintf(rc ? stderr : stdout, "%s\n", msg);
		if (rc)
			return 2;
	}
	return 0;
}
