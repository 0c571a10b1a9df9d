-- schema.sql — the rangebench results database, current schema (version 12).
--
-- A fresh database is created from this file. A database made by an older
-- rangebench is upgraded step by step by db/migrations/NNN_*.sql (NNN = the
-- version the step produces). The schema version is SQLite's user_version.
-- Views live in db/views.sql and are re-created on every open.
--
-- Times are ISO 8601 UTC text; durations are microseconds.

PRAGMA user_version = 12;

-- One invocation of `rangebench run` (kind 'verify'), of the operator
-- census (kind 'census') or of the micro-benchmarks (kind 'bench').
CREATE TABLE runs (
	id             INTEGER PRIMARY KEY,
	kind           TEXT NOT NULL DEFAULT 'verify' CHECK (kind IN ('verify', 'census', 'bench')),
	label          TEXT NOT NULL,
	started_at     TEXT NOT NULL,
	ended_at       TEXT,
	git_commit     TEXT,             -- rangebench's own commit, NULL if unknown
	git_dirty      INTEGER,          -- 1: uncommitted changes in the checkout
	kernel_release TEXT,             -- uname -r
	host           TEXT,
	options        TEXT,             -- the command line
	trackers       TEXT,             -- the trackers actually run, comma-separated
	status         TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete')),
	pid            INTEGER,          -- the process writing a 'running' run
	helper_sets    TEXT,             -- verify runs: 'kernel' (probed) or 'compiled-6.18' helper sets
	diff_sha256    TEXT,             -- SHA-256 of the checkout's uncommitted diff (git diff HEAD), NULL if clean
	diff_text      TEXT,             -- that diff (at most 1 MiB kept; the hash covers all of it)
	pid_start      TEXT              -- that process's identity, 'BOOT_ID:START_TIME': a reused pid is another process
);
CREATE INDEX runs_label ON runs (label, id);

-- One BPF program, identified by the content hash of its object file plus
-- its section and name (whole), and its ordinal among the object's programs
-- of that section and name (0 but for a second program of the same name in
-- one section): the same object found under two paths is one row, two
-- programs of one object are never one.
CREATE TABLE programs (
	id         INTEGER PRIMARY KEY,
	obj_sha256 TEXT NOT NULL,
	section    TEXT NOT NULL,
	name       TEXT NOT NULL,
	ordinal    INTEGER NOT NULL DEFAULT 0, -- among the object's programs of equal section and name, in object order
	prog_type  INTEGER,             -- enum bpf_prog_type
	insn_cnt   INTEGER,             -- instructions after relocation
	obj_path   TEXT NOT NULL,       -- where it was first seen
	source     TEXT,                -- corpus source (xdp-tools, libbpf-tools, selftests, ...)
	UNIQUE (obj_sha256, section, name, ordinal)
);

-- One row per (run, program, verifier).
CREATE TABLE results (
	run_id              INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	program_id          INTEGER NOT NULL REFERENCES programs (id),
	tracker             TEXT NOT NULL,   -- an engine tracker or a kernel (rangebench trackers)
	verdict             TEXT NOT NULL,   -- success | failure | unsupported | refused | unavailable | limit | load_error | engine_bug
	err_insn            INTEGER,         -- instruction index of the error, NULL if none
	sys_errno           INTEGER,
	msg                 TEXT,
	insns_processed     INTEGER,
	total_states        INTEGER,
	peak_states         INTEGER,
	max_states_per_insn INTEGER,
	mark_read           INTEGER,
	verify_us           REAL,            -- median over `repeats` verifications
	repeats             INTEGER NOT NULL DEFAULT 1,
	reg_state_bytes     INTEGER,         -- sizeof one register state
	state_bytes         INTEGER,         -- sizeof one stored verifier state
	peak_state_mem      INTEGER,         -- peak bytes of verifier states alive at once, as allocated
	peak_rss_kib        INTEGER,         -- the verifying process's peak resident set during this verification (userspace trackers, `run` only)
	obj_path            TEXT,            -- the path verified in this run
	kernel_release      TEXT,            -- kernel rows: the exact release that verified (uname -r; a Debian image's package version too)
	clock               TEXT,            -- NULL: verify_us native; 'tcg' or 'kvm': measured inside a guest (never in a ratio with native times)
	PRIMARY KEY (run_id, program_id, tracker)
) WITHOUT ROWID;
CREATE INDEX results_program ON results (program_id, tracker);

-- Operator census (`rangebench ops`): soundness and precision per operation.
CREATE TABLE census (
	run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	tracker      TEXT NOT NULL,
	width        INTEGER NOT NULL,       -- register width in bits (64, 32, 16, 8)
	op           TEXT NOT NULL,          -- e.g. "add64", "jsgt32", "ldsx16"
	kind         TEXT,                   -- alu, alu1, mov, load, jmp
	sampled      INTEGER,                -- 1: concrete values sampled (width > 8), no precision
	cases        INTEGER NOT NULL,
	unsound      INTEGER NOT NULL,
	optimal      INTEGER,                -- results equal to the best the domain can express
	mean_extra_log2 REAL,                -- mean log2(size(result)/size(best))
	tighter      INTEGER,                -- cnum strictly tighter than old (same on both trackers' rows)
	looser       INTEGER,
	equal        INTEGER,
	incomparable INTEGER,
	seq          INTEGER,                -- order of the op in the census table
	PRIMARY KEY (run_id, tracker, width, op)
) WITHOUT ROWID;

-- Micro-benchmarks (`make bench`): one row per (operation, tracker).
CREATE TABLE bench (
	run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	op         TEXT NOT NULL,            -- e.g. "alu64_add", "sync", "is_subset"
	tracker    TEXT NOT NULL,
	ns_per_op  REAL NOT NULL,            -- median over the repetitions
	iterations INTEGER,
	ns_min     REAL,                     -- fastest repetition (NULL before version 12)
	ns_max     REAL,                     -- slowest repetition
	PRIMARY KEY (run_id, op, tracker)
) WITHOUT ROWID;

-- Why two trackers of a run explore a program differently (`compare --changed
-- --explain`, rangebench explain; db/migrations/006_explain_provenance.sql).
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

-- Why two kernels of a run differ on a program (`rangebench attribute`;
-- db/migrations/010_kernel_attributions.sql).
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

-- Level-2 verifier logs kept by `run --keep-logs` (zlib; the first bytes
-- only; db/migrations/011_result_logs.sql).
CREATE TABLE result_logs (
	run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	program_id INTEGER NOT NULL REFERENCES programs (id),
	tracker    TEXT NOT NULL,
	bytes      INTEGER NOT NULL, -- the log's length uncompressed
	cut        INTEGER NOT NULL, -- 1: the log was longer than run --keep-logs' head
	log        BLOB NOT NULL,
	PRIMARY KEY (run_id, program_id, tracker)
) WITHOUT ROWID;
