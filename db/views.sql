-- views.sql — views for the common questions. Dropped and re-created every
-- time rangebench opens the database, so they always match the tables.

DROP VIEW IF EXISTS latest_runs;
DROP VIEW IF EXISTS result_rows;
DROP VIEW IF EXISTS old_vs_cnum;
DROP VIEW IF EXISTS tracker_pairs;
DROP VIEW IF EXISTS tracker_vs_kernel;
DROP VIEW IF EXISTS verdict_differs_trackers;
DROP VIEW IF EXISTS verdict_differs_runs;

-- The latest run of each label (whatever its status) per kind.
CREATE VIEW latest_runs AS
SELECT r.*
FROM runs r
WHERE r.id = (SELECT max(r2.id) FROM runs r2 WHERE r2.label = r.label AND r2.kind = r.kind);

-- Results with the program identity and the run label spelled out.
CREATE VIEW result_rows AS
SELECT res.run_id, ru.label, p.id AS program_id, p.source, p.obj_path AS object,
       p.section, p.name AS program, p.prog_type, p.insn_cnt, res.tracker,
       res.verdict, res.err_insn, res.msg, res.insns_processed, res.total_states,
       res.peak_states, res.max_states_per_insn, res.verify_us, res.reg_state_bytes,
       res.state_bytes, res.peak_state_mem, res.kernel_release, res.clock
FROM results res
JOIN programs p ON p.id = res.program_id
JOIN runs ru ON ru.id = res.run_id;

-- tracker_pairs: two trackers side by side, per run and program: every
-- ordered pair of trackers of a run (base, cand), with base_NAME and
-- cand_NAME for every metric of src/result/metrics.h (insns, states,
-- peak_states, time, mem, ...). Made by src/store/pairs.c from that
-- registry, after this file. A comparison picks its pair by role, e.g.
-- WHERE base_tracker = :baseline AND cand_tracker = :candidate
-- (`rangebench query --baseline X --candidate Y`; defaults old, cnum).
-- run_pairs: one tracker in two runs side by side (base_run, cand_run,
-- tracker, and the same base_NAME/cand_NAME columns), per program: a
-- before/after of a patch, e.g. WHERE base_run = 3 AND cand_run = 4.

-- Each userspace tracker against the running kernel, per run and program.
-- agree is NULL unless both gave a verification verdict (success/failure).
CREATE VIEW tracker_vs_kernel AS
SELECT t.run_id, t.tracker, p.id AS program_id, p.source, p.obj_path AS object,
       p.name AS program, t.verdict, k.verdict AS kernel_verdict,
       CASE WHEN t.verdict IN ('success', 'failure') AND k.verdict IN ('success', 'failure')
            THEN t.verdict = k.verdict END AS agree,
       t.insns_processed, k.insns_processed AS kernel_insns,
       t.total_states, k.total_states AS kernel_states,
       t.verify_us, k.verify_us AS kernel_us
FROM results t
JOIN results k ON k.run_id = t.run_id AND k.program_id = t.program_id AND k.tracker = 'kernel'
JOIN programs p ON p.id = t.program_id
WHERE t.tracker <> 'kernel';

-- Programs on which the trackers of one run disagree (success vs failure).
CREATE VIEW verdict_differs_trackers AS
SELECT r.run_id, p.id AS program_id, p.source, p.obj_path AS object, p.name AS program,
       group_concat(r.tracker || '=' || r.verdict, ' ') AS verdicts
FROM results r
JOIN programs p ON p.id = r.program_id
GROUP BY r.run_id, r.program_id
HAVING count(DISTINCT CASE WHEN r.verdict IN ('success', 'failure') THEN r.verdict END) > 1;

-- (program, tracker) pairs whose verdict changed between runs.
CREATE VIEW verdict_differs_runs AS
SELECT p.id AS program_id, p.source, p.obj_path AS object, p.name AS program, r.tracker,
       group_concat(r.run_id || '=' || r.verdict, ' ') AS verdicts
FROM results r
JOIN programs p ON p.id = r.program_id
GROUP BY r.program_id, r.tracker
HAVING count(DISTINCT CASE WHEN r.verdict IN ('success', 'failure') THEN r.verdict END) > 1;
