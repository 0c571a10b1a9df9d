-- programs that need fewer states with the candidate than with the baseline
-- (--run; --baseline, --candidate: default old, cnum), by how much
SELECT program, object, base_tracker, cand_tracker, base_states, cand_states,
       cand_states - base_states AS diff,
       printf('%+.1f%%', 100.0 * (cand_states - base_states) / max(base_states, 1)) AS pct,
       base_insns, cand_insns
FROM tracker_pairs
WHERE run_id = :run AND base_tracker = :baseline AND cand_tracker = :candidate
  AND cand_states < base_states
ORDER BY 1.0 * (cand_states - base_states) / max(base_states, 1), diff;
