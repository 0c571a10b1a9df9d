-- 006: version 5 -> 6.
-- Provenance of a run: the SHA-256 and the text of the checkout's
-- uncommitted diff (`git diff HEAD`; NULL when clean or unknown), so two
-- runs made from one dirty tree with different patches are told apart
-- and compare can show the patch.
-- explanations: `compare --changed --explain` — why two trackers of a run
-- explore a program differently (rangebench explain): where they part,
-- the instruction where the deciding register's value sets first differ,
-- the cause instruction whose counterfactual makes the change vanish,
-- its class and the counterfactual's outcome.

ALTER TABLE runs ADD COLUMN diff_sha256 TEXT;
ALTER TABLE runs ADD COLUMN diff_text TEXT;

CREATE TABLE explanations (
	run_id         INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	program_id     INTEGER NOT NULL REFERENCES programs (id),
	baseline       TEXT NOT NULL,
	candidate      TEXT NOT NULL,
	part           TEXT,      -- branch | prune | verdict | counts | none
	part_insn      INTEGER,   -- where the explorations part
	deciding       TEXT,      -- the deciding location there, e.g. r1
	first_insn     INTEGER,   -- where its value sets first differ (walking back)
	cause_insn     INTEGER,   -- the cause: the counterfactual made the change vanish here
	cause_loc      TEXT,
	cause_text     TEXT,      -- the instruction, disassembled
	source_line    TEXT,      -- file:line: text, from BTF line info
	class          TEXT,      -- cause class, e.g. 'wrap across 2^63'
	counterfactual TEXT,      -- vanished | verdict only | remains | not run | failed
	cf_given       TEXT,      -- the tracker given the other's value set
	explained      INTEGER NOT NULL, -- 1: cause found and counterfactual vanished
	more_causes    TEXT,      -- further causes the counterfactual needed: 'insn 12 r0 (class); ...'
	explained_at   TEXT,
	PRIMARY KEY (run_id, program_id, baseline, candidate)
) WITHOUT ROWID;

PRAGMA user_version = 6;
