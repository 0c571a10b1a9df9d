-- 012: version 11 -> 12.
-- bench: the spread of a benchmark's repetitions (Google Benchmark's
-- --benchmark_repetitions=N): the fastest and slowest repetition's CPU
-- ns per operation beside the median (ns_per_op). NULL in rows stored
-- before version 12; equal to ns_per_op for a single repetition.

ALTER TABLE bench ADD COLUMN ns_min REAL;
ALTER TABLE bench ADD COLUMN ns_max REAL;

PRAGMA user_version = 12;
