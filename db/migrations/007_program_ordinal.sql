-- 007: version 6 -> 7.
-- Programs are keyed by (obj_sha256, section, name, ordinal): ordinal is
-- the program's place among the programs of its object with the same
-- section and name (0 for the first, in the object's order), so that two
-- programs of one object never share a row (issue 24: an object with two
-- programs of one name in one section kept one). Names and sections were
-- cut to 127 bytes before this version; they are kept as they are.
--
-- SQLite cannot change a table's UNIQUE constraint: the table is rebuilt
-- with the same ids, its rows held in a TEMP table meanwhile. With foreign
-- keys deferred, the rows of results that lose their parent when the old
-- table is dropped find it again when the same ids are inserted, before
-- the commit checks them. The views are dropped first (they name
-- `programs`; every open re-creates them from db/views.sql).

DROP VIEW IF EXISTS latest_runs;
DROP VIEW IF EXISTS result_rows;
DROP VIEW IF EXISTS old_vs_cnum;
DROP VIEW IF EXISTS tracker_pairs;
DROP VIEW IF EXISTS tracker_vs_kernel;
DROP VIEW IF EXISTS verdict_differs_trackers;
DROP VIEW IF EXISTS verdict_differs_runs;

PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE programs_v5 AS SELECT * FROM main.programs;
DROP TABLE main.programs;
CREATE TABLE main.programs (
	id         INTEGER PRIMARY KEY,
	obj_sha256 TEXT NOT NULL,
	section    TEXT NOT NULL,
	name       TEXT NOT NULL,
	ordinal    INTEGER NOT NULL DEFAULT 0,
	prog_type  INTEGER,
	insn_cnt   INTEGER,
	obj_path   TEXT NOT NULL,
	source     TEXT,
	UNIQUE (obj_sha256, section, name, ordinal)
);
INSERT INTO main.programs (id, obj_sha256, section, name, ordinal, prog_type, insn_cnt, obj_path, source)
	SELECT id, obj_sha256, section, name, 0, prog_type, insn_cnt, obj_path, source FROM temp.programs_v5;
DROP TABLE temp.programs_v5;

PRAGMA user_version = 7;
