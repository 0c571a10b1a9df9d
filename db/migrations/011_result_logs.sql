-- 011: version 10 -> 11.
-- result_logs: `run --keep-logs` — a program's level-2 verifier log from
-- one tracker of a run, kept so that `explain --run A --run-b B` can show
-- where two runs' explorations part after the build that made one of them
-- is gone. The log's first bytes only (run --keep-logs' head), compressed
-- with zlib; `bytes` is its length uncompressed, `cut` 1 when the log was
-- longer than the head.

CREATE TABLE result_logs (
	run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	program_id INTEGER NOT NULL REFERENCES programs (id),
	tracker    TEXT NOT NULL,
	bytes      INTEGER NOT NULL,
	cut        INTEGER NOT NULL,
	log        BLOB NOT NULL,
	PRIMARY KEY (run_id, program_id, tracker)
) WITHOUT ROWID;

PRAGMA user_version = 11;
