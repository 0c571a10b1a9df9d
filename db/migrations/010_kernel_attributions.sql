-- 010: version 9 -> 10.
-- kernel_attributions: `rangebench attribute` — for every program whose
-- verdict, instructions or states differ between two kernels of a run
-- (baseline e.g. kernel, the running 6.18; candidate e.g. kernel-7.2), why:
-- 'tracker' when the engine's old equals the baseline kernel and
-- cnum-mainline the candidate (verdict, instructions and states: the
-- scalar tracker alone reproduces the change), else 'other', with where
-- the two kernels' level-2 logs part (the explored path, src/oracle/ktrace.h)
-- and the candidate kernel's mechanism named there when the log shows it.

CREATE TABLE kernel_attributions (
	run_id         INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	program_id     INTEGER NOT NULL REFERENCES programs (id),
	baseline       TEXT NOT NULL,   -- the old kernel
	candidate      TEXT NOT NULL,   -- the new kernel
	differ         TEXT NOT NULL,   -- what differs: 'verdict', 'insns', 'states' (comma-separated)
	attribution    TEXT NOT NULL CHECK (attribution IN ('tracker', 'other')),
	part_index     INTEGER,         -- entry of the explored path where the logs part (NULL: same path, or no logs)
	common_line    TEXT,            -- the last entry both logs share before they part
	baseline_line  TEXT,            -- the baseline's entry there ('(end)': its log ended)
	candidate_line TEXT,
	mechanism      TEXT,            -- the candidate's mechanism there (ktrace.h names), NULL: tracker
	attributed_at  TEXT,
	PRIMARY KEY (run_id, program_id, baseline, candidate)
) WITHOUT ROWID;

PRAGMA user_version = 10;
