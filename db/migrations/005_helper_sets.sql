-- 005: version 4 -> 5.
-- Where a verify run's helper sets came from: 'kernel' (probed on the
-- running kernel, `rangebench helpers`) or 'compiled-6.18' (the engine's
-- compiled-in tables: --compiled-helpers, or bpf() refused). NULL: runs
-- made before the probe existed (compiled-in tables) and census/bench runs.

ALTER TABLE runs ADD COLUMN helper_sets TEXT;

PRAGMA user_version = 5;
