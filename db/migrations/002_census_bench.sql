-- 002: version 1 -> 2.
-- Adds the census and micro-benchmark tables, the run kind, the list of
-- trackers run and the writer's pid, each program's corpus source, and the
-- kernel's mark_read statistic.

ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'verify' CHECK (kind IN ('verify', 'census', 'bench'));
ALTER TABLE runs ADD COLUMN trackers TEXT;
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE programs ADD COLUMN source TEXT;
ALTER TABLE results ADD COLUMN mark_read INTEGER;

CREATE TABLE census (
	run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	tracker      TEXT NOT NULL,
	width        INTEGER NOT NULL,
	op           TEXT NOT NULL,
	kind         TEXT,
	sampled      INTEGER,
	cases        INTEGER NOT NULL,
	unsound      INTEGER NOT NULL,
	optimal      INTEGER,
	mean_extra_log2 REAL,
	tighter      INTEGER,
	looser       INTEGER,
	equal        INTEGER,
	incomparable INTEGER,
	seq          INTEGER,
	PRIMARY KEY (run_id, tracker, width, op)
) WITHOUT ROWID;

CREATE TABLE bench (
	run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	op         TEXT NOT NULL,
	tracker    TEXT NOT NULL,
	ns_per_op  REAL NOT NULL,
	iterations INTEGER,
	PRIMARY KEY (run_id, op, tracker)
) WITHOUT ROWID;

PRAGMA user_version = 2;
