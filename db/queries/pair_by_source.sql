-- baseline vs candidate per corpus source in one run (--run; --baseline,
-- --candidate, default old, cnum): programs both verified (success or
-- failure), verdict changes each way, programs whose verdict or counts
-- changed, and the geometric means of candidate/baseline instructions and
-- states over the programs where both are > 0 (as `compare` counts them)
SELECT source,
       count(*) AS compared,
       sum(base_verdict = 'success' AND cand_verdict = 'failure') AS base_only_accepts,
       sum(base_verdict = 'failure' AND cand_verdict = 'success') AS cand_only_accepts,
       sum(base_verdict <> cand_verdict OR base_insns <> cand_insns OR base_states <> cand_states
           OR base_peak_states <> cand_peak_states) AS changed,
       printf('%.4f', exp(avg(CASE WHEN base_insns > 0 AND cand_insns > 0
                               THEN ln(1.0 * cand_insns / base_insns) END))) AS insns_ratio,
       printf('%.4f', exp(avg(CASE WHEN base_states > 0 AND cand_states > 0
                               THEN ln(1.0 * cand_states / base_states) END))) AS states_ratio,
       sum(cand_insns) - sum(base_insns) AS insns_diff,
       sum(cand_states) - sum(base_states) AS states_diff
FROM tracker_pairs
WHERE run_id = :run AND base_tracker = :baseline AND cand_tracker = :candidate
  AND base_verdict IN ('success', 'failure') AND cand_verdict IN ('success', 'failure')
GROUP BY source
ORDER BY source;
