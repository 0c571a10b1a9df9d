-- the 2x2 matrix per corpus source (--run): {6.18, 7.2} engine profile x
-- {old, cnum-mainline} tracker, i.e. the rows old, cnum-mainline,
-- old@7.2 and cnum-mainline@7.2 of one run (README "Kernel profiles"),
-- over the programs all four verified (success or failure). Per cell:
-- programs accepted, instructions and states summed, engine time (ms,
-- native clock only) and the largest peak state memory; the tracker's
-- effect within the profile (geometric mean of new/old instructions and
-- states over the programs where both are > 0; verdicts changed); and,
-- on the diagonals, how many programs equal their real kernel in verdict,
-- instructions and states (old with the running kernel `kernel`, 6.18;
-- cnum-mainline@7.2 with `kernel-7.2`, whose times are emulated under TCG
-- and stay out of every ratio here). The off-diagonals (6.18 with wrapped
-- ranges, 7.2 with the old bounds) are the counterfactuals.
WITH four AS (
	SELECT o.program_id, coalesce(p.source, 'unknown') AS source
	FROM results o
	JOIN programs p ON p.id = o.program_id
	JOIN results n ON n.run_id = o.run_id AND n.program_id = o.program_id AND n.tracker = 'cnum-mainline'
	JOIN results o7 ON o7.run_id = o.run_id AND o7.program_id = o.program_id AND o7.tracker = 'old@7.2'
	JOIN results n7 ON n7.run_id = o.run_id AND n7.program_id = o.program_id AND n7.tracker = 'cnum-mainline@7.2'
	WHERE o.run_id = :run AND o.tracker = 'old'
	  AND o.verdict IN ('success', 'failure') AND n.verdict IN ('success', 'failure')
	  AND o7.verdict IN ('success', 'failure') AND n7.verdict IN ('success', 'failure')
), cells(profile, tracker, row, base, kernel) AS (
	VALUES ('6.18', 'old', 'old', 'old', 'kernel'),
	       ('6.18', 'cnum-mainline', 'cnum-mainline', 'old', NULL),
	       ('7.2', 'old', 'old@7.2', 'old@7.2', NULL),
	       ('7.2', 'cnum-mainline', 'cnum-mainline@7.2', 'old@7.2', 'kernel-7.2')
)
SELECT f.source, c.profile, c.tracker,
       count(*) AS programs,
       sum(r.verdict = 'success') AS accepted,
       sum(r.insns_processed) AS insns,
       sum(r.total_states) AS states,
       printf('%.1f', sum(CASE WHEN r.clock IS NULL THEN r.verify_us END) / 1000.0) AS engine_ms,
       max(r.peak_state_mem) AS peak_state_mem,
       printf('%.4f', exp(avg(CASE WHEN b.insns_processed > 0 AND r.insns_processed > 0
                               THEN ln(1.0 * r.insns_processed / b.insns_processed) END))) AS insns_vs_old,
       printf('%.4f', exp(avg(CASE WHEN b.total_states > 0 AND r.total_states > 0
                               THEN ln(1.0 * r.total_states / b.total_states) END))) AS states_vs_old,
       sum(r.verdict <> b.verdict) AS verdicts_vs_old,
       CASE WHEN c.kernel IS NULL THEN '-'
            WHEN count(k.verdict) = 0 THEN 'no ' || c.kernel || ' rows'
            ELSE sum(k.verdict = r.verdict AND k.insns_processed = r.insns_processed
                     AND k.total_states = r.total_states) || ' of ' ||
                 sum(k.verdict IN ('success', 'failure')) END AS equal_to_kernel
FROM four f
CROSS JOIN cells c
JOIN results r ON r.run_id = :run AND r.program_id = f.program_id AND r.tracker = c.row
JOIN results b ON b.run_id = :run AND b.program_id = f.program_id AND b.tracker = c.base
LEFT JOIN results k ON k.run_id = :run AND k.program_id = f.program_id AND k.tracker = c.kernel
GROUP BY f.source, c.profile, c.tracker
ORDER BY f.source, c.profile, c.tracker DESC;
