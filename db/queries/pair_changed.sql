-- every program whose verdict or counts differ between baseline and
-- candidate in one run (--run; --baseline, --candidate, default old, cnum),
-- both verified; the README's tracker section explains each of them
SELECT source, replace(object, rtrim(object, replace(object, '/', '')), '') AS object, program,
       base_verdict, cand_verdict, base_insns, cand_insns, base_states, cand_states
FROM tracker_pairs
WHERE run_id = :run AND base_tracker = :baseline AND cand_tracker = :candidate
  AND base_verdict IN ('success', 'failure') AND cand_verdict IN ('success', 'failure')
  AND (base_verdict <> cand_verdict OR base_insns <> cand_insns OR base_states <> cand_states
       OR base_peak_states <> cand_peak_states)
ORDER BY source, object, program;
